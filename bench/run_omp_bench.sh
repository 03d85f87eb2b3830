#!/bin/sh
# run_omp_bench.sh: OpenMP part of `make bench`: the cost of an empty parallel region and of
# an explicit task, uninstrumented and with the runtime's OMPT tool (preloaded: profile, and
# profile + trace). Prints one table; asserts nothing (never part of `make check`).
#
# With 1 thread every callback runs on the measured thread and nothing waits for the OS
# scheduler: that row is the adapter's cost per team member; with 4 threads on fewer cores
# the numbers mostly show thread scheduling. Tasks with 2 depend items each (trace: one
# record per item, docs/openmp.md "Task dependences") beside tasks without: the last line
# gives the cost of recording the items, per task and per item. The minimum of the runs is shown (the machine
# may be shared). Environment: abs_top_builddir, abs_top_srcdir (as run_bench.sh),
# BENCH_RUNS (runs per variant, default 5), BENCH_REGIONS (default 100000), BENCH_TASKS
# (default 200000).
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

runs=${BENCH_RUNS:-5}
regions=${BENCH_REGIONS:-100000}
ntasks=${BENCH_TASKS:-200000}
rt=$builddir/.libs/libscorep-rt.so

if ! command -v clang >/dev/null 2>&1 || ! nm -D "$rt" 2>/dev/null | grep -q ' T ompt_start_tool$'; then
    echo "run_omp_bench.sh: skipped (needs clang and a runtime built with its OMPT tool)" >&2
    exit 0
fi
clang -O2 -fopenmp -o "$tmp/omp_bench" "$srcdir/bench/omp_bench.c"

# best KIND THREADS VARIANT N: the least ns per operation of $runs runs
best()
{
    for _r in $(seq "$runs"); do
        case $3 in
        plain) "$tmp/omp_bench" "$1" "$2" "$4" ;;
        profile) env SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" \
            SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true LD_PRELOAD="$rt" \
            "$tmp/omp_bench" "$1" "$2" "$4" ;;
        trace) env SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" \
            SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true SCOREP_ENABLE_TRACING=true \
            SCOREP_TOTAL_MEMORY=2G LD_PRELOAD="$rt" "$tmp/omp_bench" "$1" "$2" "$4" ;;
        esac
    done | sort -n | head -n 1
}

printf '\nOpenMP through OMPT (clang, libomp; %s CPUs; ns per operation, best of %s runs)\n' \
    "$(nproc)" "$runs"
printf '%-30s %14s %10s %14s %16s\n' operation uninstrumented profile profile+trace \
    "added (trace)"
for row in "parallel 1" "parallel 4" "tasks 2" "tasks 4" "deptasks 2" "deptasks 4"; do
    set -- $row
    n=$regions
    label="empty parallel region, $2 thr"
    if [ "$1" = tasks ]; then
        n=$ntasks
        label="explicit task, $2 thr"
    elif [ "$1" = deptasks ]; then
        n=$ntasks
        label="task, 2 depend items, $2 thr"
    fi
    p=$(best "$1" "$2" plain $n)
    a=$(best "$1" "$2" profile $n)
    b=$(best "$1" "$2" trace $n)
    printf '%-30s %14s %10s %14s %16s\n' "$label" "$p" "$a" "$b" \
        "$(awk -v p="$p" -v b="$b" 'BEGIN { printf "%.1f (%.2fx)", b - p, b / p }')"
    eval "added_$1_$2=\$(awk -v p=\"\$p\" -v b=\"\$b\" 'BEGIN { print b - p }')"
done
# shellcheck disable=SC2154 # set by the eval above
awk -v d="$added_deptasks_2" -v t="$added_tasks_2" 'BEGIN {
    printf "depend items recorded (2 thr, trace): %.1f ns per task beyond a task without, %.1f ns per item\n", d - t, (d - t) / 2 }'
