/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_constructs.c: OMPT callbacks of worksharing, masked and mutual exclusion: regions for
 * loops, sections, single, workshare, masked, critical, ordered, flush and the lock API (its
 * initialisation and destruction too), and
 * ThreadAcquireLock/ThreadReleaseLock with per-lock acquisition order. End callbacks leave
 * the innermost region the begin entered: their code pointers differ from the begin's. */
#include "adapters/omp/omp_adapter.h"

/* ----------------------------------------------------------------- worksharing */
static int work_kind(ompt_work_t type, omp_region_kind *kind)
{
    switch ((int)type) {
    case ompt_work_loop:
    case 10: /* OpenMP 5.2: loop_static, loop_dynamic, loop_guided, loop_other */
    case 11:
    case 12:
    case 13:
        *kind = OMP_R_FOR;
        return 1;
    case ompt_work_sections:
        *kind = OMP_R_SECTIONS;
        return 1;
    case ompt_work_single_executor:
    case ompt_work_single_other:
        *kind = OMP_R_SINGLE;
        return 1;
    case ompt_work_workshare:
        *kind = OMP_R_WORKSHARE;
        return 1;
    case ompt_work_distribute:
        *kind = OMP_R_DISTRIBUTE;
        return 1;
    case ompt_work_taskloop:
        *kind = OMP_R_TASKLOOP;
        return 1;
    case ompt_work_scope:
        *kind = OMP_R_SCOPE;
        return 1;
    default:
        return 0;
    }
}

void omp_cb_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                 ompt_data_t *task_data, uint64_t count, const void *codeptr)
{
    (void)parallel_data;
    (void)task_data;
    (void)count;
    omp_region_kind kind;
    omp_thread *t = omp_thread_get();
    if (!t || !work_kind(type, &kind))
        return;
    uint64_t raw = scorep_timer_ticks();
    if (endpoint == ompt_scope_begin) {
        omp_end_open_single(t, raw);
        omp_enter(t, omp_region(kind, codeptr), TAG_NONE, raw);
        if (type == ompt_work_single_executor) /* the executing thread runs the block */
            omp_enter(t, omp_region(OMP_R_SINGLE_SBLOCK, codeptr), TAG_SINGLE_EXECUTOR, raw);
        return;
    }
    if (type == ompt_work_sections && omp_top_tag(t) == TAG_SECTION)
        omp_leave(t, raw); /* the last section */
    if (type == ompt_work_single_executor)
        omp_end_open_single(t, raw);
    else
        omp_leave(t, raw);
}

/* Runtimes that report dispatches (not LLVM 14) start each section with one; the previous
 * section ends there. */
void omp_cb_dispatch(ompt_data_t *parallel_data, ompt_data_t *task_data, ompt_dispatch_t kind,
                     ompt_data_t instance)
{
    (void)parallel_data;
    (void)task_data;
    omp_thread *t = kind == ompt_dispatch_section ? omp_thread_get() : NULL;
    if (!t)
        return;
    uint64_t raw = scorep_timer_ticks();
    if (omp_top_tag(t) == TAG_SECTION)
        omp_leave(t, raw);
    omp_enter(t, omp_region(OMP_R_SECTION, instance.ptr), TAG_SECTION, raw);
}

void omp_cb_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                   ompt_data_t *task_data, const void *codeptr)
{
    (void)parallel_data;
    (void)task_data;
    omp_thread *t = omp_thread_get();
    if (!t)
        return;
    uint64_t raw = scorep_timer_ticks();
    if (endpoint == ompt_scope_begin) {
        omp_end_open_single(t, raw);
        omp_enter(t, omp_region(OMP_R_MASKED, codeptr), TAG_NONE, raw);
    } else {
        omp_leave(t, raw);
    }
}

/* -------------------------------------------------------------------- mutexes */
/* The code pointer of a critical or ordered construct; when the runtime passes none usable,
 * the one last seen with the same mutex. */
static const void *mutex_codeptr(ompt_wait_id_t wait_id, const void *codeptr)
{
    omp_lock *lk = omp_lock_of(wait_id);
    codeptr = omp_user_codeptr(codeptr);
    if (lk && codeptr)
        __atomic_store_n(&lk->codeptr, codeptr, __ATOMIC_RELAXED);
    else if (lk)
        codeptr = __atomic_load_n(&lk->codeptr, __ATOMIC_RELAXED);
    return codeptr;
}

