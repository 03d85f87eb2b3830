#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_rma_bench.sh: part of `make bench` (a few seconds): time per request-based RMA
# operation with K = 1, 100, 10^4 MPI_Rputs open on one window, then MPI_Waitall and
# MPI_Win_flush_all (bench/rma_request_bench.c, 2 ranks, profiling): plain, measured with this
# build, and, with BENCH_RMA_LIBDIR_BEFORE=DIR (the .libs of another build, e.g. before a
# change; libscorep-rt.so and libscorep-rt-mpi.so), measured with that one; 3 rounds
# interleaved, the fastest kept. A tracking whose lookup or removal is linear in the open
# requests shows as a time per operation growing with K. Asserts nothing.
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
command -v mpicc >/dev/null 2>&1 || { echo "RMA request benchmark skipped: no mpicc"; exit 0; }
[ -e "$builddir/.libs/libscorep-rt-mpi.so" ] || { echo "RMA request benchmark skipped: no MPI adapter"; exit 0; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
cd "$tmp"
step "build rma_request_bench" mpicc -O2 -o rrb "$srcdir/bench/rma_request_bench.c"
variants="plain after"
[ -n "${BENCH_RMA_LIBDIR_BEFORE:-}" ] && variants="plain before after"
round=0
while [ $round -lt 3 ]; do
    for v in $variants; do
        case $v in
        plain) step "run plain" mpirun -np 2 ./rrb ;;
        after) step "run measured" env SCOREP_RUN_LIBDIR="$builddir/.libs" \
            SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp$round" mpirun -np 2 "$builddir/scorep-run" ./rrb ;;
        before) step "run measured (before)" env SCOREP_RUN_LIBDIR="$BENCH_RMA_LIBDIR_BEFORE" \
            SCOREP_EXPERIMENT_DIRECTORY="$tmp/expb$round" mpirun -np 2 "$builddir/scorep-run" ./rrb ;;
        esac
        sed -n "s/^K \([0-9]*\) ns_per_op \([0-9]*\)$/$v \1 \2/p" step.log >>times
    done
    round=$((round + 1))
done
echo "RMA request-based operations: ns per MPI_Rput (+ its share of MPI_Waitall, MPI_Win_flush_all),"
echo "K open on one window, 2 ranks, profiling; fastest of 3 rounds"
awk -v vs="$variants" '
    !($2 in k) { k[$2] = 1; order[++m] = $2 }
    { key = $1 " " $2; if (!(key in t) || $3 < t[key]) t[key] = $3 }
    END {
        n = split(vs, v, " ")
        printf "%8s", "K"; for (i = 1; i <= n; i++) printf "%10s", v[i]; printf "\n"
        for (j = 1; j <= m; j++) {
            printf "%8s", order[j]
            for (i = 1; i <= n; i++) printf "%10s", t[v[i] " " order[j]]
            printf "\n"
        }
    }' times
