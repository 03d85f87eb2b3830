/* SPDX-License-Identifier: BSD-3-Clause */
/* pingpong.c: MPI test program for trace reduction: two ranks exchange ROUNDS round trips
 * of 64 bytes (argv[1], default 50000); each round calls a tiny function CALLS times
 * (argv[2], default 10), so that the trace of a compiler-instrumented build outgrows the
 * default SCOREP_TOTAL_MEMORY. Prints the number of round trips and the checksum. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

__attribute__((noinline)) void tiny(int i)
{
    sink += i;
}

__attribute__((noinline)) void round_trip(int rank, int i, int calls)
{
    char buf[64] = {0};
    for (int k = 0; k < calls; k++)
        tiny(k);
    if (rank == 0) {
        MPI_Send(buf, 64, MPI_CHAR, 1, i % 7, MPI_COMM_WORLD);
        MPI_Recv(buf, 64, MPI_CHAR, 1, i % 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(buf, 64, MPI_CHAR, 0, i % 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, 64, MPI_CHAR, 0, i % 7, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = argc > 1 ? atoi(argv[1]) : 50000, calls = argc > 2 ? atoi(argv[2]) : 10;
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "pingpong needs exactly 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int i = 0; i < rounds; i++)
        round_trip(rank, i, calls);
    if (rank == 0)
        printf("round trips %d sink %ld\n", rounds, (long)sink);
    MPI_Finalize();
    return 0;
}
