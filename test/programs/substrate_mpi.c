/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_mpi.c: a known MPI pattern for the substrate plugin test (2 ranks): rank 0
 * sends 3 messages of 100 ints to rank 1 with MPI_Send and 1 of 10 ints with MPI_Isend
 * (rank 1: MPI_Irecv; both MPI_Wait); then 2 MPI_Allreduce and 1 MPI_Barrier on every rank. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, buf[100] = {0}, x = 1, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 3; i++) {
        if (rank == 0)
            MPI_Send(buf, 100, MPI_INT, 1, i, MPI_COMM_WORLD);
        else if (rank == 1)
            MPI_Recv(buf, 100, MPI_INT, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Request req = MPI_REQUEST_NULL;
    if (rank == 0)
        MPI_Isend(buf, 10, MPI_INT, 1, 9, MPI_COMM_WORLD, &req);
    else if (rank == 1)
        MPI_Irecv(buf, 10, MPI_INT, 0, 9, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("sum %d\n", y);
    MPI_Finalize();
    return 0;
}
