#!/bin/sh
# test_metric_papi.sh: SCOREP_METRIC_PAPI(_PER_PROCESS, _SEP): an unknown or uncountable
# event gets one clear message and the run goes on; perf::TASK-CLOCK of main agrees with
# the CPU time and perf::PAGE-FAULTS with the pages, counted by PAPI where its perf_event
# component works and through perf_event_open (metric_perf.c) where it is disabled.
. "$top_srcdir/test/integration/perf_metrics.sh"
. "$top_srcdir/test/integration/lib.sh"

scorep_cc gcc -O1 -o metrics "$PROGRAMS/metrics.c" -lpthread

run_app p1 env SCOREP_EXPERIMENT_DIRECTORY=p1 SCOREP_METRIC_PAPI="NO_SUCH_EVENT:PAPI_TOT_CYC" \
    SCOREP_METRIC_PAPI_SEP=":" SCOREP_METRIC_RUSAGE=ru_minflt ./metrics 100 0 0 0
expect_eq "$status" 0 "bad events: exit status"
expect_eq "$(grep -c "PAPI event 'NO_SUCH_EVENT' cannot be counted here.*papi_avail -a and papi_native_avail" p1.err)" 1 \
    "bad events: one message naming NO_SUCH_EVENT and how to list events"
# PAPI_TOT_CYC counts where there is a hardware PMU (not on this project's VMs)
n_cyc=$(grep -c "PAPI event 'PAPI_TOT_CYC' cannot be counted here" p1.err || true)
expect_eq "$(wc -l <p1.err | tr -d ' ')" $((1 + n_cyc)) "bad events: one line per bad event"
expect_ge "$(profile_isum p1 main/touch ru_minflt)" 100 "bad events: the measurement goes on"

# Where PAPI's perf_event component is disabled (this project's VMs: libpfm4 knows no PMU
# of their CPU) the perf:: software events are counted without PAPI, said in one line.
fallback=0
papi_command_line perf::TASK-CLOCK 2>&1 | grep -q '^perf::TASK-CLOCK : ' || fallback=1
fb_line="[scorep-rt] warning: SCOREP_METRIC_PAPI: PAPI's perf_event component is disabled here"
# expect_stderr FILE EVENTS: nothing, or (fallback) the one line naming EVENTS
expect_stderr()
{
    if [ $fallback = 0 ]; then
        expect_eq "$(cat "$1")" "" "$1: nothing on stderr (PAPI counts perf:: events here)"
    else
        expect_eq "$(wc -l <"$1" | tr -d ' ')" 1 "$1: one line (the fallback)"
        expect_eq "$(grep -c -F "$fb_line" "$1")" 1 "$1: the line says PAPI's component is disabled"
        expect_grep "so $2 (is|are) counted with perf_event_open directly, under the same names? and with PAPI's semantics" \
            "$1" "$1: the line names $2"
    fi
}

s0=$(stolen_ns)
run_app p2 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=p2 \
    SCOREP_METRIC_PAPI=perf::TASK-CLOCK,perf::PAGE-FAULTS ./metrics 2000 500 0 0
st=$(($(stolen_ns) - s0))
expect_eq "$status" 0 "perf: exit status"
expect_stderr p2.err "perf::TASK-CLOCK, perf::PAGE-FAULTS"
cpu=$(sed -n 's/^cpu_ns //p' p2.out)
main=$(profile_isum p2 main perf::TASK-CLOCK)
expect_eq "$(within10 "$main" "$cpu" "$st")" 1 \
    "perf::TASK-CLOCK of main ($main ns) within 10% of the program's CPU time ($cpu ns, + $st ns stolen)"
