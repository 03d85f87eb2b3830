#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_tasks.sh: test/omp/tasks.c (a chain of 20 dependent tasks, 10 tasks with 2 child
# tasks and a taskwait each, a final taskwait; then one task sleeping 60 ms) in the three
# builds: task create/switch/complete events, the dependences' order in time, the task
# regions in the profile, and a task's time counted in its region, not where it ran.
# SCOREP_TIMER=clock_gettime: one clock for all CPUs, so an order the program enforces
# across threads shows in the timestamps (the TSCs of virtual CPUs may differ).
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"
VARIANTS="$VARIANTS gccomp" # gcc on libomp too
export SCOREP_TIMER=clock_gettime

# close SECONDS RESOLUTION TICKS: "equal" when SECONDS (a profile value, 9 digits) is TICKS
# at RESOLUTION ticks per second, to those digits and a tick
close()
{
    awk -v a="$1" -v r="$2" -v t="$3" 'BEGIN { b = t / r; d = a - b; if (d < 0) d = -d
        if (d <= 1e-6 * (b < 0 ? -b : b) + 2 / r) print "equal"; else print a " s, not " b " s" }'
}

omp_build tasks
at() { echo "@tasks.c:$(line tasks "$1")"; }
PAR="!\$omp parallel $(at PAR)"
for v in $VARIANTS; do
    omp_run $v tasks
    expect_eq "$(cat tasks_$v.out)" "chain ok" "$v: program output"
    x=$exp
    omp_consistent $x "$v"
    # trace: 51 tasks, each switched to and away from once
    expect_eq "$(events $x THREAD_TASK_CREATE)" 51 "$v: THREAD_TASK_CREATE"
    expect_eq "$(events $x THREAD_TASK_COMPLETE)" 51 "$v: THREAD_TASK_COMPLETE"
    expect_eq "$(events $x THREAD_TASK_SWITCH)" 102 "$v: THREAD_TASK_SWITCH (to and from each task)"
    expect_eq "$(events $x ENTER "" "!\$omp task $(at CHAIN)")" 20 "$v: ENTER of the chain tasks"
    # dependences: chain task g+1 starts after task g completed (g: generation number on
    # the creating thread; the chain tasks are its first 20); libomp records the completion
    # before it releases the dependent task, so this holds on a common clock under any load
    trace_other $x | awk '$1 == "THREAD_TASK_COMPLETE" || $1 == "THREAD_TASK_SWITCH" {
            g = $0; sub(/.*Generation Number: /, "", g); c = $0; sub(/.*Creating Thread: /, "", c)
            sub(/ .*/, "", c); print $1, $3, c, g + 0 }' >$x.tasks
    # the chain's creator: the single thread, the only one to create a 30th task (20 chain
    # tasks and 10 parents); a thread that runs all 10 parents creates 20 children, so
    # "a 20th task" named it in some runs (CI: 10 children "out of order")
    creator=$(awk '$4 == 30 { print $3; exit }' $x.tasks)
    expect_eq "$(awk -v c="$creator" '$3 == c && $4 >= 1 && $4 <= 20 {
            if ($1 == "THREAD_TASK_COMPLETE") done[$4] = $2
            else if (!($4 in start)) start[$4] = $2 }
        END { for (g = 2; g <= 20; g++) if (!(g in start) || !((g - 1) in done) ||
            start[g] + 0 < done[g - 1] + 0) bad++; print bad + 0 }' $x.tasks)" 0 \
        "$v: each chain task starts after its predecessor completed"
    # profile: task regions hang under the parallel region of the thread that ran them
    if [ $v = clang ]; then
        expect_eq "$(visits $x "$root$PAR/!\$omp task $(at CHAIN)")" 20 "$v: chain task visits"
        expect_eq "$(visits $x "$root$PAR/!\$omp task $(at PARENT)")" 10 "$v: parent task visits"
        expect_eq "$(visits $x "$root$PAR/!\$omp task $(at CHILD)")" 20 "$v: child task visits"
        expect_eq "$(visits $x "$root$PAR/!\$omp task $(at PARENT)/!\$omp create task $(at CHILD)")" \
            20 "$v: child tasks created inside their parent task"
        expect_eq "$(visits $x "$root$PAR/!\$omp task $(at PARENT)/!\$omp taskwait $(at CHILD_WAIT)")" \
            10 "$v: taskwait inside the parent tasks"
        single="$root$PAR/!\$omp single $(at SINGLE)/!\$omp single sblock $(at SINGLE)"
        expect_eq "$(per_loc $x "$single/!\$omp create task $(at CHAIN)")" 20 \
            "$v: the single thread created the chain"
        expect_eq "$(visits $x "$single/!\$omp taskwait $(at ALL_WAIT)")" 1 "$v: final taskwait"
    fi
    P="${root}!\$omp parallel"
    n=50 # + the sleeping task when both parallel regions are at the root (no main)
    [ $v != plain ] || n=51
    expect_eq "$(nvisits $x "$P/!\$omp task")" $n "$v: task region visits in main's regions"
    expect_eq "$(nvisits $x "$P/!\$omp task/!\$omp create task")" 20 "$v: tasks created in tasks"
    if [ $v != plain ]; then
        expect_eq "$(nvisits $x "main/!\$omp parallel/!\$omp task/task_body")" 50 \
            "$v: task_body() inside the task regions"
        expect_eq "$(nvisits $x "main/sleeping_task/!\$omp parallel/!\$omp task/sleeper")" 1 \
            "$v: the sleeping task"
        P="main/sleeping_task/!\$omp parallel"
    fi
    # the thread that ran the sleeping task (the only task path visited once): its task
    # region holds the time from the switch to the task to the switch back, and the barrier
    # it ran in exactly the rest, both as the trace has them (no bound on the times)
    sleep_path=$(profile_dump $x -m visits | awk -F'\t' -v p="$P" '{ q = $2; gsub(/ @[^\/]*/, "", q) }
        q == p "/!$omp task" { split($4, a, "="); n[$2] += a[2] }
        END { for (k in n) if (n[k] == 1) print k }')
    expect_eq "$(echo "$sleep_path" | wc -l | tr -d ' ')" 1 "$v: one task path visited once"
    runner=$(profile_values $x "$sleep_path" visits | awk '{ print $1 }')
    # "REGION|ENTER LEAVE SWITCH_TO SWITCH_BACK" of the region of the runner the task ran in
    # (the profile's location N of the one process: the trace's id N << 32)
    trace_events $x | awk -v loc="$(loc_id 0 "$runner")" -v tr="${sleep_path##*/}" '$2 != loc { next }
        { name = ""; i = index($0, "Region: \""); if (i) { name = substr($0, i + 9)
            name = substr(name, 1, index(name, "\" <") - 1) } }
        $1 == "THREAD_TASK_SWITCH" { sw = $3; if (left) { back = $3; left = 0 } }
        $1 == "ENTER" { if (name == tr) { to = sw; bar = d; bname = st[d] }
            st[++d] = name; en[d] = $3 }
        $1 == "LEAVE" { if (name == tr) left = 1
            if (bar && d == bar) { print bname "|" en[d], $3, to, back; bar = 0 }; d-- }' >$x.ran
    expect_eq "$(wc -l <$x.ran | tr -d ' ')" 1 "$v: the task ran inside one region of its thread"
    barrier=$(cut -d'|' -f1 $x.ran)
    expect_eq "$(echo "$barrier" | grep -c -E 'barrier|taskwait')" 1 "$v: the task ran in a barrier"
    res=$(trace_defs $x | sed -n 's/.*Ticks per Seconds: \([0-9]*\).*/\1/p')
    set -- $(cut -d'|' -f2 $x.ran) # barrier enter, leave; switches to and from the task
    expect_eq "$(close "$(profile_isum $x "$sleep_path" time $runner)" "$res" $(($4 - $3)))" \
        equal "$v: the task region holds the time between the switches to and from the task"
    expect_ge "$(profile_isum $x "$sleep_path" time $runner)" 0.06 "$v: the task slept 60 ms"
    expect_eq "$(close "$(profile_isum $x "${sleep_path%/*}/$barrier" time $runner)" "$res" \
        $(($2 - $1 - ($4 - $3))))" equal "$v: the barrier it ran in holds its time less the task's"
done
done_ok
