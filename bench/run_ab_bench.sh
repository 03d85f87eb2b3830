#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2086 # $cc is split on purpose: CC may carry options (gcc -m64)
# run_ab_bench.sh: before/after of a runtime change on the tiny-call benchmark, in one run.
# The same programs (bench/tiny.c, built once with this build tree's scorep-cc: the GCC
# plugin's code and -finstrument-functions) run against two builds of libscorep-rt, A and
# B, alternately (A B A B ...), so that both see the same machine load; prints min and
# median ns per call of each. Asserts nothing about timings; not part of `make bench`
# (it needs a second build).
#
#   BENCH_LIBDIR_A=/old/lib BENCH_LIBDIR_B=/new/lib sh bench/run_ab_bench.sh
#
# Environment: BENCH_LIBDIR_A, BENCH_LIBDIR_B (directories holding libscorep-rt.so.0),
# abs_top_builddir, abs_top_srcdir, CC, BENCH_RUNS (runs per variant and build, default 7),
# BENCH_CALLS (calls per run, default 10000000). The floor rows (run_bench.sh's (b) and
# (b2), in the caches and the trace's size: no runtime at all) run twice like the others: A
# and B columns show the machine's noise.
set -eu

# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
cc=${CC:-gcc}
# the thread's CPU time (tiny.c TINY_CLOCK): leaves out the time other processes of a loaded
# machine hold the CPU; BENCH_CLOCK=CLOCK_MONOTONIC for wall time
clock=${BENCH_CLOCK:-CLOCK_THREAD_CPUTIME_ID}
cc="$cc -DTINY_CLOCK=$clock"
runs=${BENCH_RUNS:-7}
calls=${BENCH_CALLS:-10000000}
# room for every event of the "tracing, all in memory" rows (40 B per call is ample)
trace_memory=$(( (calls / 1000000 + 1) * 40 ))M
liba=${BENCH_LIBDIR_A:?set BENCH_LIBDIR_A to the directory of the first libscorep-rt.so.0}
libb=${BENCH_LIBDIR_B:?set BENCH_LIBDIR_B to the directory of the second libscorep-rt.so.0}
for d in "$liba" "$libb"; do
    [ -e "$d/libscorep-rt.so.0" ] || die "no $d/libscorep-rt.so.0"
done
[ -x "$builddir/scorep-cc" ] || die "no $builddir/scorep-cc: build first (make all)"

step "build tiny (uninstrumented)" $cc -O2 -o "$tmp/tiny_plain" "$bench/tiny.c"
build_floors # run_bench.sh's (b) and (b2)
# --nomemory: tiny.c allocates nothing, and an older runtime (A) lacks the symbols that this
# tree's libscorep-rt-memory needs
step "build tiny (scorep-cc, functions)" "$builddir/scorep-cc" --nomemory --instrument=functions \
    $cc -O2 -o "$tmp/tiny_functions" "$bench/tiny.c"
SCOREP_CC_GCC_PLUGIN=$builddir/.libs/scorep_filter_gcc.so
export SCOREP_CC_GCC_PLUGIN
have_plugin=no
# tiny_plugin is built by this tree's plugin: A and B must share its descriptor contract
# (plugin_region.h); a runtime from before session 14 writes another state word and crashes it
if [ -e "$SCOREP_CC_GCC_PLUGIN" ]; then
    # tiny is below the plugin's default threshold: --instrument-threshold=0 instruments it
    step "build tiny (scorep-cc, plugin)" "$builddir/scorep-cc" --nomemory --instrument=plugin \
        --instrument-threshold=0 $cc -O2 -o "$tmp/tiny_plugin" "$bench/tiny.c"
    have_plugin=yes
fi

# one_run LIBDIR EXE: ns per call of one run (the program links libscorep-rt through its
# RUNPATH, which LD_LIBRARY_PATH overrides)
one_run() {
    rm -rf "$tmp/exp"
    LD_LIBRARY_PATH=$1 SCOREP_EXPERIMENT_DIRECTORY=$tmp/exp "$2" "$calls" >"$tmp/out" \
        2>"$tmp/err" || {
        sed 's/^/  | /' "$tmp/err" >&2
        die "FAILED: $2 with $1"
    }
    sed -n 's/^ns_per_call //p' "$tmp/out"
}

# ab LABEL EXE: runs A and B alternately, prints the table row
ab() {
    echo "running $1 ($runs x 2 x $calls calls) ..." >&2
    : >"$tmp/a" && : >"$tmp/b"
    i=0
    while [ $i -lt "$runs" ]; do
        i=$((i + 1))
        one_run "$liba" "$2" >>"$tmp/a"
        one_run "$libb" "$2" >>"$tmp/b"
    done
    printf '%-34s %8s %8s   %8s %8s\n' "$1" "$(minimum <"$tmp/a")" "$(median <"$tmp/a")" \
        "$(minimum <"$tmp/b")" "$(median <"$tmp/b")"
}

SCOREP_THROTTLING=false
export SCOREP_THROTTLING
{
    echo "tiny(x) = x+1 called $calls times ($clock); $runs runs per build, A and B alternating"
    echo "A: $liba"
    echo "B: $libb"
    printf '%-34s %8s %8s   %8s %8s\n' "variant (ns per call)" "A min" "A median" "B min" \
        "B median"
    ab "uninstrumented (floor of the loop)" "$tmp/tiny_plain"
    ab "floor (rdtsc+16B store per event)" "$tmp/tiny_floor"
    FLOOR_TRACE_BYTES=$(((calls + 1) * 32))
    export FLOOR_TRACE_BYTES
    ab "floor, linear, trace's size" "$tmp/tiny_floor_linear"
    unset FLOOR_TRACE_BYTES
    for how in functions plugin; do
        [ $how = functions ] || [ $have_plugin = yes ] || continue
        SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false
        export SCOREP_ENABLE_PROFILING SCOREP_ENABLE_TRACING
        ab "$how: profiling" "$tmp/tiny_$how"
        SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true
        ab "$how: tracing" "$tmp/tiny_$how"
        # the whole trace in memory (run_bench.sh's (e)): the traced call itself, no
        # reduction of a full buffer inside the loop; beside the floor above
        SCOREP_TOTAL_MEMORY=$trace_memory
        export SCOREP_TOTAL_MEMORY
        ab "$how: tracing, $trace_memory" "$tmp/tiny_$how"
        unset SCOREP_TOTAL_MEMORY
        SCOREP_ENABLE_PROFILING=true SCOREP_THROTTLING=true
        ab "$how: profiling+tracing, throttled" "$tmp/tiny_$how"
        SCOREP_THROTTLING=false
    done
}
