/* SPDX-License-Identifier: BSD-3-Clause */
/* msgpath.c: the message path's records (test_mpi_msgpath.sh): 2 ranks, N blocking round
 * trips (MPI_Send / MPI_Recv, tag 5, 16 bytes), N non-blocking ones (MPI_Irecv / MPI_Isend /
 * MPI_Waitall, tag 6, 24 bytes), N more completed by one MPI_Wait each (the receive's with a
 * status, the send's with MPI_STATUS_IGNORE; tag 12, 24 bytes), then one MPI_Send to
 * MPI_PROC_NULL per rank (an Enter and a Leave, no message). N from argv[1]. "msgpath N mixed" runs
 * mixed() instead, "msgpath N poll" poll(), "msgpath N poll multiple" the same under
 * MPI_THREAD_MULTIPLE. */
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

/* The completion calls other than MPI_Wait(all), their tags and what each call of a round
 * must find (test_mpi_msgpath.sh, "poll"): for each kind c (Test, Testany, Testall, Testsome,
 * Waitany, Waitsome) N rounds on both ranks of: 4 receives from the peer posted with tags
 * 32 + 4c + i (i = 0..3, 4(i+1) bytes) into the array positions POS[i]; one call of the kind
 * over them and over the (empty) send array that finds nothing (the peer sends only after
 * the barrier); the sends i = 1 and 3 (into POS[1], POS[3] of the send array) and their
 * completion, and that of receives 1 and 3, by calls of the kind (Testall: one call over the
 * receives finds them incomplete); a barrier; the sends i = 0 and 2 and the completion of
 * everything left. So the calls complete requests out of their order of posting, with
 * MPI_REQUEST_NULL entries and, for Testsome/Waitsome, a subset of the array. */
enum { POLL_KINDS = 6, POLL_TAG = 32 };
static const int POS[4] = {2, 0, 3, 1};

/* completes the requests of rq[] at the positions at[0..m) by calls of kind c (all other
 * entries are MPI_REQUEST_NULL or requests not sent yet); checks what each call reports */
static void poll_complete(int c, MPI_Request rq[4], const int *at, int m, int peer, int recv)
{
    MPI_Status st, sts[4];
    int flag, index, outcount, indices[4], left = m, mask = 0;
    for (int j = 0; j < m; j++)
        mask |= 1 << at[j];
    while (left > 0) {
        switch (c) {
        case 0: /* MPI_Test on each in turn, the status ignored every other time */
            CHECK_MPI(MPI_Test(&rq[at[m - left]], &flag, left % 2 ? MPI_STATUS_IGNORE : &st));
            if (flag) {
                CHECK(left % 2 || !recv || (st.MPI_SOURCE == peer && st.MPI_TAG >= POLL_TAG));
                left--;
            }
            break;
        case 1:
        case 4:
            if (c == 1)
                CHECK_MPI(MPI_Testany(4, rq, &index, &flag, &st));
            else
                CHECK_MPI(MPI_Waitany(4, rq, &index, &st));
            if (c == 4 || flag) {
                CHECK(index >= 0 && index < 4 && (mask & 1 << index));
                CHECK(!recv || st.MPI_SOURCE == peer);
                mask &= ~(1 << index);
                left--;
            }
            break;
        case 2:
            CHECK_MPI(MPI_Testall(4, rq, &flag, MPI_STATUSES_IGNORE));
            if (flag)
                left = 0;
            break;
        default:
            if (c == 3)
                CHECK_MPI(
                    MPI_Testsome(4, rq, &outcount, indices, recv ? sts : MPI_STATUSES_IGNORE));
            else
                CHECK_MPI(MPI_Waitsome(4, rq, &outcount, indices, MPI_STATUSES_IGNORE));
            CHECK(outcount != MPI_UNDEFINED && outcount <= left);
            for (int j = 0; j < outcount; j++) {
                CHECK(mask & 1 << indices[j]);
                CHECK(c != 3 || !recv || sts[j].MPI_SOURCE == peer);
                mask &= ~(1 << indices[j]);
            }
            left -= outcount;
        }
    }
    for (int j = 0; j < m; j++)
        CHECK(rq[at[j]] == MPI_REQUEST_NULL);
}

