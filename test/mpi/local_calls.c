/* SPDX-License-Identifier: BSD-3-Clause */
/* local_calls.c (2 processes): MPI's local calls, which the adapter stamps with one timer
 * reading (spec item 'local'), in known numbers: per process the main thread calls
 * MPI_Comm_rank 1000 times (plus once in world()), MPI_Comm_size 500 times (plus once),
 * MPI_Type_size 250 times between MPI_Barriers, and under MPI_THREAD_MULTIPLE two threads call
 * MPI_Comm_rank 300 times each at the same time. Exit status 77: no MPI_THREAD_MULTIPLE. */
#include "mpi_test.h"

#include <pthread.h>

enum { RANK_CALLS = 1000, SIZE_CALLS = 500, TYPE_CALLS = 250, THREADS = 2, THREAD_CALLS = 300 };

static void *work(void *p)
{
    int r = -1, *want = p;
    for (int i = 0; i < THREAD_CALLS; i++) {
        CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &r));
        CHECK(r == *want);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, size, r, s, ts;
    world_multiple(&argc, &argv, &rank, &size, 2, "local_calls");
    for (int i = 0; i < RANK_CALLS; i++) {
        CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &r));
        CHECK(r == rank);
    }
    for (int i = 0; i < SIZE_CALLS; i++) {
        CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &s));
        CHECK(s == size);
    }
    for (int i = 0; i < TYPE_CALLS; i++) {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Type_size(MPI_DOUBLE, &ts));
        CHECK(ts == (int)sizeof(double));
    }
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, work, &rank) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    MPI_Finalize();
    return 0;
}
