/* SPDX-License-Identifier: BSD-3-Clause */
/* metric_papi.c: SCOREP_METRIC_PAPI(_PER_PROCESS): PAPI events (presets and native ones such
 * as perf::TASK-CLOCK), read with PAPI_read from one PAPI event set per thread and component;
 * perf:: software events go to metric_perf.c when PAPI's perf_event component is disabled.
 *
 * PAPI runs at most one event set per thread and component (a second PAPI_start fails with
 * PAPI_EISRUN). The first location of the process records the per-thread list and the
 * per-process list, so it gets one group holding both lists (the per-thread values first,
 * as everywhere), and the other locations a group of the per-thread list only. Score-P
 * likewise keeps one event set per component and thread and reads per-process metrics on
 * one location only. */
#include "base/log.h"
#include "defs/defs.h"
#include "metrics/metrics.h"

#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_EVENTS = 32, MAX_SETS = 8 };

/* The events of one list (SCOREP_METRIC_PAPI, SCOREP_METRIC_PAPI_PER_PROCESS). */
typedef struct {
    uint32_t n;
    int codes[MAX_EVENTS];
    uint32_t ids[MAX_EVENTS];
} papi_list;

/* What metrics.c reads with one call on a location: the events of one or both lists. */
typedef struct {
    scorep_metric_group g;
    uint32_t n;
    int codes[2 * MAX_EVENTS];
    uint32_t ids[2 * MAX_EVENTS];
} papi_group;

/* The state of one thread: one PAPI event set per component, and where each value of the
 * group lies in their read buffers. */
typedef struct {
    /* what every read needs first, in one cache line */
    bool direct; /* one set, values in group order: read into out */
    uint32_t n;
    int n_sets;
    int sets[MAX_SETS];
    int components[MAX_SETS];
    int n_in_set[MAX_SETS];
    const long long *slot[2 * MAX_EVENTS]; /* value i of the group */
    long long values[MAX_SETS][2 * MAX_EVENTS];
} papi_thread;

static papi_list lists[2];  /* [0] per thread, [1] per process */
static papi_group groups[3]; /* all locations / all but the first / the first */
static int papi_ready; /* 1 ok, -1 failed */

static int library_init(void)
{
    if (papi_ready)
        return papi_ready;
    /* SCOREP_TEST_PAPI_DISABLE_COMPONENT=perf_event: test only (test_metric_papi.sh), not in
     * the configuration table: disables a component of the real PAPI before it starts, so
     * that the fallback for a disabled perf_event component runs on a machine where it
     * works */
    const char *off = getenv("SCOREP_TEST_PAPI_DISABLE_COMPONENT");
    if (off && *off && PAPI_disable_component_by_name(off) != PAPI_OK)
        scorep_warn("SCOREP_TEST_PAPI_DISABLE_COMPONENT: PAPI knows no component '%s'", off);
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
    papi_list *g = arg;
    bool absolute = tok[0] == '!';
    const char *name = tok + absolute;
    if (g->n == MAX_EVENTS) {
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
            scorep_metric_perf_papi_add(name, absolute, g == &lists[1]) <= 0)
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
                           .recorder = SCOREP_MREC_STRICT,
                           .per = g == &lists[1]}; /* SCOREP_METRIC_PAPI_PER_PROCESS */
    uint32_t id = scorep_defs_metric_full(&d);
    if (id == SCOREP_INVALID_ID)
        return;
    g->codes[g->n] = code;
    g->ids[g->n++] = id;
}

static void papi_read(void *state, uint64_t *out)
{
    papi_thread *t = state;
    /* long long and uint64_t have the same size; counters are never negative */
    if (t->direct) {
        PAPI_read(t->sets[0], (long long *)out);
        return;
    }
    for (int k = 0; k < t->n_sets; k++)
        PAPI_read(t->sets[k], t->values[k]);
    for (uint32_t i = 0; i < t->n; i++)
        out[i] = (uint64_t)*t->slot[i];
}

static void thread_free(papi_thread *t)
{
    long long v[2 * MAX_EVENTS];
    for (int k = 0; k < t->n_sets; k++) {
        PAPI_stop(t->sets[k], v); /* fails for a set that never started: nothing to stop */
        PAPI_cleanup_eventset(t->sets[k]);
        PAPI_destroy_eventset(&t->sets[k]);
    }
    free(t);
}

/* The event set of component c in t, created when it is the first event of c. */
static int set_of(papi_thread *t, int c, int *k)
{
    for (*k = 0; *k < t->n_sets; (*k)++)
        if (t->components[*k] == c)
            return PAPI_OK;
    if (t->n_sets == MAX_SETS)
        return PAPI_ECMP;
    int es = PAPI_NULL, rc = PAPI_create_eventset(&es);
    if (rc != PAPI_OK)
        return rc;
    *k = t->n_sets++;
    t->sets[*k] = es;
    t->components[*k] = c;
    t->n_in_set[*k] = 0;
    return PAPI_OK;
}

