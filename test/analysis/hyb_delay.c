/* SPDX-License-Identifier: BSD-3-Clause */
/* hyb_delay.c: MPI + OpenMP program whose Late Sender is caused by a late OpenMP thread
 * (test_analysis_hyb_delay.sh; 2 ranks, OMP_NUM_THREADS=2, D seconds, default 0.2). After an
 * MPI_Barrier rank 0 forks a team of 2 in a user region "work": its worker (thread 1) spins D
 * in a user region "late", its master goes straight to the implicit barrier at the region's
 * end and waits there about D; then rank 0 sends to rank 1, which has been waiting in MPI_Recv
 * since the barrier: a Late Sender of about D. By Scalasca's delay analysis (Boehme et al.,
 * TOPC 2016; its OpenMP barriers are synchronisation points) the master's barrier waiting is
 * no delay of its own: the Late Sender's costs pass through it to the late worker's "late"
 * region (delay_latesender_longterm on rank 0's thread 1), and the master keeps only its
 * little work outside the wait (delay_latesender). The worker is the last into the barrier
 * however late the master comes: it spins D after the master counted itself in. */
#include <mpi.h>
#include <omp.h>
#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>
#include "scenario.h"

static int at_barrier;

int main(int argc, char **argv)
{
    int rank, size, provided;
    double D = argc > 1 ? atof(argv[1]) : 0.2;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "hyb_delay: needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    SCOREP_USER_REGION_DEFINE(hw)
    SCOREP_USER_REGION_DEFINE(hl)
    int msg = 42;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        SCOREP_USER_REGION_BEGIN(hw, "work", SCOREP_USER_REGION_TYPE_COMMON)
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 1) {
                /* after the master is at the barrier, however late it got there */
                while (__atomic_load_n(&at_barrier, __ATOMIC_ACQUIRE) == 0)
                    ;
                SCOREP_USER_REGION_BEGIN(hl, "late", SCOREP_USER_REGION_TYPE_COMMON)
                spin_until(now() + D);
                SCOREP_USER_REGION_END(hl)
            } else {
                __atomic_store_n(&at_barrier, 1, __ATOMIC_RELEASE);
            }
        }
        SCOREP_USER_REGION_END(hw)
        MPI_Send(&msg, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&msg, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return msg == 42 ? 0 : 1;
}
