/* SPDX-License-Identifier: BSD-3-Clause */
/* rewind.c: rewind points per location. As in Score-P, a discarding check removes every
 * trace event since the point (the rewind region's own enter and leave included) and
 * marks the gap with MeasurementOnOff OFF at the point's time and ON at the check's.
 * Substrate plugins get Score-P's ENTER_REWIND_REGION and EXIT_REWIND_REGION for the point
 * and the check, not the rewind region's enter and leave (Score-P records none). */
#include "core/rewind.h"
#include "core/events.h"
#include "base/log.h"
#include "substrates/substrates.h"

#include <stdlib.h>

typedef struct {
    uint32_t region, depth; /* depth: call depth inside the rewind region */
    uint64_t ts;            /* the rewind region's enter: the first event discarded */
} rewind_point;

struct scorep_rewind_stack {
    rewind_point *p;
    uint32_t n, cap;
};

static int push(scorep_location *l, rewind_point pt)
{
    struct scorep_rewind_stack *s = l->rewind;
    if (!s && !(s = l->rewind = calloc(1, sizeof *s)))
        return -1;
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 8;
        rewind_point *p = realloc(s->p, cap * sizeof *p);
        if (!p)
            return -1;
        s->p = p;
        s->cap = cap;
    }
    s->p[s->n++] = pt;
    return 0;
}

void scorep_rewind_point(scorep_location *l, uint32_t region)
{
    if (!l)
        return;
    uint32_t before = l->depth;
    /* the enter goes to the profile and the trace only: plugins get ENTER_REWIND_REGION in
     * its place, at its time (the location is this thread's: nobody else reads the flag now) */
    bool plugins = l->substrates_on;
    l->substrates_on = false;
    scorep_event_enter(l, region);
    l->substrates_on = plugins;
    if (l->depth == before)
        return; /* not recorded (measurement or recording off): nothing to rewind to */
    if (plugins)
        scorep_substrates_rewind_enter(l, l->last_ts, region);
    /* the point is the Enter's time, or, with metric sources, that of the values read for
     * it one tick before (metrics/metrics_event.h): a discard removes them with the Enter
     * (timestamps are unique per location, so nothing older lies there) */
    uint64_t ts = l->last_ts - (l->metrics != NULL && l->metrics->n && l->tracing);
    if (push(l, (rewind_point){region, l->depth, ts}) != 0)
        scorep_warn_once("out of memory for a rewind point; its check will not discard");
}

/* Pops the innermost point of region and every point opened inside it (as Score-P does
 * for nested rewind regions). false when region has no open point. */
static bool pop_point(scorep_location *l, uint32_t region, rewind_point *out)
{
    struct scorep_rewind_stack *s = l->rewind;
    uint32_t i = s ? s->n : 0;
    while (i > 0 && s->p[i - 1].region != region)
        i--;
    if (i == 0)
        return false;
    *out = s->p[i - 1];
    s->n = i - 1;
    return true;
}

/* The check's leave of the rewind region, for the plugins EXIT_REWIND_REGION with the
 * program's value at the leave's time (Score-P passes it whether or not the trace is cut). A
 * leave that is not of the innermost call (a check without its point, a misuse) takes the
 * leave's general path as it is; Score-P delivers such a check all the same: at a time of
 * its own, when the location records. */
static void leave_rewind(scorep_location *l, uint32_t region, bool do_rewind)
{
    uint32_t before = l->depth;
    bool plugins = l->substrates_on;
    bool innermost = plugins && before > 0 && l->stack_region[before - 1] == region;
    if (innermost)
        l->substrates_on = false;
    scorep_event_leave(l, region);
    if (innermost)
        l->substrates_on = true;
    if (!plugins || !l->substrates_on)
        return;
    if (innermost && l->depth < before)
        scorep_substrates_rewind_exit(l, l->last_ts, region, do_rewind);
    else if (!innermost && scorep_location_recording(l))
        scorep_substrates_rewind_exit(l, scorep_event_time(l), region, do_rewind);
}

static void discard_since(scorep_location *l, const rewind_point *pt, uint64_t leave_ts)
{
    scorep_buffer *b = &l->buffer;
    uint64_t removed = scorep_buffer_truncate(b, pt->ts);
    scorep_buffer_event(b, BUF_CLASS_OTHER, pt->ts, BUF_EV_MEASUREMENT_OFF, 0, 0);
    scorep_buffer_event(b, BUF_CLASS_OTHER, leave_ts, BUF_EV_MEASUREMENT_ON, 0, 0);
    scorep_buffer_log(b, BUF_STEP_REWIND, pt->region, pt->ts, removed);
}

void scorep_rewind_check(scorep_location *l, uint32_t region, bool discard)
{
    if (!l)
        return;
    rewind_point pt;
    if (!pop_point(l, region, &pt)) {
        scorep_warn_once("SCOREP_USER_REWIND_CHECK without a matching SCOREP_USER_REWIND_POINT "
                         "on this thread: nothing is discarded");
        leave_rewind(l, region, discard);
        return;
    }
    /* The calls open at the point must still be open, or cutting at the point's time
     * would cut their leaves out of the trace. */
    bool intact = l->depth == pt.depth && l->stack_region[pt.depth - 1] == region;
    leave_rewind(l, region, discard);
    if (!discard || !l->tracing || !scorep_measurement_on())
        return;
    if (!intact) {
        scorep_warn_once("SCOREP_USER_REWIND_CHECK at another call level than its "
                         "SCOREP_USER_REWIND_POINT: nothing is discarded");
        return;
    }
    if (l->buffer.last_flush_ts >= pt.ts) {
        scorep_warn_once("the trace buffer was flushed since the SCOREP_USER_REWIND_POINT: "
                         "nothing is discarded");
        return;
    }
    discard_since(l, &pt, l->last_ts);
}
