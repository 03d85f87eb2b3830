#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_gomp.sh: gcc programs on GNU libgomp, recorded through libscorep-rt-gomp's GOMP_*
# wrappers, against clang programs on LLVM's libomp, recorded through OMPT: test/omp/gomp.c
# built by `scorep-cc --nocompiler` with gcc (libgomp, scorep-cc's default) and clang, and by
# plain gcc run under scorep-run (libgomp, the wrappers preloaded). The first team's records
# on both threads are the same, record by record (otf2-print, timestamps and definition ids
# left out), as the program's design fixes them; regions are named @gomp.c:LINE of their
# pragma in all three builds (also without -g: scorep-cc adds line tables for OpenMP); the
# visits of the second region (tasks, a loop over an unsigned long long) follow from its design.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

scorep_cc --nocompiler gcc -fopenmp -o gomp_gcc "$OMP_SRC/gomp.c"
scorep_cc --nocompiler clang -fopenmp -o gomp_clang "$OMP_SRC/gomp.c"
gcc -g -fopenmp -o gomp_plain "$OMP_SRC/gomp.c" || fail "build: gcc -fopenmp gomp.c"
readelf -d gomp_gcc >gomp_gcc.dyn
expect_grep 'NEEDED.*\[libscorep-rt-gomp\.so' gomp_gcc.dyn "scorep-cc gcc links the GOMP_* wrappers"
expect_grep 'NEEDED.*\[libgomp\.so' gomp_gcc.dyn "scorep-cc gcc keeps libgomp"
readelf -d gomp_clang >gomp_clang.dyn
expect_no_grep 'NEEDED.*scorep-rt-gomp' gomp_clang.dyn "scorep-cc clang: no GOMP_* wrappers"

at() { echo "@gomp.c:$(line gomp "$1")"; }
cat >expected0 <<EOF
THREAD_FORK Model: OPENMP, # Requested Threads: 2
THREAD_TEAM_BEGIN Thread Team: "OpenMP thread team"
ENTER Region: "!\$omp parallel $(at PAR)"
ENTER Region: "!\$omp barrier $(at BARRIER)"
LEAVE Region: "!\$omp barrier $(at BARRIER)"
ENTER Region: "!\$omp create task $(at TASK)"
THREAD_TASK_CREATE Thread Team: "OpenMP thread team", Creating Thread: 0 ("Master thread"), Generation Number: 1
LEAVE Region: "!\$omp create task $(at TASK)"
ENTER Region: "!\$omp taskwait $(at WAIT)"
THREAD_TASK_SWITCH Thread Team: "OpenMP thread team", Creating Thread: 0 ("Master thread"), Generation Number: 1
ENTER Region: "!\$omp task $(at TASK)"
LEAVE Region: "!\$omp task $(at TASK)"
THREAD_TASK_COMPLETE Thread Team: "OpenMP thread team", Creating Thread: 0 ("Master thread"), Generation Number: 1
THREAD_TASK_SWITCH Thread Team: "OpenMP thread team", Creating Thread: 0 ("Master thread"), Generation Number: 0
LEAVE Region: "!\$omp taskwait $(at WAIT)"
ENTER Region: "!\$omp implicit barrier $(at PAR)"
LEAVE Region: "!\$omp implicit barrier $(at PAR)"
LEAVE Region: "!\$omp parallel $(at PAR)"
THREAD_TEAM_END Thread Team: "OpenMP thread team"
THREAD_JOIN Model: OPENMP
EOF
cat >expected1 <<EOF
THREAD_TEAM_BEGIN Thread Team: "OpenMP thread team"
ENTER Region: "!\$omp parallel $(at PAR)"
ENTER Region: "!\$omp barrier $(at BARRIER)"
LEAVE Region: "!\$omp barrier $(at BARRIER)"
ENTER Region: "!\$omp implicit barrier $(at PAR)"
LEAVE Region: "!\$omp implicit barrier $(at PAR)"
LEAVE Region: "!\$omp parallel $(at PAR)"
THREAD_TEAM_END Thread Team: "OpenMP thread team"
EOF

# first_team EXP LOC LAST: location LOC's records up to its first LAST record, as
# "TYPE attributes" without definition ids
first_team()
{
    trace_events "$1" | awk -v loc="$2" -v last="$3" '$2 == loc && $1 != "PROGRAM_BEGIN" {
            line = $1; sub(/^[^ ]+ +[^ ]+ +[^ ]+ +/, ""); gsub(/ <[0-9]+>/, ""); print line " " $0
            if (line == last) exit }'
}

P2="!\$omp parallel $(at PAR2)"
for v in gcc clang plain; do
    omp_run $v gomp
    x=$exp
    expect_eq "$(cat gomp_$v.out)" "ran 1 undeferred 1 sum 18" "$v: program output"
    omp_consistent $x "$v"
    expect_eq "$(first_team $x 0 THREAD_JOIN)" "$(cat expected0)" "$v: the master's records of the first team"
    expect_eq "$(first_team $x "$(loc_id 0 1)" THREAD_TEAM_END)" "$(cat expected1)" "$v: the worker's records of the first team"
    # the second region, 3 times: every thread creates a task and waits for it
    expect_eq "$(events $x THREAD_FORK 0)" 4 "$v: THREAD_FORK: 4 regions"
    expect_eq "$(events $x THREAD_TEAM_BEGIN)" 8 "$v: THREAD_TEAM_BEGIN: 4 teams of 2"
    expect_eq "$(events $x THREAD_TASK_CREATE)" 7 "$v: THREAD_TASK_CREATE: 1 + 3 x 2 (if(0) not recorded)"
    expect_eq "$(events $x THREAD_TASK_SWITCH)" 14 "$v: THREAD_TASK_SWITCH: to and from each task"
    expect_eq "$(per_loc $x "$P2")" "3 3" "$v: second region: 2 threads x 3"
    expect_eq "$(per_loc $x "$P2/!\$omp create task $(at TASK2)")" "3 3" "$v: a task created per thread"
    expect_eq "$(per_loc $x "$P2/!\$omp taskwait $(at WAIT2)")" "3 3" "$v: a taskwait per thread"
    expect_eq "$(visits $x "$P2/!\$omp task $(at TASK2)")" 6 \
        "$v: the tasks (below the parallel region in the profile)"
    expect_eq "$(per_loc $x "$P2/!\$omp implicit barrier $(at PAR2)")" "3 3" "$v: closing barriers"
    # gcc's line of the loop's start call differs from clang's: the loop by kind, named as
    # Score-P 8.4 names it (src/adapters/ompt/scorep_ompt_regions.inc.c:77, REGION_OMP_LOOP)
    expect_eq "$(nper_loc $x "!\$omp parallel/!\$omp for/do")" "3 3" \
        "$v: the unsigned long long loop, once per thread and region"
    # the OpenMP regions (the program's own region is named after its file), but the loop,
    # whose line gcc's line table gives the statement before it
    trace_defs $x | sed -n 's/^REGION .*Name: "\(!\$omp [^"]*\)".*/\1/p' | grep -v '^!\$omp for/do ' |
        sort >$v.regions
done
expect_eq "$(cat gcc.regions)" "$(cat clang.regions)" "gcc and clang: the same regions"
expect_eq "$(cat plain.regions)" "$(cat clang.regions)" "plain gcc and clang: the same regions"
done_ok
