/* SPDX-License-Identifier: BSD-3-Clause */
/* events_thread.h: events of fork-join threading models (OpenMP): fork/join, thread teams,
 * locks and tasks, plus enter/leave at a given timer reading so that one callback reads
 * the clock once however many events it records. */
#ifndef SCOREP_EVENTS_THREAD_H
#define SCOREP_EVENTS_THREAD_H

#include "core/events.h"

#include <string.h>

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
    if (l->metrics) /* unwound as other enters (SCOREP_ENABLE_UNWINDING) */
        t = scorep_event_metrics_enter(l, region, t);
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
        t = scorep_event_metrics_settle(l, t);
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
/* fork_seq: the fork's process-wide sequence number (1, 2, ...: the team's), substrate
 * plugins' forkSequenceCount */
void scorep_event_thread_fork(scorep_location *l, uint32_t requested, uint32_t fork_seq,
                              uint64_t raw);
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
 * index, generation); implicit tasks have generation 0. task: the adapter's task object,
 * the handle substrate plugins get with a switch (NULL: the implicit task); plugins get
 * CREATE and SWITCH here, a task's begin and end from the adapter (substrates.h). */
void scorep_event_thread_task(scorep_location *l, buf_event_type type, uint32_t team,
                              uint32_t creator, uint32_t generation, const void *task,
                              uint64_t raw);

/* The types of a task's depend items, numbered as the analysis's AN_DEP_* (an_trace.h):
 * OMPT's ompt_dependence_type_t folded onto the depend clause's types. */
typedef enum {
    SCOREP_DEP_OTHER, /* source/sink (doacross), depobj, omp_all_memory, unknown */
    SCOREP_DEP_IN,
    SCOREP_DEP_OUT,
    SCOREP_DEP_INOUT,
    SCOREP_DEP_MUTEXINOUTSET,
    SCOREP_DEP_INOUTSET,
    SCOREP_DEP_TYPES
} scorep_dep_type;
/* One depend item of the explicit task whose ThreadTaskCreate this location recorded last
 * (the OpenMP runtime reports the list right after the creation, on the creating thread):
 * the address of the item's storage and its type. Trace only, one record each (its own
 * timestamp); the trace writes it as a ParameterUnsignedInt (docs/openmp.md). */
void scorep_event_thread_task_depend(scorep_location *l, scorep_dep_type type, uint64_t address,
                                     uint64_t raw);
/* The parameter of a depend item's type ("OpenMP depend in", ...), defined with the first
 * record of that type; SCOREP_INVALID_ID before. */
uint32_t scorep_task_depend_param(scorep_dep_type type);
/* The parameter name of a depend item type (the trace's, which the analysis reads back). */
static inline const char *scorep_task_depend_name(scorep_dep_type type)
{
    static const char *const names[SCOREP_DEP_TYPES] = {
        [SCOREP_DEP_OTHER] = "OpenMP depend other",
        [SCOREP_DEP_IN] = "OpenMP depend in",
        [SCOREP_DEP_OUT] = "OpenMP depend out",
        [SCOREP_DEP_INOUT] = "OpenMP depend inout",
        [SCOREP_DEP_MUTEXINOUTSET] = "OpenMP depend mutexinoutset",
        [SCOREP_DEP_INOUTSET] = "OpenMP depend inoutset",
    };
    return type < SCOREP_DEP_TYPES ? names[type] : names[SCOREP_DEP_OTHER];
}
/* The type of parameter PARAM's name, or -1 when it is no depend item's parameter. */
static inline int scorep_task_depend_type_of(const char *param_name)
{
    for (int i = 0; param_name && i < SCOREP_DEP_TYPES; i++)
        if (strcmp(param_name, scorep_task_depend_name((scorep_dep_type)i)) == 0)
            return i;
    return -1;
}

#endif
