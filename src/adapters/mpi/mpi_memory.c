/* mpi_memory.c: SCOREP_MPI_MEMORY_RECORDING: MPI_Alloc_mem and MPI_Free_mem as allocations
 * (src/adapters/memory/memory_track.h): their sizes on the call path, leaks, and the trace
 * counter "Process memory usage (MPI)". As in Score-P this needs the misc group in
 * SCOREP_MPI_ENABLE_GROUPS (the hooks run inside the recorded call), and a size of 0 is
 * not an allocation. */
#include "adapters/memory/memory_track.h"
#include "adapters/mpi/mpi_hooks.h"

void scorep_mpi_post_alloc_mem(scorep_mpi_frame *f, int ret, MPI_Aint size, void *baseptr)
{
    if (ret != MPI_SUCCESS || size <= 0 || !scorep_memory_recording(SCOREP_ALLOC_MPI))
        return;
    scorep_memory_alloc(f->l, SCOREP_ALLOC_MPI, *(void **)baseptr, (uint64_t)size);
}

/* before the call: once released, the address may be handed out again */
void scorep_mpi_pre_free_mem(scorep_mpi_frame *f, void *base)
{
    if (scorep_memory_recording(SCOREP_ALLOC_MPI))
        scorep_memory_free(f->l, SCOREP_ALLOC_MPI, base);
}
