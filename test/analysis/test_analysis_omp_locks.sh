#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_analysis_omp_locks.sh: OpenMP lock contention in the wait-state analysis
# (docs/analysis.md, src/analysis/an_pattern_lock.c) on omp_locks.c (1 rank, 3 threads, D =
# 0.2 s; built with clang through scorep-cc; the OMPT adapter records critical sections and
# the lock API as ThreadAcquireLock/ThreadReleaseLock): OMP Critical Contention and OMP Lock
# API Contention per thread location and at the acquiring construct or call, each the value
# the trace's events give by Scalasca's definition (trace_threads.py over otf2-print's view,
# no code shared with the analysis; within 0.1% + 0.2 ms: the same timestamps), in situ and
# post-mortem alike; the program's own clock marks (lock_contention) must show the design's
# contention.
. "$top_srcdir/test/integration/lib.sh"

. "$top_srcdir/test/analysis/lib_analysis.sh"
need_hybrid_tools
# waiting threads sleep at once (libomp), so that the holder runs; one clock for all CPUs
export KMP_BLOCKTIME=0 OMP_NUM_THREADS=3 SCOREP_TIMER=clock_gettime
SRC="$top_srcdir/test/analysis/omp_locks.c"
OMPI_CC=clang "$SCOREP_CC" --user --nocompiler mpicc -g -O1 -fopenmp -o omp_locks "$SRC" ||
    fail "build: scorep-cc --user mpicc (clang) -fopenmp omp_locks.c"
x=$work/ol
insitu_then_postmortem 1 "$x" ol.out an.out ./omp_locks $D
expect_grep "OMP Critical Contention .* of time" an.out "the summary lists the critical contention"
expect_grep "OMP Lock API Contention .* of time" an.out "the summary lists the lock API contention"

CUBE=$x/scout.cubex
value() { $CV "$CUBE" value "$@"; }
lock_contention ol.out >contention.txt
cat contention.txt
NEAR_REL=0.001 NEAR_ABS=0.0002
trace_threads locks "$x" trace_locks.txt
cat trace_locks.txt
# the design, whichever of threads 1 and 2 gets in first: together they wait 3D - 3S for the
# critical section and 3D/2 - 3S for the lock (about 0.54 and 0.24 s); a loaded machine
# shifts the arrivals: the program's marks and the trace must show contention of both kinds
# (more than D/2 and D/4), so that the comparison below means something
tot() { awk -v k="$1" '$2 == k { s += $3 } END { printf "%.6f", s }' contention.txt; }
expect_eq "$(tot critical | awk '{ print ($1 > 0.1) }')" 1 \
    "the program's own marks show contention for the critical section ($(tot critical) s)"
expect_eq "$(tot api | awk '{ print ($1 > 0.05) }')" 1 \
    "the program's own marks show contention for the lock ($(tot api) s)"
tc=$(trace_sum trace_locks.txt '*' omp_lock_contention_critical)
ta=$(trace_sum trace_locks.txt '*' omp_lock_contention_api)
expect_eq "$(awk -v c="$tc" -v a="$ta" 'BEGIN { print (c > 0.1 && a > 0.05) }')" 1 \
    "the trace shows contention for the critical section ($tc s) and the lock ($ta s)"
for k in 0 1 2; do
    l=$($CV "$CUBE" visitors "thread$k") || fail "cube_values.py visitors thread$k"
    expect_eq "$(echo "$l" | wc -w | tr -d ' ')" 1 "exactly one location entered thread$k ($l)"
    near omp_lock_contention_critical '*' "$l" "$(trace_sum trace_locks.txt "$l" omp_lock_contention_critical)"
    near omp_lock_contention_api '*' "$l" "$(trace_sum trace_locks.txt "$l" omp_lock_contention_api)"
    for m in omp_critical omp_lock_api; do # exclusive: the time beyond the contention
        v=$(value "=$m" '*' "$l") || fail "cube_values.py value =$m"
        awk -v v="$v" 'BEGIN { exit !(v > -1e-6) }' || fail "$m (exclusive) on $l: $v < 0"
    done
done
# at the acquiring construct and call
near omp_lock_contention_critical "!\$omp critical @omp_locks.c:$(grep -n '^#pragma omp critical' "$SRC" | cut -d: -f1)" '*' \
    "$tc"
near omp_lock_contention_api omp_set_lock '*' "$ta"
expect_eq "$(value pthread_lock_contention_mutex_lock '*' '*')" 0 "no pthread contention here"
$CV "$x/scout.cubex" same "$x/scout_insitu.cubex" 1e-6 >same.out ||
    fail "in situ and post-mortem differ: $(head -20 same.out)"
echo "ok: $(tail -1 same.out)"
done_ok
