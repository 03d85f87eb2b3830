/* SPDX-License-Identifier: BSD-3-Clause */
/* threads.c (2 processes or more; ranks 0 and 1 talk): MPI_THREAD_MULTIPLE with two
 * threads per process that communicate at the same time: thread t of rank 0 exchanges
 * 200 messages with thread t of rank 1 on its own duplicate of MPI_COMM_WORLD (blocking
 * and non-blocking, a wildcard receive, a probe), then both threads run a collective on
 * their communicator. Each thread is its own location. */
#include "mpi_test.h"

enum { THREADS = 2, ROUNDS = 200 };

static void *work(void *p)
{
    thread_arg *a = p;
    int peer = 1 - a->rank, v, got;
    MPI_Status st;
    for (int i = 0; i < ROUNDS; i++) {
        v = a->id * 100000 + i;
        if (a->rank == 0) {
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, i % 3, a->comm));
            MPI_Request r;
            CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, peer, 9, a->comm, &r));
            CHECK_MPI(MPI_Wait(&r, &st));
            CHECK(got == v + 1);
        } else {
            int flag = 0;
            if (i % 10 == 0) {
                CHECK_MPI(MPI_Probe(peer, MPI_ANY_TAG, a->comm, &st));
                CHECK(st.MPI_TAG == i % 3);
            }
            CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, a->comm, &st));
            CHECK(got == v && st.MPI_TAG == i % 3);
            got++;
            MPI_Request r;
            CHECK_MPI(MPI_Isend(&got, 1, MPI_INT, peer, 9, a->comm, &r));
            while (!flag)
                CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        }
    }
    int sum = 0, one = 1;
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, a->comm));
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, size;
    world_multiple(&argc, &argv, &rank, &size, 2, "threads");
    MPI_Comm pair;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair));
    if (pair != MPI_COMM_NULL) {
        run_threads(THREADS, pair, rank, work);
        MPI_Comm_free(&pair);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
