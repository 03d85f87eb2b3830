/* SPDX-License-Identifier: BSD-3-Clause */
/* ring3.c: test program of the trace export: every rank passes ROUNDS (argv[1], default 40)
 * messages of 128 bytes to the next rank of the ring with MPI_Isend/MPI_Irecv/MPI_Waitall
 * and ROUNDS messages of 256 bytes with MPI_Sendrecv, then one MPI_Allreduce: on 3 ranks
 * 6 * ROUNDS messages, 2 * ROUNDS from each rank to the next. Prints the sum. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 40;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    char out[256] = {0}, in[256];
    long sum = 0;
    for (int i = 0; i < rounds; i++) {
        MPI_Request req[2];
        MPI_Irecv(in, 128, MPI_CHAR, prev, 1, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(out, 128, MPI_CHAR, next, 1, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        MPI_Sendrecv(out, 256, MPI_CHAR, next, 2, in, 256, MPI_CHAR, prev, 2, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        sum += in[0] + 1;
    }
    long total = 0;
    MPI_Allreduce(&sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("sum %ld\n", total);
    MPI_Finalize();
    return 0;
}
