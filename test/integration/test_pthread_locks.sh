#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_pthread_locks.sh: pthread mutex and condition-variable recording (docs/design.md,
# src/adapters/pthread/pthread_sync.c) on test/analysis/pthread_locks.c (its comment gives the
# pattern: 3 threads contend on mutex A, condition handoffs on M/C with signal and broadcast, a
# timed wait that times out, a recursive mutex R and a trylock), linked with scorep-cc and run
# unchanged under scorep-run. Exact per thread: the visits of every pthread region in the
# profile; the ThreadAcquireLock/ThreadReleaseLock events in otf2-print's view of the trace
# (paradigm PTHREAD, lock ids in the order the mutexes were first seen, the acquisition order of
# each lock in time order, the call each event lies in), and the thread of each acquisition
# against the program's own clock marks. The runtime's own mutexes are never recorded (the
# counts are exact with the runtime preloaded). pthread_tail.c: a library function that
# tail-calls pthread_mutex_unlock is not the program's call, a function of the program that
# does is.
. "$top_srcdir/test/integration/lib.sh"
command -v otf2-print >/dev/null 2>&1 || { echo "SKIP: no otf2-print"; exit 77; }
SRC="$top_srcdir/test/analysis/pthread_locks.c"
# one clock for all CPUs: the lock events of different threads in their true order
export SCOREP_TIMER=clock_gettime
D=0.05

scorep_cc gcc -O1 -o linked "$SRC" -lpthread
gcc -O1 -o plain "$SRC" -lpthread || fail "gcc pthread_locks.c"

# the regions, Score-P's names, paradigm and role (scorep_pthread.h)
regions="pthread_mutex_init pthread_mutex_destroy pthread_mutex_lock pthread_mutex_unlock
pthread_mutex_trylock pthread_cond_init pthread_cond_signal pthread_cond_broadcast
pthread_cond_wait pthread_cond_timedwait pthread_cond_destroy"

# the visits of each pthread region per program thread, from the program's design: main creates
# and joins 3 threads, initialises M and C (and R), hands off twice (lock, signal/broadcast,
# unlock), waits once with a timeout (lock, timedwait, unlock), locks R twice and tries it once,
# destroys M, R and C; thread 0 locks A (and tries it once), then M, and waits on C once;
# threads 1 and 2 lock A, then M, and wait on C once
expected_visits()
{
    cat <<EOF | sort
main pthread_cond_broadcast 1
main pthread_cond_destroy 1
main pthread_cond_init 1
main pthread_cond_signal 1
main pthread_cond_timedwait 1
main pthread_create 3
main pthread_join 3
main pthread_mutex_destroy 2
main pthread_mutex_init 2
main pthread_mutex_lock 5
main pthread_mutex_trylock 1
main pthread_mutex_unlock 6
0 pthread_cond_wait 1
0 pthread_mutex_lock 2
0 pthread_mutex_trylock 1
0 pthread_mutex_unlock 2
1 pthread_cond_wait 1
1 pthread_mutex_lock 2
1 pthread_mutex_unlock 2
2 pthread_cond_wait 1
2 pthread_mutex_lock 2
2 pthread_mutex_unlock 2
EOF
}

