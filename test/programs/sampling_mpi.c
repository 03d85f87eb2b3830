/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_mpi.c: every rank spends about 0.2 s of CPU in hot() between MPI_Init and a
 * barrier; for sampling of an unmodified MPI program under mpirun + scorep-run. */
#include <mpi.h>
#include <time.h>

#define HOT_MS 200
#include "sampling_work.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    hot();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