/* Critical and ordered: the construct region spans waiting and body, the sblock region the
 * body. Lock routines: the region (omp_set_lock, omp_test_lock, the nest ones) spans the
 * wait, from the acquire callback to the acquisition, and is entered only once the lock is
 * acquired, at the acquire callback's time (nothing is recorded between the two on this
 * thread; libgomp's wrappers, which know omp_set_lock from a test, enter its region at its
 * start instead, omp_lock_set_begin, so that samples taken while it waits fall in it): a test that does not get the lock has no end callback and records nothing, as
 * in Score-P's OMPT adapter, so the profile's visits of a lock routine are its acquisitions,
 * which scorep-score's estimate needs. LLVM's libomp before 18 reports omp_test_lock and
 * omp_test_nest_lock with the kinds of omp_set_lock and omp_set_nest_lock (Score-P's
 * configure test SCOREP_OMPT_WRONG_TEST_LOCK_MUTEX): their successful tests are recorded as
 * those (the same records), their failed ones as nothing, where an enter at the acquire
 * callback left a region open per failed test. omp_unset_lock marks the release; atomics
 * are not recorded. */
void omp_cb_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                          ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)hint;
    (void)impl;
    omp_thread *t = omp_thread_get();
    if (!t)
        return;
    uint64_t raw = scorep_timer_ticks();
    switch ((int)kind) {
    case ompt_mutex_critical:
        omp_enter(t, omp_region(OMP_R_CRITICAL, mutex_codeptr(wait_id, codeptr)), TAG_NONE, raw);
        break;
    case ompt_mutex_ordered:
        omp_enter(t, omp_region(OMP_R_ORDERED, mutex_codeptr(wait_id, codeptr)), TAG_NONE, raw);
        break;
    case ompt_mutex_lock:
    case ompt_mutex_nest_lock:
    case ompt_mutex_test_lock:
    case ompt_mutex_test_nest_lock:
        t->lock_at = raw;
        t->lock_kind = (int)kind;
        t->lock_open = false;
        break;
    default:
        break;
    }
}

/* The region of a lock routine of kind `kind` (an ompt_mutex_t) */
static uint32_t lock_region(int kind)
{
    return omp_region(kind == ompt_mutex_lock        ? OMP_R_SET_LOCK
                      : kind == ompt_mutex_nest_lock ? OMP_R_SET_NEST_LOCK
                      : kind == ompt_mutex_test_lock ? OMP_R_TEST_LOCK
                                                     : OMP_R_TEST_NEST_LOCK,
                      NULL);
}

void omp_lock_set_begin(ompt_mutex_t kind)
{
    omp_thread *t = omp_thread_get();
    if (!t)
        return;
    omp_enter(t, lock_region((int)kind), TAG_NONE, scorep_timer_ticks());
    t->lock_at = 0;
    t->lock_open = true;
}

/* The acquisition of the lock of wait_id, at raw or, if the previous holder's release
 * carries that time or a later one (the threads' clocks may disagree by a few ticks), right
 * after it: acquisitions follow the releases they waited for in the trace, as in the
 * program. Returns the acquisition's time. */
static uint64_t acquired(omp_thread *t, ompt_wait_id_t wait_id, uint64_t raw)
{
    omp_lock *lk = omp_lock_of(wait_id);
    if (!lk)
        return raw;
    /* numbered from 1, as Score-P does (Scalasca's lock tracking starts at 1) */
    uint32_t order = __atomic_fetch_add(&lk->acquired, 1, __ATOMIC_RELAXED) + 1;
    uint64_t released = __atomic_load_n(&lk->released, __ATOMIC_RELAXED);
    if (raw <= released)
        raw = released + 1;
    omp_held_push(t, lk, order);
    scorep_event_thread_lock(t->loc, BUF_EV_THREAD_ACQUIRE_LOCK, SCOREP_PARADIGM_OPENMP, lk->id,
                             order, raw);
    return raw;
}

static void released(omp_thread *t, ompt_wait_id_t wait_id, uint64_t raw)
{
    omp_lock *lk = omp_lock_of(wait_id);
    uint32_t order = lk ? omp_held_pop(t, lk) : UINT32_MAX;
    if (order == UINT32_MAX)
        return;
    scorep_event_thread_lock(t->loc, BUF_EV_THREAD_RELEASE_LOCK, SCOREP_PARADIGM_OPENMP, lk->id,
                             order, raw);
    /* the time the release was recorded at (the location may have moved it past raw) */
    uint64_t at = t->loc && t->loc->last_ts > raw ? t->loc->last_ts : raw;
    __atomic_store_n(&lk->released, at, __ATOMIC_RELAXED);
}

void omp_cb_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    omp_thread *t = kind == ompt_mutex_atomic ? NULL : omp_thread_get();
    if (!t)
        return;
    uint64_t now = scorep_timer_ticks();
    switch ((int)kind) {
    case ompt_mutex_lock:
    case ompt_mutex_nest_lock:
    case ompt_mutex_test_lock:
    case ompt_mutex_test_nest_lock: /* the call's region, entered when it began */
        if (!t->lock_open)
            omp_enter(t, lock_region((int)kind), TAG_NONE, t->lock_at ? t->lock_at : now);
        t->lock_at = 0;
        t->lock_open = false;
        omp_leave(t, acquired(t, wait_id, now));
        break;
    case ompt_mutex_critical:
        omp_enter(t, omp_region(OMP_R_CRITICAL_SBLOCK, mutex_codeptr(wait_id, codeptr)), TAG_NONE,
                  acquired(t, wait_id, now));
        break;
    case ompt_mutex_ordered:
        omp_enter(t, omp_region(OMP_R_ORDERED_SBLOCK, mutex_codeptr(wait_id, codeptr)), TAG_NONE,
                  acquired(t, wait_id, now));
        break;
    default:
        acquired(t, wait_id, now);
        break;
    }
}

