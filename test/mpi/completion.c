/* SPDX-License-Identifier: BSD-3-Clause */
/* completion.c (2 processes or more; ranks 0 and 1 talk): every Wait/Test variant with and
 * without MPI_STATUS(ES)_IGNORE, persistent requests (Start, Startall, Request_free),
 * MPI_Cancel of a receive that is never matched, MPI_Request_get_status. Rank 0 sends, rank
 * 1 receives, always tag 7 on MPI_COMM_WORLD unless noted. The cancelled receive (tag 99)
 * gives its message id back: the one message rank 0 sends with tag 99 afterwards has id 1
 * on both sides. */
#include "mpi_test.h"

enum { K = 6 };

static void sends(int n, int base)
{
    MPI_Request r[K];
    int v[K];
    for (int i = 0; i < n; i++) {
        v[i] = base + i;
        CHECK_MPI(MPI_Isend(&v[i], 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &r[i]));
    }
    CHECK_MPI(MPI_Waitall(n, r, MPI_STATUSES_IGNORE));
}

static void post(int n, int *v, MPI_Request *r)
{
    for (int i = 0; i < n; i++)
        CHECK_MPI(MPI_Irecv(&v[i], 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r[i]));
}

static void expect(int n, const int *v, int base)
{
    for (int i = 0; i < n; i++)
        CHECK(v[i] == base + i);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    int v[K], flag, idx, out, ind[K];
    MPI_Request r[K];
    MPI_Status st, sts[K];
    if (rank == 0) {
        for (int round = 0; round < 8; round++) {
            MPI_Barrier(MPI_COMM_WORLD);
            sends(K, 100 * round);
        }
        /* persistent: 3 starts of one send, then Startall of two */
        MPI_Request p[2];
        int pv[2] = {0, 0};
        CHECK_MPI(MPI_Send_init(&pv[0], 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &p[0]));
        CHECK_MPI(MPI_Ssend_init(&pv[1], 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &p[1]));
        for (int i = 0; i < 3; i++) {
            pv[0] = 1000 + i;
            CHECK_MPI(MPI_Start(&p[0]));
            CHECK_MPI(MPI_Wait(&p[0], MPI_STATUS_IGNORE));
        }
        pv[0] = 2000;
        pv[1] = 2001;
        CHECK_MPI(MPI_Startall(2, p));
        CHECK_MPI(MPI_Waitall(2, p, MPI_STATUSES_IGNORE));
        CHECK_MPI(MPI_Request_free(&p[0]));
        CHECK_MPI(MPI_Request_free(&p[1]));
        CHECK(p[0] == MPI_REQUEST_NULL);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Send(&pv[0], 1, MPI_INT, 1, 99, MPI_COMM_WORLD));
    } else if (rank == 1) {
        /* Wait */
        post(K, v, r);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < K; i++)
            CHECK_MPI(MPI_Wait(&r[i], i % 2 ? MPI_STATUS_IGNORE : &st));
        expect(K, v, 0);
        /* Waitall with statuses */
        post(K, v, r);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Waitall(K, r, sts));
        expect(K, v, 100);
        for (int i = 0; i < K; i++)
            CHECK(sts[i].MPI_SOURCE == 0 && sts[i].MPI_TAG == 7);
        /* Waitany */
        post(K, v, r);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < K; i++) {
            CHECK_MPI(MPI_Waitany(K, r, &idx, i % 2 ? MPI_STATUS_IGNORE : &st));
            CHECK(idx >= 0 && idx < K && r[idx] == MPI_REQUEST_NULL);
        }
        CHECK_MPI(MPI_Waitany(K, r, &idx, &st));
        CHECK(idx == MPI_UNDEFINED);
        expect(K, v, 200);
        /* Waitsome with MPI_STATUSES_IGNORE */
        post(K, v, r);
        MPI_Barrier(MPI_COMM_WORLD);
        int done = 0;
        while (done < K) {
            CHECK_MPI(MPI_Waitsome(K, r, &out, ind, MPI_STATUSES_IGNORE));
            CHECK(out != MPI_UNDEFINED && out > 0);
            done += out;
        }
        CHECK_MPI(MPI_Waitsome(K, r, &out, ind, MPI_STATUSES_IGNORE));
        CHECK(out == MPI_UNDEFINED);
        expect(K, v, 300);
        /* Test */
        post(K, v, r);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < K; i++) {
            do
                CHECK_MPI(MPI_Test(&r[i], &flag, i % 2 ? MPI_STATUS_IGNORE : &st));
            while (!flag);
        }
        expect(K, v, 400);
        /* Testall (statuses ignored) */
        post(K, v, r);
        MPI_Barrier(MPI_COMM_WORLD);
        do
            CHECK_MPI(MPI_Testall(K, r, &flag, MPI_STATUSES_IGNORE));
        while (!flag);
        expect(K, v, 500);
        /* Testany */
        post(K, v, r);
        MPI_Barrier(MPI_COMM_WORLD);
        for (done = 0; done < K;) {
            CHECK_MPI(MPI_Testany(K, r, &idx, &flag, &st));
            if (flag) {
                CHECK(idx != MPI_UNDEFINED && st.MPI_TAG == 7);
                done++;
            }
        }
        expect(K, v, 600);
        /* Testsome with statuses, then Request_get_status on a finished one */
        post(K, v, r);
        MPI_Barrier(MPI_COMM_WORLD);
        for (done = 0; done < K;) {
            CHECK_MPI(MPI_Testsome(K, r, &out, ind, sts));
            CHECK(out != MPI_UNDEFINED);
            for (int i = 0; i < out; i++)
                CHECK(sts[i].MPI_SOURCE == 0);
            done += out;
        }
        expect(K, v, 700);
        /* persistent receives */
        MPI_Request p[2];
        int pv[2];
        CHECK_MPI(MPI_Recv_init(&pv[0], 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &p[0]));
        CHECK_MPI(MPI_Recv_init(&pv[1], 1, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &p[1]));
        for (int i = 0; i < 3; i++) {
            CHECK_MPI(MPI_Start(&p[0]));
            do
                CHECK_MPI(MPI_Request_get_status(p[0], &flag, &st));
            while (!flag);
            CHECK_MPI(MPI_Wait(&p[0], &st));
            CHECK(pv[0] == 1000 + i);
        }
        CHECK_MPI(MPI_Startall(2, p));
        CHECK_MPI(MPI_Waitall(2, p, sts));
        CHECK(pv[0] == 2000 && pv[1] == 2001);
        CHECK_MPI(MPI_Request_free(&p[0]));
        CHECK_MPI(MPI_Request_free(&p[1]));
        /* cancel a receive nobody matches */
        MPI_Request c;
        int cv;
        CHECK_MPI(MPI_Irecv(&cv, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &c));
        CHECK_MPI(MPI_Cancel(&c));
        CHECK_MPI(MPI_Wait(&c, &st));
        CHECK_MPI(MPI_Test_cancelled(&st, &flag));
        CHECK(flag);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Recv(&cv, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &st));
        CHECK(cv == 2000);
    } else {
        for (int i = 0; i < 9; i++)
            MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
