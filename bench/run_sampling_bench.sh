#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_sampling_bench.sh: the sampling rows of `make bench`: CPU time of a system-call-free
# loop (bench/sampling_bench.c) unmodified under scorep-run without and with sampling, the
# cost per sample and the time the handler reports per sample. Asserts nothing.
#
# Environment: abs_top_builddir, abs_top_srcdir, CC (default gcc), BENCH_RUNS (default 5),
# BENCH_REPS (loop repetitions, 100000 iterations each; default 10000, about 0.8 s).
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

cc=${CC:-gcc}
runs=${BENCH_RUNS:-5}
reps=${BENCH_REPS:-10000}

$cc -O2 -o "$tmp/work" "$srcdir/bench/sampling_bench.c"
$cc -O2 -o "$tmp/floor" "$srcdir/bench/signal_floor.c"
run="$builddir/scorep-run"


# measure LABEL [VAR=VALUE...]: median CPU time of the loop (us), samples and handler ns of
# the last run; with no variables the program runs without the runtime
measure() {
    label=$1
    shift
    : >"$tmp/us"
    i=0
    while [ $i -lt "$runs" ]; do
        i=$((i + 1))
        rm -rf "$tmp/exp"
        if [ $# -eq 0 ]; then
            "$tmp/work" "$reps" >"$tmp/out" 2>"$tmp/err"
        elif [ "$1" = floor ]; then
            "$tmp/floor" "$reps" "$2" >"$tmp/out" 2>"$tmp/err"
        else
            env "$@" SCOREP_VERBOSE=true SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" \
                "$run" "$tmp/work" "$reps" >"$tmp/out" 2>"$tmp/err"
        fi
        awk '/^work_us/ { print $2 }' "$tmp/out" >>"$tmp/us"
    done
    us=$(median <"$tmp/us")
    samples=$(sed -n 's/.*location 0: \([0-9]*\) samples.*/\1/p' "$tmp/err")
    [ -n "$samples" ] || samples=$(awk '/^work_us/ { print $4 }' "$tmp/out")
    handler=$(sed -n 's/.* \([0-9]*\) ns in the handler per sample.*/\1/p' "$tmp/err")
    echo "$label ${us} ${samples:-0} ${handler:--}"
}

echo "sampling: $runs runs of $reps x 100000 loop iterations, medians" >&2
{
    measure plain
    measure scorep-run SCOREP_ENABLE_PROFILING=true
    measure timer@1000 SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS=timer@1000
    measure perf_task_clock@1000000 SCOREP_ENABLE_UNWINDING=true \
        SCOREP_SAMPLING_EVENTS=perf_task_clock@1000000
    measure perf_task_clock@100000 SCOREP_ENABLE_UNWINDING=true \
        SCOREP_SAMPLING_EVENTS=perf_task_clock@100000
    measure floor:empty-handler@1000000 floor 1000000
    measure floor:empty-handler@100000 floor 100000
} >"$tmp/rows"
awk '
    NR == 2 { base = $2 }
    { row[NR] = $0; us[NR] = $2; n[NR] = $3; h[NR] = $4; lab[NR] = $1 }
    END {
        printf "%-26s %12s %10s %9s %14s %12s\n", "variant", "loop CPU ms", "vs no smp", "samples",
            "cost/sample us", "handler ns"
        for (i = 1; i <= NR; i++) {
            d = (i > 2 && base > 0) ? sprintf("%+.2f%%", (us[i] - base) * 100 / base) : "-"
            c = (i > 2 && n[i] > 0) ? sprintf("%.2f", (us[i] - base) / n[i]) : "-"
            printf "%-26s %12.1f %10s %9s %14s %12s\n", lab[i], us[i] / 1000, d, n[i], c, h[i]
        }
    }' "$tmp/rows"
echo "(cost/sample: extra loop CPU time over scorep-run without sampling, per sample; it"
echo " includes the kernel's signal delivery, which the floor rows measure alone: the same"
echo " perf_event source and an empty handler, without the runtime. handler ns: what the"
echo " runtime measures inside its handler, mean over the run's samples, cold ones included.)"
