/* SPDX-License-Identifier: BSD-3-Clause */
/* late_loop.c: the experiment the trace-reader robustness tests damage (test/fuzz): 2 MPI
 * ranks, ROUNDS rounds of a late sender (rank 0 computes, then sends; rank 1 waits in
 * MPI_Recv), so that each rank's event file holds several OTF2 chunks when ROUNDS is large.
 * Run on one rank, it sends to itself (the fuzz harness's one-location template). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) void work(int n)
{
    for (int i = 0; i < n; i++)
        sink += i * 0.5;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 1000, buf[16] = {0};
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int r = 0; r < rounds; r++) {
        if (size == 1) {
            work(10);
            MPI_Sendrecv(buf, 8, MPI_INT, 0, r, buf + 8, 8, MPI_INT, 0, r, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        } else if (rank == 0) {
            work(200);
            MPI_Send(buf, 16, MPI_INT, 1, r, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Recv(buf, 16, MPI_INT, 0, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            work(10);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0)
        printf("late_loop %d rounds\n", rounds);
    return 0;
}
