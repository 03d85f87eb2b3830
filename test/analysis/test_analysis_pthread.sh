#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_analysis_pthread.sh: lock contention of pthread mutexes and condition variables in the
# wait-state analysis (docs/analysis.md, src/analysis/an_pattern_lock.c) on pthread_locks.c
# (1 MPI rank, 3 threads, D = 0.2 s; its comment gives the pattern). The expected contention
# of each acquisition is the time from its call's enter until the previous holder released the
# mutex (Scalasca's definition), summed per thread into Pthread Mutex Lock Contention
# (pthread_mutex_lock, _trylock) or Pthread Condition Lock Contention (pthread_cond_wait,
# _timedwait), recomputed from the trace's events (trace_threads.py over otf2-print's view, no
# code shared with the analysis), and must be what scout.cubex holds on that thread's location
# and at the acquiring call's path (within 0.1% + 0.2 ms: the same timestamps), in situ and
# post-mortem alike. The program prints every holding of a mutex with its own clock readings:
# they must show the design's contention (a load-independent check that the pattern is
# there). Scalasca's names and tree; the visits.
. "$top_srcdir/test/integration/lib.sh"

. "$top_srcdir/test/analysis/lib_analysis.sh"
command -v mpicc >/dev/null 2>&1 || { echo "SKIP: no mpicc"; exit 77; }
command -v otf2-print >/dev/null 2>&1 || { echo "SKIP: no otf2-print"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# one clock for all CPUs: the threads' lock events in their true order
export SCOREP_TIMER=clock_gettime
SRC="$top_srcdir/test/analysis/pthread_locks.c"
OMPI_CC=gcc "$SCOREP_CC" --nocompiler mpicc -DUSE_MPI -O1 -o pthread_locks "$SRC" -lpthread ||
    fail "build: scorep-cc --nocompiler mpicc -DUSE_MPI pthread_locks.c"
x=$work/pl
insitu_then_postmortem 1 "$x" pl.out an.out ./pthread_locks $D
expect_grep "Pthread Mutex Lock Contention .* of time" an.out "the summary lists the mutex contention"
expect_grep "Pthread Condition Lock Contention .* of time" an.out \
    "the summary lists the condition contention"

# program thread k is the trace location whose ThreadBegin has sequence count k + 1 (main
# creates them in order), main the master thread; in scout.cubex location R:L is the trace's
# location L of rank R, whose OTF2 id is L << 32 | R (Score-P's)
trace_other "$x" | awk '$1 == "THREAD_BEGIN" { s = $0; sub(/.*Sequence Count: /, "", s)
    r = $2 % 4294967296; print s - 1, r ":" ($2 - r) / 4294967296 }' >map.txt
echo "main 0:0" >>map.txt
expect_eq "$(wc -l <map.txt | tr -d ' ')" 4 "four threads: $(tr '\n' ' ' <map.txt)"
$CV "$x/scout.cubex" locations >locs.txt || fail "cube_values.py locations"
expect_eq "$(wc -l <locs.txt | tr -d ' ')" 4 "scout.cubex has 4 locations (1 rank x 4 threads)"
loc() { awk -v k="$1" '$1 == k { print $2 }' map.txt; }

# the expected contention per (thread, pattern) from the trace's events; the program's marks
# (lock_contention: the same definition over its own clock readings) show the design
NEAR_REL=0.001 NEAR_ABS=0.0002
trace_threads locks "$x" trace_locks.txt
cat trace_locks.txt
for who in main 0 1 2; do
    echo "$who $(trace_sum trace_locks.txt "$(loc "$who")" pthread_lock_contention_mutex_lock)" \
        "$(trace_sum trace_locks.txt "$(loc "$who")" pthread_lock_contention_conditional)"
done >expected.txt
cat expected.txt
lock_contention pl.out >contention.txt
for who in main 0 1 2; do
    echo "$who $(contention_of contention.txt $who lock trylock) $(contention_of contention.txt $who wait timedwait)"
done >marks.txt

CUBE=$x/scout.cubex
value() { $CV "$CUBE" value "$@"; }
while read -r who mutex cond; do
    near pthread_lock_contention_mutex_lock '*' "$(loc "$who")" "$mutex"
    near pthread_lock_contention_conditional '*' "$(loc "$who")" "$cond"
done <expected.txt
# the design: threads 1 and 2 wait for mutex A about 3D - 3S together, whichever gets it
# first; the condition waits: thread 0 about D, threads 1 and 2 about D and D + D/2 (the thread
# woken first holds M for D/2); main's timed wait lasts D but has no contention (M is free
# when it times out). A loaded machine shifts the arrivals: the program's marks and the trace
# must both show contention of both kinds (more than D/2 each), so that the comparison above
# means something.
for f in marks.txt expected.txt; do
    expect_eq "$(awk '{ m += $2; c += $3 } END { print (m > 0.1 && c > 0.1) }' $f)" 1 \
        "$f shows contention on the mutex and in the condition waits"
done
# contention lies at the call path of the acquiring call; main's timed wait has none but the
# instant between its enter and its own release of M (Scalasca's definition; nanoseconds)
for c in pthread_mutex_lock pthread_mutex_trylock; do
    near pthread_lock_contention_mutex_lock $c '*' \
        "$(trace_sum trace_locks.txt '*' pthread_lock_contention_mutex_lock $c)"
