/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_memory.c: SCOREP_SHMEM_MEMORY_RECORDING: the symmetric heap's allocations
 * (shmem_malloc, shmem_calloc, shmem_align, shmem_realloc, shmem_free and the old shmalloc,
 * shmemalign, shrealloc, shfree, shmemx_malloc_with_hint) as allocations of the memory
 * bookkeeping (src/adapters/memory/memory_track.h): their sizes on the call path, leaks,
 * the trace counter "Process memory usage (SHMEM)", and Score-P's attributes
 * (ALLOCATION_SIZE on an allocation's Enter, DEALLOCATION_SIZE on a release's Leave). As in
 * Score-P, an allocation of 0 bytes is none. The generated wrappers call these between
 * their Enter and Leave (gen-shmem-wrappers: mem_alloc, mem_realloc, mem_free). */
#include "adapters/memory/memory_track.h"
#include "adapters/shmem/shmem_adapter.h"
#include "base/settings.h"

bool scorep_shmem_memory_on(void)
{
    return scorep_cfg.shmem_memory_recording && scorep_memory_recording(SCOREP_ALLOC_SHMEM);
}

void scorep_shmem_mem_alloc(scorep_shmem_frame *f, void *p, uint64_t size)
{
    if (p && size > 0 && scorep_shmem_memory_on())
        scorep_memory_alloc(f->l, SCOREP_ALLOC_SHMEM, p, size);
}

/* Score-P's cases: like an allocation (old NULL), like a release (size 0: the old size
 * on the Leave), a resize (the old size on the Leave); a failed call changes nothing. */
void scorep_shmem_mem_realloc(scorep_shmem_frame *f, void *old, void *p, uint64_t size)
{
    if (!scorep_shmem_memory_on())
        return;
    if (!old) {
        scorep_shmem_mem_alloc(f, p, size);
        return;
    }
    if (!p && size != 0)
        return;
    uint64_t freed = scorep_memory_realloc(f->l, SCOREP_ALLOC_SHMEM, old, p, size);
    scorep_event_attr(f->l, f->region, false, BUF_ATTR_DEALLOCATION_SIZE, freed);
}

/* Before the call: forgotten before the address can be handed out again. The Leave's
 * attribute is recorded after the call (scorep_shmem_mem_freed), after whatever the call
 * recorded inside (a malloc of liboshmem's: its region events would take it). */
void scorep_shmem_mem_free(scorep_shmem_frame *f, void *p)
{
    f->freed = UINT64_MAX;
    if (scorep_shmem_memory_on())
        f->freed = scorep_memory_free(f->l, SCOREP_ALLOC_SHMEM, p);
}

void scorep_shmem_mem_freed(scorep_shmem_frame *f)
{
    if (f->freed != UINT64_MAX)
        scorep_event_attr(f->l, f->region, false, BUF_ATTR_DEALLOCATION_SIZE, f->freed);
}
