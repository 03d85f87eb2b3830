/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_memory.c: SCOREP_MPI_MEMORY_RECORDING: MPI_Alloc_mem and MPI_Free_mem as allocations
 * (src/adapters/memory/memory_track.h): their sizes on the call path, leaks, the trace
 * counter "Process memory usage (MPI)", and Score-P's attributes (ALLOCATION_SIZE on
 * MPI_Alloc_mem's Enter, mpi_adapter.h; DEALLOCATION_SIZE on MPI_Free_mem's Leave). As in
 * Score-P this needs the misc group in SCOREP_MPI_ENABLE_GROUPS (the hooks run inside the
 * recorded call), and a size of 0 is not an allocation. */
#include "adapters/memory/memory_track.h"
#include "adapters/mpi/mpi_hooks.h"
#include "base/settings.h"
#include "core/events.h"

void scorep_mpi_post_alloc_mem(scorep_mpi_frame *f, int ret, MPI_Aint size, void *baseptr)
{
    if (ret != MPI_SUCCESS || size <= 0 || !scorep_memory_recording(SCOREP_ALLOC_MPI))
        return;
    scorep_memory_alloc(f->l, SCOREP_ALLOC_MPI, *(void **)baseptr, (uint64_t)size);
}

bool scorep_mpi_memory_on(void)
{
    return scorep_cfg.mpi_memory_recording && scorep_memory_recording(SCOREP_ALLOC_MPI);
}

/* the released size, from before the call to after it (one MPI call at a time per thread:
 * the adapter's nesting guard); UINT64_MAX: none */
static __thread uint64_t freed = UINT64_MAX;

/* before the call: once released, the address may be handed out again */
void scorep_mpi_pre_free_mem(scorep_mpi_frame *f, void *base)
{
    freed = UINT64_MAX;
    if (scorep_memory_recording(SCOREP_ALLOC_MPI))
        freed = scorep_memory_free(f->l, SCOREP_ALLOC_MPI, base);
}

/* after it: the Leave's DEALLOCATION_SIZE (0: a block not tracked) */
void scorep_mpi_post_free_mem(scorep_mpi_frame *f, int ret)
{
    (void)ret;
    if (freed != UINT64_MAX && f->record)
        scorep_event_attr(f->l, f->region, false, BUF_ATTR_DEALLOCATION_SIZE, freed);
    freed = UINT64_MAX;
}
