# SPDX-License-Identifier: BSD-3-Clause
# mpi4py_app.py [ROUNDS]: a small mpi4py program for test/apps/debian_apps.sh: a halo exchange
# with non-blocking buffer calls (Isend/Irecv/Waitall), pickled objects (send/recv, bcast,
# gather, alltoall), buffer collectives (Allreduce, Reduce, Allgather, Scan), non-blocking
# collectives (Iallreduce, Ibarrier) and Sendrecv. Every rank checks what it received against
# what the senders must have sent; rank 0 prints "mpi4py_app: PASSED checksum=X" (X does not
# depend on timing) or the first wrong value and exits 1. Message counts per rank, for the
# script's profile-against-trace check, follow from ROUNDS (default 50).
import sys

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
size = comm.Get_size()
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 50
errors = []


def expect(what, got, want):
    if got != want and not errors:
        errors.append("rank %d: %s: got %r, want %r" % (rank, what, got, want))


def halo(r):
    """Each rank sends 64 doubles to both neighbours (tags 2r and 2r+1) without blocking."""
    left, right = (rank - 1) % size, (rank + 1) % size
    out = bytearray(8 * 64)
    for i in range(64):
        out[8 * i:8 * i + 8] = (rank * 1000 + r * 64 + i).to_bytes(8, "little")
    inl, inr = bytearray(len(out)), bytearray(len(out))
    reqs = [comm.Irecv([inl, MPI.BYTE], source=left, tag=2 * r),
            comm.Irecv([inr, MPI.BYTE], source=right, tag=2 * r + 1),
            comm.Isend([out, MPI.BYTE], dest=right, tag=2 * r),
            comm.Isend([out, MPI.BYTE], dest=left, tag=2 * r + 1)]
    MPI.Request.Waitall(reqs)
    expect("halo from left", int.from_bytes(inl[8:16], "little"), left * 1000 + r * 64 + 1)
    expect("halo from right", int.from_bytes(inr[-8:], "little"), right * 1000 + r * 64 + 63)
    return int.from_bytes(inl[:8], "little") + int.from_bytes(inr[:8], "little")


def objects(r):
    """Pickled objects: a ring of send/recv (rank 0 first), bcast, gather, alltoall."""
    if rank == 0:
        comm.send({"round": r, "from": 0}, dest=1 % size, tag=100)
        got = comm.recv(source=size - 1, tag=100)
    else:
        got = comm.recv(source=rank - 1, tag=100)
        comm.send({"round": r, "from": rank}, dest=(rank + 1) % size, tag=100)
    expect("ring object", got, {"round": r, "from": (rank - 1) % size})
    cfg = comm.bcast({"round": r, "list": list(range(r % 7))} if rank == 0 else None, root=0)
    expect("bcast", cfg, {"round": r, "list": list(range(r % 7))})
    g = comm.gather(rank * r, root=0)
    if rank == 0:
        expect("gather", g, [i * r for i in range(size)])
    a = comm.alltoall([(rank, j, r) for j in range(size)])
    expect("alltoall", a, [(j, rank, r) for j in range(size)])
    return 0


def buffers(r):
    """Buffer collectives, blocking and not, and a Sendrecv shift."""
    x = bytearray((rank + r).to_bytes(8, "little"))
    s = bytearray(8)
    comm.Allreduce([x, MPI.INT64_T], [s, MPI.INT64_T], op=MPI.SUM)
    total = int.from_bytes(s, "little")
    expect("Allreduce", total, size * r + size * (size - 1) // 2)
    m = bytearray(8)
    comm.Reduce([x, MPI.INT64_T], [m, MPI.INT64_T], op=MPI.MAX, root=size - 1)
    if rank == size - 1:
        expect("Reduce max", int.from_bytes(m, "little"), size - 1 + r)
    allg = bytearray(8 * size)
    comm.Allgather([x, MPI.INT64_T], [allg, MPI.INT64_T])
    expect("Allgather", [int.from_bytes(allg[8 * i:8 * i + 8], "little") for i in range(size)],
           [i + r for i in range(size)])
    sc = bytearray(8)
    comm.Scan([x, MPI.INT64_T], [sc, MPI.INT64_T], op=MPI.SUM)
    expect("Scan", int.from_bytes(sc, "little"), (rank + 1) * r + rank * (rank + 1) // 2)
    ir = bytearray(8)
    req = comm.Iallreduce([x, MPI.INT64_T], [ir, MPI.INT64_T], op=MPI.SUM)
    b = comm.Ibarrier()
    MPI.Request.Waitall([req, b])
    expect("Iallreduce", int.from_bytes(ir, "little"), total)
    back = bytearray(8)
    comm.Sendrecv([x, MPI.INT64_T], dest=(rank + 1) % size, sendtag=300,
                  recvbuf=[back, MPI.INT64_T], source=(rank - 1) % size, recvtag=300)
    expect("Sendrecv", int.from_bytes(back, "little"), (rank - 1) % size + r)
    return total


checksum = 0
for r in range(rounds):
    checksum += halo(r) + objects(r) + buffers(r)
checks = comm.allreduce(checksum, op=MPI.SUM)
bad = comm.allgather(errors[0] if errors else None)
if rank == 0:
    wrong = [e for e in bad if e]
    if wrong:
        print("mpi4py_app: FAILED " + wrong[0], flush=True)
    else:
        print("mpi4py_app: PASSED checksum=%d" % checks, flush=True)
sys.exit(1 if any(bad) else 0)
