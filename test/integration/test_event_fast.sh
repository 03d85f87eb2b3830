#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_event_fast.sh: the compiler adapters' fast path of a measured call (core/events.h,
# scorep_event_enter_fast_as) gives the same profile and trace as the general path, and
# hands it every case it does not take: recording switched off (SCOREP_RECORDING_OFF), a
# call stack deeper than its first 256 levels, the profile's depth limit, the visit that
# throttles, a metric source read at every event, new trace pages, a timer other than the
# TSC, a minimum duration, a leave whose calls' exits were lost; in each mode (profiling, tracing, both) and under both
# instrumentations (-finstrument-functions, the GCC plugin), and for user regions (the user
# adapter's SCOREP_USER_REGION_BEGIN/END take the same path).
# Expectations from test/programs/event_fast.c's and lost_exits.c's design.
. "$top_srcdir/test/integration/lib.sh"

check_fast() # INSTRUMENTATION
{
    m=$1
    if [ "$m" = plugin ]; then
        # leaf() is below the plugin's default threshold: keep it
        scorep_cc --user --instrument=plugin --instrument-threshold=0 gcc -O2 -o "fast_$m" \
            "$PROGRAMS/event_fast.c"
    elif [ "$m" = user ]; then
        scorep_cc --user --nocompiler gcc -O2 -DUSER_REGIONS -o "fast_$m" "$PROGRAMS/event_fast.c"
    else
        scorep_cc --user --instrument=functions gcc -O2 -o "fast_$m" "$PROGRAMS/event_fast.c"
    fi
    # sink: the sum of 0..2999, 300 (recurse), 0..76, 0..4 and 0..6
    out="done $((2999 * 3000 / 2 + 300 + 76 * 77 / 2 + 10 + 21))"
    for mode in profile trace both; do
        p=false t=false
        [ $mode = trace ] || p=true
        [ $mode = profile ] || t=true
        e=${m}_$mode
        # throttled at visit 1000 (a mean of 1 s keeps leaf()'s decision a property of the
        # program); 50 call-path levels: the program root, main and 48 of recurse
        run_app "$e" env SCOREP_ENABLE_PROFILING=$p SCOREP_ENABLE_TRACING=$t \
            SCOREP_THROTTLING=true SCOREP_THROTTLING_CALLS=1000 SCOREP_THROTTLING_MEAN=1s \
            SCOREP_PROFILING_MAX_CALLPATH_DEPTH=50 SCOREP_EXPERIMENT_DIRECTORY="$e" "./fast_$m"
        expect_eq "$status" 0 "$e: exit status"
        expect_eq "$(cat "$e.out")" "$out" "$e: program output"
        expect_eq "$(cat "$e.err")" "" "$e: nothing on stderr"
        if [ $p = true ]; then
            expect_eq "$(profile_sum "$e" main/leaf visits)" 3000 "$e: every call of leaf"
            # user regions are never throttled (docs/user-guide.md, 5a)
            expect_eq "$(profile_sum "$e" main/leaf/scorep_throttled_from_visit=1001 visits)" \
                "$([ "$m" = user ] && echo 0 || echo 2000)" \
                "$e: leaf throttled at its visit 1000, exactly (user regions: never)"
            expect_eq "$(profile_paths "$e" | grep -c '^main/recurse')" 48 \
                "$e: 48 levels of recurse below the root and main (depth limit 50)"
            deep=$(profile_paths "$e" | awk -F/ 'NF == 49 && $2 == "recurse"')
            expect_eq "$(profile_sum "$e" "$deep" visits)" 1 "$e: the deepest recurse path: 1 visit"
            expect_eq "$(profile_sum "$e" main/off_leaf visits)" 5 \
                "$e: off_leaf: only the 5 calls made while recording was on"
            expect_eq "$(profile_sum "$e" main visits)" 1 "$e: main"
            expect_eq "$(profile_sum "$e" main/rewound/rw_leaf visits)" 7 \
                "$e: rw_leaf: the profile keeps the 7 rewound calls"
        fi
        if [ $t = true ]; then
            expect_eq "$(trace_count "$e" ENTER 0 leaf) $(trace_count "$e" LEAVE 0 leaf)" \
                "$([ $p = true ] && [ "$m" != user ] && echo 1000 1000 || echo 3000 3000)" \
                "$e: trace: leaf's calls (the first 1000 when the profile throttles it)"
            expect_eq "$(trace_count "$e" ENTER 0 recurse) $(trace_count "$e" LEAVE 0 recurse)" \
                "300 300" "$e: trace: recurse, all 300 levels"
            expect_eq "$(trace_count "$e" ENTER 0 off_leaf)" 5 "$e: trace: off_leaf while on only"
            # the rewind discards rw_leaf's 7 calls, leaving an OFF and an ON in their place;
            # had a fast leave not popped its call, the check would be at another call level
            # than its point: a warning (nothing on stderr, above) and the calls kept
            expect_eq "$(trace_count "$e" ENTER 0 rw_leaf) $(trace_count "$e" ENTER 0 rewound)" \
                "0 0" "$e: trace: the rewound calls discarded"
            expect_eq "$(trace_count "$e" MEASUREMENT_ON_OFF 0)" 4 \
                "$e: trace: recording off and on, and the rewind's OFF and ON"
            expect_eq "$(trace_check_nesting "$e")" 0 "$e: trace: nesting valid"
            expect_eq "$(trace_check_order "$e")" 0 "$e: trace: timestamps increase"
        fi
    done
    # The fast path reads the TSC only while it is the timer (the event gate, base/state.h):
    # with SCOREP_TIMER=clock_gettime every timestamp is CLOCK_MONOTONIC's nanoseconds and the
    # run spans well under a minute of them (a TSC reading among them lies hours away: the
    # TSC counts cycles since boot). Profiling: the program root's inclusive time, which
    # begins and ends at clock_gettime readings of the runtime itself; tracing: location 0's
    # first and last timestamps (ProgramBegin and ProgramEnd).
    for mode in profile trace; do
        p=false t=false
        [ $mode = trace ] || p=true
        [ $mode = profile ] || t=true
        e=${m}_clock_$mode
        run_app "$e" env SCOREP_ENABLE_PROFILING=$p SCOREP_ENABLE_TRACING=$t \
            SCOREP_TIMER=clock_gettime SCOREP_EXPERIMENT_DIRECTORY="$e" "./fast_$m"
        expect_eq "$status" 0 "$e: exit status"
        expect_eq "$(cat "$e.err")" "" "$e: nothing on stderr"
        if [ $p = true ]; then
            expect_eq "$(profile_sum "$e" main/leaf visits)" 3000 "$e: every call of leaf"
            expect_eq "$(profile_isum "$e" . time | awk '{ print ($1 >= 0 && $1 < 60) }')" 1 \
                "$e: the run's inclusive time under 60 s ($(profile_isum "$e" . time) s)"
        else
            expect_eq "$(trace_count "$e" ENTER 0 leaf)" 3000 "$e: trace: leaf"
            run_to "$e.events" trace_events "$e"
            span=$(awk '$2 == 0 { if (n++ == 0) a = $3; b = $3 } END { print b - a }' "$e.events")
            expect_eq "$(echo "$span" | awk '{ print ($1 > 0 && $1 < 60e9) }')" 1 \
                "$e: trace: location 0 spans under 60 s of nanoseconds ($span)"
        fi
    done
    # A minimum duration (one field with the stream depth's bound, buffer.h's
    # fast_leave_depth): every call of leaf lasts microseconds, so with 1 s none stays in the
    # trace (the leaves that pop them are the general path's), while the profile keeps all
    e=${m}_mindur
    run_app "$e" env SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=true \
        SCOREP_THROTTLING=false SCOREP_TRACING_MIN_DURATION=1s SCOREP_EXPERIMENT_DIRECTORY="$e" \
        "./fast_$m"
    expect_eq "$status" 0 "$e: exit status"
    expect_eq "$(cat "$e.err")" "" "$e: nothing on stderr"
    expect_eq "$(profile_sum "$e" main/leaf visits)" 3000 "$e: profile: every call of leaf"
    expect_eq "$(trace_count "$e" ENTER 0 leaf) $(trace_count "$e" LEAVE 0 leaf)" "0 0" \
        "$e: trace: no call of leaf (all shorter than 1 s)"
    # A metric source read at every event, tracing only: each Enter and Leave of the calls
    # recorded has its Metric record (none at all if the fast path took them)
    e=${m}_metric
    run_app "$e" env SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true \
        SCOREP_METRIC_RUSAGE=ru_minflt SCOREP_EXPERIMENT_DIRECTORY="$e" "./fast_$m"
    expect_eq "$status" 0 "$e: exit status"
    expect_eq "$(cat "$e.err")" "" "$e: nothing on stderr"
    expect_eq "$(trace_count "$e" ENTER 0 leaf)" 3000 "$e: trace: leaf"
    regions=$(($(trace_count "$e" ENTER 0) + $(trace_count "$e" LEAVE 0)))
    expect_eq "$(trace_count "$e" METRIC 0)" "$regions" \
        "$e: one Metric record per Enter and Leave ($regions)"
}

