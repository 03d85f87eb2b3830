#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2086 # $cc is split on purpose: CC may carry options
# run_metric_bench.sh: part of `make bench`: the cost of metric sources per event
# (tiny(x) called N times, profiling on, one metric read at each enter and leave) against
# the raw read of the same counter, both in the thread's CPU time (bench/tiny.c built with
# TINY_CLOCK=CLOCK_THREAD_CPUTIME_ID, bench/metric_read_cost.c). Prints a table; asserts
# nothing.
#
# Environment: abs_top_builddir, abs_top_srcdir, CC, BENCH_RUNS (default 5),
# BENCH_METRIC_CALLS (calls per run, default 1000000).
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

cc=${CC:-gcc}
runs=${BENCH_RUNS:-5}
calls=${BENCH_METRIC_CALLS:-1000000}

cd "$tmp"
# every call must be measured: throttling (on by default) would stop timing tiny() and
# reading its metrics after 100000 calls
SCOREP_THROTTLING=false
export SCOREP_THROTTLING

echo "building the metric benchmark programs in $tmp ..." >&2
# tiny.c with the thread's CPU time as its clock (the reads' cost is compared, not waits)
# (--instrument=functions: the installed plugin's threshold would leave tiny() out)
"$builddir/scorep-cc" --instrument=functions $cc -O2 -DTINY_CLOCK=CLOCK_THREAD_CPUTIME_ID -o tiny "$srcdir/bench/tiny.c"
$cc -O2 -I"$srcdir/src" -o read_cost "$srcdir/bench/metric_read_cost.c" -lpapi
# a plugin that only counts its reads: the runtime's own cost of one plugin metric
$cc -O2 -shared -fPIC -I"$srcdir/include" -DSYNTH_KIND=1 -o libsynth_sync.so \
    "$srcdir/test/plugins/synth.c" -lpthread
export LD_LIBRARY_PATH="$tmp:$builddir/plugins/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"


# ns LABEL VAR=VALUE...: median ns per call of tiny under the given settings
ns() {
    : >ns.txt
    i=0
    while [ $i -lt "$runs" ]; do
        i=$((i + 1))
        rm -rf exp
        env SCOREP_EXPERIMENT_DIRECTORY=exp "$@" ./tiny "$calls" >out 2>err ||
            { echo "run_metric_bench.sh: FAILED: $*" >&2; cat err >&2; exit 1; }
        # the PAPI fallback says once per run that it counts without PAPI: expected here
        grep -v "PAPI's perf_event component is disabled here" err >err2 || true
        [ ! -s err2 ] || { echo "run_metric_bench.sh: $* wrote to stderr:" >&2; cat err2 >&2; }
        sed -n 's/^ns_per_call //p' out >>ns.txt
    done
    median <ns.txt
}
read_ns() {
    : >rd.txt
    i=0
    while [ $i -lt "$runs" ]; do
        i=$((i + 1))
        ./read_cost "$1" "$calls" | sed -n 's/^ns_per_read //p' >>rd.txt
    done
    median <rd.txt
}

# one_ns VAR=VALUE...: ns per call of one run of tiny
one_ns() {
    rm -rf exp
    env SCOREP_EXPERIMENT_DIRECTORY=exp "$@" ./tiny "$calls" >out 2>err ||
        { echo "run_metric_bench.sh: FAILED: $*" >&2; cat err >&2; exit 1; }
    sed -n 's/^ns_per_call //p' out
}
# trio READ_KIND VAR=VALUE...: "base variant read", the minimum ns of $runs interleaved runs of
# tiny without metrics (same tracing setting), of tiny with the metric, and of its raw read.
# The read is a system call, whose cost drifts with the load of a shared machine: measured
# side by side, the least disturbed run of each is compared.
trio() {
    kind=$1
    shift
    bvars=$(printf '%s\n' "$@" | grep -v '^SCOREP_METRIC' | tr '\n' ' ')
    : >b.txt
    : >v.txt
    : >r.txt
    i=0
    while [ $i -lt "$runs" ]; do
        i=$((i + 1))
        # shellcheck disable=SC2086 # the settings are split on purpose
        one_ns SCOREP_ENABLE_PROFILING=true $bvars >>b.txt
        one_ns "$@" >>v.txt
        ./read_cost "$kind" "$calls" | sed -n 's/^ns_per_read //p' >>r.txt
    done
    echo "$(minimum <b.txt) $(minimum <v.txt) $(minimum <r.txt)"
}

