#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_metric_perf.sh: SCOREP_METRIC_PERF(_PER_PROCESS, _SEP): perf_event_open counters of
# each thread, read at every enter and leave: task-clock and cpu-clock of main lie between
# the program's own counts of its thread, the fault counters of spin and touch between the
# program's own counts of their bodies and calls (perf_metrics.sh), the trace agrees with
# the profile; pthreads and OpenMP threads count their own; bad and unsupported events get
# one message each; without the right to count kernel events the counters fall back to user
# mode and say so.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/integration/perf_metrics.sh"

scorep_cc gcc -O1 -o metrics "$PROGRAMS/metrics.c" -lpthread
sw=task-clock,cpu-clock,page-faults,minor-faults,major-faults,context-switches,cpu-migrations
user_only="the kernel lets this process count only user-mode events"
# Whether the kernel lets this process count kernel-mode events, from the kernel's settings
# (not from the runtime's output): perf_event_paranoid < 2, or CAP_PERFMON (38) or
# CAP_SYS_ADMIN (21) in the effective capabilities
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
capeff=$(awk '$1 == "CapEff:" { print $2 }' /proc/self/status)
kernel=0
if [ "$paranoid" -lt 2 ] || [ $(((0x$capeff >> 38) & 1)) = 1 ] || [ $(((0x$capeff >> 21) & 1)) = 1 ]; then
    kernel=1
fi
# where the kernel refuses perf_event_open altogether: one clear line per event, the rest of
# the measurement goes on; nothing else of this test can run there
perf_check_allowed
if [ $perf_ok = 0 ]; then
    run_app n1 env SCOREP_EXPERIMENT_DIRECTORY=n1 SCOREP_METRIC_PERF=task-clock,page-faults \
        SCOREP_METRIC_RUSAGE=ru_minflt ./metrics 100 0 0 0
    expect_eq "$status" 0 "no perf_event_open: exit status"
    expect_perf_refused "no perf_event_open" n1.err SCOREP_METRIC_PERF task-clock page-faults
    expect_ge "$(profile_isum n1 main/touch ru_minflt)" 100 "no perf_event_open: the other sources still recorded"
    skip_part_here "perf counters" "the kernel refuses perf_event_open to this process (perf_event_paranoid $paranoid, without CAP_PERFMON or CAP_SYS_ADMIN)"
    done_ok
    exit 0
fi
# hardware events: the kernel refuses cycles and instructions where the machine exposes no
# PMU (this project's VMs); elsewhere they count
n_hw=0
ls -d /sys/bus/event_source/devices/cpu* >/dev/null 2>&1 || n_hw=2

# --- linked: 2000 fresh pages in touch(), 500 ms of CPU in spin(), main sleeps 20 ms ----
run_app f1 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=f1 SCOREP_METRIC_PERF="$sw" \
    METRICS_OWN_CLOCKS=1 ./metrics 2000 500 0 20
expect_eq "$status" 0 "linked: exit status"
# where the kernel allows only user-mode counts (not as root) there is one line saying so
expect_eq "$(wc -l <f1.err | tr -d ' ')" $((1 - kernel)) "linked: no message (kernel mode allowed: $kernel), or the one user-mode line"
expect_eq "$(count_lines "$user_only" f1.err)" $((1 - kernel)) "linked: the user-mode line exactly where kernel mode is not allowed"
# the fault counters of touch and spin between the program's own counts of their bodies
# and calls (the runtime's own faults and the kernel's are in both: perf_metrics.sh); touch
# faults once per fresh page, spin writes no new page
for k in page-faults minor-faults major-faults; do
    for r in touch spin; do
        expect_faults linked f1 $k $k $r
    done
done
expect_touch_body linked f1 2000
expect_spin_body linked f1
expect_ge "$(profile_isum f1 main page-faults)" "$(profile_isum f1 main/touch page-faults)" \
    "linked: page-faults of main >= touch"
if [ $kernel = 1 ]; then
    # a context switch happens in the kernel, so it counts only with kernel mode: main
    # sleeps 20 ms, at least one switch
    expect_ge "$(profile_isum f1 main context-switches)" 1 "linked: context-switches of main (sleeps) >= 1"
fi
# trace: one record with a value per metric before each of the 6 enters and leaves
expect_eq "$(trace_count f1 METRIC)" 6 "linked: trace has 6 METRIC records (one per event)"
expect_eq "$(trace_other f1 | metric_values | awk '$1 == "METRIC"' | wc -l | tr -d ' ')" 42 \
    "linked: 7 metrics x 6 events = 42 values"
