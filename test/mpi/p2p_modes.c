/* SPDX-License-Identifier: BSD-3-Clause */
/* p2p_modes.c (2 processes or more; ranks 0 and 1 talk): every send mode blocking and
 * non-blocking, Sendrecv, Sendrecv_replace, MPI_PROC_NULL. Known traffic: rank 0 sends to
 * rank 1 on MPI_COMM_WORLD with tag 1: Send, Bsend, Ssend, Rsend, Isend, Ibsend, Issend,
 * Irsend (8 messages of 4 ints, ids 1..8), then Sendrecv and Sendrecv_replace exchange with
 * tag 2 in both directions (ids 1, 2 each way). */
#include "mpi_test.h"

enum { N = 4 };

static void fill(int *b, int v)
{
    for (int i = 0; i < N; i++)
        b[i] = v * 10 + i;
}

static int same(const int *b, int v)
{
    for (int i = 0; i < N; i++)
        if (b[i] != v * 10 + i)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    int rank, size, buf[N];
    MPI_Status st;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    int bsize = 4 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *bbuf = malloc((size_t)bsize);
    CHECK_MPI(MPI_Buffer_attach(bbuf, bsize));
    if (rank == 0) {
        MPI_Request r[4];
        fill(buf, 1);
        CHECK_MPI(MPI_Send(buf, N, MPI_INT, 1, 1, MPI_COMM_WORLD));
        fill(buf, 2);
        CHECK_MPI(MPI_Bsend(buf, N, MPI_INT, 1, 1, MPI_COMM_WORLD));
        fill(buf, 3);
        CHECK_MPI(MPI_Ssend(buf, N, MPI_INT, 1, 1, MPI_COMM_WORLD));
        MPI_Barrier(MPI_COMM_WORLD); /* rank 1 has posted the receive for Rsend */
        fill(buf, 4);
        CHECK_MPI(MPI_Rsend(buf, N, MPI_INT, 1, 1, MPI_COMM_WORLD));
        int b[4][N];
        for (int k = 0; k < 4; k++)
            fill(b[k], 5 + k);
        CHECK_MPI(MPI_Isend(b[0], N, MPI_INT, 1, 1, MPI_COMM_WORLD, &r[0]));
        CHECK_MPI(MPI_Ibsend(b[1], N, MPI_INT, 1, 1, MPI_COMM_WORLD, &r[1]));
        CHECK_MPI(MPI_Issend(b[2], N, MPI_INT, 1, 1, MPI_COMM_WORLD, &r[2]));
        MPI_Barrier(MPI_COMM_WORLD); /* receive for Irsend posted */
        CHECK_MPI(MPI_Irsend(b[3], N, MPI_INT, 1, 1, MPI_COMM_WORLD, &r[3]));
        CHECK_MPI(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
    } else if (rank == 1) {
        MPI_Request rs;
        for (int k = 1; k <= 3; k++) {
            CHECK_MPI(MPI_Recv(buf, N, MPI_INT, 0, 1, MPI_COMM_WORLD, &st));
            CHECK(same(buf, k) && st.MPI_SOURCE == 0 && st.MPI_TAG == 1);
        }
        CHECK_MPI(MPI_Irecv(buf, N, MPI_INT, 0, 1, MPI_COMM_WORLD, &rs));
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Wait(&rs, &st));
        CHECK(same(buf, 4));
        int b[4][N];
        MPI_Request r[4];
        for (int k = 0; k < 3; k++)
            CHECK_MPI(MPI_Irecv(b[k], N, MPI_INT, 0, 1, MPI_COMM_WORLD, &r[k]));
        CHECK_MPI(MPI_Irecv(b[3], N, MPI_INT, 0, 1, MPI_COMM_WORLD, &r[3]));
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Status sts[4];
        CHECK_MPI(MPI_Waitall(4, r, sts));
        for (int k = 0; k < 4; k++)
            CHECK(same(b[k], 5 + k));
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    /* exchange between 0 and 1; the others pair with MPI_PROC_NULL */
    int peer = rank == 0 ? 1 : rank == 1 ? 0 : MPI_PROC_NULL;
    int out[N], in[N];
    fill(out, 20 + rank);
    CHECK_MPI(MPI_Sendrecv(out, N, MPI_INT, peer, 2, in, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &st));
    if (peer != MPI_PROC_NULL)
        CHECK(same(in, 20 + peer));
    else
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
    fill(buf, 30 + rank);
    CHECK_MPI(
        MPI_Sendrecv_replace(buf, N, MPI_INT, peer, 2, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    if (peer != MPI_PROC_NULL)
        CHECK(same(buf, 30 + peer));
    /* MPI_PROC_NULL: no message */
    CHECK_MPI(MPI_Send(out, N, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(in, N, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
    MPI_Request pn;
    CHECK_MPI(MPI_Isend(out, N, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &pn));
    CHECK_MPI(MPI_Wait(&pn, MPI_STATUS_IGNORE));
    void *detached;
    int dsize;
    CHECK_MPI(MPI_Buffer_detach(&detached, &dsize));
    free(bbuf);
    MPI_Finalize();
    return 0;
}
