#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_rma_many.sh: many request-based RMA operations open at once on one window,
# completed out of order (test/mpi/rma_many.c, 2 ranks, traced, otf2-print): every local and
# remote completion record where Score-P's request tracking puts it, for the O(1) lookup of an
# operation at its request's completion (the record keeps its entry's index, moved when dead
# entries are dropped). Expected records derived here from the program's pattern:
#   - N ops issued (op i: MPI_Rput if i % 3 == 0, else MPI_Rget), in order; the puts with
#     i % 10 == 3 freed (MPI_Request_free);
#   - waits in the order (7 k) mod N: each waited op's RmaOpCompleteNonBlocking in its
#     MPI_Wait, and a get's RmaOpCompleteRemote with it (complete at the target once local;
#     its entry is then done: past half of them the live entries move);
#   - MPI_Win_flush: in issue order, a freed put (MPI_Request_free) both completions, a waited
#     put its remote one, a get nothing (already closed);
#   - M more puts, waited in reverse order (local completion), MPI_Win_flush_all records
#     their remote completions in issue order, MPI_Win_unlock_all nothing more.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/mpi/rma_lib.sh"

rma_run rma_many

# expected LOCATION RIGHT: the sequence as described above
expected()
{
    python3 - "$1" "$2" <<'PY'
import sys
rank, right = sys.argv[1], sys.argv[2]
N, M = 300, 40
get = lambda i: i % 3 != 0
freed = lambda i: not get(i) and i % 10 == 3
m = lambda i: "m%d" % (i + 1)
out = ["RMA_REQUEST_LOCK@MPI_Win_lock_all"]
for i in range(N):
    out.append("%s m%d -> %s 4" % ("RMA_GET@MPI_Rget" if get(i) else "RMA_PUT@MPI_Rput", i + 1, right))
for k in range(N):
    i = 7 * k % N
    if freed(i):
        continue
    out.append("RMA_OP_COMPLETE_NON_BLOCKING@MPI_Wait " + m(i))
    if get(i):
        out.append("RMA_OP_COMPLETE_REMOTE@MPI_Wait " + m(i))
for i in range(N):
    if freed(i):
        out.append("RMA_OP_COMPLETE_NON_BLOCKING@MPI_Win_flush " + m(i))
    if not get(i):
        out.append("RMA_OP_COMPLETE_REMOTE@MPI_Win_flush " + m(i))
for i in range(N, N + M):
    out.append("RMA_PUT@MPI_Rput m%d -> %s 4" % (i + 1, right))
for i in reversed(range(N, N + M)):
    out.append("RMA_OP_COMPLETE_NON_BLOCKING@MPI_Wait " + m(i))
for i in range(N, N + M):
    out.append("RMA_OP_COMPLETE_REMOTE@MPI_Win_flush_all " + m(i))
out.append("RMA_RELEASE_LOCK@MPI_Win_unlock_all")
print(";".join(out))
PY
}

for r in 0 1; do
    right=$(((r + 1) % 2))
    sequence "$r" | tr ';' '\n' >seq.$r
    expected "$r" "$right" | tr ';' '\n' >exp.$r
    expect_eq "$(wc -l <seq.$r) $(diff exp.$r seq.$r | head -20)" "1022 " \
        "rank $r: every completion of 340 request-based operations where Score-P records it"
done
# 340 operations per rank: 340 local and 340 remote completions, none blocking, no RmaOpTest
expect_eq "$(count_lines '^RMA_OP_COMPLETE_NON_BLOCKING ' "$t") $(count_lines '^RMA_OP_COMPLETE_REMOTE ' "$t") $(count_lines '^RMA_OP_COMPLETE_BLOCKING ' "$t") $(count_lines '^RMA_OP_TEST ' "$t")" \
    "680 680 0 0" "one local and one remote completion per operation"
done_ok
