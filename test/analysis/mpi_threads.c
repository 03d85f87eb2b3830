/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_threads.c: MPI calls on an OpenMP worker thread for the analysis tests
 * (test_analysis_omp.sh; 2 ranks, MPI_THREAD_MULTIPLE). In a team of 2 ("exchange"), thread 1
 * of rank 0 spins until D after the team's start and then sends a message to rank 1, where
 * thread 1 waits for it in MPI_Recv from the start; thread 0 of both ranks does nothing. Each
 * rank's thread 1 prints when its call began and ended ("T rank what seconds", the node's
 * monotonic clock): the test expects the receive's time on rank 1's worker location. */
#include <mpi.h>
#include <omp.h>
#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>
#include "scenario.h"

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        printf("SKIP: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double D = argc > 1 ? atof(argv[1]) : 0.2, begin = 0, end = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    SCOREP_USER_REGION_DEFINE(hx)
    SCOREP_USER_REGION_BEGIN(hx, "exchange", SCOREP_USER_REGION_TYPE_COMMON)
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1) {
            int v = 42;
            double t0 = now();
            if (rank == 0) {
                while (now() < t0 + D) {
                    struct timespec ts = {0, 1000000};
                    nanosleep(&ts, NULL);
                }
                begin = now();
                MPI_Send(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
                end = now();
            } else if (rank == 1) {
                begin = now();
                MPI_Recv(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                end = now();
            }
        }
    }
    SCOREP_USER_REGION_END(hx)
    printf("T %d call %.6f\n", rank, end - begin);
    MPI_Finalize();
    return 0;
}
