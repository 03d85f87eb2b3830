#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_poll_flush.sh: a trace of MPI calls alone that outgrows SCOREP_TOTAL_MEMORY
# (poll_flush.c under scorep-run: 20,000 Isend/Irecv pairs a rank polled with MPI_Test, as
# hpcc's RandomAccess, with 1M) is flushed, and loses nothing: the run says so with one
# flush line per rank and nothing else (before, the noncomm step that found no user call to
# remove was logged too: "the trace ... was reduced", MANIFEST.md "incomplete", a marker
# "removed=0"), no reduction marker, every message pairs, and the trace has as many Enters
# of MPI_Test as the profile has visits. (Found by test/apps/debian_apps.sh with hpcc.)
. "$top_srcdir/test/integration/lib.sh"

[ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: the MPI adapter was not built"; exit 77; }
command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1 ||
    { echo "SKIP: no mpirun or mpicc"; exit 77; }
command -v otf2-marker >/dev/null 2>&1 || { echo "SKIP: no otf2-marker"; exit 77; }
mpicc -O1 -Wall -Wextra -Werror -o poll_flush "$top_srcdir/test/mpi/poll_flush.c" || fail "build: poll_flush"

run_app r env SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=1M SCOREP_EXPERIMENT_DIRECTORY="$work/exp" \
    SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
    mpirun --oversubscribe --allow-run-as-root -np 2 "$top_builddir/scorep-run" ./poll_flush 20000
# rank 0 receives 2r + 1, rank 1 receives 2r in round r: 4 * (0 + ... + 19999) + 20000
expect_eq "$status $(cat r.out)" "0 exchanged 40000 sum 799980000" "exit status and output"
flushed='^\[scorep-rt\] warning: SCOREP_TOTAL_MEMORY ran short: the trace buffers of 1 of 1 locations were flushed to disk [0-9]+ times'
expect_eq "$(grep -c -E "$flushed" r.err)" 2 "one flush line per rank"
expect_eq "$(grep -c -v -E "$flushed" r.err)" 0 "nothing else on stderr (no reduction: nothing was removed)"
expect_no_grep 'What the trace lacks' exp/MANIFEST.md "MANIFEST.md: nothing lacking"
otf2-marker exp/traces.otf2 >markers || fail "otf2-marker failed"
expect_eq "$(awk '/^MARKER / { n++ } END { print n + 0 }' markers)" 0 "no reduction marker"
trace_other exp >other.txt
expect_ge "$(awk '/^BUFFER_FLUSH/ { n++ } END { print n + 0 }' other.txt)" 4 "the trace flushed (BufferFlush events)"
m=$("$top_builddir/test/tools/trace_messages" --match exp/traces.otf2 2>&1) || fail "the messages do not pair: $m"
expect_eq "$(echo "$m" | sed 's/ late=.*//')" \
    "sends=40000 receives=40000 matched=40000 unmatched=0 mismatched_size=0 probes=0" "every message pairs"
tests=$(profile_sum exp MPI_Test visits)
expect_ge "$tests" 80000 "MPI_Test: at least 2 visits per request"
expect_eq "$(trace_count exp ENTER "" MPI_Test)" "$tests" "the trace has every MPI_Test the profile counts"
expect_eq "$(trace_check_nesting exp)" 0 "nesting valid across the flushes"
done_ok
