#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_depend.sh: test/omp/depend.c (a diamond of tasks with depend clauses, A 100 ms ->
# B 200 ms and C 50 ms -> D 100 ms, then a task with 64 depend items, then one task
# construct run 3 times for 30, 60 and 90 ms) in the three builds and gcc on libomp:
# each task's depend items as otf2-print shows them (one "OpenMP depend <type>" parameter
# record per item after the task's THREAD_TASK_CREATE, on the creating location) equal the
# program's variables' addresses, printed by the program, and the types of its clauses as
# LLVM's libomp reports them (`out` as inout); and the profile's count, sum, minimum and
# maximum per task region: one instance each, the times within 10 % of the task's duration as
# the program measured it, which is at least its design (a sleep overruns on a loaded
# machine). SCOREP_TIMER=clock_gettime: one clock for all CPUs.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"
VARIANTS="$VARIANTS gccomp" # gcc on libomp too
export SCOREP_TIMER=clock_gettime

omp_build depend
at() { echo "@depend.c:$(line depend "$1")"; }

# within VALUE EXPECTED: "ok" when VALUE (seconds) is within 10 % of EXPECTED
within()
{
    awk -v v="$1" -v d="$2" 'BEGIN { if (v >= 0.9 * d && v <= 1.1 * d) print "ok"; else print v " s, not " d " s +- 10 %" }'
}

# took V TASK: task TASK's duration as the program of build V measured it
took()
{
    sed -n "s/.*$2=\([0-9.]*\).*/\1/p" depend_$1.out
}

