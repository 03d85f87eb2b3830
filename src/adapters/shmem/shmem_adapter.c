/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_adapter.c: life cycle of the OpenSHMEM adapter (the generated shmem_init,
 * shmem_init_thread, start_pes and shmem_finalize call in here), the lazily defined regions
 * (one per function, named like it, paradigm SHMEM) and the functions without pshmem twin. */
#include "adapters/shmem/shmem_adapter.h"
#include "core/clock_sync.h"
#include "runtime/runtime.h"
#include "ipc/ipc.h"
#include "ipc/ipc_shmem.h"

#include <dlfcn.h>
#include <pshmem.h>

/* Its presence tells the core (dlsym) that the experiment directory is created once the
 * processes can talk to each other (as for MPI). */
__attribute__((visibility("default"))) const int scorep_shmem_adapter_present = 1;

int scorep_shmem_active;
__thread int scorep_shmem_nesting __attribute__((tls_model("initial-exec")));
uint32_t scorep_shmem_world_win = SCOREP_INVALID_ID;

static int own_ipc; /* the SHMEM ipc backend is ours to stop at shmem_finalize */

uint32_t scorep_shmem_region_define(uint32_t fn)
{
    const scorep_shmem_fn_info *i = &scorep_shmem_fn_table[fn];
    uint32_t id = scorep_defs_region(i->name, NULL, NULL, 0, 0, SCOREP_PARADIGM_SHMEM, i->role);
    if (id != SCOREP_INVALID_ID)
        __atomic_store_n(&scorep_shmem_region_ids[fn], id + 1, __ATOMIC_RELAXED);
    return id;
}

void *scorep_shmem_next_lookup(uint32_t fn)
{
    const char *name = scorep_shmem_fn_table[fn].name;
    void *p = dlsym(RTLD_NEXT, name);
    if (!p)
        scorep_fatal("%s: no definition after libscorep-rt-shmem (is liboshmem loaded?)", name);
    __atomic_store_n(&scorep_shmem_next_cache[fn], p, __ATOMIC_RELAXED);
    return p;
}

int scorep_shmem_init_begin(scorep_shmem_frame *f, uint32_t fn)
{
    if (scorep_shmem_nesting)
        return 0;
    scorep_location *l = scorep_location_get(); /* starts the measurement if needed */
    if (!l || !scorep_measurement_on())
        return 0;
    uint32_t r = scorep_shmem_region_define(fn);
    if (r == SCOREP_INVALID_ID)
        return 0;
    scorep_shmem_nesting = 1;
    f->l = l;
    f->region = r;
    scorep_event_enter(l, r);
    return 1;
}

/* A program with the MPI adapter loaded measures over MPI: its MPI_Init installs the MPI
 * backend, shmem_finalize (or MPI_Finalize, whichever comes first) writes the results. */
static int mpi_adapter_loaded(void)
{
    return dlsym(RTLD_DEFAULT, "scorep_mpi_adapter_present") != NULL;
}

void scorep_shmem_init_end(scorep_shmem_frame *f, int active, int ok)
{
    if (ok && !__atomic_load_n(&scorep_shmem_active, __ATOMIC_RELAXED) && scorep_measurement_on()) {
        if (!mpi_adapter_loaded() && scorep_ipc_get() == &scorep_ipc_single) {
            own_ipc = scorep_shmem_ipc_start() == 0;
            if (own_ipc) {
                scorep_runtime_mpi_ready(false);
                scorep_clock_sync();
            }
        }
        scorep_shmem_world_win = scorep_shmem_window(0, 0, pshmem_n_pes());
        if (active && scorep_shmem_world_win != SCOREP_INVALID_ID)
            scorep_event_rma_win_create(f->l, scorep_shmem_world_win);
        if (scorep_measurement_on())
            __atomic_store_n(&scorep_shmem_active, 1, __ATOMIC_SEQ_CST);
    }
    if (active)
        scorep_shmem_end(f);
}

void scorep_shmem_finalize_begin(void)
{
    /* shmem_finalize itself is not recorded: the results are written inside it */
    if (!__atomic_exchange_n(&scorep_shmem_active, 0, __ATOMIC_SEQ_CST))
        return;
    scorep_location *l = scorep_location_get();
    if (l && scorep_measurement_on()) {
        scorep_shmem_frame f = {l, SCOREP_INVALID_ID, 0, 0};
        scorep_shmem_quiet(&f); /* shmem_finalize completes what is outstanding */
        if (scorep_shmem_world_win != SCOREP_INVALID_ID)
            scorep_event_rma_win_destroy(l, scorep_shmem_world_win);
    }
    if (!own_ipc && scorep_ipc_get() == &scorep_ipc_single)
        return;
    /* Over MPI as well: Open MPI 4.1's shmem_finalize finalizes MPI without MPI_Finalize
     * (a program calling both crashes), so the results are written here, while the MPI
     * backend still works; a later MPI_Finalize finds the measurement ended. */
    scorep_clock_sync();
    scorep_runtime_finalize_mpi();
    if (own_ipc)
        scorep_shmem_ipc_stop();
    own_ipc = 0;
}
