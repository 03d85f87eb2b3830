/* SPDX-License-Identifier: BSD-3-Clause */
/* location.c: creation and registry of locations (one per thread), from the setup record
 * the runtime gives; the runtime's subsystems learn of new locations through a hook. */
#include "core/location.h"
#include "base/timer.h"
#include "profile/throttle_pending.h"
#include "base/log.h"

#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

__thread scorep_location *scorep_tls_location __attribute__((tls_model("initial-exec")));

/* The list is appended to under the lock and read without it: a new location is complete
 * before the release store that links it; readers load first with acquire. After
 * scorep_location_quiesce no thread location is added (closed). */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static scorep_location *first, **tail = &first;
static uint32_t n_locations;
static bool closed;
static bool membarrier_ok; /* this process registered for MEMBARRIER_CMD_PRIVATE_EXPEDITED */
static scorep_location_setup setup;
static int (*first_use)(void);

/* throttle_pending.c's hook: the calling thread's profile, when it counts throttled calls */
static int throttle_target(scorep_profile **p)
{
    scorep_location *l = scorep_tls_location;
    if (!l)
        return 0;
    *p = scorep_location_recording(l) && l->profiling ? &l->profile : NULL;
    return 1;
}

void scorep_location_configure(const scorep_location_setup *s)
{
    setup = *s;
    /* once, at init: finalize's membarrier then costs microseconds (registering is a system
     * call, not for the event path) */
    membarrier_ok = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) == 0;
    scorep_throttle_set_target(throttle_target);
}

void scorep_location_on_first_use(int (*start)(void))
{
    first_use = start;
}

/* A new location, linked into the list complete (name, first timestamp). A thread location
 * (gpu false) is not made once the registry is closed, and it is returned marked busy (its
 * creator ends the mark after the creation hook). */
static scorep_location *location_new(uint32_t create_seq, uint32_t parent_id, bool gpu,
                                     const char *name, uint64_t first_ts)
{
    if (!gpu && __atomic_load_n(&closed, __ATOMIC_RELAXED))
        return NULL;
    scorep_location *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->gpu = gpu;
    l->busy = !gpu;
    l->profiling = setup.profiling;
    l->tracing = setup.tracing;
    scorep_location_modes_changed(l);
    l->create_seq = create_seq;
    l->parent_id = parent_id;
    l->stack_cap = 256;
    l->stack_region = malloc(l->stack_cap * sizeof *l->stack_region);
    l->stack_sp = malloc(l->stack_cap * sizeof *l->stack_sp);
    if (!l->stack_region || !l->stack_sp ||
        scorep_profile_init(&l->profile, setup.max_callpath_depth) != 0 ||
        (l->tracing && scorep_buffer_init(&l->buffer) != 0)) {
        free(l->stack_region);
        free(l->stack_sp);
        free(l);
        return NULL;
    }
    if (l->tracing) {
        /* the traced enter tests rec_depth for the call stack's room too (events.h) */
        scorep_buffer_set_depth_room(&l->buffer, l->stack_cap);
        memcpy(l->buffer.steps, setup.steps, sizeof l->buffer.steps);
        l->buffer.n_steps = setup.n_steps;
        l->buffer.step = 0;
        l->buffer.min_dur = setup.min_dur;
        scorep_buffer_fast_leave_update(&l->buffer);
        l->buffer.min_dur_first = setup.min_dur_first;
        l->buffer.min_dur_cap = setup.min_dur_cap;
    }
    if (setup.throttle_calls) {
        l->profile.throttle_calls = setup.throttle_calls;
        l->profile.throttle_sum = setup.throttle_sum;
    }
    pthread_mutex_lock(&registry_lock);
    if (!gpu && closed) {
        pthread_mutex_unlock(&registry_lock);
        /* a thread that starts while the process ends: unmeasured (its profile's and
         * buffer's first blocks are left to the exit) */
        free(l->stack_region);
        free(l->stack_sp);
        free(l);
        return NULL;
    }
    l->id = n_locations;
    if (!gpu && l->id == 0)
        snprintf(l->name, sizeof l->name, "Master thread");
    else if (!gpu)
        snprintf(l->name, sizeof l->name, "Pthread thread %u", l->id);
    else
        snprintf(l->name, sizeof l->name, "%s", name);
    l->first_ts = l->last_ts = first_ts;
    __atomic_store_n(&n_locations, n_locations + 1, __ATOMIC_RELAXED);
    __atomic_store_n(tail, l, __ATOMIC_RELEASE);
    tail = &l->next;
    pthread_mutex_unlock(&registry_lock);
    return l;
}

scorep_location *scorep_location_create(uint32_t create_seq, uint32_t parent_id)
{
    scorep_location *l = location_new(create_seq, parent_id, false, NULL, scorep_timer_ticks());
    if (!l)
        return NULL;
    scorep_tls_location = l;
    if (setup.created)
        setup.created(l);
    scorep_location_busy_end(l); /* the mark of location_new */
    return l;
}

scorep_location *scorep_location_create_gpu(const char *name, uint64_t first_ts)
{
    return location_new(0, 0, true, name, first_ts);
}

scorep_location *scorep_location_slow(void)
{
    if (!first_use || !first_use())
        return NULL;
    if (scorep_tls_location)
        return scorep_tls_location;
    /* A thread not started through our pthread_create wrapper (e.g. a runtime's worker). */
    return scorep_location_create(0, 0);
}

scorep_location *scorep_location_first(void)
{
    return __atomic_load_n(&first, __ATOMIC_ACQUIRE);
}

uint32_t scorep_location_count(void)
{
    return __atomic_load_n(&n_locations, __ATOMIC_RELAXED);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void scorep_location_quiesce(void)
{
    scorep_location_quiesce_except(NULL);
}

void scorep_location_quiesce_except(const scorep_location *except)
{
    pthread_mutex_lock(&registry_lock);
    __atomic_store_n(&closed, true, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&registry_lock);
    /* The other side of scorep_location_busy_begin's store-then-check: after this barrier
     * on every running thread of the process, an event either saw the measurement off or
     * its mark is visible here. Without membarrier (kernels before 4.14, seccomp), a
     * millisecond lets the other CPUs' store buffers drain (best effort). */
    if (!membarrier_ok || syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0) != 0)
        usleep(1000);
    scorep_location *self = scorep_tls_location;
    double deadline = 0;
    for (scorep_location *l = scorep_location_first(); l; l = l->next) {
        if (l == self || l == except || l->gpu)
            continue; /* an event of this thread that finalize interrupted (a signal) */
        while (__atomic_load_n(&l->busy, __ATOMIC_ACQUIRE) != 0) {
            if (deadline == 0)
                deadline = now_s() + 5.0;
            if (now_s() > deadline) {
                scorep_warn("location %u (%s) was still inside an event 5 s after the "
                            "measurement ended; its last call may be incomplete",
                            l->id, l->name);
                break;
            }
            sched_yield();
        }
    }
}

scorep_location *scorep_location_restore(const char *name, uint32_t create_seq, uint32_t parent_id,
                                         bool gpu, uint64_t first_ts)
{
    scorep_location *l = location_new(create_seq, parent_id, true, name, first_ts);
    if (l)
        l->gpu = gpu;
    return l;
}
