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
# contention. Both reports give the OpenMP regions Score-P's roles (critical, critical sblock,
# parallel, wrapper). Scalasca's scout.hyb (SCOUT_HYB and CUBELIB_DUMP set; not packaged)
# must find the same two contentions per call path and location (it tells a critical
# section from the lock API by the region's role: with the role "code" of session 26 and
# before it put all of it into the lock API's).
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

# the roles of the OpenMP regions in both reports (Score-P's Cube role strings)
crit="!\$omp critical @omp_locks.c:$(grep -n '^#pragma omp critical' "$SRC" | cut -d: -f1)"
for f in scout.cubex scout_insitu.cubex; do
    "$CUBE_DUMP" --regions "$x/$f" >"$f.regions" || fail "scorep-cube-dump --regions $x/$f"
    role() { awk -F'\t' -v n="$1" '$2 == n { print $4 }' "$f.regions"; }
    expect_eq "$(role "$crit")" critical "$f: role of $crit"
    expect_eq "$(awk -F'\t' '$2 ~ /^!\$omp critical sblock / { print $4 }' "$f.regions" | sort -u)" \
        "critical sblock" "$f: role of the critical section's body"
    expect_eq "$(awk -F'\t' '$2 ~ /^!\$omp parallel / { print $4 }' "$f.regions" | sort -u)" \
        parallel "$f: role of the parallel region"
    expect_eq "$(role omp_set_lock)" wrapper "$f: role of omp_set_lock"
done

part "Scalasca's scout.hyb"
SCOUT_HYB=${SCOUT_HYB:-$(command -v scout.hyb || true)}
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
if [ -z "$SCOUT_HYB" ] || [ -z "$CUBELIB_DUMP" ]; then
    skip_part_here "Scalasca's scout.hyb on omp_locks.c" \
        "Scalasca and CubeLib are not packaged for this system (set SCOUT_HYB and CUBELIB_DUMP)"
else
    # on a copy outside $work (scout's raw report holds negative exclusive values that
    # lib.sh's profile checks refuse: lib_analysis.sh scout_hyb_run), with the trace's 1 rank
    h=$(outside_work) || fail "no directory for scout.hyb"
    cp -r "$x" "$h/exp" && rm -f "$h/exp/scout.cubex" "$h/exp/scout_insitu.cubex" ||
        fail "copying the experiment for scout.hyb"
    $MPIRUN -np 1 "$SCOUT_HYB" "$h/exp/traces.otf2" >scout_hyb.out 2>&1 ||
        fail "scout.hyb refuses the trace: $(tail -c 600 scout_hyb.out)"
    hs=$h/exp/scout.cubex
    SC="python3 $top_srcdir/test/analysis/scout_cmp.py $CUBELIB_DUMP $hs $CUBE"
    $SC -a 2e-4 -r 1e-3 -m omp_lock_contention_critical,omp_lock_contention_api >hyb_locks.out 2>&1 ||
        fail "scout.hyb and ours differ per call path and location: $(cat hyb_locks.out)"
    echo "ok: per call path and location, Scalasca's scout.hyb = ours:"
    sed 's/^/    /' hyb_locks.out
    # scout_hyb_sum METRIC: scout.hyb's total of METRIC over call paths and threads
    scout_hyb_sum()
    {
        "$CUBELIB_DUMP" -m "$1" -z excl -s csv2 "$hs" >"hyb_$1.csv" 2>&1 ||
            fail "cube_dump -m $1 $hs: $(tail -3 "hyb_$1.csv")"
        awk -F, 'NR > 1 { s += $3 } END { printf "%.6f", s }' "hyb_$1.csv"
    }
    # not vacuous: both are the trace's (more than D/2 and D/4 above)
    for m in critical:$tc api:$ta; do
        sv=$(scout_hyb_sum omp_lock_contention_${m%%:*})
        expect_eq "$(awk -v s="$sv" -v t="${m#*:}" 'BEGIN { d = s - t; if (d < 0) d = -d; print (s > 0.05 && d <= 2e-4 + 1e-3 * t) }')" 1 \
            "scout.hyb's omp_lock_contention_${m%%:*} ($sv s) is the trace's (${m#*:} s)"
    done
fi
done_ok
