/* metric_papi.c: SCOREP_METRIC_PAPI(_PER_PROCESS): PAPI events (presets and native ones such
 * as perf::TASK-CLOCK), one PAPI event set per thread, read with PAPI_read; perf:: software
 * events go to metric_perf.c when PAPI's perf_event component is disabled. */
#include "base/log.h"
#include "defs/defs.h"
#include "metrics/metrics.h"

#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_EVENTS = 32 };

typedef struct {
    scorep_metric_group g;
    int codes[MAX_EVENTS];
    uint32_t ids[MAX_EVENTS];
} papi_group;

static papi_group groups[2];
static int papi_ready; /* 1 ok, -1 failed */

static int library_init(void)
{
    if (papi_ready)
        return papi_ready;
    int v = PAPI_library_init(PAPI_VER_CURRENT);
    if (v != PAPI_VER_CURRENT) {
        scorep_warn("SCOREP_METRIC_PAPI: PAPI cannot be initialised (%s); no PAPI metrics are "
                    "recorded",
                    v < 0 ? PAPI_strerror(v) : "version mismatch");
        return papi_ready = -1;
    }
    int rc = PAPI_thread_init((unsigned long (*)(void))pthread_self);
    if (rc != PAPI_OK) {
        scorep_warn("SCOREP_METRIC_PAPI: PAPI thread support failed (%s); no PAPI metrics are "
                    "recorded",
                    PAPI_strerror(rc));
        return papi_ready = -1;
    }
    return papi_ready = 1;
}

static void unavailable(const char *name, int rc)
{
    scorep_warn("SCOREP_METRIC_PAPI: PAPI event '%s' cannot be counted here (%s); it is not "
                "recorded. papi_avail -a and papi_native_avail list the events of this "
                "machine (on machines without a hardware PMU use perf software events such as "
                "perf::TASK-CLOCK)",
                name, PAPI_strerror(rc));
}

/* Why PAPI's perf_event component cannot count (e.g. libpfm4 knows no PMU of this CPU), or
 * NULL when it can. */
static const char *perf_component_disabled(void)
{
    int cidx = PAPI_get_component_index("perf_event");
    if (cidx < 0)
        return "PAPI was built without it";
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
    if (!ci || !ci->disabled)
        return NULL;
    return ci->disabled_reason[0] ? ci->disabled_reason : "no reason given";
}

/* An event counts when it can be added to an event set that then starts. */
static int probe(int code)
{
    int es = PAPI_NULL;
    int rc = PAPI_create_eventset(&es);
    if (rc == PAPI_OK)
        rc = PAPI_add_event(es, code);
    if (rc == PAPI_OK && (rc = PAPI_start(es)) == PAPI_OK) {
        long long v;
        rc = PAPI_stop(es, &v);
    }
    if (es != PAPI_NULL) {
        PAPI_cleanup_eventset(es);
        PAPI_destroy_eventset(&es);
    }
    return rc;
}

static void add_token(const char *tok, void *arg)
{
    papi_group *g = arg;
    bool absolute = tok[0] == '!';
    const char *name = tok + absolute;
    if (g->g.n == MAX_EVENTS) {
        scorep_warn("SCOREP_METRIC_PAPI: more than %d events; '%s' is not recorded", MAX_EVENTS,
                    name);
        return;
    }
    int code = 0, rc = PAPI_event_name_to_code(name, &code);
    if (rc == PAPI_OK)
        rc = probe(code);
    if (rc != PAPI_OK) {
        /* 0: counted by the perf source instead; -1: refused there, already reported */
        if (perf_component_disabled() &&
            scorep_metric_perf_papi_add(name, absolute, g == &groups[1]) <= 0)
            return;
        unavailable(name, rc);
        return;
    }
    PAPI_event_info_t info;
    const char *descr =
        PAPI_get_event_info(code, &info) == PAPI_OK && info.long_descr[0] ? info.long_descr : name;
    scorep_metric_def d = {.name = name,
                           .unit = "#",
                           .type = SCOREP_METRIC_UINT64,
                           .description = descr,
                           .source = SCOREP_MSRC_PAPI,
                           .mode = absolute ? 4 /* absolute point */ : 0 /* accumulated start */,
                           .base = 1,
                           .recorder = SCOREP_MREC_STRICT};
    uint32_t id = scorep_defs_metric_full(&d);
    if (id == SCOREP_INVALID_ID)
        return;
    g->codes[g->g.n] = code;
    g->ids[g->g.n++] = id;
}

static void papi_read(void *state, uint64_t *out)
{
    /* long long and uint64_t have the same size; counters are never negative */
    PAPI_read((int)(intptr_t)state, (long long *)out);
}

static int papi_attach(scorep_metric_group *grp, struct scorep_location *l, void **state)
{
    (void)l;
    papi_group *g = grp->ctx;
    int es = PAPI_NULL;
    int rc = PAPI_register_thread();
    if (rc == PAPI_OK)
        rc = PAPI_create_eventset(&es);
    if (rc == PAPI_OK)
        rc = PAPI_add_events(es, g->codes, (int)g->g.n);
    if (rc == PAPI_OK)
        rc = PAPI_start(es);
    if (rc != PAPI_OK) {
        scorep_warn("SCOREP_METRIC_PAPI: the event set of a new thread cannot be started (%s); "
                    "this thread records no PAPI metrics",
                    PAPI_strerror(rc));
        return -1;
    }
    *state = (void *)(intptr_t)es;
    return 0;
}

/* A thread's event set holds perf file descriptors: give them back when the thread ends. */
static void papi_release(void *state)
{
    int es = (int)(intptr_t)state;
    long long v[MAX_EVENTS];
    PAPI_stop(es, v);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    PAPI_unregister_thread();
}

void scorep_metric_papi_init(const char *names, bool per_process, const char *sep)
{
    papi_group *g = &groups[per_process];
    if (!names || !*names || library_init() < 0)
        return;
    scorep_metrics_tokens(names, sep, add_token, g);
    if (g->g.n == 0)
        return;
    g->g.ids = g->ids;
    g->g.master_only = per_process;
    g->g.attach = papi_attach;
    g->g.read = papi_read;
    g->g.release = papi_release;
    g->g.ctx = g;
    scorep_metrics_add_group(&g->g);
}

void scorep_metric_papi_end(void)
{
    if (papi_ready > 0)
        scorep_metric_perf_papi_end(perf_component_disabled());
}
