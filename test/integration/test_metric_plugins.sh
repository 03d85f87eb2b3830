#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_metric_plugins.sh: SCOREP_METRIC_PLUGINS with test plugins built like third-party
# ones (test/plugins/synth.c) and the shipped plugins (plugins/): exact values of a strictly
# synchronous plugin, asynchronous values at their own timestamps, bad plugins.
. "$top_srcdir/test/integration/lib.sh"

export LD_LIBRARY_PATH="$top_builddir/test/plugins/.libs:$top_builddir/plugins/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
scorep_cc gcc -O1 -o metrics "$PROGRAMS/metrics.c" -lpthread

# synth_sync returns 1, 2, 3, ... per thread: the first read (location start) is 1, then
# main, spin, touch enter and leave read 2..7
run_app s1 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=s1 \
    SCOREP_METRIC_PLUGINS=synth_sync SCOREP_METRIC_SYNTH_SYNC=events ./metrics 0 0 0 0
expect_eq "$status" 0 "sync: exit status"
expect_eq "$(cat s1.err)" "" "sync: nothing on stderr"
expect_eq "$(trace_other s1 | awk '$1 == "METRIC"' | sed 's/.*; \([0-9]*\))$/\1/' | tr '\n' ' ')" \
    "2 3 4 5 6 7 " "sync: trace values are the plugin's 2..7, in order"
expect_eq "$(trace_events s1 | awk '$1 == "METRIC" { m = $3 } $1 == "ENTER" || $1 == "LEAVE" { print $3 - m }' | sort -u)" \
    0 "sync: each value has the timestamp of its enter/leave"
expect_eq "$(profile_isum s1 main events)" 5 "sync: profile inclusive events of main = 7 - 2"
expect_eq "$(profile_isum s1 main/spin events)" 1 "sync: profile inclusive events of spin = 4 - 3"
expect_eq "$(profile_sum s1 main events)" 3 "sync: profile exclusive events of main = 5 - 1 - 1"
trace_defs s1 >defs1.txt
expect_grep 'METRIC_MEMBER .*"events".*Type: OTHER, Mode: ACCUMULATED_START' defs1.txt \
    "sync: member type OTHER, ACCUMULATED_START"
expect_grep 'METRIC_CLASS .*SYNCHRONOUS_STRICT' defs1.txt "sync: class strictly synchronous"
# per thread: 2 workers, each its own counter: enter worker 2, enter spin 3, leave spin 4,
# leave worker 5: exclusive 3 - 1 = 2 on each worker location
run_app s2 env SCOREP_EXPERIMENT_DIRECTORY=s2 SCOREP_METRIC_PLUGINS=synth_sync \
    SCOREP_METRIC_SYNTH_SYNC=events ./metrics 0 0 2 0
expect_eq "$(profile_values s2 THREADS/worker events | sort | tr '\n' ' ')" "1 2 2 2 " \
    "sync per thread: exclusive 2 on each worker location"

# synth_opt (SYNC): reads 1..7 deliver 10, -, 30, -, 50, -, 70: a read without a value
# repeats the last one
run_app o1 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=o1 \
    SCOREP_METRIC_PLUGINS=synth_opt SCOREP_METRIC_SYNTH_OPT=events ./metrics 0 0 0 0
expect_eq "$status" 0 "optional: exit status"
expect_eq "$(trace_other o1 | awk '$1 == "METRIC"' | sed 's/.*; \([0-9]*\))$/\1/' | tr '\n' ' ')" \
    "10 30 30 50 50 70 " "optional: trace values, the last one repeated where none came"
expect_eq "$(profile_isum o1 main events)" 60 "optional: profile inclusive events of main = 70 - 10"
expect_eq "$(profile_isum o1 main/spin events)" 0 "optional: spin 30 - 30"
expect_grep 'METRIC_CLASS .*Occurrence: SYNCHRONOUS,' "$(trace_defs o1 >defs_o.txt; echo defs_o.txt)" \
    "optional: class synchronous"

# synth_async: values k*k+7 from the plugin's own thread, logged with their timestamps
run_app a1 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=a1 \
    SCOREP_METRIC_PLUGINS=synth_async SCOREP_METRIC_SYNTH_ASYNC=wave SYNTH_LOG="$work/wave.log" \
    SYNTH_COUNT=20 ./metrics 0 0 0 300
expect_eq "$status" 0 "async: exit status"
expect_eq "$(cat a1.err)" "" "async: nothing on stderr"
expect_ge "$(wc -l <wave.log)" 1 "async: the plugin produced values"
trace_other a1 | awk '$1 == "METRIC" && /"wave"/ { v = $NF; sub(/\)$/, "", v); print $3, v }' >wave.trace
expect_eq "$(cat wave.trace)" "$(cat wave.log)" \
    "async: trace has exactly the plugin's values at its timestamps ($(wc -l <wave.log) values)"
expect_eq "$(trace_other a1 | awk '$1 == "METRIC" { print $2 }' | sort -u)" 0 "async: on location 0"
expect_eq "$(trace_check_order a1)" 0 "async: events in time order"
trace_defs a1 >defs2.txt
expect_grep 'METRIC_MEMBER .*"wave".*Mode: ABSOLUTE_POINT' defs2.txt "async: member ABSOLUTE_POINT"
expect_grep 'METRIC_CLASS .*Occurrence: ASYNCHRONOUS' defs2.txt "async: class asynchronous"
expect_eq "$(profile_locations a1)" 1 "async: the plugin's thread is no location"
# a value taken when the plugin is told to stop lies after the program's end (finalize ends
# the measurement first): dropped without a word, as a sampling thread's last value can be
# (meminfo's under load); a value before the measurement (a plugin's wrong clock) is dropped
# with a warning
for extra in end early; do
    run_app "a_$extra" env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="a_$extra" \
        SCOREP_METRIC_PLUGINS=synth_async SCOREP_METRIC_SYNTH_ASYNC=wave SYNTH_COUNT=3 \
        SYNTH_EXTRA=$extra SYNTH_LOG="$work/wave_$extra.log" ./metrics 0 0 0 100
    expect_eq "$status" 0 "async, value at $extra: exit status"
    run_to "wave_$extra.txt" trace_other "a_$extra"
    expect_eq "$(awk '$1 == "METRIC" && /"wave"/ { n++; if ($NF == "999)") x++ } END { print n + 0, x + 0 }' \
        "wave_$extra.txt")" "$(wc -l <"wave_$extra.log" | tr -d ' ') 0" \
        "async, value at $extra: the run's values in the trace, not the extra one"
