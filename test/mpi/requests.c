/* SPDX-License-Identifier: BSD-3-Clause */
/* requests.c (exactly 2 processes): the edge cases of the adapter's request table, with message counts
 * test_mpi_programs.sh checks exactly. Ranks 0 and 1, MPI_COMM_WORLD, int messages (4 bytes).
 *   A  N receives outstanding on rank 1 (the table grows from 16 slots, no fixed limit), N
 *      small Isends from rank 0 (Open MPI hands out one shared request object for sends that
 *      complete at once: N equal handle values outstanding), tag 1; then N Issends of rank 1
 *      outstanding (distinct handles, none can complete before its receive) against N
 *      receives of rank 0, completed by a Testsome loop (rank 1) and a Waitsome loop (rank 0),
 *      tag 2.
 *   B  R receives of rank 1, one at a time (Irecv + Wait, tag 3): MPI reuses the handle value
 *      of a completed request for the next one; the program prints how often it did.
 *   C  MPI_Request_free of active requests: rank 0 frees an Issend before rank 1 posts its
 *      receive (tag 4, the message arrives: a send without completion event, a receive);
 *      rank 1 frees a posted Irecv (tag 5), which still takes the first of the two messages
 *      rank 0 sends with tag 5 (no receive event for it), and a blocking receive takes the
 *      second, with id 2.
 *   D  Waitsome and Testsome over arrays with MPI_REQUEST_NULL entries until they answer
 *      MPI_UNDEFINED (K/2 receives each, tags 6 and 7), and over arrays of null requests only.
 *   E  persistent requests: P Send_init / Recv_init, P_ROUNDS rounds of Startall, completed by
 *      Waitall (rank 0) and a Testall loop (rank 1), tag 8; then freed while inactive.
 * Messages: 2N + R + 1 + 2 + K + P*P_ROUNDS sends, one fewer receive events. */
#include "mpi_test.h"

#include <string.h>

enum { N = 3000, R = 100, K = 8, P = 4, P_ROUNDS = 10 };

static int buf_out[N], buf_in[N];
static MPI_Request req[N];

static void phase_a(int rank)
{
    int idx[N], out;
    if (rank == 1) {
        for (int i = 0; i < N; i++)
            CHECK_MPI(MPI_Irecv(&buf_in[i], 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &req[i]));
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Waitall(N, req, MPI_STATUSES_IGNORE));
        for (int i = 0; i < N; i++)
            CHECK(buf_in[i] == i);
        /* N synchronous sends outstanding at once, polled with Testsome */
        for (int i = 0; i < N; i++) {
            buf_out[i] = N + i;
            CHECK_MPI(MPI_Issend(&buf_out[i], 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &req[i]));
        }
        MPI_Barrier(MPI_COMM_WORLD);
        int done = 0;
        for (;;) {
            CHECK_MPI(MPI_Testsome(N, req, &out, idx, MPI_STATUSES_IGNORE));
            if (out == MPI_UNDEFINED)
                break;
            done += out;
        }
        CHECK(done == N);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < N; i++) {
            buf_out[i] = i;
            CHECK_MPI(MPI_Isend(&buf_out[i], 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &req[i]));
        }
        int equal = 0;
        for (int i = 1; i < N; i++)
            equal += memcmp(&req[i], &req[0], sizeof req[0]) == 0;
        printf("sends with the handle value of the first: %d of %d\n", equal, N - 1);
        CHECK_MPI(MPI_Waitall(N, req, MPI_STATUSES_IGNORE));
        MPI_Barrier(MPI_COMM_WORLD); /* the Issends are posted */
        for (int i = 0; i < N; i++)
            CHECK_MPI(MPI_Irecv(&buf_in[i], 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &req[i]));
        int done = 0;
        MPI_Status sts[N];
        for (;;) {
            CHECK_MPI(MPI_Waitsome(N, req, &out, idx, sts));
            if (out == MPI_UNDEFINED)
                break;
            for (int j = 0; j < out; j++)
                CHECK(sts[j].MPI_SOURCE == 1 && sts[j].MPI_TAG == 2);
            done += out;
        }
        CHECK(done == N);
        for (int i = 0; i < N; i++)
            CHECK(buf_in[i] == N + i);
    }
}

