#!/bin/sh
# test_omp_hybrid.sh: test/omp/hybrid.c, MPI + OpenMP with 2 ranks x 4 threads, built with
# plain mpicc -fopenmp and run unchanged under mpirun + scorep-run (MPI adapter, libomp and
# the runtime preloaded): per rank its teams and team events; MPI calls made inside parallel
# regions land on the calling thread's location. Skipped (77) without MPI or when the MPI
# adapter cannot be preloaded.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 ||
    { echo "SKIP: no mpicc/mpirun"; exit 77; }
[ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: no MPI adapter"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpicc -g -fopenmp -o hybrid "$OMP_SRC/hybrid.c" || fail "build: mpicc -fopenmp hybrid.c"
# mpirun_run NAME EXP: 2 ranks under scorep-run, status in $status
mpirun_run()
{
    run_app "$1" env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$2" \
        timeout 300 mpirun --oversubscribe -np 2 "$SCOREP_RUN" ./hybrid
}
mpirun_run probe exp_probe
if [ "$status" != 0 ] && grep -q 'symbol lookup error' probe.err; then
    echo "SKIP: the MPI adapter cannot be preloaded: $(grep -m1 'symbol lookup error' probe.err)"
    exit 77
fi
x=exp_probe
expect_eq "$status" 0 "exit status"
expect_defs_clean "$x" "hybrid"
mode=$(awk '{ print $3; exit }' probe.out)
expect_eq "$(sort probe.out | sed 's/ sum .*//')" "rank 0 $mode
rank 1 $mode" "program output"
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
    expect_eq "$(trace_summary $x | awk '$1 == "MPI_SEND" { n++ } END { print n + 0 }')" 8 \
        "MPI_SEND on 8 locations: each thread's own"
fi
done_ok