echo "running the metric variants ($runs x $calls calls each) ..." >&2
base=$(ns SCOREP_ENABLE_PROFILING=true)
sync=$(ns SCOREP_METRIC_PLUGINS=synth_sync SCOREP_METRIC_SYNTH_SYNC=events)
sync_t=$(ns SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=400M \
    SCOREP_METRIC_PLUGINS=synth_sync SCOREP_METRIC_SYNTH_SYNC=events)
base_t=$(ns SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=400M)
cpu=$(ns SCOREP_METRIC_PLUGINS=cputime SCOREP_METRIC_CPUTIME=thread_cpu)
ru=$(ns SCOREP_METRIC_RUSAGE=ru_minflt)
ru_read=$(read_ns rusage)
cpu_read=$(read_ns thread_cpu)
# shellcheck disable=SC2046 # trio prints three numbers to split into $1 $2 $3
set -- $(trio perf:task-clock SCOREP_METRIC_PERF=task-clock)
perf_b=$1 perf=$2 perf_read=$3
# shellcheck disable=SC2046
set -- $(trio perf:task-clock SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=400M \
    SCOREP_METRIC_PERF=task-clock)
perf_tb=$1 perf_t=$2 perf_tread=$3
papi_kind=papi:perf::TASK-CLOCK
papi_label="papi perf::TASK-CLOCK"
if [ "$(./read_cost $papi_kind 1000 | sed -n 's/^ns_per_read //p')" = n/a ]; then
    # PAPI's perf_event component is disabled: the runtime counts it with perf_event_open
    papi_kind=perfu:task-clock
    papi_label="papi perf::TASK-CLOCK (fallback)"
fi
# shellcheck disable=SC2046
set -- $(trio $papi_kind SCOREP_METRIC_PAPI=perf::TASK-CLOCK)
papi_b=$1 papi=$2 papi_read=$3
# the bare system call the runtime makes, against libc's read() of the raw read column
# and the bare call made five call frames deep (returns after a kernel entry mispredict)
: >s.txt
: >l.txt
: >d.txt
i=0
while [ $i -lt "$runs" ]; do
    i=$((i + 1))
    ./read_cost perfsys:task-clock "$calls" | sed -n 's/^ns_per_read //p' >>s.txt
    ./read_cost perf:task-clock "$calls" | sed -n 's/^ns_per_read //p' >>l.txt
    ./read_cost perfdeep:task-clock "$calls" | sed -n 's/^ns_per_read //p' >>d.txt
done
sys_read=$(minimum <s.txt)
libc_read=$(minimum <l.txt)
deep_read=$(minimum <d.txt)

echo
echo "metric sources: tiny(x) called $calls times, $runs runs per variant (median ns per call;"
echo "a call is one enter and one leave, so per event = (ns/call - base) / 2)"
printf '%s\n' "base: profiling, no metric|$base|$base|-" \
    "base: tracing, no metric|$base_t|$base_t|-" \
    "plugin synth_sync (counter)|$sync|$base|0" \
    "plugin synth_sync, tracing|$sync_t|$base_t|0" \
    "plugin cputime thread_cpu|$cpu|$base|$cpu_read" \
    "rusage ru_minflt|$ru|$base|$ru_read" \
    "perf task-clock *|$perf|$perf_b|$perf_read" \
    "perf task-clock, tracing *|$perf_t|$perf_tb|$perf_tread" \
    "$papi_label *|$papi|$papi_b|$papi_read" | awk -F'|' '
    BEGIN { fmt = "%-30s %10s %10s %10s %13s\n"
            printf fmt, "variant", "ns/call", "ns/event", "raw read", "event - read"
            printf fmt, "------------------------------", "----------", "----------", "----------", "-------------" }
    $2 == "n/a" { printf fmt, $1, "n/a", "", "", ""; next }
    $4 == "-" { printf "%-30s %10.2f\n", $1, $2; next }
    { e = ($2 - $3) / 2
      printf "%-30s %10.2f %10.2f %10.2f %13.2f\n", $1, $2, e, $4, e - $4 }'
echo "(perf read, minimum of $runs runs: bare system call $sys_read ns, libc read() $libc_read ns,"
echo " the bare call five call frames deep $deep_read ns)"
echo "(*: minimum of $runs runs interleaved with runs without metrics and of the raw read,"
echo " against that base; the others: median against the base rows)"
echo "(raw read: the same counter read in a plain loop, bench/metric_read_cost.c: for perf and"
echo " the PAPI fallback one read() of a one-event PERF_FORMAT_GROUP group, user+kernel mode"
echo " resp. user mode; (fallback): PAPI's perf_event component is disabled here, so the runtime"
echo " counts perf::TASK-CLOCK with perf_event_open. Target: one software counter costs at most"
echo " its read + 10 ns per event, i.e. event - read <= 10.)"