# check EXP OUT LABEL: the measurement of one run (EXP its experiment, OUT its output)
check()
{
    x=$1 out=$2 v=$3
    expect_eq "$(trace_check_order $x)" 0 "$v: timestamps increase per location"
    expect_eq "$(trace_check_nesting $x)" 0 "$v: enters and leaves nest"
    # program thread k (main creates them in order) is the location whose ThreadBegin has
    # sequence count k + 1; main is location 0 (by their numbers in the process, id >> 32:
    # trace ids are local << 32 | rank, Score-P's)
    trace_other $x | awk '$1 == "THREAD_BEGIN" { s = $0; sub(/.*Sequence Count: /, "", s)
        print s - 1, int($2 / 4294967296) }' | sort >$x.map
    expect_eq "$(awk '{ print $1 }' $x.map | tr '\n' ' ')" "0 1 2 " "$v: three program threads"
    echo "main 0" >>$x.map

    # profile: visits per (thread, region), summed over the call paths ending in the region
    profile_dump $x -m visits | awk -F'\t' -v map=$x.map '
        BEGIN { while ((getline l < map) > 0) { split(l, f, " "); who[f[2]] = f[1] } }
        { n = split($2, p, "/"); if (p[n] !~ /^pthread_/) next
          split($4, kv, "="); s[who[$3] " " p[n]] += kv[2] }
        END { for (k in s) print k, s[k] }' | sort >$x.visits
    expected_visits >expected.visits
    expect_eq "$(cat $x.visits)" "$(cat expected.visits)" "$v: visits of every pthread region per thread"

    # the region definitions: Score-P's names, paradigm PTHREAD, role WRAPPER, file PTHREAD
    trace_defs $x >$x.defs
    for r in $regions; do
        expect_eq "$(grep -c "^REGION .*Name: \"$r\" .*Role: WRAPPER, Paradigm: PTHREAD, .*File: \"PTHREAD\"" $x.defs)" 1 \
            "$v: region $r (role WRAPPER, paradigm PTHREAD)"
    done

    # lock events: "A|R location time lock order", in time order
    trace_other $x | awk '$1 ~ /^THREAD_(ACQUIRE|RELEASE)_LOCK$/ {
            m = $0; sub(/.*Model: /, "", m); sub(/,.*/, "", m)
            l = $0; sub(/.*Lock: /, "", l); sub(/,.*/, "", l)
            o = $0; sub(/.*Acquisition Order: /, "", o)
            print ($1 == "THREAD_ACQUIRE_LOCK" ? "A" : "R"), int($2 / 4294967296), $3, l + 0, o + 0, m }' |
        sort -k3,3n >$x.locks
    expect_eq "$(awk '$1 == "A"' $x.locks | wc -l | tr -d ' ')" 16 \
        "$v: 16 ThreadAcquireLock (11 locks, 1 successful trylock, 4 waits)"
    expect_eq "$(awk '$1 == "R"' $x.locks | wc -l | tr -d ' ')" 16 \
        "$v: 16 ThreadReleaseLock (12 unlocks of held mutexes, 4 waits)"
    expect_eq "$(awk '$6 != "PTHREAD"' $x.locks | wc -l | tr -d ' ')" 0 "$v: all of paradigm PTHREAD"
    per_thread=$(awk -v map=$x.map 'BEGIN { while ((getline l < map) > 0) { split(l, f, " "); who[f[2]] = f[1] } }
        { n[$1 " " who[$2]]++ } END { for (k in n) print k, n[k] }' $x.locks | sort | tr '\n' ';')
    expect_eq "$per_thread" "A 0 3;A 1 3;A 2 3;A main 7;R 0 3;R 1 3;R 2 3;R main 7;" \
        "$v: acquisitions and releases per thread"
    # lock ids in the order the mutexes were first seen: M (pthread_mutex_init before the
    # threads start) 0, A (statically initialised: at its first lock) 1, R 2; each lock's
    # events in time order alternate acquire/release with the acquisition order counting from
    # 1; R's nested lock repeats the order of the holding
    seq_of() { awk -v id=$1 '$4 == id { printf "%s%d ", $1, $5 }' $x.locks; }
    expect_eq "$(seq_of 1)" "A1 R1 A2 R2 A3 R3 " "$v: mutex A (id 1): acquisition order"
    expect_eq "$(seq_of 0)" "A1 R1 A2 R2 A3 R3 A4 R4 A5 R5 A6 R6 A7 R7 A8 R8 A9 R9 A10 R10 " \
        "$v: mutex M (id 0): acquisition order (waits release and acquire)"
    expect_eq "$(seq_of 2)" "A1 A1 R1 R1 A2 R2 " "$v: recursive mutex R (id 2): nested holding, then trylock"
    # who acquired A and M in which order: the program's marks (H mutex thread kind enter
    # acquired released) sorted by the acquisition
    for mx in A:1 M:0; do
        marks=$(awk -v m=${mx%:*} '$1 == "H" && $2 == m { print $6, $3 }' $out | sort -n |
            awk '{ printf "%s ", $2 }')
        trace=$(awk -v id=${mx#*:} -v map=$x.map 'BEGIN { while ((getline l < map) > 0) {
                split(l, f, " "); who[f[2]] = f[1] } }
            $1 == "A" && $4 == id { printf "%s ", who[$2] }' $x.locks)
        expect_eq "$trace" "$marks" "$v: mutex ${mx%:*}: the acquiring threads in the order the program saw"
    done
    # the call each lock event lies in (the innermost open region at the event)
    trace_events $x | awk '
        $1 == "ENTER" || $1 == "LEAVE" { r = $0; sub(/.*Region: "/, "", r); sub(/".*/, "", r) }
        $1 == "ENTER" { st[$2, ++d[$2]] = r }
        $1 == "LEAVE" { d[$2]-- }
        $1 ~ /^THREAD_(ACQUIRE|RELEASE)_LOCK$/ { n[substr($1, 8, 1) " " st[$2, d[$2]]]++ }
        END { for (k in n) print k, n[k] }' | sort | tr '\n' ';' >$x.in
    expect_eq "$(cat $x.in)" "A pthread_cond_timedwait 1;A pthread_cond_wait 3;A pthread_mutex_lock 11;A pthread_mutex_trylock 1;R pthread_cond_timedwait 1;R pthread_cond_wait 3;R pthread_mutex_unlock 12;" \
        "$v: the calls the lock events lie in"
}

