/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_adapter.c: life cycle of the MPI adapter (the generated MPI_Init, MPI_Init_thread and
 * MPI_Finalize call in here), SCOREP_MPI_ENABLE_GROUPS, the lazily defined regions (one per
 * MPI function, named like it, paradigm MPI), and small helpers shared by the hooks. */
#include "adapters/mpi/mpi_adapter.h"
#include "adapters/mpi/mpi_comm.h"
#include "adapters/mpi/mpi_request.h"
#include "adapters/mpi/mpi_insitu.h"
#include "adapters/mpi/mpi_hooks.h"
#include "config/config.h"
#include "runtime/runtime.h"
#include "ipc/ipc_mpi.h"
#include "sampling/sampling.h"

#include <stdlib.h>

uint64_t scorep_mpi_enabled;
int scorep_mpi_thread_level = MPI_THREAD_SINGLE;
int scorep_mpi_time_local;

static uint64_t configured; /* groups from SCOREP_MPI_ENABLE_GROUPS, derived ones added */
static uint64_t message_counter;

static uint64_t add_derived(uint64_t g)
{
    static const struct {
        uint64_t a, b, derived;
    } pairs[] = {{SCOREP_MPI_G_CG, SCOREP_MPI_G_ERR, SCOREP_MPI_G_CG_ERR},
                 {SCOREP_MPI_G_CG, SCOREP_MPI_G_EXT, SCOREP_MPI_G_CG_EXT},
                 {SCOREP_MPI_G_CG, SCOREP_MPI_G_MISC, SCOREP_MPI_G_CG_MISC},
                 {SCOREP_MPI_G_IO, SCOREP_MPI_G_ERR, SCOREP_MPI_G_IO_ERR},
                 {SCOREP_MPI_G_IO, SCOREP_MPI_G_MISC, SCOREP_MPI_G_IO_MISC},
                 {SCOREP_MPI_G_RMA, SCOREP_MPI_G_ERR, SCOREP_MPI_G_RMA_ERR},
                 {SCOREP_MPI_G_RMA, SCOREP_MPI_G_EXT, SCOREP_MPI_G_RMA_EXT},
                 {SCOREP_MPI_G_RMA, SCOREP_MPI_G_MISC, SCOREP_MPI_G_RMA_MISC},
                 {SCOREP_MPI_G_TYPE, SCOREP_MPI_G_EXT, SCOREP_MPI_G_TYPE_EXT},
                 {SCOREP_MPI_G_TYPE, SCOREP_MPI_G_MISC, SCOREP_MPI_G_TYPE_MISC}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if ((g & pairs[i].a) && (g & pairs[i].b))
            g |= pairs[i].derived;
    if (g & (SCOREP_MPI_G_CG | SCOREP_MPI_G_COLL | SCOREP_MPI_G_EXT | SCOREP_MPI_G_IO |
             SCOREP_MPI_G_P2P | SCOREP_MPI_G_RMA))
        g |= SCOREP_MPI_G_REQUEST;
    return g;
}

int scorep_mpi_parse_groups(const char *value, uint64_t *bits, char *err, size_t errlen)
{
    uint64_t g = 0;
    if (scorep_cfg_parse_set(value, scorep_mpi_group_choices, &g, err, errlen) != 0)
        return -1;
    *bits = add_derived(g);
    return 0;
}

/* The core has parsed and checked SCOREP_MPI_ENABLE_GROUPS at start-up. */
static void read_groups(void)
{
    configured = add_derived(scorep_cfg.mpi_groups);
}

uint32_t scorep_mpi_region_define(uint32_t fn)
{
    const scorep_mpi_fn_info *i = &scorep_mpi_fn_table[fn];
    /* the definition (its strdup and malloc) is the runtime's work before the call's Enter:
     * until session 27 a sample there was main/__strdup/__libc_malloc below the program */
    int mark = scorep_sampling_runtime_begin(scorep_tls_location);
    /* as Score-P defines them (SCOREP_Mpi_Reg.c): source file "MPI", no lines. Scalasca takes
     * a region for MPI by that file name (pearl's Region.cpp, classify) */
    uint32_t id = scorep_defs_region(i->name, NULL, "MPI", 0, 0, SCOREP_PARADIGM_MPI, i->role);
    scorep_sampling_runtime_end(scorep_tls_location, mark);
    if (id != SCOREP_INVALID_ID)
        __atomic_store_n(&scorep_mpi_region_ids[fn], id + 1, __ATOMIC_RELAXED);
    return id;
}

int scorep_mpi_init_begin(scorep_mpi_frame *f, uint32_t fn)
{
    read_groups();
    f->record = 0;
    f->raw = 0;
    scorep_location *l = scorep_location_get(); /* starts the measurement if needed */
    if (!l || l->mpi_nesting || !scorep_measurement_on())
        return 0;
    l->mpi_nesting = 1;
    f->l = l;
    if (configured & SCOREP_MPI_G_ENV) {
        f->region = scorep_mpi_region(fn);
        f->record = f->region != SCOREP_INVALID_ID;
        if (f->record)
            scorep_event_enter(l, f->region);
    }
    return 1;
}

/* The measurement's own set-up after PMPI_Init (communicators, clock offsets, the system
 * tree's exchange) is the runtime's work inside MPI_Init: a sample there is the call's own
 * time, without the frames of the runtime's PMPI calls (sampling.h). */
void scorep_mpi_init_end(scorep_mpi_frame *f, int active, int ret, int provided)
{
    scorep_location *l = active ? f->l : NULL;
    int mark = scorep_sampling_runtime_begin(l);
    if (ret == MPI_SUCCESS) {
        scorep_mpi_thread_level = provided;
        scorep_mpi_time_local = scorep_cfg.mpi_time_local_calls;
        scorep_mpi_msgids = scorep_cfg.enable_tracing;
        scorep_mpi_types_init();
        scorep_mpi_after_init();
        scorep_mpi_request_init();
        scorep_mpi_comm_init();
        scorep_analysis_insitu_setup(); /* SCOREP_ENABLE_ANALYSIS: at MPI_Finalize */
        if (scorep_measurement_on())
            __atomic_store_n(&scorep_mpi_enabled, configured | SCOREP_MPI_ACTIVE, __ATOMIC_SEQ_CST);
    }
    scorep_sampling_runtime_end(l, mark);
    if (active)
        scorep_mpi_end(f);
}

/* MPI_Finalize as Score-P's wrapper records it (SCOREP_Mpi_Env.c): Enter, a barrier on
 * MPI_COMM_WORLD, Leave. The barrier holds every rank in the call until the last one has
 * come, so the call's time is Scalasca's Wait at Finalize, and its Leave is where the critical
 * path starts. The measurement ends after the Leave (results are written here, before
 * PMPI_Finalize; Score-P defers PMPI_Finalize to exit instead). A nested call, a call with the
 * env group off or outside the measurement records nothing and still ends the measurement. */
void scorep_mpi_finalize_begin(uint32_t fn)
{
    uint64_t en = __atomic_load_n(&scorep_mpi_enabled, __ATOMIC_RELAXED);
    scorep_mpi_frame f = {0};
    int active = (en & SCOREP_MPI_ACTIVE) && scorep_mpi_begin(&f, fn, (en & SCOREP_MPI_G_ENV) != 0);
    __atomic_store_n(&scorep_mpi_enabled, 0, __ATOMIC_SEQ_CST);
    if (active) {
        PMPI_Barrier(MPI_COMM_WORLD);
        scorep_mpi_end(&f);
    }
    /* the measurement's end: the runtime's work, no call of the program's (its
     * PMPI_Comm_dup before the samples stop would show as one below main) */
    scorep_location *l = scorep_tls_location;
    int mark = scorep_sampling_runtime_begin(l);
    scorep_mpi_before_finalize();
    scorep_mpi_comm_finalize();
    scorep_sampling_runtime_end(l, mark);
}

int scorep_mpi_begin(scorep_mpi_frame *f, uint32_t fn, int record)
{
    return scorep_mpi_begin_impl(f, fn, record, false, 0, false);
}

/* one reading of the timer: the post hook's (f->raw, scorep_mpi_now), or a new one. The
 * Leave inlined here and in scorep_mpi_leave (flatten: with two callers GCC would call one
 * out-of-line copy) */
__attribute__((flatten)) void scorep_mpi_end(scorep_mpi_frame *f)
{
    scorep_mpi_end_hot(f);
}

/* The uncommon start of a frameless call (nested, no location yet, region not yet defined,
 * measurement off): whether it is recorded, with the location and the region. */
static int frameless_target(uint32_t fn, scorep_location **l, uint32_t *region)
{
    if (!scorep_measurement_on())
        return 0;
    *l = scorep_location_get();
    if (*l == NULL || (*l)->mpi_nesting)
        return 0;
    *region = scorep_mpi_region(fn);
    return *region != SCOREP_INVALID_ID;
}

static __attribute__((noinline)) int enter_slow(uint32_t fn)
{
    scorep_location *l;
    uint32_t region;
    if (!frameless_target(fn, &l, &region))
        return 0;
    l->mpi_nesting = 1;
    scorep_event_enter(l, region);
    return 1;
}

/* The common case tests the nesting flag, the location and the region at once; the
 * measurement state is the Enter's to test (a call entered while the measurement is off
 * leaves unrecorded as well, events.h). */
int scorep_mpi_enter(uint32_t fn)
{
    scorep_location *l = scorep_tls_location;
    uint32_t r = __atomic_load_n(&scorep_mpi_region_ids[fn], __ATOMIC_RELAXED);
    if (SCOREP_MPI_UNLIKELY((l == NULL) | (r == 0)) || SCOREP_MPI_UNLIKELY(l->mpi_nesting))
        return enter_slow(fn);
    l->mpi_nesting = 1;
    scorep_event_enter(l, r - 1);
    return 1;
}

/* After scorep_mpi_enter returned 1 on this thread: its location is set (a thread's is never
 * cleared, location.c) and the region defined. */
__attribute__((flatten)) void scorep_mpi_leave(uint32_t fn)
{
    scorep_location *l = scorep_tls_location;
    scorep_event_leave(l, __atomic_load_n(&scorep_mpi_region_ids[fn], __ATOMIC_RELAXED) - 1);
    l->mpi_nesting = 0;
}

/* Enter with a timer reading and Leave one tick later: one reading for the two events */
static inline __attribute__((always_inline)) void stamp(scorep_location *l, uint32_t region)
{
    scorep_event_stamped(l, region);
}

static __attribute__((noinline)) int stamp_slow(uint32_t fn)
{
    if (scorep_mpi_time_local)
        return scorep_mpi_enter(fn);
    scorep_location *l;
    uint32_t region;
    if (frameless_target(fn, &l, &region))
        stamp(l, region);
    return 0;
}

/* every case of scorep_mpi_stamp but the common ones of profiling, tracing or both: out of
 * line, reached by a tail call, so that the common cases save and restore no registers for
 * the calls of the others (a new page or profile node, metric sources, ...) */
static __attribute__((noinline)) int stamp_general(scorep_location *l, uint32_t region)
{
    stamp(l, region);
    return 0;
}

int scorep_mpi_stamp(uint32_t fn)
{
    scorep_location *l = scorep_tls_location;
    uint32_t r = __atomic_load_n(&scorep_mpi_region_ids[fn], __ATOMIC_RELAXED);
    /* one branch per test: or'ed with setcc, the four cost two instructions more */
    if (SCOREP_MPI_UNLIKELY(l == NULL) || SCOREP_MPI_UNLIKELY(r == 0) ||
        SCOREP_MPI_UNLIKELY(scorep_mpi_time_local) || SCOREP_MPI_UNLIKELY(l->mpi_nesting))
        return stamp_slow(fn);
    if (scorep_event_stamped_fast(l, r - 1, scorep_location_events_fast(l)))
        return 0;
    return stamp_general(l, r - 1);
}

int scorep_mpi_received_error(int ret)
{
    int cls = MPI_SUCCESS;
    return PMPI_Error_class(ret, &cls) == MPI_SUCCESS && cls == MPI_ERR_TRUNCATE;
}

uint64_t scorep_mpi_next_message_handle(void)
{
    return __atomic_add_fetch(&message_counter, 1, __ATOMIC_RELAXED);
}

/* MPI_Abort ends the job without MPI_Finalize: this rank keeps its data rank-locally
 * (the runtime's rescue; the call's Enter is recorded and stays open, as the crash's
 * call path does), then PMPI_Abort ends it as it would. */
void scorep_mpi_pre_abort(scorep_mpi_frame *f, int errorcode)
{
    (void)f;
    scorep_runtime_rescue_abort(errorcode);
}
