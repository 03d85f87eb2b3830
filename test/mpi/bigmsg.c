/* SPDX-License-Identifier: BSD-3-Clause */
/* bigmsg.c (2 processes): messages beyond 2 GiB, whose sizes an int cannot hold: 270 M long
 * long (2 160 000 000 bytes) rank 0 -> 1 three times: MPI_Send to MPI_Recv (tag 1); MPI_Isend
 * of one element of a contiguous datatype of that size to MPI_Probe + MPI_Irecv + MPI_Wait
 * (tag 2); MPI_Bcast of one such element. test_mpi_bigmsg.sh checks the exact byte counts in
 * the traces. Needs about 2.2 GB of memory per process. */
#include "mpi_test.h"

#define N 270000000 /* long long elements: 2 160 000 000 bytes */

#define STEP (N / 7) /* checked: every STEP-th value and the last one */

/* touches every page once (MPI may use the buffer's pages only as it copies) */
static void fill(long long *b)
{
    for (long long i = 0; i < N; i++)
        b[i] = i;
}

/* the sampled values of the message with this seed */
static void mark(long long *b, long long seed)
{
    for (long long i = 0; i < N; i += STEP)
        b[i] = seed + i;
    b[N - 1] = seed + N - 1;
}

static void verify(const long long *b, long long seed)
{
    for (long long i = 0; i < N; i += STEP)
        CHECK(b[i] == seed + i);
    CHECK(b[N - 1] == seed + N - 1);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    CHECK(size == 2);
    long long *b = malloc((size_t)N * sizeof *b);
    CHECK(b != NULL);
    MPI_Datatype big;
    CHECK_MPI(MPI_Type_contiguous(N, MPI_LONG_LONG, &big));
    CHECK_MPI(MPI_Type_commit(&big));
    MPI_Status st;
    MPI_Request r;
    MPI_Count bytes = 0;
    if (rank == 0) {
        fill(b);
        mark(b, 1);
        CHECK_MPI(MPI_Send(b, N, MPI_LONG_LONG, 1, 1, MPI_COMM_WORLD));
        mark(b, 2);
        CHECK_MPI(MPI_Isend(b, 1, big, 1, 2, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        mark(b, 3);
    } else {
        CHECK_MPI(MPI_Recv(b, N, MPI_LONG_LONG, 0, 1, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_elements_x(&st, MPI_BYTE, &bytes));
        CHECK(bytes == (MPI_Count)N * 8);
        verify(b, 1);
        CHECK_MPI(MPI_Probe(0, 2, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Irecv(b, N, MPI_LONG_LONG, 0, 2, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK_MPI(MPI_Get_elements_x(&st, MPI_BYTE, &bytes));
        CHECK(bytes == (MPI_Count)N * 8);
        verify(b, 2);
    }
    CHECK_MPI(MPI_Bcast(b, 1, big, 0, MPI_COMM_WORLD));
    if (rank == 1)
        verify(b, 3);
    CHECK_MPI(MPI_Type_free(&big));
    free(b);
    MPI_Finalize();
    return 0;
}
