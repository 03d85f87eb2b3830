#!/bin/sh
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
expect_eq "$(trace_count exp ENTER 0 fast)" 0 "trace: none of the 1005 short calls"
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
