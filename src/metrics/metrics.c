/* SPDX-License-Identifier: BSD-3-Clause */
/* metrics.c: the registry of metric groups, the per-location value arrays, and the
 * recording of asynchronous values into a location's trace. */
#include "metrics/metrics.h"
#include "metrics/metrics_event.h"
#include "core/location.h"
#include "core/subsystem.h"
#include "defs/defs.h"
#include "base/log.h"
#include "base/settings.h"
#include "base/state.h"

#include <stdlib.h>
#include <string.h>

static scorep_metric_group *groups[SCOREP_METRICS_MAX_GROUPS];
static uint32_t n_groups;

void scorep_metrics_tokens(const char *s, const char *sep, void (*fn)(const char *tok, void *arg),
                           void *arg)
{
    if (!s)
        return;
    if (!sep || !*sep)
        sep = ",";
    while (*s) {
        size_t n = strcspn(s, sep);
        const char *b = s, *e = s + n;
        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (e > b) {
            char tok[256];
            size_t len = (size_t)(e - b) < sizeof tok - 1 ? (size_t)(e - b) : sizeof tok - 1;
            memcpy(tok, b, len);
            tok[len] = 0;
            fn(tok, arg);
        }
        s += n;
        if (*s)
            s++;
    }
}

int scorep_metrics_add_group(scorep_metric_group *g)
{
    if (n_groups == SCOREP_METRICS_MAX_GROUPS) {
        scorep_warn("more than %d metric groups; the rest is not recorded",
                    SCOREP_METRICS_MAX_GROUPS);
        return -1;
    }
    groups[n_groups++] = g;
    return 0;
}

void scorep_metrics_init(void)
{
    scorep_metric_rusage_init(scorep_cfg.metric_rusage, false, scorep_cfg.metric_rusage_sep);
    scorep_metric_rusage_init(scorep_cfg.metric_rusage_per_process, true,
                              scorep_cfg.metric_rusage_sep);
    scorep_metric_papi_init(scorep_cfg.metric_papi, false, scorep_cfg.metric_papi_sep);
    scorep_metric_papi_init(scorep_cfg.metric_papi_per_process, true, scorep_cfg.metric_papi_sep);
    scorep_metric_papi_end();
    scorep_metric_perf_init(scorep_cfg.metric_perf, false, scorep_cfg.metric_perf_sep);
    scorep_metric_perf_init(scorep_cfg.metric_perf_per_process, true, scorep_cfg.metric_perf_sep);
    scorep_metric_plugins_init(scorep_cfg.metric_plugins, scorep_cfg.metric_plugins_sep);
}

static bool applies(const scorep_metric_group *g, const scorep_location *l)
{
    if (g->master_only)
        return l->id == 0;
    return !g->others_only || l->id != 0;
}

int scorep_metrics_attach(scorep_location *l)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < n_groups; i++)
        n += applies(groups[i], l) ? groups[i]->n : 0;
    if (n_groups == 0)
        return 0;
    /* asynchronous plugins have groups of no values: their attach only registers l */
    scorep_metric_set *s = calloc(1, sizeof *s);
    uint64_t *values = calloc(n + 1, sizeof *values);
    uint32_t *ids = calloc(n + 1, sizeof *ids);
    if (!s || !values || !ids) {
        free(s);
        free(values);
        free(ids);
        return -1;
    }
    s->values = values;
    s->ids = ids;
    for (uint32_t i = 0; i < n_groups; i++) {
        scorep_metric_group *g = groups[i];
        void *state = NULL;
        if (!applies(g, l) || g->attach(g, l, &state) != 0)
            continue;
        s->readers[s->n_readers++] =
            (scorep_metric_reader){g->read, g->release, state, values + s->n};
        memcpy(ids + s->n, g->ids, g->n * sizeof *ids);
        s->n += g->n;
    }
    /* the first reads are the start values of everything that follows */
    for (uint32_t i = 0; i < s->n_readers; i++)
        scorep_metric_reader_read(&s->readers[i]);
    if (s->n == 0) {
        free(values);
        free(ids);
        free(s);
        return 0;
    }
    l->profile.n_dense = s->n;
    l->profile.dense_values = values;
    l->profile.dense_ids = ids;
    l->metrics = s;
    scorep_location_modes_changed(l);
    return 0;
}

void scorep_metrics_thread_end(scorep_location *l)
{
    scorep_metric_set *s = l->metrics;
    if (!s)
        return;
    uint32_t n = s->n_readers;
    s->n_readers = 0; /* no reads from here on */
    for (uint32_t i = 0; i < n; i++)
        if (s->readers[i].release)
            s->readers[i].release(s->readers[i].state);
}