expect_ge "$(profile_isum p2 main/touch perf::PAGE-FAULTS)" 2000 "perf::PAGE-FAULTS of touch >= 2000 pages"
expect_eq "$(trace_count p2 METRIC)" 12 "perf: 2 events x 6 enter/leave"
trace_events p2 >p2.events
expect_eq "$(metric_decreases p2.events)" 0 "perf: every metric's values never decrease in the trace"
expect_leaf_deltas p2 p2.events perf perf::TASK-CLOCK perf::PAGE-FAULTS
trace_defs p2 >defs.txt
expect_grep 'METRIC_MEMBER .*"perf::TASK-CLOCK".*Type: PAPI, Mode: ACCUMULATED_START, Value Type: UINT64.*Unit: "#"' \
    defs.txt "perf: member perf::TASK-CLOCK: type PAPI, unit # (as Score-P's PAPI source)"

# the same program unchanged under scorep-run (gcc -finstrument-functions only)
gcc -O1 -finstrument-functions -o metrics_plain "$PROGRAMS/metrics.c" -lpthread || fail "gcc failed"
s0=$(stolen_ns)
run_app p3 env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_EXPERIMENT_DIRECTORY=p3 \
    SCOREP_METRIC_PAPI=perf::TASK-CLOCK "$top_builddir/scorep-run" ./metrics_plain 0 500 0 0
st=$(($(stolen_ns) - s0))
expect_eq "$status" 0 "scorep-run: exit status"
expect_stderr p3.err perf::TASK-CLOCK
cpu=$(sed -n 's/^cpu_ns //p' p3.out)
main=$(profile_isum p3 main perf::TASK-CLOCK)
expect_eq "$(within10 "$main" "$cpu" "$st")" 1 \
    "scorep-run: perf::TASK-CLOCK of main ($main ns) within 10% of the CPU time ($cpu ns, + $st ns stolen)"

# pthreads: each worker counts its own 50 ms; the per-process list only on location 0
s0=$(stolen_ns)
run_app p4 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=p4 \
    SCOREP_METRIC_PAPI=perf::TASK-CLOCK SCOREP_METRIC_PAPI_PER_PROCESS=perf::MINOR-FAULTS \
    ./metrics 0 0 2 0
st=$(($(stolen_ns) - s0))
expect_eq "$status" 0 "pthreads: exit status"
for loc in 1 2; do
    v=$(profile_isum p4 THREADS/worker/spin perf::TASK-CLOCK $loc)
    expect_ge "$v" 47500000 "pthreads: perf::TASK-CLOCK of spin on location $loc >= 95% of 50 ms"
    expect_ge $((75000000 + st)) "$v" "pthreads: perf::TASK-CLOCK of spin on location $loc <= 75 ms (its own)"
done
expect_eq "$(trace_other p4 | awk '$1 == "METRIC" && /"perf::MINOR-FAULTS"/ { print $2 }' | sort -u | tr '\n' ' ')" \
    "0 " "per process: perf::MINOR-FAULTS only on location 0"

[ $fallback = 1 ] || { done_ok; exit 0; }
# qualifiers: u, k, h (=0/1) apply; the fallback cannot apply others and says so
run_app p5 env SCOREP_EXPERIMENT_DIRECTORY=p5 \
    SCOREP_METRIC_PAPI="perf::PAGE-FAULTS:u=1,perf::TASK-CLOCK:period=1000,perf::NO-SUCH-EVENT" \
    ./metrics 300 0 0 0
expect_eq "$status" 0 "qualifiers: exit status"
expect_eq "$(grep -c "PAPI event 'perf::TASK-CLOCK:period=1000': the qualifier 'period=1000' is not supported when perf:: events are counted without PAPI" p5.err)" 1 \
    "qualifiers: one message for period="
expect_eq "$(grep -c "PAPI event 'perf::NO-SUCH-EVENT' cannot be counted here" p5.err)" 1 \
    "qualifiers: an unknown perf:: name gets PAPI's message"
expect_eq "$(wc -l <p5.err | tr -d ' ')" 3 "qualifiers: 3 lines (2 refused, 1 fallback)"
# (the name holds a '=': the value is after the last one)
expect_ge "$(profile_dump p5 -i -m perf::PAGE-FAULTS:u=1 | awk -F'\t' '$2 == "main/touch" { sub(/.*=/, "", $4); print $4 }')" \
    300 "qualifiers: perf::PAGE-FAULTS:u=1 counts the 300 pages of touch"
done_ok