expect_eq "$(trace_check_nesting f1)" 0 "linked: trace properly nested"
trace_events f1 >f1.events
expect_eq "$(metric_decreases f1.events)" 0 "linked: every metric's values never decrease in the trace"
# the leaf regions ran once: LEAVE - ENTER in the trace is exactly the profile's value
expect_leaf_deltas f1 f1.events linked task-clock page-faults
trace_defs f1 >f1.defs
expect_grep 'METRIC_MEMBER .*"task-clock".*Type: OTHER, Mode: ACCUMULATED_START, Value Type: UINT64.*Unit: "#"' \
    f1.defs "linked: member task-clock (OTHER as Score-P's PERF source, ACCUMULATED_START, #)"
expect_eq "$(grep -c 'METRIC_CLASS' f1.defs)" 1 "linked: one metric class"
expect_grep 'METRIC_CLASS +0  Occurrence: SYNCHRONOUS_STRICT, Kind: CPU, 7 Members: ' f1.defs \
    "linked: the class of the 7 strictly synchronous metrics"
# main's CPU time between the program's own counts on the same clock (perf_metrics.sh)
for m in task-clock cpu-clock; do
    expect_cpu_time linked f1 $m $m
done

# --- the same program unchanged under scorep-run (gcc -finstrument-functions only) --------
gcc -O1 -finstrument-functions -o metrics_plain "$PROGRAMS/metrics.c" -lpthread || fail "gcc failed"
run_app f2 env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_EXPERIMENT_DIRECTORY=f2 \
    SCOREP_METRIC_PERF=task-clock,page-faults METRICS_OWN_CLOCKS=1 \
    "$top_builddir/scorep-run" ./metrics_plain 1000 500 0 0
expect_eq "$status" 0 "scorep-run: exit status"
expect_faults scorep-run f2 page-faults page-faults touch
expect_touch_body scorep-run f2 1000
expect_cpu_time scorep-run f2 task-clock task-clock

# --- pthreads: 2 workers of 50 ms CPU each, running at the same time ---------------------
s0=$(stolen_ns)
run_app f3 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=f3 \
    SCOREP_METRIC_PERF=task-clock SCOREP_METRIC_PERF_PER_PROCESS=page-faults METRICS_OWN_CLOCKS=1 \
    ./metrics 0 0 2 0
st=$(($(stolen_ns) - s0))
expect_eq "$status" 0 "pthreads: exit status"
# main's own thread only: the workers' 100 ms would exceed what the program counted on it
expect_cpu_time pthreads f3 task-clock task-clock
for loc in 1 2; do
    v=$(profile_isum f3 THREADS/worker/spin task-clock $loc)
    # its own 50 ms; the process's counter would hold both workers' 100 ms
    expect_ge "$v" 47500000 "pthreads: task-clock of spin on location $loc >= 95% of 50 ms"
    expect_ge $((75000000 + st)) "$v" "pthreads: task-clock of spin on location $loc <= 75 ms (its own thread)"
done
expect_eq "$(trace_other f3 | awk '$1 == "METRIC" && /"page-faults"/ { print $2 }' | sort -u | tr '\n' ' ')" \
    "0 " "per process: page-faults only on location 0"
expect_eq "$(trace_count f3 METRIC "$(loc_id 0 1)")" 4 "pthreads: location 1 has 1 metric x 4 events"
expect_eq "$(trace_other f3 | awk '$1 == "METRIC" && $2 == 0 && /"page-faults"/ && !/ 1 Value: /' | wc -l | tr -d ' ')" 0 \
    "per process: page-faults in records of its own"

