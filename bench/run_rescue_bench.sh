#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2086 # $cc is split on purpose: CC may carry options (gcc -m64)
# run_rescue_bench.sh: what checkpoints (SCOREP_CHECKPOINT_INTERVAL, issue #29) cost. The
# tiny-call benchmark (bench/tiny.c, GCC plugin or -finstrument-functions, profiling, the
# thread's CPU clock) runs without checkpoints and with one every second, alternately, so
# both see the same load: the program's own ns per call (the checkpoint runs on the
# measurement's thread; what shows here is what it takes from the program's thread: cache,
# memory bandwidth, a core on a full machine). Then the time one checkpoint takes (SCOREP_VERBOSE's
# "checkpoint written in" lines) of tiny's profile and of the call-heavy lulesh_like.c's.
# Asserts nothing about timings.
#
# Environment: abs_top_builddir, abs_top_srcdir, CC, BENCH_RUNS (runs per variant, default 5),
# BENCH_CALLS (calls per run of tiny, default 100000000: a few seconds, a few checkpoints).
set -eu

# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
cc=${CC:-gcc}
cc="$cc -DTINY_CLOCK=CLOCK_THREAD_CPUTIME_ID"
calls=${BENCH_CALLS:-100000000}
[ -x "$builddir/scorep-cc" ] || die "no $builddir/scorep-cc: build first (make all)"
how=functions
SCOREP_CC_GCC_PLUGIN=$builddir/.libs/scorep_filter_gcc.so
export SCOREP_CC_GCC_PLUGIN
[ ! -e "$SCOREP_CC_GCC_PLUGIN" ] || how=plugin
step "build tiny (scorep-cc, $how)" "$builddir/scorep-cc" --instrument=$how \
    $cc -O2 -o "$tmp/tiny" "$bench/tiny.c"
step "build lulesh_like (scorep-cc, $how)" "$builddir/scorep-cc" --instrument=$how \
    ${CC:-gcc} -O2 -o "$tmp/lulesh" "$bench/lulesh_like.c"
SCOREP_THROTTLING=false
export SCOREP_THROTTLING

# one_run INTERVAL: ns per call of one run of tiny; its checkpoint times appended to $tmp/ck
one_run() {
    rm -rf "$tmp/exp"
    SCOREP_VERBOSE=true SCOREP_CHECKPOINT_INTERVAL=$1 SCOREP_EXPERIMENT_DIRECTORY=$tmp/exp \
        "$tmp/tiny" "$calls" >"$tmp/out" 2>"$tmp/err" || {
        sed 's/^/  | /' "$tmp/err" >&2
        die "FAILED: tiny with SCOREP_CHECKPOINT_INTERVAL=$1"
    }
    sed -n 's/.*checkpoint written in \([0-9.]*\) ms.*/\1/p' "$tmp/err" >>"$tmp/ck"
    sed -n 's/^ns_per_call //p' "$tmp/out"
}

: >"$tmp/off" && : >"$tmp/on" && : >"$tmp/ck"
i=0
while [ $i -lt "$runs" ]; do
    i=$((i + 1))
    one_run 0 >>"$tmp/off"
    one_run 1 >>"$tmp/on"
done
echo "tiny(x) = x+1 called $calls times ($how, profiling, thread CPU time); $runs runs each, alternating"
printf '%-40s %8s %8s\n' "variant (ns per call)" min median
printf '%-40s %8s %8s\n' "no checkpoints" "$(minimum <"$tmp/off")" "$(median <"$tmp/off")"
printf '%-40s %8s %8s\n' "SCOREP_CHECKPOINT_INTERVAL=1" "$(minimum <"$tmp/on")" "$(median <"$tmp/on")"
printf 'one checkpoint of tiny (%s of them): min %s ms, median %s ms\n' "$(wc -l <"$tmp/ck")" \
    "$(minimum <"$tmp/ck")" "$(median <"$tmp/ck")"
rm -rf "$tmp/exp"
: >"$tmp/ck"
SCOREP_VERBOSE=true SCOREP_CHECKPOINT_INTERVAL=1 SCOREP_EXPERIMENT_DIRECTORY=$tmp/exp \
    "$tmp/lulesh" >"$tmp/out" 2>"$tmp/err" || die "FAILED: lulesh_like with checkpoints"
sed -n 's/.*checkpoint written in \([0-9.]*\) ms.*/\1/p' "$tmp/err" >"$tmp/ck"
printf 'one checkpoint of lulesh_like (%s of them): min %s ms, median %s ms\n' \
    "$(wc -l <"$tmp/ck")" "$(minimum <"$tmp/ck")" "$(median <"$tmp/ck")"
