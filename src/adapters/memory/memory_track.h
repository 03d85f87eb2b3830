/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_track.h: allocation tracking inside the runtime (libscorep-rt), shared by the
 * malloc/new wrappers (libscorep-rt-memory) and MPI_Alloc_mem/MPI_Free_mem (libscorep-rt-mpi).
 * Score-P's metrics: ALLOCATION_SIZE and DEALLOCATION_SIZE on the call path of each call,
 * maximum_heap_memory_allocated (process heap in use after an allocation, maximum per call
 * path), bytes_leaked on the call path that allocated a block never freed; in the trace the
 * bytes in use as the counter "Process memory usage" ("... (MPI)" for MPI_Alloc_mem,
 * "... (SHMEM)" for the symmetric heap). */
#ifndef SCOREP_MEMORY_TRACK_H
#define SCOREP_MEMORY_TRACK_H

#include "core/location.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    SCOREP_ALLOC_HEAP,  /* malloc & co., new and delete (SCOREP_MEMORY_RECORDING) */
    SCOREP_ALLOC_MPI,   /* MPI_Alloc_mem (SCOREP_MPI_MEMORY_RECORDING) */
    SCOREP_ALLOC_SHMEM, /* the symmetric heap (SCOREP_SHMEM_MEMORY_RECORDING) */
    SCOREP_ALLOC_KINDS
} scorep_alloc_kind;

/* Nonzero while this thread is inside a memory wrapper or otherwise must not have its
 * allocations recorded (the runtime's own work): wrappers then only forward the call. */
extern __thread int scorep_memory_guard __attribute__((tls_model("initial-exec")));

/* Whether SCOREP_MEMORY_RECORDING (HEAP), SCOREP_MPI_MEMORY_RECORDING (MPI) or
 * SCOREP_SHMEM_MEMORY_RECORDING (SHMEM) asks for recording and the measurement runs. Defines the metrics on first use. */
bool scorep_memory_recording(scorep_alloc_kind k);

/* Record an allocation, deallocation or reallocation on location l; called between the
 * enter and the leave of the call's region, so the metrics land on its call path. p NULL:
 * a failed allocation (nothing recorded). */
void scorep_memory_alloc(scorep_location *l, scorep_alloc_kind k, void *p, uint64_t size);
/* Returns the size of the released block (0: not tracked), Score-P's DEALLOCATION_SIZE. */
uint64_t scorep_memory_free(scorep_location *l, scorep_alloc_kind k, void *p);
/* realloc(old, size) returned p (NULL with size 0: old was freed; NULL otherwise: failed,
 * old stays). Returns the old block's size (0: not tracked or failed). */
uint64_t scorep_memory_realloc(scorep_location *l, scorep_alloc_kind k, void *old, void *p,
                               uint64_t size);

/* At start: SCOREP_MEMORY_RECORDING=true in a program without libscorep-rt-memory (built
 * with --nomemory) gets a message saying so. */
void scorep_memory_check_adapter(void);

/* Process-wide numbers (tests, bench, verbose message). */
uint64_t scorep_memory_in_use(scorep_alloc_kind k);

#endif
