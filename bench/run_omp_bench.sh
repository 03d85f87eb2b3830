#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_omp_bench.sh: OpenMP part of `make bench`: the cost of an empty parallel region and of
# an explicit task, uninstrumented and with the runtime's OMPT tool (preloaded: profile, and
# profile + trace). Prints one table; asserts nothing (never part of `make check`).
#
# With 1 thread every callback runs on the measured thread and nothing waits for the OS
# scheduler: that row is the adapter's cost per team member; with 4 threads on fewer cores
# the numbers mostly show thread scheduling. Tasks with 2 depend items each (trace: one
# record per item, docs/openmp.md "Task dependences") beside tasks without; then the creating
# thread's time in the task construct alone (0, 2, 64 items: the tool's create and
# dependences callbacks, without the tasks' scheduling), and from it the trace's cost per item. The minimum of the runs is shown (the machine
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
for row in "parallel 1" "parallel 4" "tasks 2" "tasks 4" "deptasks 2" "create0 2" "create2 2" \
    "create64 2"; do
    set -- $row
    n=$regions
    label="empty parallel region, $2 thr"
    if [ "$1" = tasks ]; then
        n=$ntasks
        label="explicit task, $2 thr"
    elif [ "$1" = deptasks ]; then
        n=$ntasks
        label="task, 2 depend items, $2 thr"
    elif [ "$1" = create64 ]; then
        n=$((ntasks / 20))
        label="creation, 64 items, $2 thr"
    elif [ "${1#create}" != "$1" ]; then
        n=$ntasks
        label="creation, ${1#create} items, $2 thr"
    fi
    p=$(best "$1" "$2" plain $n)
    a=$(best "$1" "$2" profile $n)
    b=$(best "$1" "$2" trace $n)
    printf '%-30s %14s %10s %14s %16s\n' "$label" "$p" "$a" "$b" \
        "$(awk -v p="$p" -v b="$b" 'BEGIN { printf "%.1f (%.2fx)", b - p, b / p }')"
    eval "added_$1_$2=\$(awk -v p=\"\$p\" -v b=\"\$b\" 'BEGIN { print b - p }')"
done
# shellcheck disable=SC2154 # set by the eval above
awk -v c0="$added_create0_2" -v c2="$added_create2_2" -v c64="$added_create64_2" 'BEGIN {
    printf "depend items recorded (trace, creating thread): %.1f ns per task with 2 items, %.1f with 64, beyond a task without: %.1f ns per item\n", c2 - c0, c64 - c0, (c64 - c0) / 64 }'
