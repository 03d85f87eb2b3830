# SPDX-License-Identifier: BSD-3-Clause
# ring.py: an mpi4py token ring (test_python_mpi.sh): 4 rounds, in each every rank sends the
# token to the next once (send_token) and receives it from the previous once (recv_token);
# with 3 ranks 12 messages, each a Send and a Recv of 8 bytes with tag = the round.
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
size = comm.Get_size()
token = bytearray(8)


def send_token(dest, tag):
    comm.Send([token, MPI.BYTE], dest=dest, tag=tag)


def recv_token(source, tag):
    comm.Recv([token, MPI.BYTE], source=source, tag=tag)


def ring(rounds):
    for r in range(rounds):
        if rank == 0:
            send_token((rank + 1) % size, r)
            recv_token((rank - 1) % size, r)
        else:
            recv_token((rank - 1) % size, r)
            send_token((rank + 1) % size, r)


ring(4)
if rank == 0:
    print("ring done")
