/* SPDX-License-Identifier: BSD-3-Clause */
/* selective_mpi.c: selective recording in an MPI program of 2 ranks (test_selective.sh).
 * Region "step" is begun 6 times on each rank (instances 0-5); in each, rank 0 sends one
 * message to rank 1 and rank 1 answers (blocking), then both exchange one message
 * non-blocking (Isend, Irecv, Waitall) and meet in an Allreduce. Between the steps, outside
 * every selected region, rank 0 sends one more message that rank 1 receives. */
#include <mpi.h>
#include <stdio.h>

#include <scorep/SCOREP_User.h>

int main(int argc, char **argv)
{
    int rank, size, v = 0, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int peer = 1 - rank;
    for (int i = 0; i < 6; i++) {
        SCOREP_USER_REGION_DEFINE(step)
        SCOREP_USER_REGION_BEGIN(step, "step", SCOREP_USER_REGION_TYPE_COMMON)
        if (rank == 0) {
            MPI_Send(&i, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        }
        MPI_Request rq[2];
        int out = i, in = -1;
        MPI_Isend(&out, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(&in, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[1]);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        int s;
        MPI_Allreduce(&in, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        sum += s;
        SCOREP_USER_REGION_END(step)
        if (rank == 0)
            MPI_Send(&i, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
        else
            MPI_Recv(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 0)
        printf("sum %d\n", sum);
    MPI_Finalize();
    return 0;
}
