#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_unwind_bench.sh: the unwinding rows of `make bench`: nanoseconds per instrumented call
# (enter and leave of leaf() below three uninstrumented frames, bench/unwind_enter_bench.c,
# built with scorep-cc --filter) without the runtime's unwinding and with
# SCOREP_ENABLE_UNWINDING (no sampling events), profile and trace; median of BENCH_RUNS.
# Asserts nothing.
#
# Environment: abs_top_builddir, abs_top_srcdir, CC (default gcc), BENCH_RUNS (default 5),
# BENCH_CALLS (default 1000000).
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
