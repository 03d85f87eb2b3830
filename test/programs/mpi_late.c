/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_late.c: MPI test program built with compiler instrumentation: work before MPI_Init
 * (late initialisation), a ring of sends with known sizes, and optionally an MPI_Abort. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;

__attribute__((noinline)) void before_init(int n)
{
    for (int i = 0; i < n; i++)
        sink += i * 0.5;
}

__attribute__((noinline)) void exchange(int rank, int size, int round)
{
    int buf[250] = {0}; /* 1000 bytes */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Sendrecv(buf, 250, MPI_INT, next, round, buf, 250, MPI_INT, prev, round, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    before_init(1000);
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int r = 0; r < 3; r++)
        exchange(rank, size, r);
    if (argc > 1 && strcmp(argv[1], "abort") == 0 && rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 5);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0)
        printf("done %d\n", size);
    return 0;
}
