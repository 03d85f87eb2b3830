#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_depend.sh: test/omp/depend.c (a diamond of tasks with depend clauses, A 100 ms ->
# B 200 ms and C 50 ms -> D 100 ms, then a task with 64 depend items, then one task
# construct run 3 times for 30, 60 and 90 ms) in the three builds and gcc on libomp:
# each task's depend items as otf2-print shows them (one "OpenMP depend <type>" parameter
# record per item after the task's THREAD_TASK_CREATE, on the creating location) equal the
# program's variables' addresses, printed by the program, and the types of its clauses as
# LLVM's libomp reports them (`out` as inout); and the profile's count, sum, minimum and
# maximum per task region: one instance each, the times the trace's task regions (within
# 0.1% + 0.2 ms), which hold the task's duration as the program measured it, which is at
# least its design (a sleep overruns on a loaded machine). SCOREP_TIMER=clock_gettime: one
# clock for all CPUs, the program's.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"
VARIANTS="$VARIANTS gccomp" # gcc on libomp too
export SCOREP_TIMER=clock_gettime

omp_build depend
at() { echo "@depend.c:$(line depend "$1")"; }

# within VALUE EXPECTED: "ok" when VALUE (seconds) is EXPECTED within 0.1% + 0.2 ms (the
# profile against the trace: the same timestamps)
within()
{
    awk -v v="$1" -v d="$2" 'BEGIN { t = 0.001 * d + 0.0002
        if (v >= d - t && v <= d + t) print "ok"; else print v " s, not " d " s (0.1% + 0.2 ms)" }'
}

# spans EVENTS DEFS: each task region instance's duration in the trace (its ENTER to its
# LEAVE on the location that ran it; the tasks here have no scheduling point inside), one line
# "REGION seconds" each
spans()
{
    _tps=$(sed -n 's/^CLOCK_PROPERTIES.*Ticks per Seconds: \([0-9]*\),.*/\1/p' "$2")
    awk -v tps="$_tps" -F'  +' '$1 == "ENTER" || $1 == "LEAVE" {
            loc = $2; t = $3; r = $0; sub(/.*Region: "/, "", r); sub(/" <.*/, "", r)
            if ($1 == "ENTER") { n[loc]++; st[loc, n[loc]] = t; nm[loc, n[loc]] = r; next }
            if (n[loc] < 1 || nm[loc, n[loc]] != r) { print "unbalanced " r " on " loc; exit 1 }
            if (r ~ /^!\$omp task @/) printf "%s\t%.9f\n", r, (t - st[loc, n[loc]]) / tps
            n[loc]-- }' "$1"
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
    # the profile: per task region one instance, its times the trace's task region (within
    # 0.1% + 0.2 ms: the same timestamps), which holds the task's own duration as the program
    # measured it (its clock readings lie inside the region; SCOREP_TIMER=clock_gettime),
    # which is at least its design. Not the program's duration within 10%: a thread
    # descheduled between the task region's enter and the program's reading widens the
    # region (a 30 ms task had 3 ms)
    run_to $x.defs trace_defs $x
    run_to $x.spans spans $x.events $x.defs
    P="$root!\$omp parallel $(at PAR)"
    for tk in A:0.1 B:0.2 C:0.05 D:0.1; do
        k=${tk%%:*}
        own=$(took $v $k)
        expect_eq "$(awk -v t="$own" -v d=${tk#*:} 'BEGIN { print (t >= d) ? "ok" : t }')" ok \
            "$v: task $k slept its design ${tk#*:} s at least (program's own clock)"
        r="$P/!\$omp task $(at $k)"
        tr=$(awk -F'\t' -v r="!\$omp task $(at $k)" '$1 == r { n++; d = $2 } END { if (n == 1) print d }' $x.spans)
        [ -n "$tr" ] || fail "$v: task $k: not one instance of its region in the trace"
        expect_eq "$(awk -v t="$tr" -v o="$own" 'BEGIN { print (t >= o - 1e-6) ? "ok" : t }')" ok \
            "$v: task $k: the trace's region ($tr s) holds the program's $own s"
        expect_eq "$(visits $x "$r")" 1 "$v: task $k: count (visits)"
        expect_eq "$(within "$(profile_isum $x "$r" time)" "$tr")" ok "$v: task $k: sum"
        for s in min_time max_time; do
            expect_eq "$(within "$(profile_values $x "$r" $s | awk '{ print $2 }')" "$tr")" ok \
                "$v: task $k: $s"
        done
    done
    # three instances of one task construct, on any threads: count, sum, minimum, maximum
    # (over the threads: the least min_time, the largest max_time)
    r="$P/!\$omp task $(at REPEAT)"
    awk -F'\t' -v r="!\$omp task $(at REPEAT)" '$1 == r { print $2 }' $x.spans | sort -g >$x.spans.r
    set -- $(cat $x.spans.r)
    expect_eq "$#" 3 "$v: the repeated task's 3 instances in the trace"
    # (each instance's region holds its own duration, so the sorted ones hold the sorted)
    printf '%s\n' "$(took $v R1)" "$(took $v R2)" "$(took $v R3)" | sort -g | paste - $x.spans.r >$x.own
    expect_eq "$(awk '$2 < $1 - 1e-6 { print }' $x.own)" "" \
        "$v: the trace's instances of the repeated task hold the program's durations"
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
