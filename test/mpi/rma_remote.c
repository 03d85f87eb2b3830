/* SPDX-License-Identifier: BSD-3-Clause */
/* rma_remote.c (2 processes or more): the completions of request-based RMA operations in a
 * passive-target epoch (MPI_Win_lock_all), one case each, on the right neighbour:
 *   A  MPI_Rput, MPI_Test until it completes, MPI_Win_flush
 *   B  MPI_Rput, MPI_Win_flush, then MPI_Wait
 *   C  MPI_Rget, MPI_Wait, MPI_Win_flush
 *   D  MPI_Rput, MPI_Wait, MPI_Win_flush_local, then MPI_Win_unlock_all
 *   E  operations without a request: MPI_Put twice, MPI_Get, MPI_Win_flush_local, MPI_Put,
 *      then MPI_Win_unlock_all (Score-P: one matching id per target and completion kind)
 * test_mpi_rma_remote.sh checks where the measurement records each operation's local
 * (RmaOpCompleteNonBlocking) and remote (RmaOpCompleteRemote) completion. Prints
 * "rma_remote: N ranks ok" on rank 0. */
#include "mpi_test.h"

int main(int argc, char **argv)
{
    int rank, size, right, left, *base;
    MPI_Win win;
    rma_ring_init(&argc, &argv, 8, &rank, &size, &right, &left, &base, &win);
    for (int i = 0; i < 8; i++)
        base[i] = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock_all(0, win));
    MPI_Request r;
    int flag = 0, a = 10 + rank, b = 20 + rank, c = -1, d = 40 + rank;
    int e1 = 50 + rank, e2 = 60 + rank, e3 = 70 + rank, eg = -1;
    /* A */
    CHECK_MPI(MPI_Rput(&a, 1, MPI_INT, right, 0, 1, MPI_INT, win, &r));
    while (!flag)
        CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_flush(right, win));
    /* B */
    CHECK_MPI(MPI_Rput(&b, 1, MPI_INT, right, 1, 1, MPI_INT, win, &r));
    CHECK_MPI(MPI_Win_flush(right, win));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MPI_Barrier(MPI_COMM_WORLD);
    /* C: element 0 of the right neighbour's window: what A put there, mine */
    CHECK_MPI(MPI_Rget(&c, 1, MPI_INT, right, 0, 1, MPI_INT, win, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_flush(right, win));
    /* D */
    CHECK_MPI(MPI_Rput(&d, 1, MPI_INT, right, 3, 1, MPI_INT, win, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_flush_local(right, win));
    /* E */
    CHECK_MPI(MPI_Put(&e1, 1, MPI_INT, right, 4, 1, MPI_INT, win));
    CHECK_MPI(MPI_Put(&e2, 1, MPI_INT, right, 5, 1, MPI_INT, win));
    CHECK_MPI(MPI_Get(&eg, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush_local(right, win));
    CHECK_MPI(MPI_Put(&e3, 1, MPI_INT, right, 6, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    /* my window holds what the left neighbour put; C read the right one's, which is mine */
    CHECK(base[0] == 10 + left && base[1] == 20 + left && base[3] == 40 + left);
    CHECK(c == 10 + rank && eg == 10 + rank);
    CHECK(base[4] == 50 + left && base[5] == 60 + left && base[6] == 70 + left);
    CHECK_MPI(MPI_Win_free(&win));
    if (rank == 0)
        printf("rma_remote: %d ranks ok\n", size);
    MPI_Finalize();
    return 0;
}
