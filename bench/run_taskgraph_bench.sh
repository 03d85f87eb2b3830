#!/bin/sh
# run_taskgraph_bench.sh: time and peak memory of the analysis's OpenMP task graph
# (src/analysis/an_taskgraph.c; docs/openmp.md "Task graph") for 10^5 and 10^6 tasks of a
# synthetic rank (taskgraph_bench.c: a wavefront of dependences, ~2 edges per task, built from
# the analysis's own source): building the graph from the events, its critical path, the
# merged DOT text. CPU seconds; peak RSS of the process, the events (the loader's share)
# included. Timings only, nothing asserted.
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
