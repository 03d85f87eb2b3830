/* SPDX-License-Identifier: BSD-3-Clause */
/* rma_many.c (2 processes or more): many request-based RMA operations open at once on one
 * window, completed out of order, for the measurement's per-window request tracking
 * (test_mpi_rma_many.sh checks every completion record). In MPI_Win_lock_all, on the right
 * neighbour: N operations, op i an MPI_Rput if i % 3 == 0, else an MPI_Rget; the puts with
 * i % 10 == 3 are released with MPI_Request_free, the others waited for one at a time in
 * the order of (7 k) mod N (a get's entry is done at its wait: once half the entries are,
 * the live ones move, which the lookup must follow); then MPI_Win_flush. Then M MPI_Rputs waited for in reverse
 * order, MPI_Win_flush_all, MPI_Win_unlock_all. Prints "rma_many: N ranks ok" on rank 0. */
#include "mpi_test.h"

#include <stdlib.h>

enum { N = 300, M = 40 };

static int freed(int i)
{
    return i % 3 == 0 && i % 10 == 3;
}

int main(int argc, char **argv)
{
    int rank, size, right, left, *base;
    MPI_Win win;
    rma_ring_init(&argc, &argv, N + M, &rank, &size, &right, &left, &base, &win);
    for (int i = 0; i < N + M; i++)
        base[i] = 1000 * rank + i;
    MPI_Barrier(MPI_COMM_WORLD);
    static int src[N + M], got[N];
    static MPI_Request req[N + M];
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < N; i++) {
        src[i] = 100000 * (rank + 1) + i;
        if (i % 3 != 0) /* what the right neighbour's window holds at i (no put there) */
            CHECK_MPI(MPI_Rget(&got[i], 1, MPI_INT, right, i, 1, MPI_INT, win, &req[i]));
        else
            CHECK_MPI(MPI_Rput(&src[i], 1, MPI_INT, right, i, 1, MPI_INT, win, &req[i]));
    }
    for (int i = 0; i < N; i++)
        if (freed(i))
            CHECK_MPI(MPI_Request_free(&req[i]));
    /* (7 k) mod N is a permutation of 0..N-1 (gcd(7, 300) = 1): k-th wait, op (7 k) mod N */
    for (int k = 0; k < N; k++) {
        int i = (7 * k) % N;
        if (!freed(i))
            CHECK_MPI(MPI_Wait(&req[i], MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Win_flush(right, win));
    for (int i = N; i < N + M; i++) {
        src[i] = 100000 * (rank + 1) + i;
        CHECK_MPI(MPI_Rput(&src[i], 1, MPI_INT, right, i, 1, MPI_INT, win, &req[i]));
    }
    for (int i = N + M; i-- > N;)
        CHECK_MPI(MPI_Wait(&req[i], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_flush_all(win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N + M; i++) {
        if (i < N && i % 3 != 0) {
            CHECK(got[i] == 1000 * right + i);
            CHECK(base[i] == 1000 * rank + i);
        } else {
            CHECK(base[i] == 100000 * (left + 1) + i);
        }
    }
    CHECK_MPI(MPI_Win_free(&win));
    if (rank == 0)
        printf("rma_many: %d ranks ok\n", size);
    MPI_Finalize();
    return 0;
}
