/* SPDX-License-Identifier: BSD-3-Clause */
/* rma_freed.c (2 processes or more): request-based RMA operations whose request the program
 * releases with MPI_Request_free while active, for the measurement's hook that drops them
 * from their window's list (test_mpi_rma_freed.sh checks where each completion is recorded).
 * Request-based operations are valid in passive-target epochs only, so all of them are in
 * MPI_Win_lock_all or MPI_Win_lock, on the right neighbour, one int each:
 *   a  MPI_Rget freed, then MPI_Win_flush; then MPI_Win_flush again
 *   b  MPI_Raccumulate (MPI_SUM 5) freed, then MPI_Win_flush_local, then MPI_Win_flush
 *   c  MPI_Rput, MPI_Win_flush_local (completes it locally), then its request freed, then
 *      MPI_Win_flush_all
 *   d  MPI_Rget_accumulate (MPI_SUM 7) freed, then an MPI_Rput waited for, then
 *      MPI_Win_flush_all; MPI_Win_unlock_all
 *   e  in MPI_Win_lock(MPI_LOCK_EXCLUSIVE): MPI_Rput and MPI_Rget, both freed, then
 *      MPI_Win_unlock
 * The data is checked (the freed operations took place), then "rma_freed: N ranks ok" on
 * rank 0. */
#include "mpi_test.h"

enum { SLOTS = 8 };

int main(int argc, char **argv)
{
    int rank, size, right, left, *base;
    MPI_Win win;
    rma_ring_init(&argc, &argv, SLOTS, &rank, &size, &right, &left, &base, &win);
    for (int i = 0; i < SLOTS; i++)
        base[i] = 1000 * rank + i;
    MPI_Barrier(MPI_COMM_WORLD);
    int got[SLOTS] = {0}, src[SLOTS];
    for (int i = 0; i < SLOTS; i++)
        src[i] = 100000 * (rank + 1) + i;
    int five = 5, seven = 7;
    MPI_Request r, w;

    CHECK_MPI(MPI_Win_lock_all(0, win));
    /* a */
    CHECK_MPI(MPI_Rget(&got[0], 1, MPI_INT, right, 0, 1, MPI_INT, win, &r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Win_flush(right, win));
    CHECK_MPI(MPI_Win_flush(right, win));
    /* b */
    CHECK_MPI(MPI_Raccumulate(&five, 1, MPI_INT, right, 1, 1, MPI_INT, MPI_SUM, win, &r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Win_flush_local(right, win));
    CHECK_MPI(MPI_Win_flush(right, win));
    /* c */
    CHECK_MPI(MPI_Rput(&src[2], 1, MPI_INT, right, 2, 1, MPI_INT, win, &r));
    CHECK_MPI(MPI_Win_flush_local(right, win));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Win_flush_all(win));
    /* d */
    CHECK_MPI(MPI_Rget_accumulate(&seven, 1, MPI_INT, &got[3], 1, MPI_INT, right, 3, 1, MPI_INT,
                                  MPI_SUM, win, &r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Rput(&src[4], 1, MPI_INT, right, 4, 1, MPI_INT, win, &w));
    CHECK_MPI(MPI_Wait(&w, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_flush_all(win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    /* e */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    CHECK_MPI(MPI_Rput(&src[5], 1, MPI_INT, right, 5, 1, MPI_INT, win, &r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Rget(&got[6], 1, MPI_INT, right, 6, 1, MPI_INT, win, &r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Win_unlock(right, win));

    MPI_Barrier(MPI_COMM_WORLD);
    /* what the freed operations did: read from the right neighbour's window, written to it
     * (and by the left neighbour to this one; with 2 ranks, the same) */
    CHECK(got[0] == 1000 * right + 0);
    CHECK(got[3] == 1000 * right + 3);
    CHECK(got[6] == 1000 * right + 6);
    CHECK(base[0] == 1000 * rank + 0);
    CHECK(base[1] == 1000 * rank + 1 + 5);
    CHECK(base[2] == 100000 * (left + 1) + 2);
    CHECK(base[3] == 1000 * rank + 3 + 7);
    CHECK(base[4] == 100000 * (left + 1) + 4);
    CHECK(base[5] == 100000 * (left + 1) + 5);
    CHECK(base[6] == 1000 * rank + 6);
    CHECK_MPI(MPI_Win_free(&win));
    if (rank == 0)
        printf("rma_freed: %d ranks ok\n", size);
    MPI_Finalize();
    return 0;
}
