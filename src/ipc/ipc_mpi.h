/* SPDX-License-Identifier: BSD-3-Clause */
/* ipc_mpi.h: hooks between the MPI adapter and the measurement core. */
#ifndef SCOREP_IPC_MPI_H
#define SCOREP_IPC_MPI_H

/* Called by the MPI_Init/MPI_Init_thread wrappers right after PMPI_Init* succeeded:
 * creates the private communicator, installs the MPI ipc backend, names this process
 * "MPI Rank N" and takes the first clock synchronisation. */
void scorep_mpi_after_init(void);
/* Called by the MPI_Finalize wrapper before PMPI_Finalize: writes profile and trace of the
 * whole job (collective), then switches the measurement off. */
void scorep_mpi_before_finalize(void);
/* World rank of this process (valid after scorep_mpi_after_init), and world size. */
int scorep_mpi_world_rank(void);
int scorep_mpi_world_size(void);

#endif
