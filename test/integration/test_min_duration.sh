#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_min_duration.sh: SCOREP_TRACING_MIN_DURATION removes calls shorter than it from the
# trace at their leave (the calls around them stay, well nested); the profile counts all.
. "$top_srcdir/test/integration/lib.sh"

scorep_cc gcc -O2 -o durations "$PROGRAMS/durations.c"
run_app md env SCOREP_TRACING_MIN_DURATION=500us SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=exp ./durations
expect_eq "$status" 0 "exit status"
expect_eq "$(cat md.out)" "done" "program output"
expect_eq "$(cat md.err)" "" "no warning: nothing was reduced for memory"
expect_eq "$(trace_count exp ENTER 0 slow)" 5 "trace: the 5 calls of 2 ms kept"
expect_eq "$(trace_count exp LEAVE 0 slow)" 5 "... with their leaves"
expect_eq "$(trace_count exp ENTER 0 main)" 1 "trace: main kept"
# fast() takes nanoseconds by design, but a loaded machine may preempt a call of it for
# longer than 500 us: such a call is rightly kept. So the check is exact instead of "none":
# every call of fast left in the trace lasted >= 500 us (ticks per second from the trace's
# clock properties), and almost all of them are gone
tps=$(trace_defs exp | sed -n 's/^CLOCK_PROPERTIES.*Ticks per Seconds: \([0-9]*\),.*/\1/p')
expect_ge "$tps" 1000000 "trace: clock properties read ($tps ticks per second)"
trace_events exp >exp.events
expect_eq "$(awk -v tps="$tps" '$2 == 0 && /Region: "fast"/ {
        if ($1 == "ENTER") t = $3; else if ($1 == "LEAVE" && ($3 - t) * 1e6 < 500 * tps) short++ }
        END { print short + 0 }' exp.events)" 0 "trace: no call of fast shorter than 500 us kept"
kept=$(trace_count exp ENTER 0 fast)
expect_ge 50 "$kept" "trace: at most 50 of the 1005 calls of fast (those preempted for 500 us) kept: $kept"
expect_eq "$(trace_check_nesting exp)" 0 "nesting valid"
expect_eq "$(trace_check_order exp)" 0 "timestamps increasing"
expect_no_grep 'What the trace lacks' exp/MANIFEST.md "a chosen minimum duration is no reduction"
expect_eq "$(profile_sum exp main/fast visits)" 1000 "profile: every call of fast from main"
expect_eq "$(profile_sum exp main/slow/fast visits)" 5 "profile: every call of fast from slow"
expect_eq "$(profile_sum exp main/slow visits)" 5 "profile: slow"

# without it every call is traced
run_app all env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=all ./durations
expect_eq "$(trace_count all ENTER 0 fast)" 1005 "default: all 1005 calls of fast traced"

# bad input gets a clear message
run_app bad env "SCOREP_TRACING_MIN_DURATION=10 us" SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=bad ./durations
expect_eq "$status" 1 "a bad duration stops the program at start"
expect_grep "SCOREP_TRACING_MIN_DURATION='10 us': expected a duration such as 0, 500ns, 10us, 2ms or 1s" \
    bad.err "the message names the variable and the accepted forms"
done_ok
