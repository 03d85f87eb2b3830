#!/bin/sh
# test_omp_tasks.sh: test/omp/tasks.c (a chain of 20 dependent tasks, 10 tasks with 2 child
# tasks and a taskwait each, a final taskwait; then one task sleeping 60 ms) in the three
# builds: task create/switch/complete events, the dependences' order in time, the task
# regions in the profile, and a task's time counted in its region, not where it ran.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

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
    # the creating thread; the chain tasks are its first 20)
    trace_other $x | awk '$1 == "THREAD_TASK_COMPLETE" || $1 == "THREAD_TASK_SWITCH" {
            g = $0; sub(/.*Generation Number: /, "", g); c = $0; sub(/.*Creating Thread: /, "", c)
            sub(/ .*/, "", c); print $1, $3, c, g + 0 }' >$x.tasks
    creator=$(awk '$4 == 20 { print $3; exit }' $x.tasks)
    expect_eq "$(awk -v c="$creator" '$3 == c && $4 >= 1 && $4 <= 20 {
            if ($1 == "THREAD_TASK_COMPLETE") done[$4] = $2
            else if (!($4 in start)) start[$4] = $2 }
        END { for (g = 2; g <= 20; g++) if (!(g in start) || !((g - 1) in done) ||
            start[g] + 0 <= done[g - 1] + 0) bad++; print bad + 0 }' $x.tasks)" 0 \
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
    # the thread that ran the sleeping task: its task region holds the 60 ms, none of the
    # barriers it waited in does (the task's time is taken out of them)
    sleep_path=$(profile_paths $x | awk -v p="$P" '{ q = $0; gsub(/ @[^\/]*/, "", q) }
        q == p "/!$omp task" { print; exit }')
    runner=$(profile_values $x "$sleep_path" visits | awk '{ print $1 }')
    expect_ge "$(profile_isum $x "$sleep_path" time $runner)" 0.055 "$v: sleeping task's time"
    expect_eq "$(profile_dump $x -i -m time | awk -F'\t' -v l="$runner" -v p="$P" '
        $3 == l && index($2, p "/") == 1 && $2 ~ /barrier|taskwait/ { split($4, a, "=");
        if (a[2] > 0.03) bad++ } END { print bad + 0 }')" 0 \
        "$v: no barrier on the task's thread holds the task's time"
done
done_ok
