#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_sampling_events.sh: samples that interrupt an instrumented enter or leave itself
# (between the event's timestamp and its call-stack update, or during the unwinding at the
# enter), and samples in uninstrumented code between such events. 300000 short instrumented
# calls (test/programs/sampling_calls.c) under SCOREP_ENABLE_UNWINDING and a 20 us
# perf_event task clock (about 15000 samples a run; the CPU-clock timer gets one per kernel
# tick, too few) put hundreds of samples there; with
# SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS the trace's Enter records per call path must
# equal the profile's visits (a sample placed by the call stack it read, against the time of
# the event it interrupted, re-entered a call in the trace that the profile counts once:
# main 3 against 2 in test_sampling.sh; and consecutive samples in one sampled frame with
# calls in between counted once by the profile and entered anew by the trace), and the trace
# has one sample per profile sample (but those in start-up code only).
. "$top_srcdir/test/integration/lib.sh"

SMP="SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS=${EVENT:-perf_task_clock@20000} SCOREP_THROTTLING=false SCOREP_TOTAL_MEMORY=${MEMORY:-64M}"
# (more calls and runs for a stress run: CALLS=3000000 RUNS=20)
CALLS=${CALLS:-300000}
CVT="SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS=true SCOREP_ENABLE_TRACING=true"
# the perf_event task clock needs perf_event_open, asked of the kernel (lib.sh perf_probe)
task_clock=$(perf_probe task_clock 20000)
if [ -z "${EVENT:-}" ] && [ "$task_clock" != ok ]; then
    skip_part_here "the whole test" "the kernel refuses perf_event_open to this process ($task_clock; perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid), uid $(id -u))"
    exit 77
fi
scorep_cc gcc -O2 -g -o calls "$PROGRAMS/sampling_calls.c"

# visit_paths EXPDIR METRIC: the metric per call path name, summed ("path<TAB>value", sorted)
visit_paths()
{
    profile_dump "$1" -m "$2" | awk -F'\t' '{ split($4, kv, "="); p = $2
        if (p == ".") next; v[p] += kv[2] } END { for (p in v) if (v[p] > 0) printf "%s\t%d\n", p, v[p] }' | sort
}
samples_total()
{
    profile_dump "$1" -m samples | awk -F'\t' '{ split($4, kv, "="); s += kv[2] } END { print s + 0 }'
}

# three runs: a sample in an event's window is rare per sample, not per run
for run in $(seq ${RUNS:-3}); do
    d=cvt$run
    run_app $d env $SMP $CVT SCOREP_EXPERIMENT_DIRECTORY=$d ./calls $CALLS
    expect_eq "$status $(cat $d.out) $(cat $d.err)" "0  " "$d: exit status, no output, nothing on stderr"
    expect_ge "$(samples_total $d)" 20 "$d: at least 20 samples"
    trace_events $d >$d.events
    expect_eq "$(count_lines '^CALLING_CONTEXT_' $d.events)" 0 "$d: no calling-context events"
    trace_paths $d.events >$d.tpaths
    expect_eq "$(count_lines '^NESTING' $d.tpaths)" 0 "$d: Enter/Leave properly nested"
    visit_paths $d visits >$d.ppaths
    expect_ge "$(awk -F"\t" '$1 == "main/leaf" { print $2 }' $d.ppaths)" $CALLS "$d: main/leaf visits (and those of a sampled leaf frame)"
    expect_eq "$(diff $d.tpaths $d.ppaths | tr '\n' ' ')" "" \
        "$d: Enter records per call path equal the profile's visits ($(wc -l <$d.ppaths) paths)"
done

# calling-context events: one CALLING_CONTEXT_SAMPLE per sample of the profile but those of
# the program root itself (samples in start-up code only, which the trace leaves out)
run_app cc env $SMP SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=cc ./calls $CALLS
expect_eq "$status $(cat cc.err)" "0 " "calling contexts: exit status, nothing on stderr"
trace_events cc >cc.events
expect_eq "$(count_lines '^CALLING_CONTEXT_SAMPLE ' cc.events)" "$(profile_dump cc -m samples |
    awk -F'\t' '$2 != "." { split($4, kv, "="); s += kv[2] } END { print s + 0 }')" \
    "calling contexts: one trace sample per profile sample"
expect_eq "$(count_lines '^(ENTER|LEAVE) ' cc.events)" 0 "calling contexts: no Enter/Leave records"
done_ok