void omp_cb_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)codeptr;
    omp_thread *t = kind == ompt_mutex_atomic ? NULL : omp_thread_get();
    if (!t)
        return;
    uint64_t raw = scorep_timer_ticks();
    switch ((int)kind) {
    case ompt_mutex_critical:
    case ompt_mutex_ordered:
        omp_leave(t, raw); /* sblock */
        released(t, wait_id, raw);
        omp_leave(t, raw);
        break;
    case ompt_mutex_lock:
    case ompt_mutex_test_lock:
        omp_enter(t, omp_region(OMP_R_UNSET_LOCK, NULL), TAG_NONE, raw);
        released(t, wait_id, raw);
        omp_leave(t, raw);
        break;
    default: /* nest locks */
        omp_enter(t, omp_region(OMP_R_UNSET_NEST_LOCK, NULL), TAG_NONE, raw);
        released(t, wait_id, raw);
        omp_leave(t, raw);
        break;
    }
}

/* A nest lock its owner already holds: taken again (begin) or released but still held
 * (end); no acquisition or release of the lock itself. */
void omp_cb_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)wait_id;
    (void)codeptr;
    omp_thread *t = omp_thread_get();
    if (!t)
        return;
    uint64_t raw = scorep_timer_ticks();
    if (endpoint == ompt_scope_begin) { /* omp_set_nest_lock's region; none for a test */
        if (t->lock_open) {
            omp_leave(t, raw);
        } else if (t->lock_at && t->lock_kind == ompt_mutex_nest_lock) {
            omp_enter(t, lock_region(ompt_mutex_nest_lock), TAG_NONE, t->lock_at);
            omp_leave(t, raw);
        }
        t->lock_at = 0;
        t->lock_open = false;
        return;
    }
    omp_enter(t, omp_region(OMP_R_UNSET_NEST_LOCK, NULL), TAG_NONE, raw);
    omp_leave(t, raw);
}

/* A flush has no duration in OMPT (one callback): "!$omp flush" entered and left at one
 * timer reading, as Score-P's OMPT adapter records it (the leave gets the next tick, as any
 * two events of a location). gcc compiles a flush to a fence without a
 * runtime call, so only libomp's own entry point (__kmpc_flush) reports one. */
/* A construct's region without duration: entered and left at one timer reading */
static void instant_region(omp_region_kind kind, const void *codeptr)
{
    omp_thread *t = omp_thread_get();
    if (!t)
        return;
    uint64_t raw = scorep_timer_ticks();
    omp_enter(t, omp_region(kind, codeptr), TAG_NONE, raw);
    omp_leave(t, raw);
}

void omp_cb_flush(ompt_data_t *thread_data, const void *codeptr)
{
    (void)thread_data;
    instant_region(OMP_R_FLUSH, codeptr);
}

/* Initialising and destroying a lock: one OMPT callback each, no duration; the routine's
 * region entered and left at one timer reading, as flush (Score-P 8.4's
 * scorep_ompt_cb_host_lock_init and _lock_destroy do the same, with the lock API's WRAPPER
 * regions of file "OMP"). No lock event: nothing is acquired. A non-zero hint names the
 * region omp_init_lock_with_hint (omp_init_nest_lock_with_hint); omp_init_lock_with_hint
 * with omp_sync_hint_none is reported as omp_init_lock is, and recorded so, as Score-P does. */
static void lock_routine(omp_region_kind kind)
{
    instant_region(kind, NULL);
}

void omp_cb_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                      ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)impl;
    (void)wait_id;
    (void)codeptr;
    if (kind == ompt_mutex_lock)
        lock_routine(hint ? OMP_R_INIT_LOCK_WITH_HINT : OMP_R_INIT_LOCK);
    else if (kind == ompt_mutex_nest_lock)
        lock_routine(hint ? OMP_R_INIT_NEST_LOCK_WITH_HINT : OMP_R_INIT_NEST_LOCK);
}

void omp_cb_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
    (void)wait_id;
    (void)codeptr;
    if (kind == ompt_mutex_lock)
        lock_routine(OMP_R_DESTROY_LOCK);
    else if (kind == ompt_mutex_nest_lock)
        lock_routine(OMP_R_DESTROY_NEST_LOCK);
}
