/* events.h: the core event API that every adapter calls. Inline, lock-free and
 * allocation-free on the common path; feeds the profile and the trace buffer. */
#ifndef SCOREP_EVENTS_H
#define SCOREP_EVENTS_H

#include "core/location.h"
#include "core/timer.h"
#include "defs/defs.h"

static inline uint64_t scorep_event_time(scorep_location *l)
{
    return scorep_location_now(l, scorep_timer_ticks());
}

static inline void scorep_event_enter(scorep_location *l, uint32_t region)
{
    if (__builtin_expect(!scorep_measurement_active || !l->recording, 0)) {
        l->off_depth += scorep_measurement_active;
        return;
    }
    uint64_t t = scorep_event_time(l);
    if (l->profiling)
        scorep_profile_enter(&l->profile, region, t);
    if (l->tracing)
        scorep_buffer_region(&l->buffer, l->depth, t, region, BUF_ENTER);
    l->depth++;
}

static inline void scorep_event_leave(scorep_location *l, uint32_t region)
{
    if (__builtin_expect(!scorep_measurement_active || l->off_depth || l->depth == 0, 0)) {
        l->off_depth -= l->off_depth > 0 && scorep_measurement_active;
        return;
    }
    uint64_t t = scorep_event_time(l);
    l->depth--;
    if (l->profiling)
        scorep_profile_leave(&l->profile, region, t);
    if (l->tracing)
        scorep_buffer_region(&l->buffer, l->depth, t, region, BUF_LEAVE);
}

/* Slower events (events.c). */
void scorep_event_parameter_int(scorep_location *l, uint32_t param, int64_t v);
void scorep_event_parameter_uint(scorep_location *l, uint32_t param, uint64_t v);
void scorep_event_parameter_string(scorep_location *l, uint32_t param, uint32_t string_id);
void scorep_event_metric(scorep_location *l, uint32_t metric, uint64_t bits, double as_double);
void scorep_event_thread(scorep_location *l, buf_event_type type, uint32_t seq);
void scorep_event_recording(scorep_location *l, bool on);

#endif
