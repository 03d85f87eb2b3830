#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_task_reduction.sh: test/omp/task_reduction.c (a parallel construct with a task
# reduction, 100 tasks in_reduction) in the three builds: gcc enters that team through
# GOMP_parallel_reductions, which libgomp's wrappers missed (no fork, no team, no task: the
# OpenMP V&V suite's 5.0 task-in-reduction test passed measured with an empty trace). Each
# build: one fork and join, a team of 2 with one parallel region on each thread, 100 tasks
# created, run and completed, the program's sum unchanged.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

omp_build task_reduction
at() { echo "@task_reduction.c:$(line task_reduction "$1")"; }
for v in $VARIANTS; do
    omp_run $v task_reduction
    x=$exp
    expect_eq "$(cat task_reduction_$v.out)" "sum 5050" "$v: program output"
    omp_consistent $x "$v"
    expect_eq "$(events $x THREAD_FORK 0)" 1 "$v: one THREAD_FORK on the master"
    expect_eq "$(events $x THREAD_JOIN 0)" 1 "$v: one THREAD_JOIN on the master"
    expect_eq "$(team_begins $x | awk '{ print $1, $3 }' | tr '\n' ' ')" "0 1 1 1 " \
        "$v: one team begin on each of the 2 threads"
    expect_eq "$(events $x ENTER 0 "!\$omp parallel $(at PAR)")" 1 "$v: the parallel region on the master"
    expect_eq "$(events $x ENTER "$(loc_id 0 1)" "!\$omp parallel $(at PAR)")" 1 "$v: the parallel region on the worker"
    expect_eq "$(events $x THREAD_TASK_CREATE)" 100 "$v: 100 tasks created"
    expect_eq "$(events $x THREAD_TASK_COMPLETE)" 100 "$v: 100 tasks completed"
    expect_eq "$(events $x ENTER "" "!\$omp task $(at TASK)")" 100 "$v: 100 task regions run"
done
done_ok
