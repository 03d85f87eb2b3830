/* SPDX-License-Identifier: BSD-3-Clause */
/* clock_order.c: the communication patterns whose traces had receives before their sends on
 * one clock (issue #27: MPICH's scancel2, multi_psend_derived, dtype_send, nonblocking3,
 * comm_idup_iallreduce), with known message counts: test_mpi_clock_condition.sh checks that no
 * receive completes before its send began and counts every event. Exactly 4 processes.
 *   1 racing sends: 192 times (each ordered pair 16 times, a new tag 100 + i each time) after
 *     a barrier, d waits in MPI_Recv while s, 20 us later, sends with MPI_Isend: the receive
 *     may complete before MPI_Isend returns (the first send of a process, or to a new tag, is
 *     the slowest to return): 192 messages
 *   2 persistent requests, derived datatypes: rank 0 starts a send (MPI_Send_init, a
 *     duplicated MPI_INT freed after the init) 8 times to rank 1's MPI_Recv (tag 2); rank 1
 *     starts a wildcard MPI_Recv_init 8 times for rank 0's MPI_Send (tag 3); rank 0 starts two
 *     persistent sends (to 2 and 3, tag 4) with MPI_Startall 4 times: 24 messages
 *   3 cancellation: (a) rank 0 cancels an MPI_Isend that rank 1 already received (tag 5):
 *     MPI must not cancel it; (b) rank 0 cancels an MPI_Isend nobody has received (tag 6):
 *     MPI may cancel it (Open MPI never cancels sends), then tells rank 1 by MPI_Send (tag 9)
 *     whether it did, and rank 1 receives it if not; (c) rank 1 cancels an MPI_Irecv nothing
 *     matches (tag 7): MPI must cancel it; rank 0 then sends tag 7 once, received by a new
 *     receive; (d) rank 1 cancels an MPI_Irecv (tag 8) whose message it has probed (Open MPI
 *     has matched it: not cancelled; if cancelled, MPI_Recv takes the message). Messages: 5,
 *     or 4 when (b) was cancelled (printed: "send cancelled=0|1", "recv cancelled=0|1")
 *   4 non-blocking collectives beside point-to-point on duplicated communicators, 20 rounds:
 *     MPI_Iallreduce on dup1, a ring MPI_Isend/MPI_Irecv on dup2 (tag 10), MPI_Ibarrier on
 *     MPI_COMM_WORLD, MPI_Ibcast on dup1 from rank round % 4, one MPI_Waitall: 80 messages,
 *     60 non-blocking collectives per process
 *   5 derived datatypes (an indexed block of 2 ints), rank 0 to rank 1, tag 11: 16 by
 *     MPI_Isend, 16 by MPI_Issend to blocking receives, 16 by MPI_Irsend to receives posted
 *     before a barrier: 48 messages
 * Total: 349 messages (348 when (b) was cancelled). MPI_Barrier: 199 calls per process. */
#include "mpi_test.h"

#include <stdio.h>
#include <string.h>

static int rank;

/* busy for about us microseconds, out of MPI (MPI_Wtime is not measured) */
static void spin(double us)
{
    double t = MPI_Wtime();
    while (MPI_Wtime() - t < us * 1e-6)
        ;
}

static void racing_sends(void)
{
    for (int i = 0; i < 192; i++) {
        int s = i % 4, d = (s + 1 + (i / 4) % 3) % 4, tag = 100 + i;
        int v = s * 10 + d, got = -1;
        MPI_Request r;
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == d) {
            CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, s, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(got == v);
        } else if (rank == s) {
            spin(20); /* the receiver is inside MPI_Recv */
            CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, d, tag, MPI_COMM_WORLD, &r));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        }
    }
}

static void persistent(void)
{
    MPI_Datatype int_dup;
    MPI_Request r, two[2];
    int v = 0, w[2] = {0, 0};
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK_MPI(MPI_Type_dup(MPI_INT, &int_dup));
        CHECK_MPI(MPI_Send_init(&v, 1, int_dup, 1, 2, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Type_free(&int_dup));
        for (int i = 0; i < 8; i++) {
            v = 100 + i;
            CHECK_MPI(MPI_Start(&r));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        }
        CHECK_MPI(MPI_Request_free(&r));
        for (int i = 0; i < 8; i++) {
            v = 200 + i;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD));
        }
        CHECK_MPI(MPI_Send_init(&w[0], 1, MPI_INT, 2, 4, MPI_COMM_WORLD, &two[0]));
        CHECK_MPI(MPI_Send_init(&w[1], 1, MPI_INT, 3, 4, MPI_COMM_WORLD, &two[1]));
        for (int i = 0; i < 4; i++) {
            w[0] = w[1] = 300 + i;
            CHECK_MPI(MPI_Startall(2, two));
            CHECK_MPI(MPI_Waitall(2, two, MPI_STATUSES_IGNORE));
        }
        CHECK_MPI(MPI_Request_free(&two[0]));
        CHECK_MPI(MPI_Request_free(&two[1]));
    } else if (rank == 1) {
        for (int i = 0; i < 8; i++) {
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(v == 100 + i);
        }
        CHECK_MPI(MPI_Type_dup(MPI_INT, &int_dup));
        CHECK_MPI(MPI_Recv_init(&v, 1, int_dup, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Type_free(&int_dup));
        for (int i = 0; i < 8; i++) {
            CHECK_MPI(MPI_Start(&r));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            CHECK(v == 200 + i);
        }
        CHECK_MPI(MPI_Request_free(&r));
    } else {
        for (int i = 0; i < 4; i++) {
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(v == 300 + i);
        }
    }
}

