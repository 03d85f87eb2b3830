/* SPDX-License-Identifier: BSD-3-Clause */
/* request_free.c (exactly 2 processes): MPI_Request_free of active persistent point-to-point
 * requests, which requests.c (phase C: non-persistent ones) leaves out; test_mpi_request_free.sh
 * checks the trace's events and messages.
 *   P  rank 0: MPI_Ssend_init (tag 11), MPI_Start, MPI_Request_free while the send cannot have
 *      completed (rank 1 posts its receive after the barrier); rank 1: MPI_Recv of it
 *   Q  rank 1: MPI_Recv_init (tag 12), MPI_Start, MPI_Request_free; rank 0 then sends 120 and
 *      121 with tag 12: the freed receive takes the first (posted first, MPI's order), a
 *      blocking MPI_Recv the second
 * Prints "request_free: ok" on rank 0. */
#include "mpi_test.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    CHECK(size == 2);
    static int v = 11, w = -1, freed_into = -1; /* MPI may write freed_into after the free */
    MPI_Request r;
    if (rank == 0) {
        CHECK_MPI(MPI_Ssend_init(&v, 1, MPI_INT, 1, 11, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Request_free(&r));
        CHECK(r == MPI_REQUEST_NULL);
        MPI_Barrier(MPI_COMM_WORLD); /* rank 1 receives tag 11 after it */
        MPI_Barrier(MPI_COMM_WORLD); /* rank 1 has freed its persistent receive */
        for (int i = 0; i < 2; i++) {
            w = 120 + i;
            CHECK_MPI(MPI_Send(&w, 1, MPI_INT, 1, 12, MPI_COMM_WORLD));
        }
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(w == 11);
        CHECK_MPI(MPI_Recv_init(&freed_into, 1, MPI_INT, 0, 12, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Request_free(&r));
        CHECK(r == MPI_REQUEST_NULL);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, 0, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(w == 121); /* the freed receive took the first */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("request_free: ok\n");
    MPI_Finalize();
    return 0;
}
