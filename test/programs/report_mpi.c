/* SPDX-License-Identifier: BSD-3-Clause */
/* report_mpi.c: MPI program with known communication for test_report.sh (3 ranks): rank 0
 * sends 5 messages of 1000 bytes to rank 1 and 3 of 2000 bytes to rank 2, rank 1 sends 2
 * of 64 bytes to rank 2; each rank runs compute() 4 times inside a user region whose name
 * holds HTML's special characters (the report must escape it). With an argument N, each
 * rank also calls tiny() N times (a trace to downsample). */
#include <mpi.h>
#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) void tiny(int i)
{
    sink += i;
}

__attribute__((noinline)) void compute(int n)
{
    for (int i = 0; i < n * 1000000; i++)
        sink += i * 0.5;
}

__attribute__((noinline)) void send_to(int peer, int count, int bytes)
{
    static char buf[2000];
    for (int i = 0; i < count; i++)
        MPI_Send(buf, bytes, MPI_CHAR, peer, i, MPI_COMM_WORLD);
}

__attribute__((noinline)) void receive_from(int peer, int count, int bytes)
{
    static char buf[2000];
    for (int i = 0; i < count; i++)
        MPI_Recv(buf, bytes, MPI_CHAR, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 3) {
        if (rank == 0)
            fprintf(stderr, "report_mpi needs exactly 3 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int i = 0, n = argc > 1 ? atoi(argv[1]) : 0; i < n; i++)
        tiny(i);
    SCOREP_USER_REGION_DEFINE(phase)
    SCOREP_USER_REGION_BEGIN(phase, "phase<1> & \"all\"", SCOREP_USER_REGION_TYPE_COMMON)
    for (int i = 0; i < 4; i++)
        compute(rank + 1);
    SCOREP_USER_REGION_END(phase)
    if (rank == 0) {
        send_to(1, 5, 1000);
        send_to(2, 3, 2000);
    } else if (rank == 1) {
        receive_from(0, 5, 1000);
        send_to(2, 2, 64);
    } else {
        receive_from(0, 3, 2000);
        receive_from(1, 2, 64);
    }
    if (rank == 0)
        printf("report_mpi done\n");
    MPI_Finalize();
    return 0;
}
