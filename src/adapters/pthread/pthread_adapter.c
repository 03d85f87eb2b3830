/* SPDX-License-Identifier: BSD-3-Clause */
/* pthread_adapter.c: records thread creation, begin, end and join by interposing
 * pthread_create/pthread_join (pthread_exit ends through the cleanup handler) (works at link time
 * and under LD_PRELOAD). The calls are regions of paradigm pthread, as in Score-P. Mutexes and
 * condition variables: pthread_sync.c. */
#include "adapters/pthread/pthread_adapter.h"
#include "metrics/metrics.h"
#include "core/events.h"
#include "runtime/runtime.h"
#include "sampling/sampling.h"
#include "substrates/substrates_core.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
typedef int (*join_fn)(pthread_t, void **);

typedef struct {
    void *(*start)(void *);
    void *arg;
    uint32_t seq, parent;
} thread_start;

/* pthread_t -> sequence number, for ThreadWait at join (join is rare: a lock is fine) */
typedef struct seq_entry {
    struct seq_entry *next;
    pthread_t thread;
    uint32_t seq;
} seq_entry;

static pthread_mutex_t seq_lock = PTHREAD_MUTEX_INITIALIZER;
static seq_entry *seq_list;
static uint32_t next_seq = 1;

static void remember(pthread_t t, uint32_t seq)
{
    seq_entry *e = malloc(sizeof *e);
    if (!e)
        return;
    e->thread = t;
    e->seq = seq;
    pthread_mutex_lock(&seq_lock);
    e->next = seq_list;
    seq_list = e;
    pthread_mutex_unlock(&seq_lock);
}

static uint32_t forget(pthread_t t)
{
    uint32_t seq = 0;
    pthread_mutex_lock(&seq_lock);
    for (seq_entry **p = &seq_list; *p; p = &(*p)->next) {
        if (pthread_equal((*p)->thread, t)) {
            seq_entry *e = *p;
            seq = e->seq;
            *p = e->next;
            free(e);
            break;
        }
    }
    pthread_mutex_unlock(&seq_lock);
    return seq;
}

/* Score-P's regions: file "PTHREAD"; roles thread create / thread wait here, wrapper for the
 * mutex and condition calls (pthread_sync.c) */
uint32_t scorep_pthread_region(uint32_t *cache, const char *name, scorep_role role)
{
    uint32_t id = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (id == SCOREP_INVALID_ID) {
        id = scorep_defs_region(name, name, "PTHREAD", 0, 0, SCOREP_PARADIGM_PTHREAD, role);
        __atomic_store_n(cache, id, __ATOMIC_RELEASE);
    }
    return id;
}

static uint32_t create_region(void)
{
    static uint32_t id = SCOREP_INVALID_ID;
    return scorep_pthread_region(&id, "pthread_create", SCOREP_ROLE_THREAD_CREATE);
}

static uint32_t join_region(void)
{
    static uint32_t id = SCOREP_INVALID_ID;
    return scorep_pthread_region(&id, "pthread_join", SCOREP_ROLE_THREAD_WAIT);
}

static void thread_finished(void *arg)
{
    scorep_location *l = arg;
    SCOREP_LOCATION_EVENT(l); /* finalize may be closing the locations now (location.h) */
    /* once the measurement is off, the location is finalize's: it closes the profile and
     * stops the thread's sources itself */
    if (!l || l->finished || !scorep_measurement_on())
        return;
    l->end_ts = scorep_event_time(l);
    if (l->profiling)
        scorep_profile_close_all(&l->profile, l->end_ts);
    scorep_sampling_thread_end(l);
    l->finished = true;
    scorep_metrics_thread_end(l);
    scorep_substrates_thread_end(l);
}

