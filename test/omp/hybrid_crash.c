/* SPDX-License-Identifier: BSD-3-Clause */
/* hybrid_crash.c (2 processes x 2 threads): an MPI + OpenMP job that dies inside a parallel
 * region (test_omp_hybrid_crash.sh). 5 rounds of MPI_Sendrecv (100 ints with the other rank)
 * and MPI_Barrier; then one parallel region of 2 threads whose single creates 4 tasks
 * (work()); after the single's barrier (every task ended) the master thread prints
 * "rank R inside" and then, as argv[1] says:
 *   abort, kill: rank 1 waits until the file argv[2] exists (at most 60 s), then calls
 *     MPI_Abort(MPI_COMM_WORLD, 3) or sends itself SIGKILL; rank 0 enters an MPI_Barrier
 *     that never completes (mpirun ends it with SIGTERM);
 *   normal: both ranks' masters call MPI_Barrier, the region ends, MPI_Finalize.
 * The worker threads wait in the region's closing barrier meanwhile. */
#include <mpi.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* (its own sum: the tasks run on both threads at once) */
__attribute__((noinline)) void work(void)
{
    volatile double sum = 0;
    for (int i = 0; i < 200000; i++)
        sum += i * 0.5;
}

int main(int argc, char **argv)
{
    int provided, rank, out[100] = {0}, in[100];
    const char *how = argc > 1 ? argv[1] : "normal";
    const char *go = argc > 2 ? argv[2] : "GO";
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int r = 0; r < 5; r++) {
        MPI_Sendrecv(out, 100, MPI_INT, 1 - rank, r, in, 100, MPI_INT, 1 - rank, r,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    omp_set_dynamic(0);
#pragma omp parallel num_threads(2) /* PAR */
    {
#pragma omp single
        for (int k = 0; k < 4; k++) {
#pragma omp task /* TASK */
            work();
        }
        /* (the single's barrier: every task ended) */
#pragma omp master /* MASTER */
        {
            printf("rank %d inside\n", rank);
            fflush(stdout);
            if (rank == 1 && strcmp(how, "normal") != 0) {
                for (int i = 0; i < 6000 && access(go, F_OK) != 0; i++)
                    usleep(10000);
                if (!strcmp(how, "abort"))
                    MPI_Abort(MPI_COMM_WORLD, 3);
                kill(getpid(), SIGKILL);
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
