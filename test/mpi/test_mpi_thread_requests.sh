#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_thread_requests.sh: under MPI_THREAD_MULTIPLE every non-blocking send is completed
# exactly once. thread_requests.c: 2 processes x THREADS threads, each thread ROUNDS times
# MPI_Isend + MPI_Recv + MPI_Wait and MPI_Isend + MPI_Wait + MPI_Recv on its own communicator. Open MPI gives every send that
# completed at once the same handle value, so the threads' records meet under one key of the
# request table; a record another thread could take before its creator had written it completed a
# stale request (its id again, its communicator's reference dropped twice: a use after free
# that aborted one CI run in 200; this program did not show it in 13 runs here, the trace of
# test_mpi_programs.sh's threads.c in 1 of 20). Checked in the trace, per process: ids 1..N
# each in exactly one MPI_ISEND and exactly one MPI_ISEND_COMPLETE, both on the same location
# (the handle does not say whose send it was: the table prefers the waiting thread's own
# record), and each thread's 2 x ROUNDS Waits complete 2 x ROUNDS sends.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs thread_requests_scorep
sed -n 's/^enum { THREADS = \([0-9]*\), ROUNDS = \([0-9]*\) };$/\1 \2/p' \
    "$top_srcdir/test/mpi/thread_requests.c" >sizes.txt
read -r THREADS ROUNDS <sizes.txt || fail "thread_requests.c names no THREADS and ROUNDS"
expect_eq "$(echo "$THREADS $ROUNDS" | grep -c '^[0-9][0-9]* [0-9][0-9]*$')" 1 \
    "thread_requests.c names its THREADS and ROUNDS"
N=$((THREADS * ROUNDS * 2)) # two sends a round

x=$work/exp
status=0
env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_PROFILING=false SCOREP_EXPERIMENT_DIRECTORY="$x" \
    timeout 300 mpirun --oversubscribe --allow-run-as-root -np 2 "$T/thread_requests_scorep" \
    >run.out 2>run.err || status=$?
[ "$status" -ne 77 ] || { echo "SKIP: $(cat run.err)"; exit 77; }
expect_eq "$status" 0 "2 processes x $THREADS threads run to the end (run.err: $(tail -n 5 run.err))"

# every request id of a process: sends, completions
request_ids "$x" MPI_ISEND >MPI_ISEND.txt
request_ids "$x" MPI_ISEND_COMPLETE >MPI_ISEND_COMPLETE.txt
tr=$(trace_file "$x")
for r in 0 1; do
    for ev in MPI_ISEND MPI_ISEND_COMPLETE; do
        awk -v r="$r" '$1 == r { print $2 }' "$ev.txt" >"$ev.$r.raw"
        sort -n "$ev.$r.raw" >"$ev.$r"
        seq 1 "$N" >want
        expect_eq "$(cmp -s want "$ev.$r" && echo same)" same \
            "rank $r: $ev request ids are 1..$N, each once"
    done
done
# each on the location (thread) that started it: a thread waits for its own sends, which
# share their handle value with the other threads'
sort MPI_ISEND.txt >isend.sorted
sort MPI_ISEND_COMPLETE.txt >complete.sorted
expect_eq "$(cmp -s isend.sorted complete.sorted && echo same)" same \
    "every send completed on the location that started it"
# each thread's Waits: 2 x ROUNDS completions on its location
awk '$1 == "MPI_ISEND_COMPLETE" { n[$2]++ } END { for (l in n) print l, n[l] }' "$tr" >per_loc.txt
expect_eq "$(awk -v want="$((2 * ROUNDS))" '$2 != want { bad++ } END { print NR, bad + 0 }' per_loc.txt)" \
    "$((2 * THREADS)) 0" "$((2 * THREADS)) threads with $((2 * ROUNDS)) completions each"

echo "$checks checks passed"