static void cancellation(void)
{
    int v = 7, got = 0, flag = -1, cancelled_b = -1;
    MPI_Request r;
    MPI_Status st;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        /* (a) matched before the cancel */
        CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Cancel(&r));
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK_MPI(MPI_Test_cancelled(&st, &flag));
        CHECK(flag == 0);
        /* (b) not matched when cancelled */
        CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Cancel(&r));
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK_MPI(MPI_Test_cancelled(&st, &cancelled_b));
        CHECK_MPI(MPI_Send(&cancelled_b, 1, MPI_INT, 1, 9, MPI_COMM_WORLD));
        printf("send cancelled=%d\n", cancelled_b);
        /* (c) after rank 1 cancelled its receive of tag 7 */
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD));
        /* (d) */
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 8, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    } else if (rank == 1) {
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(&cancelled_b, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        if (!cancelled_b)
            CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        /* (c) nothing is sent with tag 7 before the barrier */
        CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Cancel(&r));
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK_MPI(MPI_Test_cancelled(&st, &flag));
        CHECK(flag == 1);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        /* (d) the message is there (MPI_Probe) before the receive is posted and cancelled;
         * should MPI cancel it all the same, a blocking receive takes the message */
        CHECK_MPI(MPI_Probe(0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Cancel(&r));
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK_MPI(MPI_Test_cancelled(&st, &flag));
        if (flag)
            CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        printf("recv cancelled=%d\n", flag);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
}

static void collectives_beside_p2p(void)
{
    MPI_Comm dup1, dup2;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup1));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup2));
    for (int round = 0; round < 20; round++) {
        int in = rank + round, sum = 0, out = rank, from = -1, b = rank == round % 4 ? round : -1;
        MPI_Request r[5];
        CHECK_MPI(MPI_Iallreduce(&in, &sum, 1, MPI_INT, MPI_SUM, dup1, &r[0]));
        CHECK_MPI(MPI_Irecv(&from, 1, MPI_INT, (rank + 3) % 4, 10, dup2, &r[1]));
        CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, (rank + 1) % 4, 10, dup2, &r[2]));
        CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &r[3]));
        CHECK_MPI(MPI_Ibcast(&b, 1, MPI_INT, round % 4, dup1, &r[4]));
        CHECK_MPI(MPI_Waitall(5, r, MPI_STATUSES_IGNORE));
        CHECK(sum == 6 + 4 * round && from == (rank + 3) % 4 && b == round);
    }
    CHECK_MPI(MPI_Comm_free(&dup1));
    CHECK_MPI(MPI_Comm_free(&dup2));
}

static void derived(void)
{
    enum { N = 16 };
    int displs[2] = {0, 2}, buf[3] = {1, 2, 3};
    MPI_Datatype t;
    MPI_Request r[N];
    CHECK_MPI(MPI_Type_create_indexed_block(2, 1, displs, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        for (int i = 0; i < N; i++)
            CHECK_MPI(MPI_Isend(buf, 1, t, 1, 11, MPI_COMM_WORLD, &r[i]));
        CHECK_MPI(MPI_Waitall(N, r, MPI_STATUSES_IGNORE));
        for (int i = 0; i < N; i++)
            CHECK_MPI(MPI_Issend(buf, 1, t, 1, 11, MPI_COMM_WORLD, &r[i]));
        CHECK_MPI(MPI_Waitall(N, r, MPI_STATUSES_IGNORE));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        for (int i = 0; i < N; i++)
            CHECK_MPI(MPI_Irsend(buf, 1, t, 1, 11, MPI_COMM_WORLD, &r[i]));
        CHECK_MPI(MPI_Waitall(N, r, MPI_STATUSES_IGNORE));
    } else if (rank == 1) {
        for (int i = 0; i < 2 * N; i++)
            CHECK_MPI(MPI_Recv(buf, 1, t, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int i = 0; i < N; i++)
            CHECK_MPI(MPI_Irecv(buf, 1, t, 0, 11, MPI_COMM_WORLD, &r[i]));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Waitall(N, r, MPI_STATUSES_IGNORE));
    } else {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    int size;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 4);
    CHECK(size == 4);
    racing_sends();
    persistent();
    cancellation();
    collectives_beside_p2p();
    derived();
    MPI_Finalize();
    return 0;
}
