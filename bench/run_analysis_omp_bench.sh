#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_analysis_omp_bench.sh: cost of the OpenMP part of the post-mortem wait-state analysis
# (docs/analysis.md, src/analysis/an_omp.c): analysis_omp_bench.c (1 rank, 3 threads, N small
# parallel regions with a barrier each; clang through scorep-cc, LLVM's OMPT) is traced with
# N = 20000 and 60000; scorep-analyze runs on it. Beside each figure the floor: reading the
# same trace once with OTF2's reader (otf2_read_all.c, all locations, no callbacks). Timings
# only, nothing asserted.
set -eu
. "$(dirname "$0")/bench_lib.sh"
[ -x "$builddir/scorep-analyze" ] || { echo "$bench_name: scorep-analyze not built, skipped"; exit 0; }
command -v mpicc >/dev/null 2>&1 || { echo "$bench_name: no mpicc, skipped"; exit 0; }
command -v clang >/dev/null 2>&1 || { echo "$bench_name: no clang, skipped"; exit 0; }
nm -D "$builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$' ||
    { echo "$bench_name: the runtime has no OMPT tool, skipped"; exit 0; }
step "build analysis_omp_bench" env OMPI_CC=clang "$builddir/scorep-cc" --nocompiler mpicc -O1 \
    -fopenmp -o "$tmp/analysis_omp_bench" "$bench/analysis_omp_bench.c"
step "build otf2_read_all" ${CC:-cc} -O2 -o "$tmp/otf2_read_all" "$bench/otf2_read_all.c" \
    ${OTF2_CFLAGS:-} ${OTF2_LIBS:--lotf2}
MPIRUN="mpirun --oversubscribe --allow-run-as-root"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=3 KMP_BLOCKTIME=0
med() { echo "$@" | tr ' ' '\n' | sed '/^$/d' | sort -g | sed -n 2p; }

echo "== wait-state analysis, OpenMP: 1 rank x 3 threads, N parallel regions (seconds, median of 3)"
printf '%-8s %10s %12s %12s %12s %8s\n' regions events otf2_read an_read an_replay ratio
for n in 20000 60000; do
    x=$tmp/exp$n
    step "trace $n regions" env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$x" \
        SCOREP_TOTAL_MEMORY=1G $MPIRUN -np 1 "$tmp/analysis_omp_bench" "$n"
    reads= an_r= an_p=
    for i in 1 2 3; do
        set -- $("$tmp/otf2_read_all" "$x/traces.otf2")
        events=$1
        reads="$reads $2"
        step "analyse $n regions" $MPIRUN -np 1 "$builddir/scorep-analyze" "$x"
        line=$(sed -n 's/.*; read \([0-9.]*\) s, replay and report \([0-9.]*\) s/\1 \2/p' \
            "$tmp/step.log")
        an_r="$an_r ${line% *}"
        an_p="$an_p ${line#* }"
    done
    r=$(med $reads) ar=$(med $an_r) ap=$(med $an_p)
    printf '%-8s %10s %12s %12s %12s %8s\n' $n $events $r $ar $ap \
        "$(echo "scale=2; ($ar + $ap) / $r" | bc)x"
done
echo "otf2_read: one read of all events; an_read: scorep-analyze reads the rank's threads;"
echo "an_replay: the passes (OpenMP included) and the report; ratio = (an_read + an_replay) / otf2_read"