part "linked with scorep-cc"
run_app linked env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=lexp ./linked $D
expect_eq "$status" 0 "linked: exit status ($(cat linked.err))"
expect_eq "$(grep -c '^H ' linked.out)" 15 "linked: the program's 15 holdings"
check lexp linked.out linked

part "unchanged program under scorep-run"
run_app preload env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=pexp \
    "$top_builddir/scorep-run" ./plain $D
expect_eq "$status" 0 "scorep-run: exit status ($(cat preload.err))"
check pexp preload.out scorep-run

part "tail calls: the program's own unlock at a function's end counts, a library's does not"
# (called_from in pthread_sync.c decodes the calls of x86-64 and AArch64)
if [ "$(build_machine)" = x86_64 ] || [ "$(build_machine)" = aarch64 ]; then
    gcc -O2 -shared -fPIC -o libtail.so "$PROGRAMS/pthread_tail_lib.c" || fail "gcc pthread_tail_lib.c"
    gcc -O2 -o pthread_tail_plain "$PROGRAMS/pthread_tail.c" -L. -ltail -Wl,-rpath,"$work" -lpthread ||
        fail "gcc pthread_tail.c"
    scorep_cc gcc -O2 -o pthread_tail_linked "$PROGRAMS/pthread_tail.c" -L. -ltail -Wl,-rpath,"$work" -lpthread
    # the mechanism under test: the unlocks at the functions' ends are jumps (tail calls)
    run_to lib.dis objdump -d libtail.so
    expect_eq "$(grep -c -E "${JMP_INSN}.*<pthread_mutex_unlock@plt>" lib.dis)" 2 "the library's unlocks are tail calls"
    run_to tail.dis objdump -d pthread_tail_plain
    expect_eq "$(grep -c -E "${JMP_INSN}.*<pthread_mutex_unlock@plt>" tail.dis)" 1 "the program's unlock_at_end is a tail call"
    for v in linked plain; do
        if [ $v = linked ]; then set -- ./pthread_tail_linked; else set -- "$top_builddir/scorep-run" ./pthread_tail_plain; fi
        run_app tail_$v env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=tail_$v "$@"
        expect_eq "$status:$(cat tail_$v.out)" "0:done 1" "$v: pthread_tail runs"
        expect_eq "$(trace_other tail_$v | awk '$1 ~ /^THREAD_(ACQUIRE|RELEASE)_LOCK$/ {
                l = $0; sub(/.*Lock: /, "", l); sub(/,.*/, "", l)
                o = $0; sub(/.*Acquisition Order: /, "", o)
                printf "%s%d:%d ", substr($1, 8, 1), l, o }')" "A0:1 R0:1 A1:1 A1:2 R1:2 " \
            "$v: the lock events of the program's calls only (lock:order)"
        expect_eq "$(trace_count tail_$v ENTER "" pthread_mutex_lock) $(trace_count tail_$v ENTER "" pthread_mutex_unlock)" \
            "3 2" "$v: the program's 3 locks and 2 unlocks are regions, the library's calls are not"
    done
else
    skip_part_here "tail calls" "the call before a return address is decoded on x86-64 and aarch64 only"
fi

part "profile only: the regions without tracing"
run_app prof env SCOREP_EXPERIMENT_DIRECTORY=prof "$top_builddir/scorep-run" ./plain $D
expect_eq "$status" 0 "profile only: exit status"
expect_eq "$(profile_dump prof -m visits | awk -F'\t' '$2 ~ /pthread_mutex_lock$/ { split($4, kv, "="); s += kv[2] } END { print s + 0 }')" 11 \
    "profile only: 11 visits of pthread_mutex_lock"
done_ok
