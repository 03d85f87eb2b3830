/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_nbc.c: a known pattern of communicators and non-blocking collectives for the
 * substrate plugin test (3 ranks or more): MPI_Comm_dup and MPI_Comm_split (2 communicators
 * created and freed per rank); MPI_Ibarrier on the duplicate and MPI_Iallreduce of 1 int on
 * MPI_COMM_WORLD, each completed by MPI_Wait; MPI_Ibcast of 10 ints from rank 1 on
 * MPI_COMM_WORLD, completed by an MPI_Test loop. Prints "sum <sum of ranks + 1> bcast <x>". */
#include <mpi.h>
#include <stdio.h>

#define CHECK(c)                                                                              \
    do {                                                                                      \
        if ((c) != MPI_SUCCESS) {                                                             \
            fprintf(stderr, "failed: %s\n", #c);                                              \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                     \
        }                                                                                     \
    } while (0)

int main(int argc, char **argv)
{
    int rank, size, v, sum = 0, buf[10] = {0}, done = 0;
    MPI_Comm dup, half;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    v = rank + 1;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    CHECK(MPI_Ibarrier(dup, &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    if (rank == 1)
        for (int i = 0; i < 10; i++)
            buf[i] = 7 + i;
    CHECK(MPI_Ibcast(buf, 10, MPI_INT, 1, MPI_COMM_WORLD, &r));
    while (!done)
        CHECK(MPI_Test(&r, &done, MPI_STATUS_IGNORE));
    CHECK(MPI_Comm_free(&half));
    CHECK(MPI_Comm_free(&dup));
    if (rank == 0)
        printf("sum %d bcast %d\n", sum, buf[9]);
    MPI_Finalize();
    return 0;
}
