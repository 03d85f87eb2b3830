/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_adapter.h: state shared by the generated pshmem wrappers (shmem_wrappers.c) and the
 * hand-written event logic of the OpenSHMEM adapter: the per-call frame, the region table,
 * the RMA and collective hooks, the life cycle. */
#ifndef SCOREP_SHMEM_ADAPTER_H
#define SCOREP_SHMEM_ADAPTER_H

#include "core/events.h"
#include "core/events_mpi.h"
#include "defs/defs.h"

#include <shmem.h>
#include <stdint.h>

#define SCOREP_SHMEM_WRAPPER __attribute__((visibility("default")))
#define SCOREP_SHMEM_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Non-zero between shmem_init and shmem_finalize while the measurement runs. */
extern int scorep_shmem_active;
/* Non-zero while this thread is inside a wrapper: SHMEM calls made from there (by oshmem or
 * by the measurement itself) are not recorded. */
extern __thread int scorep_shmem_nesting __attribute__((tls_model("initial-exec")));
/* The window that stands for the symmetric heap of all PEs (defs id). */
extern uint32_t scorep_shmem_world_win;

/* One entry per wrapped function (generated from shmem_functions.spec). */
typedef struct {
    const char *name;
    scorep_role role;
} scorep_shmem_fn_info;
extern const scorep_shmem_fn_info scorep_shmem_fn_table[];
extern const uint32_t scorep_shmem_fn_count;
/* region id + 1 of each function, 0 until its first recorded call */
extern uint32_t scorep_shmem_region_ids[];
/* functions without a pshmem twin: the next definition (liboshmem's), looked up once */
extern void *scorep_shmem_next_cache[];

uint32_t scorep_shmem_region_define(uint32_t fn);
void *scorep_shmem_next_lookup(uint32_t fn);

static inline void *scorep_shmem_next(uint32_t fn)
{
    void *p = __atomic_load_n(&scorep_shmem_next_cache[fn], __ATOMIC_RELAXED);
    return __builtin_expect(p != NULL, 1) ? p : scorep_shmem_next_lookup(fn);
}

/* The state of one wrapped call; id: matching id of its RMA operation. */
typedef struct {
    scorep_location *l;
    uint32_t region;
    uint64_t id;
    uint64_t freed; /* a release's size for its Leave (shmem_memory.c; UINT64_MAX: none) */
} scorep_shmem_frame;

/* Whether SCOREP_SHMEM_MEMORY_RECORDING is on (shmem_memory.c) */
bool scorep_shmem_memory_on(void);

/* Starts a wrapped call: 0 means call pshmem only (before shmem_init, after
 * shmem_finalize, nested, no location, or no region). An allocation (alloc) records the
 * size asked for as its Enter's ALLOCATION_SIZE attribute, as Score-P does, when
 * SCOREP_SHMEM_MEMORY_RECORDING is on. */
static inline int scorep_shmem_begin_impl(scorep_shmem_frame *f, uint32_t fn, bool alloc,
                                          uint64_t size)
{
    if (SCOREP_SHMEM_UNLIKELY(!__atomic_load_n(&scorep_shmem_active, __ATOMIC_RELAXED) ||
                              scorep_shmem_nesting || !scorep_measurement_on()))
        return 0;
    scorep_location *l = scorep_location_get();
    if (SCOREP_SHMEM_UNLIKELY(l == NULL))
        return 0;
    uint32_t r = __atomic_load_n(&scorep_shmem_region_ids[fn], __ATOMIC_RELAXED);
    r = __builtin_expect(r != 0, 1) ? r - 1 : scorep_shmem_region_define(fn);
    if (SCOREP_SHMEM_UNLIKELY(r == SCOREP_INVALID_ID))
        return 0;
    scorep_shmem_nesting = 1;
    f->l = l;
    f->region = r;
    if (alloc && scorep_shmem_memory_on())
        scorep_event_attr(l, r, true, BUF_ATTR_ALLOCATION_SIZE, size);
    scorep_event_enter(l, r);
    return 1;
}

