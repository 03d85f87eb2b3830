/* location.c: creation and registry of locations (one per thread). */
#include "core/location.h"
#include "core/runtime.h"
#include "base/timer.h"
#include "sampling/sampling.h"
#include "metrics/metrics.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

__thread scorep_location *scorep_tls_location __attribute__((tls_model("initial-exec")));

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static scorep_location *first, **tail = &first;
static uint32_t n_locations;

static scorep_location *location_new(uint32_t create_seq, uint32_t parent_id)
{
    scorep_location *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->profiling = scorep_cfg.enable_profiling;
    l->tracing = scorep_cfg.enable_tracing;
    l->create_seq = create_seq;
    l->parent_id = parent_id;
    l->stack_cap = 256;
    l->stack_region = malloc(l->stack_cap * sizeof *l->stack_region);
    l->stack_sp = malloc(l->stack_cap * sizeof *l->stack_sp);
    if (!l->stack_region || !l->stack_sp ||
        scorep_profile_init(&l->profile, (uint32_t)scorep_cfg.max_callpath_depth) != 0 ||
        (l->tracing && scorep_buffer_init(&l->buffer) != 0)) {
        free(l->stack_region);
        free(l->stack_sp);
        free(l);
        return NULL;
    }
    if (l->tracing)
        scorep_runtime_setup_buffer(&l->buffer);
    scorep_runtime_setup_profile(&l->profile);
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
    scorep_sampling_thread_start(l);
    if (scorep_metrics_attach(l) != 0)
        scorep_warn("out of memory: location %u records no metrics", l->id);
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
    if (!scorep_runtime_init())
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
