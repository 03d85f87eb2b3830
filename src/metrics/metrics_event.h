/* SPDX-License-Identifier: BSD-3-Clause */
/* metrics_event.h: the per-event part of the metric sources: read every value of the
 * location and put them in the trace. Inline, no allocation, no locks. */
#ifndef SCOREP_METRICS_EVENT_H
#define SCOREP_METRICS_EVENT_H

#include "core/location.h"
#include "metrics/metric_perf.h"
#include "metrics/metrics.h"

/* One reader's values: perf groups are read here, without a call (metric_perf.h). */
static inline void scorep_metric_reader_read(const scorep_metric_reader *r)
{
    if (r->read)
        r->read(r->state, r->out);
    else
        scorep_perf_read(r->state, r->out);
}

/* Reads the location's metrics at event time t. In the buffer the values get timestamp t
 * and the event itself t + 1 (buffer timestamps are unique per location; the trace writer
 * gives the values the event's timestamp again); returns the event's. */
static inline uint64_t scorep_metrics_event(scorep_location *l, uint64_t t)
{
    scorep_metric_set *s = l->metrics;
    /* Per-thread counters can only be read on their thread. Another thread writes events
     * of l only for calls l's thread has finished waiting in (the late ends of OpenMP
     * workers, docs/openmp.md): l's last values stand for them. */
    if (__builtin_expect(scorep_tls_location == l, 1))
        for (uint32_t i = 0; i < s->n_readers; i++)
            scorep_metric_reader_read(&s->readers[i]);
    if (!l->tracing)
        return t;
    for (uint32_t i = 0; i < s->n; i++)
        scorep_buffer_event(&l->buffer, BUF_CLASS_PARAM, t, BUF_EV_METRIC, s->ids[i], s->values[i]);
    l->last_ts = t + 1;
    return t + 1;
}

#endif
