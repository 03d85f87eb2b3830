#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_rma_freed.sh: request-based RMA operations whose request the program releases with
# MPI_Request_free while active (test/mpi/rma_freed.c, 2 ranks, traced, otf2-print). Their
# completion can no longer be seen, so the synchronisations record what is left of it, as for
# any open operation, and then drop them (docs/mpi.md, "One-sided communication"): per rank, in
# order, with the call each record is in and the operation it completes (matching id):
#   a  MPI_Rget m1 freed: its local and remote completion in the first MPI_Win_flush, nothing
#      in the second (dropped)
#   b  MPI_Raccumulate m2 freed: its local completion in MPI_Win_flush_local (an atomic stays
#      open there), its remote one in MPI_Win_flush
#   c  MPI_Rput m3: local completion in MPI_Win_flush_local, then freed: its remote completion
#      alone in MPI_Win_flush_all
#   d  MPI_Rget_accumulate m4 freed, MPI_Rput m5 waited for: MPI_Wait m5's local completion;
#      MPI_Win_flush_all in issue order m4's local and remote, m5's remote; MPI_Win_unlock_all
#      nothing more
#   e  MPI_Win_lock: MPI_Rput m6 and MPI_Rget m7 freed: both completions of each in
#      MPI_Win_unlock, in issue order
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/mpi/rma_lib.sh"

rma_run rma_freed

for r in 0 1; do
    right=$(((r + 1) % 2))
    sequence "$r" | tr ';' '\n' >seq.$r
    cat >exp.$r <<SEQ
RMA_REQUEST_LOCK@MPI_Win_lock_all
RMA_GET@MPI_Rget m1 -> $right 4
RMA_OP_COMPLETE_NON_BLOCKING@MPI_Win_flush m1
RMA_OP_COMPLETE_REMOTE@MPI_Win_flush m1
RMA_ATOMIC@MPI_Raccumulate m2 -> $right
RMA_OP_COMPLETE_NON_BLOCKING@MPI_Win_flush_local m2
RMA_OP_COMPLETE_REMOTE@MPI_Win_flush m2
RMA_PUT@MPI_Rput m3 -> $right 4
RMA_OP_COMPLETE_NON_BLOCKING@MPI_Win_flush_local m3
RMA_OP_COMPLETE_REMOTE@MPI_Win_flush_all m3
RMA_ATOMIC@MPI_Rget_accumulate m4 -> $right
RMA_PUT@MPI_Rput m5 -> $right 4
RMA_OP_COMPLETE_NON_BLOCKING@MPI_Wait m5
RMA_OP_COMPLETE_NON_BLOCKING@MPI_Win_flush_all m4
RMA_OP_COMPLETE_REMOTE@MPI_Win_flush_all m4
RMA_OP_COMPLETE_REMOTE@MPI_Win_flush_all m5
RMA_RELEASE_LOCK@MPI_Win_unlock_all
RMA_REQUEST_LOCK@MPI_Win_lock
RMA_PUT@MPI_Rput m6 -> $right 4
RMA_GET@MPI_Rget m7 -> $right 4
RMA_OP_COMPLETE_NON_BLOCKING@MPI_Win_unlock m6
RMA_OP_COMPLETE_REMOTE@MPI_Win_unlock m6
RMA_OP_COMPLETE_NON_BLOCKING@MPI_Win_unlock m7
RMA_OP_COMPLETE_REMOTE@MPI_Win_unlock m7
RMA_RELEASE_LOCK@MPI_Win_unlock
SEQ
    expect_eq "$(diff exp.$r seq.$r)" "" \
        "rank $r: each freed operation's completions at the next synchronisations, once"
done
# 7 operations per rank: each one local and one remote completion, none blocking, no RmaOpTest
expect_eq "$(count_lines '^RMA_OP_COMPLETE_NON_BLOCKING ' "$t") $(count_lines '^RMA_OP_COMPLETE_REMOTE ' "$t") $(count_lines '^RMA_OP_COMPLETE_BLOCKING ' "$t") $(count_lines '^RMA_OP_TEST ' "$t")" \
    "14 14 0 0" "one local and one remote completion per operation"
done_ok
