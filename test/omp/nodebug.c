/* SPDX-License-Identifier: BSD-3-Clause */
/* nodebug.c (2 processes): MPI + OpenMP code without debug information, as Debian ships
 * LAMMPS and FFTW: a parallel region in the program and one in a shared library
 * (nodebug_lib.c), both built with -g0, 3 times each, 2 threads; the ranks then sum their
 * threads' work. test_omp_nodebug.sh checks that each construct is one region on all ranks. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int lib_work(int round);

int main(int argc, char **argv)
{
    int rank, local = 0, total = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    omp_set_dynamic(0);
    for (int r = 0; r < 3; r++) {
#pragma omp parallel num_threads(2) reduction(+ : local)
        local += omp_get_thread_num() + 1;
        local += lib_work(r);
    }
    MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d local %d total %d\n", rank, local, total);
    MPI_Finalize();
    return 0;
}