static void phase_b(int rank)
{
    int v = 0;
    if (rank == 1) {
        MPI_Request r, prev = MPI_REQUEST_NULL;
        int reused = 0;
        for (int i = 0; i < R; i++) {
            CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &r));
            reused += i > 0 && memcmp(&r, &prev, sizeof r) == 0;
            prev = r;
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            CHECK(v == i && r == MPI_REQUEST_NULL);
        }
        printf("handle values reused: %d of %d\n", reused, R - 1);
    } else {
        for (int i = 0; i < R; i++)
            CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 1, 3, MPI_COMM_WORLD));
    }
}

static void phase_c(int rank)
{
    int v = 4, w = -1;
    MPI_Request r;
    if (rank == 0) {
        CHECK_MPI(MPI_Issend(&v, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Request_free(&r));
        CHECK(r == MPI_REQUEST_NULL);
        MPI_Barrier(MPI_COMM_WORLD); /* rank 1 receives tag 4 after it */
        MPI_Barrier(MPI_COMM_WORLD); /* rank 1 has freed its receive */
        for (int i = 0; i < 2; i++) {
            v = 50 + i;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
        }
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(w == 4);
        static int freed_into = -1; /* written by MPI after the free */
        CHECK_MPI(MPI_Irecv(&freed_into, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Request_free(&r));
        CHECK(r == MPI_REQUEST_NULL);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(w == 51); /* the freed receive took the first */
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* receives at the odd indices of a K array whose even entries are MPI_REQUEST_NULL */
static void post_odd(MPI_Request *r, int *v, int tag)
{
    for (int i = 0; i < K; i++) {
        r[i] = MPI_REQUEST_NULL;
        if (i % 2)
            CHECK_MPI(MPI_Irecv(&v[i], 1, MPI_INT, 0, tag, MPI_COMM_WORLD, &r[i]));
    }
}

static void phase_d(int rank)
{
    int v[K], idx[K], out, done;
    MPI_Request r[K];
    MPI_Status sts[K];
    if (rank == 1) {
        post_odd(r, v, 6);
        MPI_Barrier(MPI_COMM_WORLD);
        for (done = 0;; done += out) {
            CHECK_MPI(MPI_Waitsome(K, r, &out, idx, sts));
            if (out == MPI_UNDEFINED)
                break;
            for (int j = 0; j < out; j++)
                CHECK(idx[j] % 2 == 1 && sts[j].MPI_TAG == 6);
        }
        CHECK(done == K / 2);
        post_odd(r, v, 7);
        MPI_Barrier(MPI_COMM_WORLD);
        for (done = 0;; done += out) {
            CHECK_MPI(MPI_Testsome(K, r, &out, idx, MPI_STATUSES_IGNORE));
            if (out == MPI_UNDEFINED)
                break;
        }
        CHECK(done == K / 2);
        CHECK_MPI(MPI_Waitsome(K, r, &out, idx, sts)); /* nulls only */
        CHECK(out == MPI_UNDEFINED);
        CHECK_MPI(MPI_Testsome(K, r, &out, idx, sts));
        CHECK(out == MPI_UNDEFINED);
    } else {
        for (int tag = 6; tag <= 7; tag++) {
            MPI_Barrier(MPI_COMM_WORLD);
            for (int i = 0; i < K / 2; i++)
                CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 1, tag, MPI_COMM_WORLD));
        }
    }
}

static void phase_e(int rank)
{
    int v[P];
    MPI_Request r[P];
    for (int i = 0; i < P; i++) {
        if (rank == 0)
            CHECK_MPI(MPI_Send_init(&v[i], 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &r[i]));
        else
            CHECK_MPI(MPI_Recv_init(&v[i], 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &r[i]));
    }
    for (int round = 0; round < P_ROUNDS; round++) {
        for (int i = 0; i < P && rank == 0; i++)
            v[i] = round * P + i;
        CHECK_MPI(MPI_Startall(P, r));
        if (rank == 0) {
            CHECK_MPI(MPI_Waitall(P, r, MPI_STATUSES_IGNORE));
        } else {
            int flag = 0;
            while (!flag)
                CHECK_MPI(MPI_Testall(P, r, &flag, MPI_STATUSES_IGNORE));
            for (int i = 0; i < P; i++)
                CHECK(v[i] == round * P + i);
        }
    }
    for (int i = 0; i < P; i++) {
        CHECK_MPI(MPI_Request_free(&r[i]));
        CHECK(r[i] == MPI_REQUEST_NULL);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    CHECK(size == 2);
    phase_a(rank);
    phase_b(rank);
    phase_c(rank);
    phase_d(rank);
    phase_e(rank);
    MPI_Finalize();
    return 0;
}
