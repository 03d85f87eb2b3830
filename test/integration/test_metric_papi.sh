#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_metric_papi.sh: SCOREP_METRIC_PAPI(_PER_PROCESS, _SEP): an unknown or uncountable
# event gets one clear message and the run goes on; perf::TASK-CLOCK of main lies between the
# program's own task-clock counts of its thread, and the fault counters of spin and touch
# between the program's own fault counts of their bodies and calls; per-thread and
# per-process lists together with pthreads and OpenMP threads record every metric where it
# belongs. Two parts:
# the real PAPI path (where PAPI's perf_event component counts; a counted skip elsewhere) and
# the fallback through perf_event_open (metric_perf.c), which runs everywhere: where PAPI
# counts, SCOREP_TEST_PAPI_DISABLE_COMPONENT=perf_event disables PAPI's real component.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/integration/perf_metrics.sh"

scorep_cc gcc -O1 -o metrics "$PROGRAMS/metrics.c" -lpthread
omp=0
if nm -D "$top_builddir/.libs/libscorep-rt.so" | grep -q ' T ompt_start_tool$' &&
    command -v clang >/dev/null 2>&1; then
    scorep_cc clang -fopenmp -o metric_omp "$PROGRAMS/metric_omp.c"
    omp=1
else
    skip_part "the OMPT tool of the runtime or clang (the OpenMP runs)"
fi
gcc -O1 -finstrument-functions -o metrics_plain "$PROGRAMS/metrics.c" -lpthread || fail "gcc failed"

# What PAPI itself counts here, asked with PAPI's own tool (independent of the runtime).
papi_command_line perf::TASK-CLOCK perf::MINOR-FAULTS >papi_perf.txt 2>&1 || true
papi_counts=0
if grep -q '^perf::TASK-CLOCK : ' papi_perf.txt && grep -q '^perf::MINOR-FAULTS : ' papi_perf.txt; then
    papi_counts=1
fi
papi_command_line PAPI_TOT_CYC >papi_cyc.txt 2>&1 || true
n_cyc=1
grep -q '^PAPI_TOT_CYC : ' papi_cyc.txt && n_cyc=0

# --- bad events: the same on both paths (no perf:: event) ---------------------------------
run_app p1 env SCOREP_EXPERIMENT_DIRECTORY=p1 SCOREP_METRIC_PAPI="NO_SUCH_EVENT:PAPI_TOT_CYC" \
    SCOREP_METRIC_PAPI_SEP=":" SCOREP_METRIC_RUSAGE=ru_minflt ./metrics 100 0 0 0
expect_eq "$status" 0 "bad events: exit status"
expect_eq "$(count_lines "PAPI event 'NO_SUCH_EVENT' cannot be counted here.*papi_avail -a and papi_native_avail" p1.err)" 1 \
    "bad events: one message naming NO_SUCH_EVENT and how to list events"
# PAPI_TOT_CYC counts where papi_command_line counts it (a hardware PMU)
expect_eq "$(count_lines "PAPI event 'PAPI_TOT_CYC' cannot be counted here" p1.err)" $n_cyc \
    "bad events: PAPI_TOT_CYC refused exactly where papi_command_line cannot count it"
expect_eq "$(wc -l <p1.err | tr -d ' ')" $((1 + n_cyc)) "bad events: one line per bad event"
expect_ge "$(profile_isum p1 main/touch ru_minflt)" 100 "bad events: the measurement goes on"

fb_line="[scorep-rt] warning: SCOREP_METRIC_PAPI: PAPI's perf_event component is disabled here"
# expect_stderr FILE EVENTS: nothing (the real path), or (fallback) the one line naming EVENTS
expect_stderr()
{
    if [ $mode = papi ]; then
        expect_eq "$(cat "$1")" "" "$1: nothing on stderr (PAPI counts perf:: events)"
    else
        expect_eq "$(wc -l <"$1" | tr -d ' ')" 1 "$1: one line (the fallback)"
        expect_eq "$(grep -c -F "$fb_line" "$1")" 1 "$1: the line says PAPI's component is disabled"
        expect_grep "so $2 (is|are) counted with perf_event_open directly, under the same names? and with PAPI's semantics" \
            "$1" "$1: the line names $2"
    fi
}

