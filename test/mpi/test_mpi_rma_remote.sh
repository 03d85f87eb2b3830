#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_rma_remote.sh: where the completions of request-based RMA operations are recorded,
# as Score-P's MPI adapter records them (its RMA request tracking): test/mpi/rma_remote.c
# under scorep-run with 2 ranks, traced, read with otf2-print. Per rank, in order, with the
# call each record is in and the operation it completes (matching id): A: MPI_Rput, local
# completion (RmaOpCompleteNonBlocking) in the MPI_Test that completed it, remote completion
# (RmaOpCompleteRemote) in MPI_Win_flush; B: flushed before its MPI_Wait, both completions in
# the flush, nothing in the wait; C: MPI_Rget, both in its MPI_Wait (a get is complete at its
# target once complete locally), nothing in the flush after; D: local completion in MPI_Wait,
# nothing in MPI_Win_flush_local, the remote one in MPI_Win_unlock_all. E: operations
# without a request, as Score-P's implicit requests (its MPI RMA
# adapter and request tracking): the two MPI_Puts to the same target share one matching id (m5),
# the MPI_Get another (m6: combined completion); MPI_Win_flush_local records m5's local
# completion and m6's local and remote ones (m6 closed, m5 kept open); the MPI_Put after it
# takes m5 again; MPI_Win_unlock_all records m5's remote completion only (its local one was
# recorded), the target's operation without request first, then D's. Score-P's adapters never
# record RmaOpTest, nor RmaOpCompleteBlocking for MPI: neither does scorep-rt.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/mpi/rma_lib.sh"

rma_run rma_remote

for r in 0 1; do
    right=$(((r + 1) % 2))
    expect_eq "$(sequence "$r")" \
        "RMA_REQUEST_LOCK@MPI_Win_lock_all;RMA_PUT@MPI_Rput m1 -> $right 4;RMA_OP_COMPLETE_NON_BLOCKING@MPI_Test m1;RMA_OP_COMPLETE_REMOTE@MPI_Win_flush m1;RMA_PUT@MPI_Rput m2 -> $right 4;RMA_OP_COMPLETE_NON_BLOCKING@MPI_Win_flush m2;RMA_OP_COMPLETE_REMOTE@MPI_Win_flush m2;RMA_GET@MPI_Rget m3 -> $right 4;RMA_OP_COMPLETE_NON_BLOCKING@MPI_Wait m3;RMA_OP_COMPLETE_REMOTE@MPI_Wait m3;RMA_PUT@MPI_Rput m4 -> $right 4;RMA_OP_COMPLETE_NON_BLOCKING@MPI_Wait m4;RMA_PUT@MPI_Put m5 -> $right 4;RMA_PUT@MPI_Put m5 -> $right 4;RMA_GET@MPI_Get m6 -> $right 4;RMA_OP_COMPLETE_NON_BLOCKING@MPI_Win_flush_local m5;RMA_OP_COMPLETE_NON_BLOCKING@MPI_Win_flush_local m6;RMA_OP_COMPLETE_REMOTE@MPI_Win_flush_local m6;RMA_PUT@MPI_Put m5 -> $right 4;RMA_OP_COMPLETE_REMOTE@MPI_Win_unlock_all m5;RMA_OP_COMPLETE_REMOTE@MPI_Win_unlock_all m4;RMA_RELEASE_LOCK@MPI_Win_unlock_all" \
        "rank $r: each request-based operation's local and remote completion where Score-P records it"
done
# the program's one window (unnamed: definition 0) is the window of every remote completion
expect_eq "$(count_lines '^RMA_WIN_CREATE .*Window: "" <0>$' "$t") $(count_lines '^RMA_OP_COMPLETE_REMOTE .*Window: "" <0>, Matching: [0-9]' "$t")" \
    "2 12" "12 remote completions, on the program's window"
expect_eq "$(count_lines '^RMA_OP_TEST ' "$t") $(count_lines '^RMA_OP_COMPLETE_BLOCKING ' "$t")" "0 0" \
    "no RmaOpTest, no blocking completion (Score-P's MPI adapter records neither)"
done_ok
