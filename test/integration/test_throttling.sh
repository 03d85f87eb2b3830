#!/bin/sh
# test_throttling.sh: a compiler-instrumented function whose call path reaches
# SCOREP_THROTTLING_CALLS visits with a short mean is no longer timed or traced; its visits
# stay exact, the rest counted under scorep_throttled_from_visit=N; slow functions and
# SCOREP_THROTTLING=false are not affected.
. "$top_srcdir/test/integration/lib.sh"

scorep_cc gcc -O2 -o throttle "$PROGRAMS/throttle.c"
run_app th env SCOREP_THROTTLING=true SCOREP_THROTTLING_CALLS=1000 SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=exp ./throttle
expect_eq "$status" 0 "exit status"
expect_eq "$(cat th.out)" "done 12497545" "program output"
expect_eq "$(cat th.err)" "" "no warning"

# profile: timed visits up to the threshold, then counted without time
expect_eq "$(profile_sum exp main/tiny visits)" 5000 "profile: every call of tiny from main"
expect_eq "$(profile_sum exp main/tiny/scorep_throttled_from_visit=1001 visits)" 4000 \
    "profile: 4000 of them not measured, from visit 1001 on"
expect_eq "$(profile_sum exp main/tiny/scorep_throttled_from_visit=1001 time)" 0 "... no time"
expect_eq "$(profile_sum exp main/caller/tiny visits)" 10 "profile: every call from caller"
expect_eq "$(profile_sum exp main/caller/tiny/scorep_throttled_from_visit=1 visits)" 10 \
    "profile: a new call path of a throttled function is unmeasured from its first visit"
expect_eq "$(profile_sum exp main/caller visits)" 1 "profile: caller"
expect_eq "$(profile_sum exp main/slowish visits)" 1100 "profile: slowish (50 us) timed"
expect_eq "$(profile_paths exp | grep -c 'slowish/scorep_throttled')" 0 "slowish not throttled"

# trace: the throttled region is absent after the threshold
expect_eq "$(trace_count exp ENTER 0 tiny)" 1000 "trace: tiny's first 1000 calls only"
expect_eq "$(trace_count exp LEAVE 0 tiny)" 1000 "... with their leaves"
expect_eq "$(trace_count exp ENTER 0 slowish)" 1100 "trace: every slowish call"
expect_eq "$(trace_count exp ENTER 0 caller)" 1 "trace: caller"
expect_eq "$(trace_check_nesting exp)" 0 "nesting valid"

# SCOREP_THROTTLING=false: everything measured
run_app off env SCOREP_THROTTLING=false SCOREP_THROTTLING_CALLS=1000 SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=off ./throttle
expect_eq "$(profile_sum off main/tiny visits)" 5000 "off: all 5000 calls timed"
expect_eq "$(profile_sum off main/caller/tiny visits)" 10 "off: all 10 calls timed"
expect_eq "$(trace_count off ENTER 0 tiny)" 5010 "off: all 5010 calls traced"

# bad input
run_app bad env SCOREP_THROTTLING=true SCOREP_THROTTLING_MEAN=fast ./throttle
expect_eq "$status" 1 "a bad mean stops the program at start"
expect_grep "SCOREP_THROTTLING_MEAN='fast': expected a duration" bad.err "clear message"
done_ok
