#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_unwind_bench.sh: the unwinding rows of `make bench`: nanoseconds per instrumented call
# (enter and leave of leaf() below three uninstrumented frames, bench/unwind_enter_bench.c,
# built with scorep-cc --filter) without the runtime's unwinding and with
# SCOREP_ENABLE_UNWINDING (no sampling events), profile and trace; then the start-up cost:
# wall and CPU time and peak RSS of a program that only creates and joins one thread
# (bench/unwind_start.c) under scorep-run with and without SCOREP_ENABLE_UNWINDING, beside
# the program alone, and the runtime's own time per unwound enter (SCOREP_VERBOSE), which
# there is the first-use work of the symbol lookup; medians of BENCH_RUNS. Asserts nothing.
#
# Environment: abs_top_builddir, abs_top_srcdir, CC (default gcc), BENCH_RUNS (default 5),
# BENCH_CALLS (default 1000000), BENCH_START_RUNS (default 11).
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

cc=${CC:-gcc}
runs=${BENCH_RUNS:-5}
calls=${BENCH_CALLS:-1000000}
cat >"$tmp/f.flt" <<EOF2
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE mid1 mid2 mid3
SCOREP_REGION_NAMES_END
EOF2
$cc -O2 -o "$tmp/plain" "$srcdir/bench/unwind_enter_bench.c"
SCOREP_CC_GCC_PLUGIN=$builddir/.libs/scorep_filter_gcc.so SCOREP_CC_INSTRUMENT_THRESHOLD=0 \
    "$builddir/scorep-cc" --filter "$tmp/f.flt" $cc -O2 -o "$tmp/inst" \
    "$srcdir/bench/unwind_enter_bench.c"

# measure LABEL PROGRAM [VAR=VALUE...]: median ns per call
measure() {
    label=$1
    prog=$2
    shift 2
    : >"$tmp/ns"
    i=0
    while [ $i -lt "$runs" ]; do
        i=$((i + 1))
        rm -rf "$tmp/exp"
        env SCOREP_THROTTLING=false "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" "$prog" "$calls" \
            >"$tmp/out" 2>"$tmp/err"
        awk '/^ns_per_call/ { print $2 }' "$tmp/out" >>"$tmp/ns"
    done
    printf '| %s | %s |\n' "$label" "$(sort -n "$tmp/ns" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
}

echo "| variant (leaf below 3 uninstrumented frames, $calls calls) | ns per call |"
echo "| --- | --- |"
measure "no runtime" "$tmp/plain"
measure "profile" "$tmp/inst"
measure "profile, SCOREP_ENABLE_UNWINDING" "$tmp/inst" SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS=
measure "profile + trace" "$tmp/inst" SCOREP_ENABLE_TRACING=true
measure "profile + trace, SCOREP_ENABLE_UNWINDING" "$tmp/inst" SCOREP_ENABLE_TRACING=true \
    SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS=

# ---- start-up: the first lookups of the unwound frames' symbols (objects' ELF tables and
# DWARF) fall into the first enters
start_runs=${BENCH_START_RUNS:-11}
$cc -O2 -o "$tmp/rusage_run" "$srcdir/bench/rusage_run.c"
$cc -O2 -g -pthread -o "$tmp/start" "$srcdir/bench/unwind_start.c"

median() { # median of the numbers in file $1
    sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# start LABEL RUNNER [VAR=VALUE...]: one table row of medians (RUNNER: "" for the program
# alone, or scorep-run)
start() {
    label=$1
    runner=${2:+$builddir/$2}
    shift 2
    for f in wall cpu rss enter; do : >"$tmp/$f"; done
    i=0
    while [ $i -lt "$start_runs" ]; do
        i=$((i + 1))
        rm -rf "$tmp/exp"
        # shellcheck disable=SC2086 # runner: nothing or one word
        env SCOREP_RUN_LIBDIR="$builddir/.libs" SCOREP_VERBOSE=true \
            SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" "$@" "$tmp/rusage_run" "$tmp/ru" \
            $runner "$tmp/start" >"$tmp/out" 2>"$tmp/err" || die "$label: the run failed"
        awk '{ print $4 * 1000 }' "$tmp/ru" >>"$tmp/wall"
        awk '{ print $6 * 1000 }' "$tmp/ru" >>"$tmp/cpu"
        awk '{ print $2 / 1024 }' "$tmp/ru" >>"$tmp/rss"
        sed -n 's/.*unwinding at events: .* \([0-9][0-9]*\) ns per enter.*/\1/p' "$tmp/err" |
            awk '{ print $1 / 1e6 }' >>"$tmp/enter"
    done
    per_enter=-
    [ ! -s "$tmp/enter" ] || per_enter=$(printf '%.2f' "$(median "$tmp/enter")")
    printf '| %s | %.0f | %.0f | %.1f | %s |\n' "$label" "$(median "$tmp/wall")" \
        "$(median "$tmp/cpu")" "$(median "$tmp/rss")" "$per_enter"
}

echo
echo "| start-up (one thread created and joined, $start_runs runs) | wall ms | CPU ms | peak RSS MiB | ms per unwound enter |"
echo "| --- | --- | --- | --- | --- |"
start "no runtime" ""
start "scorep-run" scorep-run
start "scorep-run, SCOREP_ENABLE_UNWINDING" scorep-run SCOREP_ENABLE_UNWINDING=true