for v in $VARIANTS; do
    omp_run $v depend
    x=$exp
    omp_consistent $x "$v"
    # the program's addresses, as otf2-print prints parameter values (decimal)
    set -- $(sed -n 's/^a=\(0x[0-9a-f]*\) b=\(0x[0-9a-f]*\) c=\(0x[0-9a-f]*\) m=\(0x[0-9a-f]*\)$/\1 \2 \3 \4/p' depend_$v.out)
    expect_eq "$#" 4 "$v: the program printed the addresses of a, b, c and m"
    a=$(printf '%u' "$1") b=$(printf '%u' "$2") c=$(printf '%u' "$3") m=$(printf '%u' "$4")
    # otf2-print's view: per task (creating location, creating thread, generation) its region
    # (the ENTER that follows the switch to it) and its depend items, sorted:
    # "REGION|TYPE ADDRESS,TYPE ADDRESS,..."
    run_to $x.events trace_events $x
    awk '{ loc = $2 }
        $1 == "THREAD_TASK_CREATE" || $1 == "THREAD_TASK_SWITCH" {
            c = $0; sub(/.*Creating Thread: /, "", c); sub(/ .*/, "", c)
            g = $0; sub(/.*Generation Number: /, "", g); key = c " " (g + 0) }
        $1 == "THREAD_TASK_CREATE" { last[loc] = key; created[key] = 1; next }
        $1 == "THREAD_TASK_SWITCH" { sw[loc] = key; next }
        $1 == "ENTER" && (loc in sw) { r = $0; sub(/.*Region: "/, "", r); sub(/" <.*/, "", r)
            region[sw[loc]] = r; delete sw[loc]; next }
        $1 == "PARAMETER_UINT64" && /Parameter: "OpenMP depend / {
            t = $0; sub(/.*Parameter: "OpenMP depend /, "", t); sub(/".*/, "", t)
            val = $0; sub(/.*Value: /, "", val)
            if (!(loc in last)) { print "orphan depend item on location " loc; next }
            deps[last[loc]] = deps[last[loc]] t " " val "\n" }
        END { for (k in created) { n = split(deps[k], d, "\n") - 1
                # sort the items (insertion sort: a few per task)
                for (i = 2; i <= n; i++) { x = d[i]; j = i - 1
                    while (j >= 1 && d[j] > x) { d[j + 1] = d[j]; j-- } d[j + 1] = x }
                s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") d[i]
                print region[k] "|" s } }' $x.events | sort >$x.deps
    expect_no_grep '^orphan' $x.deps "$v: every depend item follows a task creation on its location"
    expect_eq "$(grep -c . $x.deps)" 8 "$v: eight tasks created"
    expect_eq "$(grep "^!\$omp task $(at A)|" $x.deps)" "!\$omp task $(at A)|inout $a" \
        "$v: A's depend items: out: a (inout as libomp reports it)"
    expect_eq "$(grep "^!\$omp task $(at B)|" $x.deps)" \
        "!\$omp task $(at B)|$(printf 'in %s\ninout %s\n' $a $b | sort | paste -sd,)" \
        "$v: B's depend items: in: a (A's variable), out: b"
    expect_eq "$(grep "^!\$omp task $(at C)|" $x.deps)" \
        "!\$omp task $(at C)|$(printf 'in %s\ninout %s\n' $a $c | sort | paste -sd,)" \
        "$v: C's depend items: in: a (A's variable), out: c"
    expect_eq "$(grep "^!\$omp task $(at D)|" $x.deps)" \
        "!\$omp task $(at D)|$(printf 'in %s\nin %s\n' $b $c | sort | paste -sd,)" \
        "$v: D's depend items: in: b, c (B's and C's variables)"
    expect_eq "$(grep "^!\$omp task $(at MANY)|" $x.deps)" \
        "!\$omp task $(at MANY)|$(awk -v m=$m 'BEGIN { for (i = 0; i < 64; i++) printf "inout %.0f\n", m + 4 * i }' | sort | paste -sd,)" \
        "$v: the task with 64 depend items has all 64 (m[0] .. m[63])"
    # the profile: per task region one instance, its times within 10 % of the task's own
    P="$root!\$omp parallel $(at PAR)"
    for tk in A:0.1 B:0.2 C:0.05 D:0.1; do
        k=${tk%%:*}
        own=$(took $v $k)
        expect_eq "$(awk -v t="$own" -v d=${tk#*:} 'BEGIN { print (t >= d) ? "ok" : t }')" ok \
            "$v: task $k slept its design ${tk#*:} s at least (program's own clock)"
        r="$P/!\$omp task $(at $k)"
        expect_eq "$(visits $x "$r")" 1 "$v: task $k: count (visits)"
        expect_eq "$(within "$(profile_isum $x "$r" time)" "$own")" ok "$v: task $k: sum"
        for s in min_time max_time; do
            expect_eq "$(within "$(profile_values $x "$r" $s | awk '{ print $2 }')" "$own")" ok \
                "$v: task $k: $s"
        done
    done
    # three instances of one task construct, on any threads: count, sum, minimum, maximum
    # (over the threads: the least min_time, the largest max_time)
    r="$P/!\$omp task $(at REPEAT)"
    set -- $(took $v R1) $(took $v R2) $(took $v R3)
    expect_eq "$(grep -c "^!\$omp task $(at REPEAT)|\$" $x.deps)" 3 \
        "$v: the repeated task's 3 instances have no depend items"
    expect_eq "$(visits $x "$r")" 3 "$v: repeated task: count (visits)"
    expect_eq "$(within "$(profile_isum $x "$r" time)" "$(awk -v a=$1 -v b=$2 -v c=$3 'BEGIN { print a + b + c }')")" \
        ok "$v: repeated task: sum"
    expect_eq "$(within "$(profile_values $x "$r" min_time | awk 'NR == 1 || $2 < m { m = $2 } END { print m }')" $1)" \
        ok "$v: repeated task: min_time (the 30 ms instance)"
    expect_eq "$(within "$(profile_values $x "$r" max_time | awk 'NR == 1 || $2 > m { m = $2 } END { print m }')" $3)" \
        ok "$v: repeated task: max_time (the 90 ms instance)"
done
done_ok
