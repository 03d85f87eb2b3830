#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_hybrid.sh: test/omp/hybrid.c, MPI + OpenMP with 2 ranks x 4 threads, built with
# plain mpicc -fopenmp and run unchanged under mpirun + scorep-run (MPI adapter, libomp and
# the runtime preloaded): per rank its teams and team events; MPI calls made inside parallel
# regions land on the calling thread's location. The thread level is the MPI library's (an
# unmeasured run tells it); the checks of that level are made, each level has its own.
# Skipped (77) without MPI; an MPI adapter that cannot be preloaded fails.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

omp_require_mpi
mpicc -g -fopenmp -o hybrid "$OMP_SRC/hybrid.c" || fail "build: mpicc -fopenmp hybrid.c"
run_app plain mpirun --oversubscribe -np 2 ./hybrid
expect_eq "$status" 0 "unmeasured run: exit status"
mode=$(awk '{ print $3; exit }' plain.out)
# what hybrid.c computes: with MULTIPLE each thread t of the other rank sends 10 * rank + t,
# 3 times; with FUNNELED nothing is exchanged
case $mode in
multiple) sums="rank 0 multiple sum 138
rank 1 multiple sum 18" ;;
funneled) sums="rank 0 funneled sum 0
rank 1 funneled sum 0" ;;
*) fail "unmeasured run: no thread level in its output: $(head -c 300 plain.out)" ;;
esac
expect_eq "$(sort plain.out)" "$sums" "unmeasured run: output of thread level $mode"
run_app probe env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_probe \
    mpirun --oversubscribe -np 2 "$SCOREP_RUN" ./hybrid
expect_no_grep 'symbol lookup error' probe.err "the MPI adapter can be preloaded"
x=exp_probe
expect_eq "$status" 0 "exit status"
expect_defs_clean "$x" "hybrid"
expect_eq "$(sort probe.out)" "$sums" "measured run: same thread level ($mode) and sums"
# (MPI's own helper threads are locations too)
expect_eq "$(profile_dump $x --system | grep -c -e 'Master thread' -e 'OMP thread')" 8 \
    "8 OpenMP locations: 2 ranks x 4 threads"
P="!\$omp parallel @hybrid.c:$(line hybrid PAR)"
expect_eq "$(per_loc $x "$P")" "3 3 3 3 3 3 3 3" "parallel region: 3 visits per thread"
# gcc's master construct calls no runtime function: MPI_Barrier sits in the parallel region
expect_eq "$(profile_dump $x -m visits | awk -F'\t' -v p="$P/" 'index($2, p) == 1 &&
    $2 ~ /\/MPI_Barrier$/ { split($4, a, "="); n += a[2]; l[$3] = 1 }
    END { for (k in l) c++; print n + 0, c + 0 }')" "6 2" \
    "MPI_Barrier inside the parallel region: once per rank and region, on 2 locations"
expect_eq "$(events $x THREAD_TEAM_BEGIN)" 24 "THREAD_TEAM_BEGIN: 2 ranks x 3 x 4"
expect_eq "$(events $x THREAD_FORK)" 6 "THREAD_FORK: 2 ranks x 3"
omp_consistent $x hybrid
expect_ge "$(grep -a -c '^COMM .*"OpenMP thread team"' $x.defs)" 2 "a team per rank at least"
if [ "$mode" = multiple ]; then
    expect_eq "$(visits $x "$P/MPI_Sendrecv")" 24 "MPI_Sendrecv on every thread"
    expect_eq "$(per_loc $x "$P/MPI_Sendrecv")" "3 3 3 3 3 3 3 3" "MPI_Sendrecv: 3 per thread"
    expect_eq "$(trace_summary $x | awk '$1 == "MPI_SEND" { n++ } END { print n + 0 }')" 8 \
        "MPI_SEND on 8 locations: each thread's own"
    expect_eq "$(events $x MPI_SEND):$(events $x MPI_RECV)" 24:24 "24 messages sent and received"
else
    # FUNNELED: only the master threads call MPI, and only MPI_Barrier
    expect_eq "$(visits $x "$P/MPI_Sendrecv")" 0 "no MPI_Sendrecv"
    expect_eq "$(events $x MPI_SEND):$(events $x MPI_RECV)" 0:0 "no messages"
fi
done_ok