# run_part MODE: the runs and checks of one path (papi or fallback); the experiment
# directories are MODE_*
run_part()
{
    mode=$1
    if [ $mode = papi ]; then
        part "the real PAPI path: PAPI's perf_event component counts perf:: events"
        set -- env
    else
        part "the fallback: perf:: events counted with perf_event_open (PAPI's perf_event component disabled)"
        set -- env SCOREP_TEST_PAPI_DISABLE_COMPONENT=perf_event
    fi
    x=${mode}_

    # 2000 fresh pages in touch(), 500 ms of CPU in spin()
    run_app ${x}p2 "$@" SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=${x}p2 \
        SCOREP_METRIC_PAPI=perf::TASK-CLOCK,perf::PAGE-FAULTS METRICS_OWN_CLOCKS=1 ./metrics 2000 500 0 0
    expect_eq "$status" 0 "$mode: exit status"
    expect_stderr ${x}p2.err "perf::TASK-CLOCK, perf::PAGE-FAULTS"
    # the faults of touch and spin between the program's own counts of their bodies and
    # calls (the runtime's own faults and the kernel's are in both: perf_metrics.sh); touch
    # faults once per fresh page, spin writes no new page
    for r in touch spin; do
        expect_faults "$mode" ${x}p2 perf::PAGE-FAULTS page-faults $r
    done
    expect_touch_body "$mode" ${x}p2 2000
    expect_spin_body "$mode" ${x}p2
    expect_eq "$(trace_count ${x}p2 METRIC)" 6 "$mode: one record per enter/leave (6)"
    expect_eq "$(trace_other ${x}p2 | metric_values | awk '$1 == "METRIC"' | wc -l | tr -d ' ')" 12 \
        "$mode: 2 events x 6 enter/leave = 12 values"
    trace_events ${x}p2 >${x}p2.events
    expect_eq "$(metric_decreases ${x}p2.events)" 0 "$mode: every metric's values never decrease in the trace"
    expect_leaf_deltas ${x}p2 ${x}p2.events $mode perf::TASK-CLOCK perf::PAGE-FAULTS
    trace_defs ${x}p2 >${x}defs.txt
    expect_grep 'METRIC_MEMBER .*"perf::TASK-CLOCK".*Type: PAPI, Mode: ACCUMULATED_START, Value Type: UINT64.*Unit: "#"' \
        ${x}defs.txt "$mode: member perf::TASK-CLOCK: type PAPI, unit # (as Score-P's PAPI source)"
    # main's CPU time between the program's own task-clock counts (perf_metrics.sh)
    expect_cpu_time "$mode" ${x}p2 perf::TASK-CLOCK task-clock

    # the same program unchanged under scorep-run (gcc -finstrument-functions only)
    run_app ${x}p3 "$@" SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_EXPERIMENT_DIRECTORY=${x}p3 \
        SCOREP_METRIC_PAPI=perf::TASK-CLOCK METRICS_OWN_CLOCKS=1 "$top_builddir/scorep-run" ./metrics_plain 0 500 0 0
    expect_eq "$status" 0 "$mode: scorep-run: exit status"
    expect_stderr ${x}p3.err perf::TASK-CLOCK
    expect_cpu_time "$mode: scorep-run" ${x}p3 perf::TASK-CLOCK task-clock

    # pthreads with a per-thread and a per-process list: each worker counts its own 50 ms;
    # the per-process list (300 pages touched by main) on location 0 only
    s0=$(stolen_ns)
    run_app ${x}p4 "$@" SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=${x}p4 \
        SCOREP_METRIC_PAPI=perf::TASK-CLOCK SCOREP_METRIC_PAPI_PER_PROCESS=perf::MINOR-FAULTS \
        METRICS_OWN_CLOCKS=1 ./metrics 300 0 2 0
    st=$(($(stolen_ns) - s0))
    expect_eq "$status" 0 "$mode: pthreads: exit status"
    expect_stderr ${x}p4.err "perf::TASK-CLOCK, perf::MINOR-FAULTS"
    # main's own thread only: the workers' 100 ms would exceed what the program counted on it
    expect_cpu_time "$mode: pthreads" ${x}p4 perf::TASK-CLOCK task-clock
    for loc in 1 2; do
        v=$(profile_isum ${x}p4 THREADS/worker/spin perf::TASK-CLOCK $loc)
        expect_ge "$v" 47500000 "$mode: pthreads: perf::TASK-CLOCK of spin on location $loc >= 95% of 50 ms"
        expect_ge $((75000000 + st)) "$v" "$mode: pthreads: perf::TASK-CLOCK of spin on location $loc <= 75 ms (its own)"
    done
    expect_eq "$(trace_other ${x}p4 | awk '$1 == "METRIC" && /"perf::MINOR-FAULTS"/ { print $2 }' | sort -u | tr '\n' ' ')" \
        "0 " "$mode: per process: perf::MINOR-FAULTS on location 0 only"
    # counted on the main thread (the workers start after touch)
    expect_faults "$mode: per process" ${x}p4 perf::MINOR-FAULTS minor-faults touch 0
    expect_touch_body "$mode: per process" ${x}p4 300
    # location 0: main, spin, touch, 2 x pthread_create, 2 x pthread_join: 14 events x 2
    # metrics; a worker: worker and spin: 4 events x 1 metric
    expect_eq "$(trace_count ${x}p4 METRIC 0)" 28 "$mode: pthreads: location 0: 14 events x 2 records (per thread, per process)"
    expect_eq "$(trace_count ${x}p4 METRIC "$(loc_id 0 1)")" 4 "$mode: pthreads: location 1: 4 events x 1 metric"
    expect_eq "$(trace_count ${x}p4 METRIC "$(loc_id 0 2)")" 4 "$mode: pthreads: location 2: 4 events x 1 metric"

    # OpenMP: 3 threads of 100 ms CPU each, per-thread and per-process lists
    if [ $omp = 1 ]; then
        s0=$(stolen_ns)
        run_app ${x}p6 "$@" SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=${x}p6 \
            SCOREP_METRIC_PAPI=perf::TASK-CLOCK SCOREP_METRIC_PAPI_PER_PROCESS=perf::MINOR-FAULTS \
            ./metric_omp 3 100
        st=$(($(stolen_ns) - s0))
        expect_eq "$status" 0 "$mode: OpenMP: exit status"
        expect_eq "$(cat ${x}p6.out)" "threads 3" "$mode: OpenMP: program output"
        expect_stderr ${x}p6.err "perf::TASK-CLOCK, perf::MINOR-FAULTS"
        for loc in 0 1 2; do
            v=$(profile_dump ${x}p6 -i -m perf::TASK-CLOCK | awk -F'\t' -v l=$loc '
                $3 == l && $2 ~ /\/spin$/ { split($4, kv, "="); s += kv[2] } END { print s + 0 }')
            expect_ge "$v" 95000000 "$mode: OpenMP: perf::TASK-CLOCK of spin on location $loc >= 95% of 100 ms"
            expect_ge $((150000000 + st)) "$v" "$mode: OpenMP: perf::TASK-CLOCK of spin on location $loc <= 150 ms (its own)"
        done
        expect_eq "$(trace_other ${x}p6 | awk '$1 == "METRIC" && /"perf::MINOR-FAULTS"/ { print $2 }' | sort -u | tr '\n' ' ')" \
            "0 " "$mode: OpenMP: per process: perf::MINOR-FAULTS on location 0 only"
        expect_ge "$(trace_other ${x}p6 | awk '$1 == "METRIC" && /"perf::TASK-CLOCK"/ { print $2 }' | sort -u | wc -l)" \
            3 "$mode: OpenMP: perf::TASK-CLOCK on every thread's location"
    fi
}

if [ $papi_counts = 1 ]; then
    run_part papi
else
    skip_part_here "the real PAPI path" "PAPI's perf_event component cannot count perf::TASK-CLOCK and perf::MINOR-FAULTS here (papi_command_line: $(tail -n 3 papi_perf.txt | tr '\n' ' '))"
fi
# the fallback needs perf_event_open; where the kernel refuses it altogether, one clear line
# per event and the rest of the measurement goes on
perf_check_allowed
if [ $perf_ok = 0 ]; then
    run_app nf env SCOREP_TEST_PAPI_DISABLE_COMPONENT=perf_event SCOREP_EXPERIMENT_DIRECTORY=nf \
        SCOREP_METRIC_PAPI=perf::TASK-CLOCK,perf::PAGE-FAULTS SCOREP_METRIC_RUSAGE=ru_minflt \
        ./metrics 100 0 0 0
    expect_eq "$status" 0 "no perf_event_open: exit status"
    expect_perf_refused "no perf_event_open" nf.err SCOREP_METRIC_PAPI perf::TASK-CLOCK perf::PAGE-FAULTS
    expect_ge "$(profile_isum nf main/touch ru_minflt)" 100 "no perf_event_open: the other sources still recorded"
    skip_part_here "the fallback and its qualifiers" "the kernel refuses perf_event_open to this process (perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid), without CAP_PERFMON or CAP_SYS_ADMIN)"
    done_ok
    exit 0
fi
run_part fallback

# qualifiers (the fallback): u, k, h (=0/1) apply; others only PAPI could apply: said so
run_app p5 env SCOREP_TEST_PAPI_DISABLE_COMPONENT=perf_event SCOREP_EXPERIMENT_DIRECTORY=p5 \
    SCOREP_METRIC_PAPI="perf::PAGE-FAULTS:u=1,perf::TASK-CLOCK:period=1000,perf::NO-SUCH-EVENT" \
    ./metrics 300 0 0 0
expect_eq "$status" 0 "qualifiers: exit status"
expect_eq "$(count_lines "PAPI event 'perf::TASK-CLOCK:period=1000': the qualifier 'period=1000' is not supported when perf:: events are counted without PAPI" p5.err)" 1 \
    "qualifiers: one message for period="
expect_eq "$(count_lines "PAPI event 'perf::NO-SUCH-EVENT' cannot be counted here" p5.err)" 1 \
    "qualifiers: an unknown perf:: name gets PAPI's message"
expect_eq "$(wc -l <p5.err | tr -d ' ')" 3 "qualifiers: 3 lines (2 refused, 1 fallback)"
# (the name holds a '=': the value is after the last one)
expect_ge "$(profile_dump p5 -i -m perf::PAGE-FAULTS:u=1 | awk -F'\t' '$2 == "main/touch" { sub(/.*=/, "", $4); print $4 }')" \
    300 "qualifiers: perf::PAGE-FAULTS:u=1 counts the 300 pages of touch"
done_ok
