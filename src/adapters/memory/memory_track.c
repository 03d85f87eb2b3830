/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_track.c: the bookkeeping behind memory recording (memory_track.h): the address
 * table, the process totals, the Cube metrics per call path, the trace counter, and the
 * leak report at finalize. Names and semantics follow Score-P's memory adapter
 * (SCOREP_AllocMetric and the profiling substrate's track_alloc/track_free/leaked_memory). */
#include "adapters/memory/memory_track.h"
#include "adapters/memory/memory_map.h"
#include "base/arch.h"
#include "core/events.h"
#include "runtime/runtime.h"
#include "defs/defs.h"

#include <dlfcn.h>

__thread int scorep_memory_guard __attribute__((tls_model("initial-exec")));

typedef struct {
    scorep_alloc_map map;
    uint32_t counter; /* trace metric "Process memory usage[ (MPI)| (SHMEM)]" */
    /* written by every call: its own cache line, apart from what every call reads */
    uint64_t in_use __attribute__((aligned(64)));
} __attribute__((aligned(64))) tracker;

static tracker trackers[SCOREP_ALLOC_KINDS];
static uint64_t process_peak;
static uint32_t m_alloc, m_dealloc, m_leaked, m_max;
static int setup_state; /* 0 not yet, 1 running, 2 done, 3 off */

static uint32_t metric(const char *name, const char *descr, uint32_t mode, uint32_t recorder,
                       scorep_metric_type type)
{
    scorep_metric_def d = {.name = name,
                           .unit = "bytes",
                           .type = type,
                           .per_callpath = true,
                           .description = descr,
                           .source = SCOREP_MSRC_OTHER,
                           .mode = mode,
                           .base = 1,
                           .exponent = 0,
                           .recorder = recorder};
    return scorep_defs_metric_full(&d);
}

/* l NULL: a release that is not recorded (memory_wrappers.h, scorep_mem_forget) */
static inline bool recording(scorep_location *l)
{
    return l && scorep_location_recording(l);
}

/* Score-P's metric modes: 4 ABSOLUTE_POINT, 6 ABSOLUTE_NEXT */
static void define_all(void)
{
    m_alloc = metric("ALLOCATION_SIZE", "Size of allocated heap memory", 4, SCOREP_MREC_USER,
                     SCOREP_METRIC_UINT64);
    m_dealloc = metric("DEALLOCATION_SIZE", "Size of released heap memory", 4, SCOREP_MREC_USER,
                       SCOREP_METRIC_UINT64);
    m_leaked = metric("bytes_leaked", "Size of allocated heap memory that was not released", 4,
                      SCOREP_MREC_USER, SCOREP_METRIC_UINT64);
    m_max = metric("maximum_heap_memory_allocated",
                   "Maximum amount of heap memory allocated at a time", 4, SCOREP_MREC_MAX,
                   SCOREP_METRIC_DOUBLE);
    trackers[SCOREP_ALLOC_HEAP].counter =
        metric("Process memory usage", "Process memory usage", 6, SCOREP_MREC_ASYNC,
               SCOREP_METRIC_UINT64);
    trackers[SCOREP_ALLOC_MPI].counter =
        metric("Process memory usage (MPI)", "Process memory usage (MPI)", 6, SCOREP_MREC_ASYNC,
               SCOREP_METRIC_UINT64);
    trackers[SCOREP_ALLOC_SHMEM].counter =
        metric("Process memory usage (SHMEM)", "Process memory usage (SHMEM)", 6,
               SCOREP_MREC_ASYNC, SCOREP_METRIC_UINT64);
}

/* Once per process, by the first thread that records; the others wait (a few definitions). */
static bool setup(void)
{
    int s = __atomic_load_n(&setup_state, __ATOMIC_ACQUIRE);
    if (__builtin_expect(s == 2, 1))
        return true;
    if (s == 3)
        return false;
    int expected = 0;
    if (__atomic_compare_exchange_n(&setup_state, &expected, 1, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
        scorep_memory_guard++;
        define_all();
        bool ok = m_alloc != SCOREP_INVALID_ID && m_dealloc != SCOREP_INVALID_ID &&
                  m_leaked != SCOREP_INVALID_ID && m_max != SCOREP_INVALID_ID &&
                  trackers[SCOREP_ALLOC_HEAP].counter != SCOREP_INVALID_ID &&
                  trackers[SCOREP_ALLOC_MPI].counter != SCOREP_INVALID_ID &&
                  trackers[SCOREP_ALLOC_SHMEM].counter != SCOREP_INVALID_ID;
        if (!ok)
            scorep_warn("memory recording: out of memory for its definitions; it is off");
        scorep_memory_guard--;
        __atomic_store_n(&setup_state, ok ? 2 : 3, __ATOMIC_RELEASE);
        return ok;
    }
    while ((s = __atomic_load_n(&setup_state, __ATOMIC_ACQUIRE)) == 1)
        scorep_cpu_relax();
    return s == 2;
}

bool scorep_memory_recording(scorep_alloc_kind k)
{
    if (!scorep_measurement_on())
        return false;
    bool on = k == SCOREP_ALLOC_HEAP  ? scorep_cfg.memory_recording
              : k == SCOREP_ALLOC_MPI ? scorep_cfg.mpi_memory_recording
                                      : scorep_cfg.shmem_memory_recording;
    return on && setup();
}

uint64_t scorep_memory_in_use(scorep_alloc_kind k)
{
    return __atomic_load_n(&trackers[k].in_use, __ATOMIC_RELAXED);
}

/* The node's value of a metric kept as a maximum: the profile stores sums, so add what
 * lifts the sum to the new maximum. */
static void profile_max(scorep_profile *p, uint32_t id, double v)
{
    const pmetric *m = p->cur->metrics;
    while (m && m->metric != id)
        m = m->next;
    double now = m ? m->sum : 0;
    if (!m || v > now)
        scorep_profile_metric(p, id, v - now);
}

/* The counter's timestamp is the tick after the location's last event (the call's enter):
 * no clock read, whose cost (a trapped rdtsc on some virtual machines) dominates here. */
static void counter(scorep_location *l, tracker *t, uint64_t value)
{
    if (l->tracing)
        scorep_buffer_event(&l->buffer, BUF_CLASS_PARAM, scorep_location_now(l, l->last_ts),
                            BUF_EV_METRIC, t->counter, value);
}

/* bytes in use after a call: of its kind and of the process (all kinds) */
typedef struct {
    uint64_t kind, process;
} in_use_now;

/* The totals change with every tracked block, recorded or not; the metrics only while l
 * records. */
static in_use_now add_in_use(scorep_location *l, tracker *t, uint64_t add, uint64_t sub)
{
    /* one atomic update per call: the process total is the sum of the kinds (the others
     * read as they are; MPI_Alloc_mem and symmetric heap allocations are rare) */
    uint64_t mine = __atomic_add_fetch(&t->in_use, add - sub, __ATOMIC_RELAXED);
    uint64_t all = mine;
    for (int k = 0; k < SCOREP_ALLOC_KINDS; k++)
        if (&trackers[k] != t)
            all += __atomic_load_n(&trackers[k].in_use, __ATOMIC_RELAXED);
    if (add) {
        uint64_t peak = __atomic_load_n(&process_peak, __ATOMIC_RELAXED);
        while (all > peak && !__atomic_compare_exchange_n(&process_peak, &peak, all, true,
                                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
    }
    if (recording(l)) {
        if (add && l->profiling)
            profile_max(&l->profile, m_max, (double)all);
        counter(l, t, mine);
    }
    return (in_use_now){mine, all};
}

/* Substrate plugins' TRACK_* events: only while l records, stamped one tick after l's last
 * event (no clock read, as the trace counter). */
static inline bool to_plugins(scorep_location *l)
{
    return __builtin_expect(l && l->substrates_on, 0) && recording(l);
}

static void remember(scorep_location *l, tracker *t, void *p, uint64_t size)
{
    bool prof = recording(l) && l->profiling;
    scorep_alloc_rec r = {.addr = (uintptr_t)p,
                          .size = size,
                          .node = prof ? l->profile.cur : NULL,
                          .loc = prof ? l : NULL};
    scorep_alloc_map_put(&t->map, &r);
}

void scorep_memory_alloc(scorep_location *l, scorep_alloc_kind k, void *p, uint64_t size)
{
    SCOREP_LOCATION_EVENT(l); /* l NULL: none */
    if (!p || !recording(l))
        return;
    tracker *t = &trackers[k];
    remember(l, t, p, size);
    if (l->profiling)
        scorep_profile_metric(&l->profile, m_alloc, (double)size);
    in_use_now u = add_in_use(l, t, size, 0);
    if (to_plugins(l))
        scorep_substrates_track_alloc(l, scorep_location_now(l, l->last_ts), (uintptr_t)p, size,
                                      u.kind, u.process);
}

uint64_t scorep_memory_free(scorep_location *l, scorep_alloc_kind k, void *p)
{
    SCOREP_LOCATION_EVENT(l); /* l NULL: none */
    tracker *t = &trackers[k];
    scorep_alloc_rec r;
    /* freed while recording was off or by a thread without location: still forgotten */
    if (!p || !scorep_alloc_map_take(&t->map, (uintptr_t)p, &r))
        return 0;
    if (recording(l) && l->profiling)
        scorep_profile_metric(&l->profile, m_dealloc, (double)r.size);
    in_use_now u = add_in_use(l, t, 0, r.size);
    if (to_plugins(l))
        scorep_substrates_track_free(l, scorep_location_now(l, l->last_ts), (uintptr_t)p, r.size,
                                     u.kind, u.process);
    return r.size;
}

/* Score-P's events of a realloc: of a block not tracked (realloc(NULL, n), or allocated
 * while recording was off) an alloc, to size 0 a free, else a realloc whose totals, when
 * the block moved, count both blocks (after the new one is added, before the old one is
 * released: Score-P's SCOREP_AllocMetric_HandleRealloc). */
static void track_realloc(scorep_location *l, void *old, uint64_t old_size, void *p,
                          uint64_t size, in_use_now u)
{
    if (!old && !p)
        return; /* realloc(untracked, 0): nothing tracked, nothing released */
    uint64_t t = scorep_location_now(l, l->last_ts);
    if (!old)
        scorep_substrates_track_alloc(l, t, (uintptr_t)p, size, u.kind, u.process);
    else if (!p)
        scorep_substrates_track_free(l, t, (uintptr_t)old, old_size, u.kind, u.process);
    else {
        uint64_t both = p != old ? old_size : 0;
        scorep_substrates_track_realloc(l, t, (uintptr_t)old, old_size, (uintptr_t)p, size,
                                        u.kind + both, u.process + both);
    }
}

uint64_t scorep_memory_realloc(scorep_location *l, scorep_alloc_kind k, void *old, void *p,
                               uint64_t size)
{
    SCOREP_LOCATION_EVENT(l); /* l NULL: none */
    tracker *t = &trackers[k];
    if (!p && size != 0)
        return 0; /* failed: the old block is untouched */
    scorep_alloc_rec r = {0};
    bool known = old && scorep_alloc_map_take(&t->map, (uintptr_t)old, &r);
    bool rec = recording(l);
    if (!rec && !known)
        return 0; /* a block allocated while recording was off stays untracked */
    if (known && rec && l->profiling)
        scorep_profile_metric(&l->profile, m_dealloc, (double)r.size);
    if (p) {
        remember(l, t, p, size);
        if (rec && l->profiling)
            scorep_profile_metric(&l->profile, m_alloc, (double)size);
    }
    in_use_now u = add_in_use(l, t, p ? size : 0, r.size);
    if (to_plugins(l))
        track_realloc(l, known ? old : NULL, r.size, p, size, u);
    return r.size;
}

void scorep_memory_check_adapter(void)
{
    if (scorep_cfg.memory_recording && !dlsym(RTLD_DEFAULT, "scorep_memory_adapter_present"))
        scorep_warn("SCOREP_MEMORY_RECORDING is set, but the program has no memory adapter "
                    "(libscorep-rt-memory): nothing is recorded. Build it with scorep-cc "
                    "without --nomemory, or run it with scorep-run");
}

/* ------------------------------------------------------------ finalize */
typedef struct {
    uint64_t blocks, bytes;
} leak_sum;

static void leaked(const scorep_alloc_rec *r, void *arg)
{
    leak_sum *s = arg;
    s->blocks++;
    s->bytes += r->size;
    if (!r->node || !r->loc || !r->loc->profiling)
        return;
    scorep_profile *p = &r->loc->profile;
    pnode *cur = p->cur;
    p->cur = r->node;
    scorep_profile_metric(p, m_leaked, (double)r->size);
    p->cur = cur;
}

/* The subsystem's end phase: first in finalize, before the profiles are closed, every
 * block still in a table is a leak of the call path that allocated it. Threads that still
 * run are not stopped: a block they free meanwhile may be counted as leaked. */
static void report_leaks(void)
{
    if (__atomic_load_n(&setup_state, __ATOMIC_ACQUIRE) != 2)
        return; /* nothing was recorded */
    scorep_memory_guard++;
    leak_sum s = {0, 0};
    uint64_t lost = 0;
    for (int k = 0; k < SCOREP_ALLOC_KINDS; k++) {
        scorep_alloc_map_each(&trackers[k].map, leaked, &s);
        lost += trackers[k].map.lost;
    }
    if (lost)
        scorep_warn("memory recording: %llu allocations were not tracked (no memory for the "
                    "address table); their frees and leaks are missing",
                    (unsigned long long)lost);
    scorep_verbose("memory recording: %llu bytes in %llu blocks leaked; peak %llu bytes in use",
                   (unsigned long long)s.bytes, (unsigned long long)s.blocks,
                   (unsigned long long)process_peak);
    scorep_memory_guard--;
}

/* A service of libscorep-rt (core/subsystem.h): the adapter check at init, the leaks at
 * end. Registered from this file's constructor, before or after the runtime's init (the
 * runtime calls a late registration's init at once). */
static const scorep_subsystem memory_subsystem = {
    .name = "memory",
    .init = scorep_memory_check_adapter,
    .end = report_leaks,
};

__attribute__((constructor)) static void register_memory(void)
{
    if (scorep_runtime_register(&memory_subsystem) != 0)
        scorep_warn("memory recording: the runtime's subsystem table is full; leaks are "
                    "not reported");
}