/* Creates and starts the event sets of g's events on the calling thread; PAPI's error code
 * on failure (t is then NULL). */
static int thread_start(const papi_group *g, papi_thread **out)
{
    papi_thread *t = calloc(1, sizeof *t);
    *out = NULL;
    if (!t)
        return PAPI_ENOMEM;
    int rc = PAPI_OK;
    t->n = g->n;
    for (uint32_t i = 0; i < g->n && rc == PAPI_OK; i++) {
        int k = 0;
        rc = set_of(t, PAPI_get_event_component(g->codes[i]), &k);
        if (rc == PAPI_OK)
            rc = PAPI_add_event(t->sets[k], g->codes[i]);
        if (rc == PAPI_OK)
            t->slot[i] = &t->values[k][t->n_in_set[k]++];
    }
    for (int k = 0; k < t->n_sets && rc == PAPI_OK; k++)
        rc = PAPI_start(t->sets[k]);
    if (rc != PAPI_OK) {
        thread_free(t);
        return rc;
    }
    t->direct = t->n_sets == 1;
    *out = t;
    return PAPI_OK;
}

static int papi_attach(scorep_metric_group *grp, struct scorep_location *l, void **state)
{
    (void)l;
    papi_thread *t = NULL;
    int rc = PAPI_register_thread();
    if (rc == PAPI_OK)
        rc = thread_start(grp->ctx, &t);
    if (rc != PAPI_OK) {
        scorep_warn("SCOREP_METRIC_PAPI: the event sets of a new thread cannot be started "
                    "(%s); this thread records no PAPI metrics",
                    PAPI_strerror(rc));
        return -1;
    }
    *state = t;
    return 0;
}

/* A thread's event sets hold perf file descriptors: give them back when the thread ends. */
static void papi_release(void *state)
{
    thread_free(state);
    PAPI_unregister_thread();
}

/* Fills group g with the lists a and b (b may be NULL); where: which locations read it. */
static void make_group(papi_group *g, const papi_list *a, const papi_list *b, bool first_only,
                       bool others_only)
{
    g->n = 0;
    for (const papi_list *p = a; p; p = p == a ? b : NULL) {
        memcpy(g->codes + g->n, p->codes, p->n * sizeof *p->codes);
        memcpy(g->ids + g->n, p->ids, p->n * sizeof *p->ids);
        g->n += p->n;
    }
    g->g = (scorep_metric_group){.n = g->n,
                                 .ids = g->ids,
                                 .master_only = first_only,
                                 .others_only = others_only,
                                 .attach = papi_attach,
                                 .read = papi_read,
                                 .release = papi_release,
                                 .ctx = g};
}

/* The events of each list were probed alone; the first location's group holds them all:
 * probe that combination once here, so that a conflict is reported once, not per thread. */
static bool combination_counts(const papi_group *g)
{
    papi_thread *t = NULL;
    int rc = thread_start(g, &t);
    if (t)
        thread_free(t);
    if (rc == PAPI_OK)
        return true;
    scorep_warn("SCOREP_METRIC_PAPI: the events of SCOREP_METRIC_PAPI and "
                "SCOREP_METRIC_PAPI_PER_PROCESS cannot be counted together (%s); no PAPI "
                "metrics are recorded. papi_event_chooser tells which events fit together",
                PAPI_strerror(rc));
    return false;
}

void scorep_metric_papi_init(const char *names, bool per_process, const char *sep)
{
    if (!names || !*names || library_init() < 0)
        return;
    scorep_metrics_tokens(names, sep, add_token, &lists[per_process]);
}

static void register_groups(void)
{
    const papi_list *thr = &lists[0], *proc = &lists[1];
    if (thr->n && proc->n) {
        make_group(&groups[2], thr, proc, true, false);
        if (!combination_counts(&groups[2]))
            return;
        make_group(&groups[1], thr, NULL, false, true);
        scorep_metrics_add_group(&groups[1].g);
        scorep_metrics_add_group(&groups[2].g);
    } else if (thr->n) {
        make_group(&groups[0], thr, NULL, false, false);
        scorep_metrics_add_group(&groups[0].g);
    } else if (proc->n) {
        make_group(&groups[2], proc, NULL, true, false);
        scorep_metrics_add_group(&groups[2].g);
    }
}

void scorep_metric_papi_end(void)
{
    if (papi_ready <= 0)
        return;
    register_groups();
    scorep_metric_perf_papi_end(perf_component_disabled());
}
