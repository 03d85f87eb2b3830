/* SPDX-License-Identifier: BSD-3-Clause */
/* wildcard_first.c (2 processes or more; ranks 0 and 1 talk): a process's first receives are
 * wildcards in both source and tag, as in MPICH's pt2pt/anyall: rank 1 posts MSGS receives
 * MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) on MPI_COMM_WORLD before any other receive, then
 * completes them with MPI_Waitany; rank 0 sends message i (MSGS - i ints, tag i) in order
 * after a barrier, so receive i gets message i (MPI does not overtake). Then the same on a
 * duplicate of MPI_COMM_WORLD with blocking MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG). */
#include "mpi_test.h"

enum { MSGS = 30 };

static void receive_all(MPI_Comm comm)
{
    static int buf[MSGS][MSGS];
    MPI_Request r[MSGS];
    for (int i = 0; i < MSGS; i++)
        CHECK_MPI(MPI_Irecv(buf[i], MSGS - i, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &r[i]));
    MPI_Barrier(comm);
    for (int n = 0; n < MSGS; n++) {
        int idx, count;
        MPI_Status st;
        CHECK_MPI(MPI_Waitany(MSGS, r, &idx, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
        CHECK(idx >= 0 && idx < MSGS && st.MPI_TAG == idx && count == MSGS - idx);
        for (int j = 0; j < count; j++)
            CHECK(buf[idx][j] == idx * MSGS + j);
    }
}

static void send_all(MPI_Comm comm, int dest)
{
    static int buf[MSGS][MSGS];
    for (int i = 0; i < MSGS; i++)
        for (int j = 0; j < MSGS; j++)
            buf[i][j] = i * MSGS + j;
    for (int i = 0; i < MSGS; i++)
        CHECK_MPI(MPI_Send(buf[i], MSGS - i, MPI_INT, dest, i, comm));
}

int main(int argc, char **argv)
{
    int rank, size, v;
    MPI_Comm dup;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    if (rank == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        send_all(MPI_COMM_WORLD, 1);
    } else if (rank == 1) {
        receive_all(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    if (rank == 0) {
        v = 42;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 7, dup));
    } else if (rank == 1) {
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st));
        CHECK(v == 42 && st.MPI_SOURCE == 0 && st.MPI_TAG == 7);
    }
    CHECK_MPI(MPI_Comm_free(&dup));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
