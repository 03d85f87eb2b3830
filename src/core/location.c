/* location.c: creation and registry of locations (one per thread), from the setup record
 * the runtime gives; the runtime's subsystems learn of new locations through a hook. */
#include "core/location.h"
#include "base/timer.h"
#include "profile/throttle_pending.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__thread scorep_location *scorep_tls_location __attribute__((tls_model("initial-exec")));

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static scorep_location *first, **tail = &first;
static uint32_t n_locations;
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
    scorep_throttle_set_target(throttle_target);
}

void scorep_location_on_first_use(int (*start)(void))
{
    first_use = start;
}

static scorep_location *location_new(uint32_t create_seq, uint32_t parent_id)
{
    scorep_location *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->profiling = setup.profiling;
    l->tracing = setup.tracing;
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
        memcpy(l->buffer.steps, setup.steps, sizeof l->buffer.steps);
        l->buffer.n_steps = setup.n_steps;
        l->buffer.step = 0;
        l->buffer.min_dur = setup.min_dur;
        l->buffer.min_dur_first = setup.min_dur_first;
        l->buffer.min_dur_cap = setup.min_dur_cap;
    }
    if (setup.throttle_calls) {
        l->profile.throttle_calls = setup.throttle_calls;
        l->profile.throttle_sum = setup.throttle_sum;
    }
    pthread_mutex_lock(&registry_lock);
    l->id = n_locations++;
    *tail = l;
    tail = &l->next;
    pthread_mutex_unlock(&registry_lock);
    return l;
}

scorep_location *scorep_location_create(uint32_t create_seq, uint32_t parent_id)
{
    scorep_location *l = location_new(create_seq, parent_id);
    if (!l)
        return NULL;
    if (l->id == 0)
        snprintf(l->name, sizeof l->name, "Master thread");
    else
        snprintf(l->name, sizeof l->name, "Pthread thread %u", l->id);
    l->first_ts = l->last_ts = scorep_timer_ticks();
    scorep_tls_location = l;
    if (setup.created)
        setup.created(l);
    return l;
}

scorep_location *scorep_location_create_gpu(const char *name, uint64_t first_ts)
{
    scorep_location *l = location_new(0, 0);
    if (!l)
        return NULL;
    l->gpu = true;
    snprintf(l->name, sizeof l->name, "%s", name);
    l->first_ts = l->last_ts = first_ts;
    return l;
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
    return first;
}

uint32_t scorep_location_count(void)
{
    return n_locations;
}
