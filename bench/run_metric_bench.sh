#!/bin/sh
# shellcheck disable=SC2086 # $cc is split on purpose: CC may carry options
# run_metric_bench.sh: part of `make bench`: the cost of metric sources per event
# (tiny(x) called N times, profiling on, one metric read at each enter and leave) against
# the raw read of the same counter. Prints a table; asserts nothing.
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

echo "building the metric benchmark programs in $tmp ..." >&2
"$builddir/scorep-cc" $cc -O2 -o tiny "$srcdir/bench/tiny.c"
$cc -O2 -o read_cost "$srcdir/bench/metric_read_cost.c" -lpapi
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
        [ ! -s err ] || { echo "run_metric_bench.sh: $* wrote to stderr:" >&2; cat err >&2; }
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
papi_read=$(read_ns papi:perf::TASK-CLOCK)
if [ "$papi_read" = n/a ]; then
    papi=n/a
else
    papi=$(ns SCOREP_METRIC_PAPI=perf::TASK-CLOCK)
fi

echo
echo "metric sources: tiny(x) called $calls times, $runs runs per variant (median ns per call;"
echo "a call is one enter and one leave, so per event = (ns/call - base) / 2)"
printf '%s\n' "base: profiling, no metric|$base|$base|-" \
    "base: tracing, no metric|$base_t|$base_t|-" \
    "plugin synth_sync (counter)|$sync|$base|0" \
    "plugin synth_sync, tracing|$sync_t|$base_t|0" \
    "plugin cputime thread_cpu|$cpu|$base|$cpu_read" \
    "rusage ru_minflt|$ru|$base|$ru_read" \
    "papi perf::TASK-CLOCK|$papi|$base|$papi_read" | awk -F'|' '
    BEGIN { fmt = "%-30s %10s %10s %10s %13s\n"
            printf fmt, "variant", "ns/call", "ns/event", "raw read", "event - read"
            printf fmt, "------------------------------", "----------", "----------", "----------", "-------------" }
    $2 == "n/a" { printf fmt, $1, "n/a", "", "", ""; next }
    $4 == "-" { printf "%-30s %10.2f\n", $1, $2; next }
    { e = ($2 - $3) / 2
      printf "%-30s %10.2f %10.2f %10.2f %13.2f\n", $1, $2, e, $4, e - $4 }'
echo "(raw read: the same counter read in a plain loop, bench/metric_read_cost.c; n/a: PAPI"
echo " cannot count perf::TASK-CLOCK on this machine. Target: one PAPI software counter costs"
echo " at most its read + 10 ns per event.)"
