#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_team_starved.sh: test/omp/team_starved.c traced in too little SCOREP_TOTAL_MEMORY
# (XSBench's serial setup did this): the master reduces its trace and records on, the worker
# finds no free page and its trace stops, so its team-begin records of the later parallel
# regions are missing. The team communicators stay valid OTF2 (no invalid member location,
# as otf2-print reads them): the regions take the team the worker's kept records name, and
# where the worker kept none the master's team events name no team (UNDEFINED). The pool's
# reserve for threads that start late (docs/user-guide.md §5) prevents this; the runs switch it
# off (SCOREP_TEST_MEMORY_RESERVE=0) to reach the state a thread is in when the reserve is gone
# too (test_omp_serial_fill.sh tests the reserve).
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

stop='^\[scorep-rt\] warning: location 1: SCOREP_TOTAL_MEMORY was used up; its trace stops early'
# team_refs EXPDIR LOC: the team of each THREAD_TEAM_BEGIN of location LOC, counted
team_refs()
{
    trace_other "$1" | awk -v l="$2" '$1 == "THREAD_TEAM_BEGIN" && $2 == l {
        sub(/.*Thread Team: /, ""); n[$0]++ } END { for (k in n) print n[k], k }'
}

for cc in gcc clang; do
    scorep_cc --instrument=functions $cc -O2 -fopenmp -o "starved_$cc" "$OMP_SRC/team_starved.c"
    for mode in early late; do
        x=exp_${cc}_$mode
        # no flush: the worker's trace stops instead of spilling; min_duration frees the
        # master's pages of leaf calls, so the master keeps its 200 team begins
        run_app "${cc}_$mode" env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_PROFILING=false \
            SCOREP_TOTAL_MEMORY=256k SCOREP_TRACING_REDUCTION=min_duration SCOREP_TEST_MEMORY_RESERVE=0 \
            OMP_NUM_THREADS=2 \
            SCOREP_EXPERIMENT_DIRECTORY=$x "./starved_$cc" $mode
        expect_eq "$status" 0 "$cc $mode: exit status"
        expect_eq "$(cat "${cc}_$mode.out")" "regions 200" "$cc $mode: program output"
        expect_grep "$stop" "${cc}_$mode.err" "$cc $mode: the worker's trace stopped (the precondition)"
        expect_defs_clean $x "$cc $mode"
        expect_eq "$(trace_count $x THREAD_TEAM_BEGIN 0)" 200 "$cc $mode: the master's 200 team begins"
    done
    # early: the worker recorded some regions before it stopped, so its team is known and
    # every region names it: both locations as members, in thread-number order
    x=exp_${cc}_early
    worker=$(team_refs $x "$(loc_id 0 1)")
    expect_eq "$(echo "$worker" | wc -l | tr -d ' ')" 1 "$cc early: the worker's regions name one team"
    expect_ge "$(echo "$worker" | cut -d' ' -f1)" 1 "$cc early: the worker kept team begins"
    expect_ge 199 "$(echo "$worker" | cut -d' ' -f1)" "$cc early: the worker lost team begins"
    expect_eq "$(team_refs $x 0)" "200 ${worker#* }" "$cc early: every master team begin names the worker's team"
    trace_defs $x >"defs_$cc.txt"
    expect_eq "$(grep -c 'Type: COMM_GROUP, Paradigm: OPENMP' "defs_$cc.txt")" 1 "$cc early: one OpenMP team group"
    expect_grep 'Type: COMM_GROUP, Paradigm: OPENMP, Flags: NONE, 2 Members: 0 \("Master thread" <0>\), 1 \("OMP thread 1" <4294967296>\)$' \
        "defs_$cc.txt" "$cc early: the team group holds both threads"
    # late: the worker started after the memory was gone and recorded no team: none is named
    x=exp_${cc}_late
    expect_eq "$(trace_count $x THREAD_TEAM_BEGIN "$(loc_id 0 1)")" 0 "$cc late: the worker recorded no team begin"
    expect_eq "$(team_refs $x 0)" "200 UNDEFINED" "$cc late: the master's team begins name no team"
    if [ -x "$top_builddir/scorep-analyze" ]; then
        run_to an_$cc.out "$top_builddir/scorep-analyze" $x
        expect_grep '^scorep-analyze: wrote ' an_$cc.out "$cc late: scorep-analyze reads the trace"
    else
        skip_part "scorep-analyze ($cc late trace)"
    fi
done
done_ok
