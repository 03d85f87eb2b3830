/* SPDX-License-Identifier: BSD-3-Clause */
/* msgpath.c: the message path's records (test_mpi_msgpath.sh): 2 ranks, N blocking round
 * trips (MPI_Send / MPI_Recv, tag 5, 16 bytes), N non-blocking ones (MPI_Irecv / MPI_Isend /
 * MPI_Waitall, tag 6, 24 bytes), N more completed by one MPI_Wait each (the receive's with a
 * status, the send's with MPI_STATUS_IGNORE; tag 12, 24 bytes), then one MPI_Send to
 * MPI_PROC_NULL per rank (an Enter and a Leave, no message). N from argv[1]. "msgpath N mixed" runs mixed() instead. */
#include "mpi_test.h"

#include <string.h>

/* What the adapter's caches of the message path must not change (rank 0 sends, rank 1
 * receives): N rounds of 3 MPI_INT (12 bytes, tag 8), 3 MPI_DOUBLE (24 bytes, tag 9) and a
 * derived type of 5 MPI_SHORT (10 bytes, tag 8; created and freed each round), so the type
 * sent last and the counter used last change at every send; then tag 10: a receive, a
 * second one posted and cancelled (its id, the last one handed out, goes back), two more
 * posted and cancelled (the first one's id is not the last one: it waits in the list of ids
 * given back), two receives that take those ids in order; then
 * tag 11: a receive, a wildcard receive (MPI_ANY_SOURCE, its id waits for its status) and
 * a receive posted after it, whose id comes after the wildcard's. Message ids on each side:
 * tag 8 1..2N, tag 9 1..N, tag 10 1, 2, 3, tag 11 1, 2 (the wildcard's), 3. */
static void mixed(int rank, long n)
{
    int ints[3] = {0};
    double dbl[3] = {0};
    short sh[5] = {0};
    char b[4] = {0};
    MPI_Datatype t;
    for (long i = 0; i < n; i++) {
        CHECK_MPI(MPI_Type_contiguous(5, MPI_SHORT, &t));
        CHECK_MPI(MPI_Type_commit(&t));
        if (rank == 0) {
            CHECK_MPI(MPI_Send(ints, 3, MPI_INT, 1, 8, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Send(dbl, 3, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Send(sh, 1, t, 1, 8, MPI_COMM_WORLD));
        } else if (rank == 1) {
            CHECK_MPI(MPI_Recv(ints, 3, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Recv(dbl, 3, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Recv(sh, 1, t, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
        CHECK_MPI(MPI_Type_free(&t));
    }
    MPI_Request rq, two[2];
    MPI_Status st;
    int cancelled = 0;
    if (rank == 0)
        CHECK_MPI(MPI_Send(b, 4, MPI_BYTE, 1, 10, MPI_COMM_WORLD));
    if (rank == 1) {
        CHECK_MPI(MPI_Recv(b, 4, MPI_BYTE, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Irecv(b, 4, MPI_BYTE, 0, 10, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Cancel(&rq));
        CHECK_MPI(MPI_Wait(&rq, &st));
        CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
        CHECK(cancelled);
        for (int i = 0; i < 2; i++)
            CHECK_MPI(MPI_Irecv(b, 4, MPI_BYTE, 0, 10, MPI_COMM_WORLD, &two[i]));
        for (int i = 0; i < 2; i++)
            CHECK_MPI(MPI_Cancel(&two[i]));
        for (int i = 0; i < 2; i++) {
            CHECK_MPI(MPI_Wait(&two[i], &st));
            CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
            CHECK(cancelled);
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* the other messages after the cancels */
    if (rank == 0) {
        CHECK_MPI(MPI_Send(b, 4, MPI_BYTE, 1, 10, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(b, 4, MPI_BYTE, 1, 10, MPI_COMM_WORLD));
        for (int i = 0; i < 3; i++)
            CHECK_MPI(MPI_Send(b, 4, MPI_BYTE, 1, 11, MPI_COMM_WORLD));
    } else if (rank == 1) {
        CHECK_MPI(MPI_Recv(b, 4, MPI_BYTE, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Recv(b, 4, MPI_BYTE, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Recv(b, 4, MPI_BYTE, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Irecv(b, 4, MPI_BYTE, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &rq));
        CHECK_MPI(MPI_Recv(b, 4, MPI_BYTE, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&rq, &st));
        CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 11);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    long n = argc > 1 ? atol(argv[1]) : 300;
    if (argc > 2 && strcmp(argv[2], "mixed") == 0) {
        mixed(rank, n);
        MPI_Finalize();
        return 0;
    }
    char buf[16] = {0}, out[24] = {0}, in[24];
    int peer = 1 - rank;
    for (long i = 0; i < n && rank < 2; i++) {
        buf[0] = (char)i;
        if (rank == 0) {
            CHECK_MPI(MPI_Send(buf, 16, MPI_BYTE, 1, 5, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(buf, 16, MPI_BYTE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Recv(buf, 16, MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(buf[0] == (char)i);
            CHECK_MPI(MPI_Send(buf, 16, MPI_BYTE, 0, 5, MPI_COMM_WORLD));
        }
    }
    for (long i = 0; i < n && rank < 2; i++) {
        MPI_Request rq[2];
        MPI_Status st[2];
        out[0] = (char)i;
        CHECK_MPI(MPI_Irecv(in, 24, MPI_BYTE, peer, 6, MPI_COMM_WORLD, &rq[0]));
        CHECK_MPI(MPI_Isend(out, 24, MPI_BYTE, peer, 6, MPI_COMM_WORLD, &rq[1]));
        CHECK_MPI(MPI_Waitall(2, rq, st));
        CHECK(in[0] == (char)i && st[0].MPI_SOURCE == peer && st[0].MPI_TAG == 6);
    }
    for (long i = 0; i < n && rank < 2; i++) {
        MPI_Request rq[2];
        MPI_Status st;
        out[0] = (char)i;
        CHECK_MPI(MPI_Irecv(in, 24, MPI_BYTE, peer, 12, MPI_COMM_WORLD, &rq[0]));
        CHECK_MPI(MPI_Isend(out, 24, MPI_BYTE, peer, 12, MPI_COMM_WORLD, &rq[1]));
        CHECK_MPI(MPI_Wait(&rq[0], &st));
        CHECK_MPI(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
        CHECK(in[0] == (char)i && st.MPI_SOURCE == peer && st.MPI_TAG == 12);
        CHECK(rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL);
    }
    CHECK_MPI(MPI_Send(buf, 4, MPI_BYTE, MPI_PROC_NULL, 7, MPI_COMM_WORLD));
    MPI_Finalize();
    return 0;
}
