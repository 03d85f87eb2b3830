/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_engine_mpi.h: the MPI transport of the distributed Cube engine, for tools that run
 * either alone or under mpirun (scorep-cube-dump, scorep-score). */
#ifndef SCOREP_CUBE_ENGINE_MPI_H
#define SCOREP_CUBE_ENGINE_MPI_H

#include "cube/cube_engine.h"

/* Under a launcher (mpirun sets OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK) MPI is
 * started and *comm speaks over a duplicate of MPI_COMM_WORLD; otherwise, and when the
 * tool was built without MPI, *comm is the single-process transport. */
void cube_engine_transport_init(int *argc, char ***argv, cube_engine_comm *comm);
/* Waits for the messages still going out and ends MPI if it was started. */
void cube_engine_transport_finalize(void);

#endif
