/* SPDX-License-Identifier: BSD-3-Clause */
/* ipc_mesh.h: the ipc backend of scorep-recover: processes forked by one parent, one socket
 * per pair of ranks, collectives over point-to-point messages. */
#ifndef SCOREP_IPC_MESH_H
#define SCOREP_IPC_MESH_H

#include "ipc/ipc.h"

/* size*size descriptors (row i: rank i's socket to each rank j, -1 on the diagonal), made
 * before forking; NULL on failure. */
int *scorep_ipc_mesh_sockets(int size);
/* Closes every row but keep's (-1: all rows); a child keeps its own. */
void scorep_ipc_mesh_close(int *pairs, int size, int keep);
/* The backend for rank of size; fds: that rank's row (must live as long as the backend). */
const scorep_ipc *scorep_ipc_mesh(int rank, int size, const int *fds);

#endif
