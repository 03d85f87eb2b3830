/* SPDX-License-Identifier: BSD-3-Clause */
/* ipc.h: the measurement's own inter-process communication (finalize, unification, clock
 * synchronisation). Backends: single process (default), MPI (PMPI on a private duplicate of
 * MPI_COMM_WORLD), and the simulated backend of scorep-systree-sim (later). */
#ifndef SCOREP_IPC_H
#define SCOREP_IPC_H

#include <stddef.h>
#include <stdint.h>

struct systree_comm;

typedef struct scorep_ipc {
    const char *name;
    int (*rank)(void);
    int (*size)(void);
    int (*barrier)(void);
    int (*bcast)(void *buf, size_t bytes, int root);
    /* every rank sends `bytes`; root receives size() * bytes into recv */
    int (*gather)(const void *send, size_t bytes, void *recv, int root);
    /* variable sizes: counts/displs in bytes, used at root only */
    int (*gatherv)(const void *send, size_t bytes, void *recv, const size_t *counts,
                   const size_t *displs, int root);
    int (*scatterv)(const void *send, const size_t *counts, const size_t *displs, void *recv,
                    size_t bytes, int root);
    int (*send)(const void *buf, size_t bytes, int dest, int tag);
    int (*recv)(void *buf, size_t bytes, int source, int tag);
    int (*allreduce_max_u64)(uint64_t *value);
    /* the world communicator of the system tree's construction (src/systree) over this
     * backend; NULL: one process (the simulated backend) */
    struct systree_comm *(*systree_world)(void);
} scorep_ipc;

/* The runtime's part of the life cycle of the MPI backend, which the program's MPI_Init and
 * MPI_Finalize switch (ipc_mpi.c). ipc/ lies below the runtime, so the runtime registers
 * these (at load, before any MPI call) instead of being called by name. ready: the backend
 * is installed (spawned: a job that MPI_Comm_spawn started); finalize: inside MPI_Finalize,
 * while the backend still works (the collective finalize). */
typedef struct scorep_ipc_hooks {
    void (*ready)(int spawned);
    void (*finalize)(void);
} scorep_ipc_hooks;

/* hooks must live until the process ends; NULL until the runtime registers them. */
void scorep_ipc_set_hooks(const scorep_ipc_hooks *hooks);
const scorep_ipc_hooks *scorep_ipc_hooks_get(void);

/* Gathers every rank's byte blob at rank 0 (collective). At rank 0, *all holds the blobs
 * back to back and (*offsets)[r], (*lengths)[r] locate rank r's; the caller frees all three.
 * Other ranks get NULLs. 0, or -1 (then nothing is allocated). */
int scorep_ipc_gather_blobs(const void *data, size_t len, unsigned char **all, size_t **offsets,
                            size_t **lengths);

/* Bitwise OR of every rank's n words, left in words on every rank (collective; a binomial
 * reduction in pieces of 4 KiB, then a broadcast). A rank without its words passes NULL:
 * then every rank returns -1 and nothing is exchanged. 0, or -1. */
int scorep_ipc_allreduce_or(uint64_t *words, size_t n);

/* The backend in use (never NULL). */
const scorep_ipc *scorep_ipc_get(void);
/* Installed by the MPI adapter after MPI_Init. */
void scorep_ipc_set(const scorep_ipc *backend);
extern const scorep_ipc scorep_ipc_single;
/* Whether the measured job is one of several processes' backend (MPI, SHMEM): what the
 * writers name (processes "MPI Rank r", the metrics bytes_sent / bytes_received, OTF2's MPI
 * groups). The backend's, unless scorep-recover set the measured run's own (its socket mesh
 * connects the pieces of a serial program too: a recovered serial profile had the MPI
 * metrics); -1 goes back to the backend's. */
int scorep_ipc_job_multi(void);
void scorep_ipc_set_job_multi(int multi);

#endif
