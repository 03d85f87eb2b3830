#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_link_order.sh: `scorep --mpp=mpi gcc ... -lmpi` (an MPI library named on the
# command line, as with nvcc or a plain compiler and `mpicc --showme:link`) puts the MPI
# adapter before that library, so the program's MPI calls are the adapter's: the 2 ranks
# write one experiment with 2 locations and their MPI regions. (Found on a GPU machine with
# scorep --mpp=mpi nvcc: the adapter came after libmpi, each rank measured itself alone.)
. "$top_srcdir/test/integration/lib.sh"

[ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: the MPI adapter was not built"; exit 77; }
command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1 ||
    { echo "SKIP: no mpirun or mpicc"; exit 77; }
cat >allreduce.c <<'EOS'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank, one = 1, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("sum %d\n", sum);
    MPI_Finalize();
    return 0;
}
EOS
ln -s "$top_builddir/scorep-cc" scorep
# shellcheck disable=SC2046 # mpicc's flags are words
./scorep --mpp=mpi gcc -O1 -o allreduce allreduce.c $(mpicc --showme:compile) $(mpicc --showme:link) ||
    fail "build: scorep --mpp=mpi gcc ... -lmpi"
run_to dyn.txt readelf -d allreduce
expect_eq "$(sed -n 's/.*NEEDED.*\[\(libscorep-rt-mpi\|libmpi\)\.so.*/\1/p' dyn.txt | tr '\n' ' ')" \
    "libscorep-rt-mpi libmpi " "the MPI adapter is loaded before libmpi"
run_app ar env SCOREP_EXPERIMENT_DIRECTORY=exp mpirun --oversubscribe --allow-run-as-root -np 2 ./allreduce
expect_eq "$status $(cat ar.out)" "0 sum 2" "exit status and output"
expect_eq "$(find . -maxdepth 1 -name 'exp*' | sort | tr '\n' ' ')" "./exp " "one experiment for both ranks"
expect_eq "$(profile_locations exp)" 2 "two locations (one per rank)"
expect_eq "$(profile_values exp main/MPI_Allreduce visits | awk '{ print $2 }' | tr '\n' ' ')" "1 1 " \
    "MPI_Allreduce on each rank"
done_ok
