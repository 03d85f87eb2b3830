/* SPDX-License-Identifier: BSD-3-Clause */
/* unwind_omp_mpi.c: MPI calls inside OpenMP parallel regions below a function that is not
 * instrumented, for test_unwind_enter.sh: outer -> parallel (2 threads) -> helper ->
 * MPI_Sendrecv, twice, 2 ranks; prints whether MPI_THREAD_MULTIPLE was provided (the
 * threads' concurrent MPI calls need it). noinline keeps helper a frame of its own. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

__attribute__((noinline)) void helper(int rank, int t)
{
    int in = 0, out = t;
    MPI_Sendrecv(&out, 1, MPI_INT, 1 - rank, t, &in, 1, MPI_INT, 1 - rank, t, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
}

__attribute__((noinline)) void outer(int rank)
{
#pragma omp parallel num_threads(2)
    helper(rank, omp_get_thread_num());
}

int main(int argc, char **argv)
{
    int provided = 0, rank = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    omp_set_dynamic(0);
    if (provided == MPI_THREAD_MULTIPLE) {
        outer(rank);
        outer(rank);
    }
    printf("rank %d %s\n", rank, provided == MPI_THREAD_MULTIPLE ? "multiple" : "no multiple");
    MPI_Finalize();
    return 0;
}
