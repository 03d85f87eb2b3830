#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_stop_warnings.sh: test/omp/wide_team.c traced in too little SCOREP_TOTAL_MEMORY,
# so that the master and all 39 workers stop recording: the first 16 locations warn one line
# each, the other 24 share one line with their count and their lost events (the OpenMP V&V
# suite's 1000-thread taskloop tests wrote 335 lines before); MANIFEST.md still lists every
# location's stop, and the lost events of the summary line are the rest of its rows'.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

one='^\[scorep-rt\] warning: location ([0-9]+): SCOREP_TOTAL_MEMORY was used up; its trace stops early \(([0-9]+) events lost\)'
more='^\[scorep-rt\] warning: ([0-9]+) more locations: SCOREP_TOTAL_MEMORY was used up; their traces stop early \(([0-9]+) events lost; MANIFEST.md lists them\)$'
for cc in gcc clang; do
    scorep_cc --instrument=functions $cc -O2 -fopenmp -o "wide_$cc" "$OMP_SRC/wide_team.c"
    x=exp_$cc
    # no reduction, no reserve for late threads: every location that asks for a page stops
    run_app "$cc" env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_PROFILING=false \
        SCOREP_TOTAL_MEMORY=256k SCOREP_TRACING_REDUCTION=none SCOREP_TEST_MEMORY_RESERVE=0 \
        SCOREP_EXPERIMENT_DIRECTORY=$x "./wide_$cc"
    expect_eq "$status" 0 "$cc: exit status"
    expect_eq "$(cat "$cc.out")" "threads 40" "$cc: program output"
    expect_eq "$(grep -c -v -E "$one|$more|SCOREP_TOTAL_MEMORY ran short" "$cc.err")" 0 \
        "$cc: stderr holds only memory warnings"
    expect_eq "$(grep -c -E "$one" "$cc.err")" 16 "$cc: one line for each of the first 16 locations"
    expect_eq "$(grep -c -E "$more" "$cc.err")" 1 "$cc: one line for the rest"
    expect_eq "$(sed -n -E "s/$one.*/\\1/p" "$cc.err" | sort -n | uniq | wc -l | tr -d ' ')" 16 \
        "$cc: 16 different locations"
    # MANIFEST.md: a stop row per location that stopped (rank, location, step, time, lost)
    awk -F'|' '$4 ~ /^ stop $/ { gsub(/ /, "", $6); print $6 }' $x/MANIFEST.md >stops_$cc
    expect_eq "$(wc -l <stops_$cc | tr -d ' ')" 40 "$cc: MANIFEST.md lists the 40 stops"
    expect_eq "$(sed -n -E "s/$more/\\1/p" "$cc.err")" 24 "$cc: the summary counts the other 24"
    all=$(awk '{ s += $1 } END { print s + 0 }' stops_$cc)
    first=$(sed -n -E "s/$one.*/\\2/p" "$cc.err" | awk '{ s += $1 } END { print s + 0 }')
    expect_ge "$all" 40 "$cc: every stopped location lost events"
    expect_eq "$(sed -n -E "s/$more/\\2/p" "$cc.err")" "$((all - first))" \
        "$cc: the summary's lost events are the other locations' in MANIFEST.md"
    expect_defs_clean $x "$cc"
done
done_ok
