#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_memory_full.sh: SCOREP_TOTAL_MEMORY far too small for the trace of calls.c: the
# program completes unchanged, each location that ran out warns once, the trace stays
# readable and well nested with a MeasurementOnOff(OFF) marker, the profile counts every call.
. "$top_srcdir/test/integration/lib.sh"

scorep_cc gcc -O2 -o calls "$PROGRAMS/calls.c" -lpthread
run_app full env SCOREP_TRACING_REDUCTION=none SCOREP_TOTAL_MEMORY=64k SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp ./calls
expect_eq "$status" 3 "exit status of the program"
expect_eq "$(cat full.out)" "recursion 150
done 1" "program output"

# --- warnings: one per affected location ---
warn_re='^\[scorep-rt\] warning: location ([0-9]+): SCOREP_TOTAL_MEMORY was used up; its trace stops early \(([0-9]+) events lost\)'
expect_eq "$(grep -c -v -E "$warn_re" full.err)" 0 "stderr holds only memory warnings"
expect_grep "$warn_re" full.err "warning about SCOREP_TOTAL_MEMORY"
expect_grep 'location 0: SCOREP_TOTAL_MEMORY' full.err "warning for location 0"
expect_grep 'Increase SCOREP_TOTAL_MEMORY' full.err "the warning says what to do"
warned=$(sed -n -E "s/$warn_re.*/\\1/p" full.err | sort -n)
expect_eq "$(echo "$warned" | uniq -d | wc -l | tr -d ' ')" 0 "at most one warning per location"
lost0=$(sed -n -E "s/$warn_re.*/\\1 \\2/p" full.err | awk '$1 == 0 { print $2 }')
expect_ge "$lost0" 1 "location 0: events lost reported"

# --- trace: readable, balanced, well nested, OFF marker ---
expect_file exp/traces.otf2 "trace written"
trace_file exp >/dev/null
expect_eq "$(trace_summary exp | awk '$1 == "ENTER" { e[$2] = $3 } $1 == "LEAVE" { l[$2] = $3 }
    END { for (k in e) if (e[k] != l[k]) bad++; for (k in l) if (e[k] != l[k]) bad++; print bad + 0 }')" \
    0 "ENTER/LEAVE balanced per location"
expect_eq "$(trace_check_nesting exp)" 0 "ENTER/LEAVE properly nested per location"
expect_eq "$(trace_check_order exp)" 0 "timestamps increasing per location"
expect_eq "$(trace_other exp | awk '$1 == "MEASUREMENT_ON_OFF" && $2 == 0' | sed 's/.*Mode: //')" OFF \
    "one MEASUREMENT_ON_OFF OFF marker on location 0"
expect_eq "$(trace_other exp | grep -c 'Mode: ON')" 0 "no MEASUREMENT_ON_OFF ON marker"
expect_eq "$(trace_other exp | awk '$1 == "MEASUREMENT_ON_OFF" { print int($2 / 4294967296) }' | sort -n | tr '\n' ' ')" \
    "$(echo "$warned" | tr '\n' ' ')" "OFF markers exactly on the locations that warned"
# After its OFF marker a location records nothing it measured: only the closing of the
# calls still open, and the final PROGRAM_END / THREAD_END.
expect_eq "$(trace_events exp | awk '
    $1 == "MEASUREMENT_ON_OFF" { off[$2] = 1; next }
    ($2 in off) && $1 != "LEAVE" && $1 != "PROGRAM_END" && $1 != "THREAD_END" { bad++ }
    END { print bad + 0 }')" 0 "no measured event after the OFF marker"
expect_ge "$(trace_count exp ENTER 0 leaf)" 1 "location 0: the trace begins with leaf calls"
expect_ge 1000000 "$(trace_count exp ENTER 0 leaf)" "location 0: fewer leaf calls than made"
# every enter and leave of location 0 that reached the trace buffer (2000352, of which 32 are
# the enters and leaves of 8 pthread_create and 8 pthread_join) is either in
# the trace or counted lost; the LEAVEs after the OFF marker are the writer's closing of the
# calls still open, not recorded events (how many there are depends on whether the memory
# ran out at an enter or a leave, i.e. on the page layout)
closing0=$(trace_events exp | awk '$2 != 0 { next } $1 == "MEASUREMENT_ON_OFF" { off = 1; next }
    off && $1 == "LEAVE" { n++ } END { print n + 0 }')
expect_eq "$((lost0 + $(trace_count exp ENTER 0) + $(trace_count exp LEAVE 0) - closing0))" 2000352 \
    "location 0: events lost + ENTER/LEAVE recorded = the 2000352 it made"
expect_eq "$(trace_other exp | awk '$1 == "PROGRAM_END"' | sed 's/.*Exit status: *//')" 3 \
    "PROGRAM_END with the exit status"

# --- the profile counts every call ---
expect_eq "$(profile_sum exp main/leaf visits)" 1000000 "profile: main/leaf visits"
expect_eq "$(profile_sum exp THREADS/thread_main/thread_work/leaf visits)" 8028 "profile: thread leaf visits"
expect_eq "$(profile_paths exp | awk -F/ 'NF > m { m = NF } END { print m }')" 99 "profile: deepest call path (100 with the program root)"
expect_eq "$(profile_locations exp)" 9 "profile: 9 locations"
done_ok
