/* events_thread.h: events of fork-join threading models (OpenMP): fork/join, thread teams,
 * locks and tasks, plus enter/leave at a given timer reading so that one callback reads
 * the clock once however many events it records. */
#ifndef SCOREP_EVENTS_THREAD_H
#define SCOREP_EVENTS_THREAD_H

#include "core/events.h"

/* Enter/leave as in events.h, with the timer reading `raw` taken by the caller; each event
 * gets max(raw, previous + 1), so several events of one reading stay strictly ordered.
 * A raw time in the past is allowed (overdue ends, see docs/openmp.md). Return the
 * timestamp used, or 0 when nothing was recorded. */
static inline uint64_t scorep_event_enter_at(scorep_location *l, uint32_t region, uint64_t raw)
{
    SCOREP_LOCATION_EVENT_NONNULL(l);
    scorep_throttle_settle();
    if (__builtin_expect(!scorep_location_recording(l), 0)) {
        l->off_depth += scorep_measurement_on();
        return 0;
    }
    if (__builtin_expect(l->depth >= l->stack_cap, 0) && scorep_event_grow_stack(l) != 0)
        return 0;
    l->stack_region[l->depth] = region;
    l->stack_sp[l->depth] = 0;
    uint64_t t = scorep_location_now(l, raw);
    if (l->metrics)
        t = scorep_metrics_event(l, t);
    if (l->profiling)
        scorep_profile_enter(&l->profile, region, t);
    if (l->tracing)
        scorep_buffer_region(&l->buffer, l->depth, t, region, BUF_ENTER);
    l->depth++;
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_enter(l, t, region, scorep_event_metric_values(l));
    return t;
}

static inline uint64_t scorep_event_leave_at(scorep_location *l, uint32_t region, uint64_t raw)
{
    SCOREP_LOCATION_EVENT_NONNULL(l);
    scorep_throttle_settle();
    if (__builtin_expect(!scorep_measurement_on() || l->off_depth || l->depth == 0, 0)) {
        l->off_depth -= l->off_depth > 0 && scorep_measurement_on();
        return 0;
    }
    if (__builtin_expect(l->stack_region[l->depth - 1] != region, 0)) {
        scorep_event_leave_mismatch(l, region);
        return 0;
    }
    uint64_t t = scorep_location_now(l, raw);
    if (l->metrics)
        t = scorep_metrics_event(l, t);
    l->depth--;
    if (l->profiling)
        scorep_profile_leave(&l->profile, region, t);
    if (l->tracing)
        scorep_buffer_region(&l->buffer, l->depth, t, region, BUF_LEAVE);
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_exit(l, t, region, scorep_event_metric_values(l));
    return t;
}

/* Thread-class records (trace only). Teams are identified by the process-wide sequence
 * number of the parallel region instance; the trace writer turns them into thread-team
 * communicators (trace_threads.c). */
void scorep_event_thread_fork(scorep_location *l, uint32_t requested, uint64_t raw);
void scorep_event_thread_join(scorep_location *l, uint64_t raw);
/* index: the thread's number in the team; size: the team's actual size */
void scorep_event_thread_team_begin(scorep_location *l, uint32_t team, uint32_t index,
                                    uint32_t size, uint64_t raw);
void scorep_event_thread_team_end(scorep_location *l, uint32_t team, uint64_t raw);
/* type: BUF_EV_THREAD_ACQUIRE_LOCK or _RELEASE_LOCK; paradigm: SCOREP_PARADIGM_OPENMP or
 * SCOREP_PARADIGM_PTHREAD (lock ids are per paradigm); order: the acquisition's number on
 * that lock, 1 for the first (Score-P's acquisition order) */
void scorep_event_thread_lock(scorep_location *l, buf_event_type type, scorep_paradigm paradigm,
                              uint32_t lock, uint32_t order, uint64_t raw);
/* The paradigm of a lock record's b field (the writers and the analysis decode it) */
#define SCOREP_LOCK_PTHREAD_BIT (1ull << 32)
/* type: BUF_EV_THREAD_TASK_CREATE, _SWITCH or _COMPLETE; a task is (team, creating thread's
 * index, generation); implicit tasks have generation 0. */
void scorep_event_thread_task(scorep_location *l, buf_event_type type, uint32_t team,
                              uint32_t creator, uint32_t generation, uint64_t raw);

#endif
