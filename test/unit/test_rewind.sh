#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_rewind.sh: the core rewind interface called directly (test_rewind.c): discarding
# checks remove the events since their point and leave MeasurementOnOff OFF/ON in their
# place (Score-P's semantics); keeping checks change nothing; the profile keeps every visit.
. "$top_srcdir/test/integration/lib.sh"

run_app rw env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp \
    "$top_builddir/test/unit/test_rewind"
expect_eq "$status" 0 "exit status"
expect_eq "$(cat rw.out)" "rewinds done" "program output"
expect_eq "$(cat rw.err)" "" "no warning"

# trace: 5 kept blocks of 5 calls, the kept outer region of the last case
expect_eq "$(trace_count exp ENTER 0 rewind_block)" 5 "the 5 kept rewind blocks"
expect_eq "$(trace_count exp LEAVE 0 rewind_block)" 5 "... left"
expect_eq "$(trace_count exp ENTER 0 work)" 25 "5 calls in each kept block, none of the discarded"
expect_eq "$(trace_count exp ENTER 0 rewind_outer)" 1 "the outer region kept around a discarded inner one"
expect_eq "$(trace_other exp | grep -c 'MEASUREMENT_ON_OFF .*Mode: OFF')" 7 "one OFF per discard"
expect_eq "$(trace_other exp | grep -c 'MEASUREMENT_ON_OFF .*Mode: ON')" 7 "one ON per discard"
expect_eq "$(trace_events exp | awk '$1 == "MEASUREMENT_ON_OFF" { print $NF }' | uniq | wc -l | tr -d ' ')" 14 \
    "OFF and ON alternate"
expect_eq "$(trace_check_nesting exp)" 0 "ENTER/LEAVE properly nested"
expect_eq "$(trace_check_order exp)" 0 "timestamps increasing"
# the gap of the first discard: OFF, then ON, then the kept block i = 1
expect_eq "$(trace_events exp | awk '$1 == "MEASUREMENT_ON_OFF" || $1 == "ENTER"' | head -n 4 |
    awk '{ print $1 }' | tr '\n' ' ')" "MEASUREMENT_ON_OFF MEASUREMENT_ON_OFF ENTER ENTER " \
    "a discarded block is replaced by OFF and ON"
run_to markers otf2-marker exp/traces.otf2
expect_eq "$(grep -c '^MARKER .*Scope: LOCATION:0, Text: "rule=rewind param=[0-9]* removed=[0-9]*: rewind of region' markers)" \
    7 "one rewind marker per discard"
expect_eq "$(grep -c '^| 0 | Master thread | rewind | ' exp/MANIFEST.md)" 7 "MANIFEST.md lists the discards"

# profile: nothing discarded
expect_eq "$(profile_sum exp rewind_block visits)" 10 "profile: every top-level block"
expect_eq "$(profile_sum exp rewind_block/work visits)" 50 "profile: every call in them"
expect_eq "$(profile_sum exp rewind_outer visits)" 2 "profile: both outer regions"
expect_eq "$(profile_sum exp rewind_outer/rewind_block/work visits)" 5 "profile: calls in the nested ones"
done_ok