static inline int scorep_shmem_begin(scorep_shmem_frame *f, uint32_t fn)
{
    return scorep_shmem_begin_impl(f, fn, false, 0);
}

static inline int scorep_shmem_begin_alloc(scorep_shmem_frame *f, uint32_t fn, uint64_t size)
{
    return scorep_shmem_begin_impl(f, fn, true, size);
}

/* SCOREP_SHMEM_MEMORY_RECORDING (shmem_memory.c): an allocation of size bytes returned p
 * (NULL: failed); realloc(old, size) returned p; the release of p, before the call (its
 * size becomes the Leave's DEALLOCATION_SIZE attribute). */
void scorep_shmem_mem_alloc(scorep_shmem_frame *f, void *p, uint64_t size);
void scorep_shmem_mem_realloc(scorep_shmem_frame *f, void *old, void *p, uint64_t size);
void scorep_shmem_mem_free(scorep_shmem_frame *f, void *p);
void scorep_shmem_mem_freed(scorep_shmem_frame *f);

static inline void scorep_shmem_end(scorep_shmem_frame *f)
{
    scorep_event_leave(f->l, f->region);
    scorep_shmem_nesting = 0;
}

/* RMA operations on the symmetric heap (remote: the target PE). */
void scorep_shmem_put(scorep_shmem_frame *f, int pe, uint64_t bytes);
void scorep_shmem_get(scorep_shmem_frame *f, int pe, uint64_t bytes);
void scorep_shmem_put_nbi(scorep_shmem_frame *f, int pe, uint64_t bytes);
void scorep_shmem_get_nbi(scorep_shmem_frame *f, int pe, uint64_t bytes);
void scorep_shmem_atomic(scorep_shmem_frame *f, scorep_rma_atomic_type type, int pe, uint64_t sent,
                         uint64_t received);
/* blocking completion of the frame's operation */
void scorep_shmem_complete(scorep_shmem_frame *f);
/* non-blocking completion of every operation this thread issued with *_nbi since */
void scorep_shmem_quiet(scorep_shmem_frame *f);

/* The window of an active set (PEs start + i * 2^logstride, i < size), defined on first use
 * (every member computes the same key, so unification merges them); SCOREP_INVALID_ID
 * without memory or for sets beyond 2^20 PEs. */
uint32_t scorep_shmem_window(int start, int logstride, int size);

/* Collectives: on the window of an active set (start, 2^logstride, size), or of all PEs.
 * root: ordinal in the active set, or -1. */
void scorep_shmem_coll_begin(scorep_shmem_frame *f);
void scorep_shmem_coll_end(scorep_shmem_frame *f, scorep_collective_op op, int start, int logstride,
                           int size, int root, uint64_t sent, uint64_t received);
void scorep_shmem_coll_world_end(scorep_shmem_frame *f, scorep_collective_op op, uint64_t sent,
                                 uint64_t received);

/* Distributed locks (shmem_set_lock, shmem_test_lock, shmem_clear_lock), as Score-P's
 * SCOREP_Shmem_Lock.c: shmem_set_lock RmaAcquireLock (lock_acquired), a shmem_test_lock that
 * got the lock RmaRequestLock (lock_granted), one that did not RmaTryLock (lock_tried). */
void scorep_shmem_lock_acquired(scorep_shmem_frame *f, const volatile void *lock);
void scorep_shmem_lock_granted(scorep_shmem_frame *f, const volatile void *lock);
void scorep_shmem_lock_tried(scorep_shmem_frame *f, const volatile void *lock);
void scorep_shmem_lock_release(scorep_shmem_frame *f, const volatile void *lock);

/* shmem_wait, shmem_wait_until and typed variants: RmaWaitChange on the heap's window after
 * the Enter, before the wait (Score-P's place for it) */
void scorep_shmem_wait_change(scorep_shmem_frame *f);

/* Life cycle (generated shmem_init, shmem_init_thread, start_pes, shmem_finalize). */
int scorep_shmem_init_begin(scorep_shmem_frame *f, uint32_t fn);
void scorep_shmem_init_end(scorep_shmem_frame *f, int active, int ok);
void scorep_shmem_finalize_begin(void);

#endif