# --- OpenMP: 3 threads of 100 ms CPU each ---------------------------------------------
if nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$' &&
    command -v clang >/dev/null 2>&1; then
    scorep_cc clang -fopenmp -o metric_omp "$PROGRAMS/metric_omp.c"
    s0=$(stolen_ns)
    run_app f4 env SCOREP_EXPERIMENT_DIRECTORY=f4 SCOREP_METRIC_PERF=task-clock \
        SCOREP_METRIC_PAPI=perf::TASK-CLOCK ./metric_omp 3 100
    st=$(($(stolen_ns) - s0))
    expect_eq "$status" 0 "OpenMP: exit status"
    expect_eq "$(cat f4.out)" "threads 3" "OpenMP: program output"
    for m in task-clock perf::TASK-CLOCK; do
        for loc in 0 1 2; do
            v=$(profile_dump f4 -i -m $m | awk -F'\t' -v l=$loc '
                $3 == l && $2 ~ /\/spin$/ { split($4, kv, "="); s += kv[2] } END { print s + 0 }')
            expect_ge "$v" 95000000 "OpenMP: $m of spin on location $loc >= 95% of 100 ms"
            expect_ge $((150000000 + st)) "$v" "OpenMP: $m of spin on location $loc <= 150 ms (its own thread)"
        done
    done
else
    skip_part "the OMPT tool of the runtime or clang (the OpenMP part)"
fi

# --- bad input: an unknown name and hardware events, one line each; the rest goes on ----
run_app f5 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=f5 \
    SCOREP_METRIC_PERF="task-clock;no-such-event;cycles;instructions;task-clock" \
    SCOREP_METRIC_PERF_SEP=";" SCOREP_METRIC_RUSAGE=ru_minflt ./metrics 100 0 0 0
expect_eq "$status" 0 "bad events: exit status"
expect_eq "$(grep -c "SCOREP_METRIC_PERF: unknown perf event 'no-such-event' is not recorded; the names are perf's: task-clock" f5.err)" 1 \
    "bad events: one message naming no-such-event and the valid names"
expect_eq "$(count_lines "perf event '(cycles|instructions)' cannot be counted here" f5.err)" $n_hw \
    "hardware events: refused exactly where the machine exposes no PMU"
if [ $n_hw = 2 ]; then
    # no hardware PMU (this project's VMs): the kernel refuses both
    expect_eq "$(grep -c "perf event 'cycles' cannot be counted here (perf_event_open: No such file or directory; this machine exposes no hardware counter for it" f5.err)" 1 \
        "no PMU: the message for cycles names the kernel's error and the reason"
fi
expect_eq "$(wc -l <f5.err | tr -d ' ')" $((1 + n_hw + 1 - kernel)) "bad events: one line per bad event (and the user-mode line)"
expect_ge "$(profile_isum f5 main task-clock)" 1 "bad events: task-clock still recorded"
expect_eq "$(trace_defs f5 | grep -c 'METRIC_MEMBER .*"task-clock"')" 1 "task-clock listed twice: one metric"
expect_ge "$(profile_isum f5 main/touch ru_minflt)" 100 "bad events: the other sources still recorded"

# --- without the right to count kernel events (perf_event_paranoid >= 2, not root) -------
as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
if [ "$(id -u)" != 0 ] || [ "$paranoid" -lt 2 ] || ! command -v setpriv >/dev/null 2>&1; then
    skip_part_here "user mode" "not root, perf_event_paranoid < 2 or no setpriv: this process cannot run one without the right to count kernel events"
elif ! $as_nobody cat "$top_builddir/.libs/libscorep-rt.so" >/dev/null 2>&1; then
    # asked before the run, so that a failure of the run itself is never taken for this
    skip_part_here "user mode" "user nobody cannot read the build tree ($top_builddir) here"
else
    # whether the kernel lets user nobody open perf events at all, asked of the kernel (lib.sh
    # perf_probe, a user-mode event as the fallback opens): Debian's perf_event_paranoid 3
    # refuses users everything, the mainline kernel treats 3 as 2 (user mode allowed)
    perf_probe task_clock 1000000 >/dev/null
    mkdir nobody && chmod 777 nobody && chmod 711 "$work" && cp metrics perf_open_probe nobody/
    cd nobody
    nobody_perf=$($as_nobody ./perf_open_probe task_clock 1000000) ||
        fail "perf_open_probe as nobody: exit status $?"
    run_app f6 $as_nobody env \
        SCOREP_EXPERIMENT_DIRECTORY=f6 SCOREP_METRIC_PERF=task-clock,page-faults,context-switches \
        METRICS_OWN_CLOCKS=1 ./metrics 500 200 0 0
    if [ "$nobody_perf" != ok ]; then
        expect_eq "$status" 0 "user nobody, perf_event_open refused: exit status"
        expect_perf_refused "user nobody, perf_event_open refused" f6.err SCOREP_METRIC_PERF \
            task-clock page-faults context-switches
        skip_part_here "user mode" "the kernel refuses perf_event_open to user nobody ($nobody_perf; perf_event_paranoid $paranoid)"
    else
        expect_eq "$status" 0 "user mode: exit status"
        expect_eq "$(cat f6.err)" "[scorep-rt] warning: SCOREP_METRIC_PERF: $user_only (/proc/sys/kernel/perf_event_paranoid >= 2 without CAP_PERFMON), so task-clock, page-faults, context-switches count user mode only (context switches and CPU migrations happen in the kernel: 0)" \
            "user mode: one line naming the events that fell back"
        expect_faults "user mode" f6 page-faults page-faults touch
        expect_touch_body "user mode" f6 500
        expect_eq "$(profile_isum f6 main context-switches)" 0 "user mode: context-switches 0"
        expect_cpu_time "user mode" f6 task-clock task-clock
    fi
    cd "$work"
fi
done_ok
