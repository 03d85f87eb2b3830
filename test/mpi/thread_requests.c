/* SPDX-License-Identifier: BSD-3-Clause */
/* thread_requests.c (2 processes): MPI_THREAD_MULTIPLE with four threads per process that
 * send at the same time, each on its own duplicate of MPI_COMM_WORLD: ROUNDS times two
 * MPI_Isend of one int to the other process, each with its MPI_Wait (after the MPI_Recv of
 * the other process's int, then before it). Open
 * MPI hands out one shared handle value for every send that completed when it started, so
 * the two threads' requests meet in the adapter's request table under one key all the time
 * (the race of a record taken before its creator wrote it, found in session 18). */
#include "mpi_test.h"

enum { THREADS = 4, ROUNDS = 1000 };

static void *work(void *p)
{
    thread_arg *a = p;
    int peer = 1 - a->rank;
    for (int i = 0; i < ROUNDS; i++) {
        int v = a->id * 1000000 + i, got = -1;
        MPI_Request r;
        /* the Wait after a Recv: the other threads send meanwhile (handles in the table) */
        CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, peer, a->id, a->comm, &r));
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, peer, a->id, a->comm, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(got == v);
        /* the Wait at once: the record taken right after it was put there */
        CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, peer, a->id, a->comm, &r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, peer, a->id, a->comm, MPI_STATUS_IGNORE));
        CHECK(got == v);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, size;
    world_multiple(&argc, &argv, &rank, &size, 2, "thread_requests");
    CHECK(size == 2);
    run_threads(THREADS, MPI_COMM_WORLD, rank, work);
    MPI_Finalize();
    return 0;
}
