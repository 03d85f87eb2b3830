/* SPDX-License-Identifier: BSD-3-Clause */
/* hybrid.c (2 processes): MPI + OpenMP. MPI_THREAD_MULTIPLE when provided, else FUNNELED.
 * 3 parallel regions of 4 threads; with MULTIPLE every thread exchanges one message with
 * the same thread number of the other rank (tag = thread number); the master thread of
 * each team then runs an MPI_Barrier (FUNNELED allows only that). */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int provided, rank, sum = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    omp_set_dynamic(0);
    for (int r = 0; r < 3; r++) {
#pragma omp parallel num_threads(4) reduction(+ : sum) /* PAR */
        {
            int t = omp_get_thread_num(), in = 0, out = rank * 10 + t;
            if (provided == MPI_THREAD_MULTIPLE)
                MPI_Sendrecv(&out, 1, MPI_INT, 1 - rank, t, &in, 1, MPI_INT, 1 - rank, t,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += in;
#pragma omp master /* MASTER */
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    printf("rank %d %s sum %d\n", rank, provided == MPI_THREAD_MULTIPLE ? "multiple" : "funneled",
           sum);
    MPI_Finalize();
    return 0;
}
