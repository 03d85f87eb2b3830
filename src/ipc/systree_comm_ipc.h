/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_comm_ipc.h: a backend of systree_comm.h on the point-to-point messages of the
 * measurement's ipc backend (ipc/ipc.h), for backends without communicators (SHMEM). */
#ifndef SYSTREE_COMM_IPC_H
#define SYSTREE_COMM_IPC_H

#include "systree/systree_comm.h"

/* A family of one group: all ranks of the current ipc backend (collective). NULL when out
 * of memory. */
systree_comm *systree_comm_ipc_world(void);

#endif
