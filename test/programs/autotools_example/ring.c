/* SPDX-License-Identifier: BSD-3-Clause */
/* ring.c: the MPI program of the autotools example, for 2 ranks: 3 rounds of exchange(), each
 * one MPI_Send and one MPI_Recv per rank (rank 0 sends first). */
#include <mpi.h>
#include <stdio.h>

static int exchange(int rank, int round)
{
    int peer = 1 - rank, value = round, got = -1;
    if (rank == 0) {
        MPI_Send(&value, 1, MPI_INT, peer, round, MPI_COMM_WORLD);
        MPI_Recv(&got, 1, MPI_INT, peer, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&got, 1, MPI_INT, peer, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&value, 1, MPI_INT, peer, round, MPI_COMM_WORLD);
    }
    return got;
}

int main(int argc, char **argv)
{
    int rank, size, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "ring: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int round = 0; round < 3; round++)
        sum += exchange(rank, round);
    printf("rank %d sum %d\n", rank, sum);
    MPI_Finalize();
    return 0;
}
