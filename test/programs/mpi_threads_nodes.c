/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_threads_nodes.c: MPI test program for the system tree: each rank starts a known
 * number of threads (rank % 3) that do instrumented work, then the ranks synchronise. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static long sink; /* added to by several threads: atomically */

__attribute__((noinline)) void work(int n)
{
    for (int i = 0; i < n; i++)
        __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

static void *thread_main(void *arg)
{
    work((int)(long)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    pthread_t t[2];
    int n = rank % 3;
    for (long k = 0; k < n; k++)
        pthread_create(&t[k], NULL, thread_main, (void *)(1000 + k));
    for (int k = 0; k < n; k++)
        pthread_join(t[k], NULL);
    work(10);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