static void *trampoline(void *p)
{
    thread_start s = *(thread_start *)p;
    free(p);
    scorep_location *l = scorep_runtime_init() ? scorep_location_create(s.seq, s.parent) : NULL;
    if (l)
        scorep_event_thread(l, BUF_EV_THREAD_BEGIN, s.seq);
    /* Profile only (the trace has ThreadBegin): the thread's tree hangs under THREADS, left
     * by scorep_profile_close_all when the thread ends. */
    uint32_t root = l && l->profiling ? scorep_profile_threads_region() : SCOREP_INVALID_ID;
    if (root != SCOREP_INVALID_ID) {
        SCOREP_LOCATION_EVENT(l);
        if (scorep_measurement_on())
            scorep_profile_enter(&l->profile, root, scorep_event_time(l));
    }
    void *r;
    pthread_cleanup_push(thread_finished, l);
    r = s.start(s.arg);
    pthread_cleanup_pop(1);
    return r;
}

/* Threads that runtime libraries start for themselves (MPI progress threads, PMIx, ...)
 * are not the program's: they get no location unless they record events. */
static int created_by_runtime_library(const void *caller)
{
    static const char *const libs[] = {
        "/libmpi",  "/libopen-", "/libpmix",   "/libevent",   "/libucx",      "/libucs",
        "/libucp",  "/libuct",   "/libfabric", "/libhwloc",   "/libomp",      "/libgomp",
        "/libcuda", "/libcupti", "/libpsm",    "/libibverbs", "/libscorep-rt"};
    Dl_info info;
    if (!dladdr(caller, &info) || !info.dli_fname)
        return 0;
    if (scorep_metric_plugin_owns(info.dli_fbase))
        return 1; /* a metric plugin's sampling thread */
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
        if (strstr(info.dli_fname, libs[i]))
            return 1;
    return 0;
}

__attribute__((visibility("default"))) int pthread_create(pthread_t *t, const pthread_attr_t *a,
                                                          void *(*start)(void *), void *arg)
{
    static create_fn real;
    if (!real)
        real = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
    if (!real) /* the C library before the runtime (rescue.c, start_thread) */
        real = (create_fn)dlsym(RTLD_DEFAULT, "pthread_create");
    if (created_by_runtime_library(__builtin_return_address(0)))
        return real(t, a, start, arg);
    scorep_location *l = scorep_location_get();
    thread_start *s = l ? malloc(sizeof *s) : NULL;
    if (!s)
        return real(t, a, start, arg);
    *s = (thread_start){start, arg, __atomic_fetch_add(&next_seq, 1, __ATOMIC_RELAXED), l->id};
    uint32_t region = create_region();
    if (region != SCOREP_INVALID_ID)
        scorep_event_enter(l, region);
    scorep_event_thread(l, BUF_EV_THREAD_CREATE, s->seq);
    uint32_t seq = s->seq;
    int rc = real(t, a, trampoline, s);
    if (rc != 0)
        free(s);
    else
        remember(*t, seq);
    if (region != SCOREP_INVALID_ID)
        scorep_event_leave(l, region);
    return rc;
}

__attribute__((visibility("default"))) int pthread_join(pthread_t t, void **ret)
{
    static join_fn real;
    if (!real)
        real = (join_fn)dlsym(RTLD_NEXT, "pthread_join");
    if (!real) /* the C library before the runtime (rescue.c, start_thread) */
        real = (join_fn)dlsym(RTLD_DEFAULT, "pthread_join");
    /* only threads the adapter created are the program's (see created_by_runtime_library) */
    pthread_mutex_lock(&seq_lock);
    int known = 0;
    for (seq_entry *e = seq_list; e && !known; e = e->next)
        known = pthread_equal(e->thread, t);
    pthread_mutex_unlock(&seq_lock);
    scorep_location *l = known ? scorep_location_get() : NULL;
    uint32_t region = l ? join_region() : SCOREP_INVALID_ID;
    if (region != SCOREP_INVALID_ID)
        scorep_event_enter(l, region);
    int rc = real(t, ret);
    uint32_t seq = rc == 0 ? forget(t) : 0;
    if (seq && l)
        scorep_event_thread(l, BUF_EV_THREAD_WAIT, seq);
    if (region != SCOREP_INVALID_ID)
        scorep_event_leave(l, region);
    return rc;
}
