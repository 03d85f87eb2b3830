/* SPDX-License-Identifier: BSD-3-Clause */
/* ipc_shmem.h: the OpenSHMEM backend of the measurement's own communication (pshmem only, on
 * symmetric buffers the runtime allocates itself; part of libscorep-rt-shmem). */
#ifndef SCOREP_IPC_SHMEM_H
#define SCOREP_IPC_SHMEM_H

/* After pshmem_init, collective over all PEs: allocates the runtime's symmetric buffers and
 * installs the backend (ranks are PE numbers) and the system tree's world. 0, or -1 with a
 * warning (the run is then measured per process, as without it). */
int scorep_shmem_ipc_start(void);
/* Before pshmem_finalize, collective: uninstalls the backend and frees the buffers. */
void scorep_shmem_ipc_stop(void);

#endif
