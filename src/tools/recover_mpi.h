/* SPDX-License-Identifier: BSD-3-Clause */
/* recover_mpi.h: the ipc backend of `mpirun -np N scorep-recover EXPDIR` (one MPI process per
 * rank-local piece). */
#ifndef SCOREP_RECOVER_MPI_H
#define SCOREP_RECOVER_MPI_H

#include "ipc/ipc.h"

/* Under a launcher (mpirun sets OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK) and when built
 * with MPI: MPI is started and the backend returned; else NULL (the serial recovery). */
const scorep_ipc *scorep_recover_mpi_init(int *argc, char ***argv);
/* Ends MPI if it was started. */
void scorep_recover_mpi_finalize(void);

#endif