done
expect_eq "$(cat a_end.err)" "" "async, value at the stop: nothing on stderr"
expect_eq "$(cat a_early.err)" \
    "[scorep-rt] warning: location 0: 1 asynchronous metric values lie outside the measurement and were dropped" \
    "async, value before the measurement: one warning"

# bad input: one message each, measurement goes on with the good plugin
run_app b1 env SCOREP_EXPERIMENT_DIRECTORY=b1 \
    SCOREP_METRIC_PLUGINS=nosuchplugin,synth_newer,synth_noinfo,synth_sync,synth_sync \
    SCOREP_METRIC_SYNTH_NEWER=events SCOREP_METRIC_SYNTH_NOINFO=x \
    SCOREP_METRIC_SYNTH_SYNC=events,bogus ./metrics 0 0 0 0
expect_eq "$status" 0 "bad plugins: exit status"
expect_eq "$(grep -c "metric plugin 'nosuchplugin' not found.*libnosuchplugin.so" b1.err)" 1 \
    "bad plugins: not found, named"
expect_eq "$(grep -c "metric plugin 'synth_newer' (plugin_version 2) is not used: .*newer plugin interface" b1.err)" 1 \
    "bad plugins: newer plugin_version"
expect_eq "$(grep -c "metric plugin 'synth_noinfo': get_event_info returned no metrics for 'x'" b1.err)" 1 \
    "bad plugins: get_event_info returns NULL"
expect_eq "$(grep -c "metric plugin 'synth_sync': get_event_info returned no metrics for 'bogus'" b1.err)" 1 \
    "bad plugins: unknown token"
expect_eq "$(grep -c "metric plugin 'synth_sync' is listed twice" b1.err)" 1 \
    "bad plugins: listed twice, loaded once"
expect_eq "$(wc -l <b1.err | tr -d ' ')" 5 "bad plugins: nothing else on stderr"
expect_eq "$(profile_isum b1 main events)" 5 "bad plugins: synth_sync still recorded"

# shipped plugins: cputime (per thread, strictly synchronous) and meminfo (async, per host)
run_app c1 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=c1 \
    SCOREP_METRIC_PLUGINS=cputime SCOREP_METRIC_CPUTIME="*" ./metrics 0 200 0 0
expect_eq "$status" 0 "cputime: exit status"
expect_eq "$(cat c1.err)" "" "cputime: nothing on stderr"
expect_ge "$(profile_isum c1 main/spin thread_cpu)" 200000000 "cputime: spin >= its 200 ms (ns)"
cpu=$(sed -n 's/^cpu_ns //p' c1.out)
main=$(profile_isum c1 main thread_cpu)
expect_eq "$(awk -v a="$main" -v b="$cpu" 'BEGIN { d = a - b; if (d < 0) d = -d; print (d <= 0.1 * b) }')" 1 \
    "cputime: thread_cpu of main ($main ns) within 10% of the program's CPU time ($cpu ns)"
pmain=$(profile_isum c1 main process_cpu)
expect_eq "$(awk -v a="$pmain" -v b="$cpu" 'BEGIN { d = a - b; if (d < 0) d = -d; print (d <= 0.1 * b) }')" 1 \
    "cputime: process_cpu of main ($pmain ns) within 10% of the program's CPU time"
expect_eq "$(trace_count c1 METRIC)" 6 "cputime: one record per enter/leave (6)"
expect_eq "$(trace_other c1 | metric_values | awk '$1 == "METRIC"' | wc -l | tr -d ' ')" 12 \
    "cputime: 2 metrics x 6 enter/leave = 12 values"
expect_grep 'METRIC_CLASS +0  Occurrence: SYNCHRONOUS_STRICT, Kind: CPU, 2 Members: ' \
    "$(trace_defs c1 >defs_c.txt; echo defs_c.txt)" "cputime: one class of both metrics"
run_app m1 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=m1 \
    SCOREP_METRIC_PLUGINS=meminfo SCOREP_METRIC_MEMINFO=MemTotal \
    SCOREP_METRIC_MEMINFO_INTERVAL_US=5000 ./metrics 0 0 0 200
expect_eq "$status" 0 "meminfo: exit status"
expect_eq "$(cat m1.err)" "" "meminfo: nothing on stderr"
total=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
trace_other m1 | awk '$1 == "METRIC" && /"MemTotal"/ { v = $NF; sub(/\)$/, "", v); print v }' >memtotal.txt
# about 40 expected; a loaded machine may starve the sampling thread, so only "it samples
# repeatedly" is asserted
expect_ge "$(wc -l <memtotal.txt)" 2 "meminfo: >= 2 samples in 200 ms at 5 ms"
expect_eq "$(sort -u memtotal.txt)" "$total" "meminfo: every MemTotal sample is /proc/meminfo's ($total kB)"
expect_eq "$(profile_locations m1)" 1 "meminfo: the sampling thread is no location"
expect_eq "$(trace_check_order m1)" 0 "meminfo: events in time order"
done_ok
