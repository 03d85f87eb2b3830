/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_comm_mpi.h: the MPI backend of systree_comm.h (PMPI only; part of libscorep-rt-mpi). */
#ifndef SYSTREE_COMM_MPI_H
#define SYSTREE_COMM_MPI_H

#include "systree/systree_comm.h"

#include <mpi.h>

/* A family of one group: a private duplicate of comm (collective over comm; comm itself is
 * neither used further nor freed). World ranks are the ranks in comm. NULL on errors. */
systree_comm *systree_comm_mpi_create(MPI_Comm comm);

#endif
