#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_taskgraph_bench.sh: time and peak memory of the analysis's OpenMP task graph
# (src/analysis/an_taskgraph.c; docs/openmp.md "Task graph") for 10^5 and 10^6 tasks of a
# synthetic rank (taskgraph_bench.c: a wavefront of dependences, ~2 edges per task, built from
# the analysis's own source): building the graph from the events, its critical path, the
# merged DOT text. CPU seconds; peak RSS of the process, the events (the loader's share)
# included. Then the whole post-mortem analysis (scorep-analyze EXPDIR, no mpirun) of a real
# trace with 10^5 and 10^6 tasks with 2 depend items each (omp_bench deptasks, 2 threads,
# the runtime preloaded): its wall and CPU time, its read/replay split and its peak RSS.
# Timings only, nothing asserted.
set -eu
. "$(dirname "$0")/bench_lib.sh"
step "build taskgraph_bench" ${CC:-cc} -O2 -I"$srcdir/src" -o "$tmp/taskgraph_bench" \
    "$bench/taskgraph_bench.c" "$srcdir/src/analysis/an_taskgraph.c"
echo "== task graph of the analysis: N tasks, ~2 dependences each (CPU seconds; MiB)"
printf '%-8s %9s %9s %8s %8s %8s %8s %9s %8s\n' tasks events edges build path dot \
    events_M peak_M graph_B/task
for n in 100000 1000000; do
    step "taskgraph_bench $n" "$tmp/taskgraph_bench" "$n"
    set -- $(cat "$tmp/step.log")
    printf '%-8s %9s %9s %8s %8s %8s %8s %9s %8.0f\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" \
        "$(echo "($8 - $7) * 1048576 / $1" | bc -l)"
done
echo "build: the graph from the events (hash tables by task and by address); path: the"
echo "critical path, slack (linear in tasks + edges); dot: the merged DOT text; graph_B/task:"
echo "(peak - events) / tasks"

[ -x "$builddir/scorep-analyze" ] || { echo "$bench_name: scorep-analyze not built, skipped"; exit 0; }
command -v clang >/dev/null 2>&1 || { echo "$bench_name: no clang, skipped"; exit 0; }
rt=$builddir/.libs/libscorep-rt.so
nm -D "$rt" 2>/dev/null | grep -q ' T ompt_start_tool$' ||
    { echo "$bench_name: the runtime has no OMPT tool, skipped"; exit 0; }
step "build omp_bench" clang -O2 -fopenmp -o "$tmp/omp_bench" "$bench/omp_bench.c"
step "build rusage_run" ${CC:-cc} -O2 -o "$tmp/rusage_run" "$bench/rusage_run.c"
echo "== scorep-analyze EXPDIR on a trace of N tasks with 2 depend items (omp_bench deptasks)"
printf '%-8s %9s %8s %8s %8s %8s %8s\n' tasks events wall_s cpu_s read_s replay_s peak_M
for n in 100000 1000000; do
    x=$tmp/dep$n
    step "trace $n tasks" env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_PROFILING=false \
        SCOREP_EXPERIMENT_DIRECTORY="$x" SCOREP_TOTAL_MEMORY=3G LD_PRELOAD="$rt" \
        "$tmp/omp_bench" deptasks 2 "$n"
    step "analyse $n tasks" "$tmp/rusage_run" "$tmp/ru.txt" "$builddir/scorep-analyze" "$x"
    set -- $(sed -n 's/.*: \([0-9]*\) events on rank 0; read \([0-9.]*\) s, replay and report \([0-9.]*\) s/\1 \2 \3/p' \
        "$tmp/step.log") $(cat "$tmp/ru.txt")
    printf '%-8s %9s %8.2f %8.2f %8s %8s %8.0f\n' "$n" "$1" "$7" "$9" "$2" "$3" \
        "$(echo "$5 / 1024" | bc -l)"
    rm -rf "$x"
done
echo "wall_s, cpu_s: scorep-analyze's whole run; read_s: loading the trace; replay_s: the"
echo "passes (the task graph among them), the report and taskgraph.dot (merged); peak_M: its peak RSS"