void scorep_metrics_begin(bool mpi)
{
    scorep_metric_plugins_begin(mpi);
}

void scorep_metrics_stop(void)
{
    scorep_metric_plugins_stop();
}

void scorep_metrics_end(void)
{
    scorep_metric_plugins_end();
}

/* Score-P reads its metric sources in this order (scorep_metric_management.c) */
static int source_rank(uint32_t source)
{
    return source == SCOREP_MSRC_PAPI     ? 0
           : source == SCOREP_MSRC_RUSAGE ? 1
           : source == SCOREP_MSRC_PLUGIN ? 2
           : source == SCOREP_MSRC_PERF   ? 3
                                          : 4;
}

/* The STRICT metrics of the per-thread groups (PAPI's others_only group has the same ids as
 * the per-thread part of its first location's group) */
static uint32_t metric_set(uint32_t *ids, uint32_t cap)
{
    uint32_t n = 0;
    for (int rank = 0; rank <= 4; rank++)
        for (uint32_t i = 0; i < n_groups; i++) {
            const scorep_metric_group *g = groups[i];
            if (g->master_only)
                continue;
            for (uint32_t k = 0; k < g->n; k++) {
                const scorep_metric_def *d = scorep_defs_metric_get(g->ids[k]);
                if (!d || d->recorder != SCOREP_MREC_STRICT || source_rank(d->source) != rank)
                    continue;
                if (n < cap)
                    ids[n] = g->ids[k];
                n++;
            }
        }
    return n;
}

/* scorep-recover starts no metric source: the definitions restored from a rank's piece say
 * which metrics its threads read at every event (a metric source's, strictly synchronous,
 * per thread), in the same source order and then in definition order, which is the order a
 * source defines and reads them (PAPI's perf:: fallback events aside, which the perf source
 * counts in a group of its own) */
static uint32_t defs_set(uint32_t *ids, uint32_t cap)
{
    uint32_t n = 0, count = scorep_defs_metric_count();
    for (int rank = 0; rank <= 3; rank++)
        for (uint32_t id = 0; id < count; id++) {
            const scorep_metric_def *d = scorep_defs_metric_get(id);
            if (!d || d->recorder != SCOREP_MREC_STRICT || d->per != 0 ||
                source_rank(d->source) != rank)
                continue;
            if (n < cap)
                ids[n] = id;
            n++;
        }
    return n;
}

uint32_t scorep_metrics_strict_set(uint32_t *ids, uint32_t cap)
{
    return n_groups ? metric_set(ids, cap) : defs_set(ids, cap);
}

static int by_time(const void *a, const void *b)
{
    const scorep_async_value *x = a, *y = b;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

void scorep_metrics_record_async(scorep_location *l, scorep_async_value *v, size_t n,
                                 uint64_t stopped_ts)
{
    if (!l->tracing || n == 0)
        return;
    qsort(v, n, sizeof *v, by_time);
    /* the trace of a location begins with its creation, the first one's with ProgramBegin */
    uint64_t begin =
        l->first_ts > scorep_program_begin_ts() ? l->first_ts : scorep_program_begin_ts();
    size_t dropped = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].ts <= begin || v[i].ts > l->end_ts) {
            /* a sample between the program's end and the plugins' stop is no error: the
             * plugin's thread ran on while finalize began (seen under load) */
            dropped += v[i].ts <= l->end_ts || v[i].ts > stopped_ts;
            continue;
        }
        scorep_buffer_event(&l->buffer, BUF_CLASS_ASYNC, v[i].ts, BUF_EV_METRIC, v[i].id,
                            v[i].value);
    }
    if (dropped)
        scorep_warn("location %u: %zu asynchronous metric values lie outside the measurement "
                    "and were dropped",
                    l->id, dropped);
}

/* ------------------------------------------------ the runtime's subsystem (subsystem.h) */
static void metrics_location_created(scorep_location *l)
{
    if (scorep_metrics_attach(l) != 0)
        scorep_warn("out of memory: location %u records no metrics", l->id);
}

const scorep_subsystem scorep_subsystem_metrics = {
    .name = "metrics",
    .init = scorep_metrics_init,
    .begin = scorep_metrics_begin, /* asynchronous values come after ProgramBegin */
    .location_created = metrics_location_created,
    .end = scorep_metrics_stop,
    .finalize = scorep_metrics_end,
};