done
near pthread_lock_contention_conditional pthread_cond_wait '*' \
    "$(trace_sum trace_locks.txt '*' pthread_lock_contention_conditional pthread_cond_wait)"
expect_eq "$(value pthread_lock_contention_mutex_lock pthread_cond_wait '*')" 0 \
    "no mutex lock contention in pthread_cond_wait"
tw=$(trace_sum trace_locks.txt 0:0 pthread_lock_contention_conditional pthread_cond_timedwait)
expect_eq "$(awk -v v="$tw" 'BEGIN { print (v < 0.001) }')" 1 "no contention in the timed wait ($tw s)"
near pthread_lock_contention_conditional pthread_cond_timedwait 0:0 "$tw"

# Scalasca 2.x's names, display names and tree (Pthread.pattern, OMP.pattern)
$CV "$CUBE" metrics >metrics.txt || fail "cube_values.py metrics"
for m in "pthread_time|POSIX threads|execution" \
    "pthread_management|Pthread Management|pthread_time" \
    "pthread_synchronization|Pthread Synchronization|pthread_time" \
    "pthread_lock_api|Pthread Mutex|pthread_synchronization" \
    "pthread_lock_contention_mutex_lock|Pthread Mutex Lock Contention|pthread_lock_api" \
    "pthread_conditional|Pthread Condition|pthread_synchronization" \
    "pthread_lock_contention_conditional|Pthread Condition Lock Contention|pthread_conditional" \
    "omp_lock_contention_critical|OMP Critical Contention|omp_critical" \
    "omp_lock_contention_api|OMP Lock API Contention|omp_lock_api"; do
    expect_eq "$(awk -F'\t' -v u="${m%%|*}" '$1 == u { print $1 "|" $2 "|" $3 }' metrics.txt)" \
        "$m" "metric ${m%%|*}: display name and parent"
done
# the time tree: pthread_create/join are management, the mutex calls the mutex API, the
# waits the condition API; the exclusive values (the call time beyond the contention) are
# never negative
expect_eq "$(value visits pthread_mutex_lock '*')" 11 "visits: 11 pthread_mutex_lock"
expect_eq "$(value visits pthread_cond_wait '*')" 3 "visits: 3 pthread_cond_wait"
for m in pthread_lock_api pthread_conditional; do
    for l in 0:0 0:1 0:2 0:3; do
        v=$(value "=$m" '*' "$l") || fail "cube_values.py value =$m"
        awk -v v="$v" 'BEGIN { exit !(v > -1e-6) }' || fail "$m (exclusive) on $l: $v < 0"
    done
done
expect_eq "$(value pthread_management pthread_create '*' | awk '{ print ($1 > 0) }')" 1 \
    "pthread_create's time is Pthread Management"
expect_eq "$(value =execution pthread_mutex_lock '*')" 0 "no time of pthread_mutex_lock in Execution"

# scorep-report's Wait states section: the two contention patterns with scout.cubex's totals,
# and the worst rows include the longest wait for mutex A
"$top_builddir/scorep-report" -o report.html "$x" >report.out 2>&1 || fail "scorep-report: $(cat report.out)"
python3 - report.html >waits.txt <<'PY' || fail "the report's wait-state data: $(cat waits.txt)"
import json, re, sys
s = open(sys.argv[1]).read()
d = json.loads(re.search(r'id="report-data">(.*?)</script>', s, re.S).group(1))["waits"]
for p in d["patterns"]:
    print("pattern", p["uniq"], "%.6f" % p["seconds"])
for r in d["worst"]:
    # the call path below the program root (its first component; "." the root itself)
    print("worst", r["pattern"], (r["callpath"].split("/", 1) + ["."])[1], "%.6f" % r["seconds"])
PY
for m in pthread_lock_contention_mutex_lock pthread_lock_contention_conditional; do
    r=$(awk -v m=$m '$1 == "pattern" && $2 == m { print $3 }' waits.txt)
    v=$(value $m '*' '*') || fail "cube_values.py value $m"
    report_eq "$r" "$v" "report: $m total"
done
# the largest row is the thread that waited longest for A: thread 2 by design, but under
# load the threads may reach A in another order, so it is the largest per-thread value
for who in main 0 1 2; do
    printf '%.6f\n' "$(value pthread_lock_contention_mutex_lock '*' "$(loc "$who")")"
done >per_thread.txt
w=$(awk '$1 == "worst" && $2 == "pthread_lock_contention_mutex_lock" && (!seen++ || $4 > m) { m = $4 } END { print m }' waits.txt)
t=$(awk '$1 > m || NR == 1 { m = $1 } END { print m }' per_thread.txt)
report_eq "$w" "$t" "report: the largest mutex row is the thread that waited longest"

# in situ (the threads' in-memory buffers) and post-mortem (their trace locations) agree
$CV "$x/scout.cubex" same "$x/scout_insitu.cubex" 1e-6 >same.out ||
    fail "in situ and post-mortem differ: $(head -20 same.out)"
echo "ok: $(tail -1 same.out)"
done_ok
