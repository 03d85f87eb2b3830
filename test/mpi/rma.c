/* SPDX-License-Identifier: BSD-3-Clause */
/* rma.c (2 processes or more): one-sided communication: MPI_Win_create with fences
 * (Put, Get, Accumulate), passive target (lock/unlock, lock_all + flush), general active
 * target (post/start/complete/wait), MPI_Win_allocate with request-based Rput/Rget,
 * Get_accumulate, Fetch_and_op, Compare_and_swap, Win_sync. */
#include "mpi_test.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int mem[4] = {0, 0, 0, 0}, v = rank + 1, got = -1;
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    /* fences: put my value into the right neighbour's mem[0], get the left one's mem[0] */
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(mem[0] == left + 1);
    CHECK_MPI(MPI_Get(&got, 1, MPI_INT, left, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Accumulate(&v, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(got == (left + size - 1) % size + 1);
    if (rank == 0)
        CHECK(mem[1] == size * (size + 1) / 2);
    /* passive target */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 2, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Get(&got, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(right, win));
    CHECK(got == rank + 1);
    int old = -1, one = 1;
    CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 3, MPI_SUM, win));
    CHECK_MPI(MPI_Win_flush_all(win));
    CHECK(old >= 0 && old < size);
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    CHECK_MPI(MPI_Win_sync(win));
    CHECK(mem[2] == left + 1);
    CHECK_MPI(MPI_Win_unlock(rank, win));
    if (rank == 0)
        CHECK(mem[3] == size);
    MPI_Barrier(MPI_COMM_WORLD);
    /* general active target: everybody exposes to the left and accesses the right */
    MPI_Group wg, lg, rg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, 1, &left, &lg);
    MPI_Group_incl(wg, 1, &right, &rg);
    CHECK_MPI(MPI_Win_post(lg, 0, win));
    CHECK_MPI(MPI_Win_start(rg, 0, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    int flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Win_test(win, &flag));
    CHECK(mem[0] == left + 1);
    CHECK_MPI(MPI_Win_free(&win));
    /* allocated window and request-based operations */
    int *base;
    CHECK_MPI(
        MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    base[0] = base[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock_all(0, win));
    MPI_Request r[2];
    CHECK_MPI(MPI_Rput(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win, &r[0]));
    CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_flush(right, win));
    int res = -1, cmp = 0, swp = 7;
    CHECK_MPI(MPI_Raccumulate(&one, 1, MPI_INT, right, 1, 1, MPI_INT, MPI_SUM, win, &r[0]));
    CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_flush(right, win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Rget(&got, 1, MPI_INT, right, 0, 1, MPI_INT, win, &r[0]));
    CHECK_MPI(MPI_Rget_accumulate(&one, 1, MPI_INT, &res, 1, MPI_INT, right, 1, 1, MPI_INT,
                                  MPI_NO_OP, win, &r[1]));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK(got == rank + 1 && res == 1);
    CHECK_MPI(MPI_Get_accumulate(&one, 1, MPI_INT, &res, 1, MPI_INT, right, 1, 1, MPI_INT,
                                 MPI_NO_OP, win));
    CHECK_MPI(MPI_Compare_and_swap(&swp, &cmp, &res, MPI_INT, rank, 1, win));
    CHECK_MPI(MPI_Win_flush_local_all(win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Group_free(&wg);
    MPI_Group_free(&lg);
    MPI_Group_free(&rg);
    MPI_Finalize();
    return 0;
}