/* one call of kind c over rq[] that must find nothing complete (Testall: not all) */
static void poll_nothing(int c, MPI_Request rq[4])
{
    int flag, index, outcount, indices[4];
    switch (c) {
    case 0:
        for (int j = 0; j < 4; j++)
            if (rq[j] != MPI_REQUEST_NULL) {
                CHECK_MPI(MPI_Test(&rq[j], &flag, MPI_STATUS_IGNORE));
                CHECK(!flag);
            }
        break;
    case 1:
        CHECK_MPI(MPI_Testany(4, rq, &index, &flag, MPI_STATUS_IGNORE));
        CHECK(flag ? index == MPI_UNDEFINED && rq[0] == MPI_REQUEST_NULL : index == MPI_UNDEFINED);
        break;
    case 2:
        CHECK_MPI(MPI_Testall(4, rq, &flag, MPI_STATUSES_IGNORE));
        CHECK(!flag || rq[0] == MPI_REQUEST_NULL);
        break;
    case 3:
        CHECK_MPI(MPI_Testsome(4, rq, &outcount, indices, MPI_STATUSES_IGNORE));
        CHECK(outcount == (rq[0] == MPI_REQUEST_NULL ? MPI_UNDEFINED : 0));
        break;
    }
}

static void poll(int rank, long n)
{
    int peer = 1 - rank, first[2] = {POS[1], POS[3]}, second[2] = {POS[0], POS[2]};
    char out[4][16], in[4][16];
    for (int c = 0; c < POLL_KINDS; c++) {
        for (long r = 0; r < n && rank < 2; r++) {
            MPI_Request rr[4],
                rs[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
            for (int i = 0; i < 4; i++) {
                memset(out[i], (char)(r + i), sizeof out[i]);
                memset(in[i], 0, sizeof in[i]);
                CHECK_MPI(MPI_Irecv(in[i], 4 * (i + 1), MPI_BYTE, peer, POLL_TAG + 4 * c + i,
                                    MPI_COMM_WORLD, &rr[POS[i]]));
            }
            poll_nothing(c, rr);
            poll_nothing(c, rs);
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            for (int i = 1; i < 4; i += 2)
                CHECK_MPI(MPI_Isend(out[i], 4 * (i + 1), MPI_BYTE, peer, POLL_TAG + 4 * c + i,
                                    MPI_COMM_WORLD, &rs[POS[i]]));
            poll_complete(c, rs, first, 2, peer, 0);
            if (c == 2)
                poll_nothing(c, rr); /* 0 and 2 are not sent yet */
            else
                poll_complete(c, rr, first, 2, peer, 1);
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            for (int i = 0; i < 4; i += 2)
                CHECK_MPI(MPI_Isend(out[i], 4 * (i + 1), MPI_BYTE, peer, POLL_TAG + 4 * c + i,
                                    MPI_COMM_WORLD, &rs[POS[i]]));
            poll_complete(c, rs, second, 2, peer, 0);
            if (c == 2) {
                int all[4] = {0, 1, 2, 3};
                poll_complete(c, rr, all, 4, peer, 1);
            } else {
                poll_complete(c, rr, second, 2, peer, 1);
            }
            for (int i = 0; i < 4; i++)
                CHECK(in[i][0] == (char)(r + i) && in[i][4 * i + 3] == (char)(r + i));
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    if (argc > 3 && strcmp(argv[3], "multiple") == 0) /* the adapter's shared request table */
        world_multiple(&argc, &argv, &rank, &size, 2, "msgpath");
    else
        MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    long n = argc > 1 ? atol(argv[1]) : 300;
    if (argc > 2 && strcmp(argv[2], "mixed") == 0) {
        mixed(rank, n);
        MPI_Finalize();
        return 0;
    }
    if (argc > 2 && strcmp(argv[2], "poll") == 0) {
        poll(rank, n);
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
