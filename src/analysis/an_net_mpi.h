/* SPDX-License-Identifier: BSD-3-Clause */
/* an_net_mpi.h: the MPI backend of the analysis's communication (an_net.h): a handle over an
 * MPI communicator, for scorep-analyze under mpirun and the in situ analysis at MPI_Finalize. */
#ifndef SCOREP_AN_NET_MPI_H
#define SCOREP_AN_NET_MPI_H

#include "analysis/an_net.h"

#include <mpi.h>

/* a handle over COMM (which stays the caller's; an_net_free frees the handle only). NULL
 * when out of memory. */
an_net *an_net_mpi(MPI_Comm comm);

#endif