# Leaves whose calls' exits were lost (test/programs/lost_exits.c: inner and outer left by
# __builtin_longjmp, which the runtime does not see; longjmp's: test_longjmp.sh): main's
# leave finds inner's Enter last in its depth's stream, which the traced fast leave tests
# for its region (session 18: instead of the call stack's), so it takes the general path,
# which leaves inner and outer first: one Enter and one Leave per function,
# well nested, and in the profile after() below inner, where the call stack had it.
check_lost_exits() # INSTRUMENTATION
{
    m=$1
    if [ "$m" = plugin ]; then
        scorep_cc --instrument=plugin --instrument-threshold=0 gcc -O2 -o "lost_$m" \
            "$PROGRAMS/lost_exits.c"
    else
        scorep_cc --instrument=functions gcc -O2 -o "lost_$m" "$PROGRAMS/lost_exits.c"
    fi
    for mode in trace both; do
        p=false
        [ $mode = trace ] || p=true
        e=lost_${m}_$mode
        run_app "$e" env SCOREP_ENABLE_PROFILING=$p SCOREP_ENABLE_TRACING=true \
            SCOREP_EXPERIMENT_DIRECTORY="$e" "./lost_$m"
        expect_eq "$status" 0 "$e: exit status"
        expect_eq "$(cat "$e.out")" "done 3" "$e: program output"
        for f in main outer inner after; do
            expect_eq "$(trace_count "$e" ENTER 0 $f) $(trace_count "$e" LEAVE 0 $f)" "1 1" \
                "$e: trace: one Enter and one Leave of $f"
        done
        expect_eq "$(trace_check_nesting "$e")" 0 "$e: trace: nesting valid"
        expect_eq "$(trace_check_order "$e")" 0 "$e: trace: timestamps increase"
        if [ $p = true ]; then
            expect_eq "$(profile_sum "$e" main/outer/inner/after visits)" 1 \
                "$e: profile: after() below inner, where the call stack had it"
        fi
    done
}

check_fast functions
check_lost_exits functions
check_fast user
if [ -f "$SCOREP_CC_GCC_PLUGIN" ]; then
    check_fast plugin
    check_lost_exits plugin
else
    skip_part "the GCC plugin (gcc's plugin headers)"
fi
done_ok
