#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_reduction_depth_comm.sh: the trace reduction's depth step calls a trace reduced only
# when it lacks something (docs/design-reduction.md, "What "reduced" means"; session 26).
# test/programs/mpi_test_poll.c, built by scorep-cc (main is a call at depth 0), 2 ranks in
# SCOREP_TOTAL_MEMORY=1M, 4,000 rounds of MPI_Irecv, MPI_Send and 16 MPI_Test polls, as CP2K
# polls with MPI_Testany: with every MPI call made from main (nothing but MPI calls below
# depth 0) the depth step cuts at 1 and removes nothing, and its rule never drops a call: the
# trace is complete (every region's Enters = its visits in the profile), stderr has the flush
# warning alone, no marker, MANIFEST.md no "incomplete" (until session 26: "the trace of 1 of
# 1 locations was reduced, call depth 1 and deeper dropped" and rows with 0 records removed).
# With each round in exchange(), a function at depth 1, the same step removes those calls:
# "reduced", MANIFEST.md rows and markers with records removed, fewer Enters of exchange than
# its visits, every MPI call still there. (test/mpi/test_mpi_poll_flush.sh, under scorep-run,
# never cuts at a depth: its MPI calls are the outermost ones.)
. "$top_srcdir/test/integration/lib.sh"
require_mpi
ROUNDS=4000 POLLS=16

"$SCOREP_CC" mpicc -O2 -o poll "$PROGRAMS/mpi_test_poll.c" 2>build.err || fail "scorep-cc mpicc: $(cat build.err)"

# enters EXPDIR: "LOCATION REGION ENTERS" per location and region of the trace (otf2-print)
enters()
{
    _f=$(trace_file "$1")
    awk -F'\t' '$1 == "ENTER" { print $2, $3, $4 }' "${_f%.trace}.summary" | sort
}

# visits EXPDIR: "LOCATION REGION VISITS" per location and region of the profile, summed over
# the region's call paths (the program root itself left out: the trace has no Enter of it)
visits()
{
    profile_dump "$1" -m visits | awk -F'\t' '$2 != "." {
            n = split($2, p, "/"); split($4, kv, "="); v[$3 " " p[n]] += kv[2] }
        END { for (k in v) if (v[k] > 0) print k, v[k] }' | sort
}

# run WRAP EXPDIR: the program under 1M, its output checked
run()
{
    rc=0
    SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=1M SCOREP_EXPERIMENT_DIRECTORY=$2 timeout 300 \
        mpirun --bind-to core:overload-allowed -np 2 ./poll $ROUNDS "$1" >"$2.out" 2>"$2.err" || rc=$?
    expect_eq "$rc" 0 "wrap $1: 2 ranks run"
    expect_eq "$(sort "$2.out" | tr '\n' ' ')" \
        "rank 0 rounds $ROUNDS sum $((ROUNDS + ROUNDS * (ROUNDS - 1) / 2)) rank 1 rounds $ROUNDS sum $((ROUNDS * (ROUNDS - 1) / 2)) " \
        "wrap $1: program output"
    check_profiles
}
flushed='^\[scorep-rt\] warning: SCOREP_TOTAL_MEMORY ran short: the trace buffers of 1 of 1 locations were flushed to disk [0-9]+ times \(each marked by a BufferFlush event; the timings around them are disturbed\)$'

# --- MPI calls only below main: nothing removed, nothing said to be missing ---
run 0 comm
expect_eq "$(grep -c -E "$flushed" comm.err)" 2 "MPI only: the flush warning once per process"
expect_eq "$(grep -c -v -E "$flushed" comm.err)" 0 "MPI only: nothing else on stderr (no 'reduced')"
expect_no_grep 'incomplete' comm/MANIFEST.md "MPI only: MANIFEST.md does not call the trace incomplete"
expect_no_grep 'What the trace lacks' comm/MANIFEST.md "MPI only: no section on what the trace lacks"
otf2-marker comm/traces.otf2 >comm.markers || fail "otf2-marker comm failed"
expect_eq "$(grep -c '^MARKER ' comm.markers)" 0 "MPI only: no reduction marker"
expect_ge "$(trace_other comm | awk '$1 == "BUFFER_FLUSH" { n++ } END { print n + 0 }')" 2 "MPI only: the buffers ran short (BufferFlush events)"
enters comm >comm.enters
visits comm >comm.visits
expect_eq "$(awk '$2 ~ /^(main|MPI_Irecv|MPI_Send|MPI_Test)$/ { print $1, $2, $3 }' comm.enters | tr '\n' ' ')" \
    "0 MPI_Irecv $ROUNDS 0 MPI_Send $ROUNDS 0 MPI_Test $((ROUNDS * POLLS)) 0 main 1 1 MPI_Irecv $ROUNDS 1 MPI_Send $ROUNDS 1 MPI_Test $((ROUNDS * POLLS)) 1 main 1 " \
    "MPI only: every Irecv, Send and Test in the trace (16 polls a round)"
expect_eq "$(cat comm.enters)" "$(cat comm.visits)" "MPI only: every region's Enters in the trace = its visits in the profile"
expect_eq "$(trace_check_nesting comm)" 0 "MPI only: nesting valid"

# --- each round a call of exchange() at depth 1: the depth step removes those ---
run 1 wrap
note='^\[scorep-rt\] warning: SCOREP_TOTAL_MEMORY ran short: the trace of 1 of 1 locations was reduced, call depth 1 and deeper dropped \(the profile is complete; see MANIFEST.md and the trace.s markers\)$'
expect_eq "$(grep -c -E "$note" wrap.err)" 2 "exchange: 'reduced, call depth 1 and deeper dropped' once per process"
expect_eq "$(grep -c -v -E "$note|$flushed" wrap.err)" 0 "exchange: nothing else on stderr"
expect_grep '^The trace of 2 of 2 locations is incomplete' wrap/MANIFEST.md "exchange: MANIFEST.md calls the trace incomplete"
expect_eq "$(awk -F' *\\| *' '$4 == "depth" && $6 > 0 && $7 == "calls at depth 1 and deeper removed" { print $2 }' wrap/MANIFEST.md | sort -u | tr '\n' ' ')" \
    "0 1 " "exchange: a depth row with records removed for each rank"
otf2-marker wrap/traces.otf2 >wrap.markers || fail "otf2-marker wrap failed"
expect_ge "$(grep -c -E '^MARKER .*Text: "rule=depth param=1 removed=[1-9][0-9]*: ' wrap.markers)" 2 \
    "exchange: depth markers with records removed"
enters wrap >wrap.enters
visits wrap >wrap.visits
expect_eq "$(awk '$2 == "exchange" { print $3 }' wrap.visits | tr '\n' ' ')" "$ROUNDS $ROUNDS " \
    "exchange: the profile counts every call"
expect_eq "$(awk 'NR == FNR { v[$1 " " $2] = $3; next } $2 == "exchange" && $3 < v[$1 " " $2] { n++ } END { print n + 0 }' wrap.visits wrap.enters)" 2 \
    "exchange: fewer Enters in the trace than visits on each rank (calls dropped)"
expect_eq "$(grep -v ' exchange ' wrap.enters)" "$(grep -v ' exchange ' wrap.visits)" \
    "exchange: every other region's Enters (the MPI calls, main) = its visits"
expect_eq "$(trace_check_nesting wrap)" 0 "exchange: nesting valid"
done_ok
