/* SPDX-License-Identifier: BSD-3-Clause */
/* events_thread.c: trace records of fork-join threading (events_thread.h). The profile
 * needs none of them: team structure reaches it through the call tree (profile_threads.c). */
#include "core/events_thread.h"
#include "substrates/substrates.h"


static void thread_record(scorep_location *l, buf_event_type type, uint32_t a, uint64_t b,
                          uint64_t raw)
{
    if (!l || !scorep_measurement_on() || !l->tracing)
        return;
    uint64_t t = scorep_location_now(l, raw);
    scorep_buffer_event(&l->buffer, BUF_CLASS_THREAD, t, type, a, b);
}

/* Substrate plugins' thread events (substrates.h); kind as there. */
static void plug_thread(scorep_location *l, scorep_substrates_thread_event kind, uint32_t a,
                        uint64_t raw)
{
    if (l && __builtin_expect(l->substrates_on, 0) && scorep_measurement_on())
        scorep_substrates_thread(l, l->tracing ? l->last_ts : scorep_location_now(l, raw), kind,
                                 SCOREP_PARADIGM_OPENMP, a);
}

void scorep_event_thread_fork(scorep_location *l, uint32_t requested, uint32_t fork_seq,
                              uint64_t raw)
{
    SCOREP_LOCATION_EVENT(l);
    thread_record(l, BUF_EV_THREAD_FORK, requested, 0, raw);
    if (l && __builtin_expect(l->substrates_on, 0) && scorep_measurement_on())
        scorep_substrates_thread_fork(l, l->tracing ? l->last_ts : scorep_location_now(l, raw),
                                      SCOREP_PARADIGM_OPENMP, requested, fork_seq);
}

void scorep_event_thread_join(scorep_location *l, uint64_t raw)
{
    SCOREP_LOCATION_EVENT(l);
    thread_record(l, BUF_EV_THREAD_JOIN, 0, 0, raw);
    plug_thread(l, SCOREP_SUBSTRATES_THREAD_FORK_JOIN_JOIN, 0, raw);
}

void scorep_event_thread_team_begin(scorep_location *l, uint32_t team, uint32_t index,
                                    uint32_t size, uint64_t raw)
{
    SCOREP_LOCATION_EVENT(l);
    if (l)
        l->in_teams++;
    thread_record(l, BUF_EV_THREAD_TEAM_BEGIN, team, (uint64_t)size << 32 | index, raw);
    plug_thread(l, SCOREP_SUBSTRATES_THREAD_FORK_JOIN_TEAM_BEGIN, team, raw);
}

void scorep_event_thread_team_end(scorep_location *l, uint32_t team, uint64_t raw)
{
    SCOREP_LOCATION_EVENT(l);
    if (l && l->in_teams)
        l->in_teams--;
    thread_record(l, BUF_EV_THREAD_TEAM_END, team, 0, raw);
    plug_thread(l, SCOREP_SUBSTRATES_THREAD_FORK_JOIN_TEAM_END, team, raw);
}

void scorep_event_thread_lock(scorep_location *l, buf_event_type type, scorep_paradigm paradigm,
                              uint32_t lock, uint32_t order, uint64_t raw)
{
    SCOREP_LOCATION_EVENT(l);
    uint64_t b = order | (paradigm == SCOREP_PARADIGM_PTHREAD ? SCOREP_LOCK_PTHREAD_BIT : 0);
    thread_record(l, type, lock, b, raw);
    if (l && __builtin_expect(l->substrates_on, 0) && scorep_measurement_on())
        scorep_substrates_lock(l, l->tracing ? l->last_ts : scorep_location_now(l, raw),
                               type == BUF_EV_THREAD_ACQUIRE_LOCK, paradigm, lock, order);
}

void scorep_event_thread_task(scorep_location *l, buf_event_type type, uint32_t team,
                              uint32_t creator, uint32_t generation, const void *task,
                              uint64_t raw)
{
    SCOREP_LOCATION_EVENT(l);
    thread_record(l, type, team, (uint64_t)creator << 32 | generation, raw);
    if (!l || __builtin_expect(!l->substrates_on, 1) || !scorep_location_recording(l))
        return;
    uint64_t t = l->tracing ? l->last_ts : scorep_location_now(l, raw);
    if (type == BUF_EV_THREAD_TASK_CREATE)
        scorep_substrates_task_create(l, t, team, creator, generation);
    else if (type == BUF_EV_THREAD_TASK_SWITCH)
        scorep_substrates_task_switch(l, t, scorep_event_metric_values(l), team, creator,
                                      generation, task);
    /* a completion is the plugins' TASK_END, delivered with the task region's leave */
}

/* ------------------------------------------------------------ task dependences */
/* parameter id + 1 per type (0: not defined yet); defined once, read lock-free after */
static uint32_t dep_params[SCOREP_DEP_TYPES];

uint32_t scorep_task_depend_param(scorep_dep_type type)
{
    uint32_t p = type < SCOREP_DEP_TYPES ? __atomic_load_n(&dep_params[type], __ATOMIC_ACQUIRE) : 0;
    return p ? p - 1 : SCOREP_INVALID_ID;
}

void scorep_event_thread_task_depend(scorep_location *l, scorep_dep_type type, uint64_t address,
                                     uint64_t raw)
{
    SCOREP_LOCATION_EVENT(l);
    if (type >= SCOREP_DEP_TYPES)
        type = SCOREP_DEP_OTHER;
    /* the first item of a type defines its parameter (the definitions' lock, once) */
    if (__builtin_expect(!__atomic_load_n(&dep_params[type], __ATOMIC_ACQUIRE), 0) && l &&
        l->tracing) {
        uint32_t p = scorep_defs_parameter(scorep_task_depend_name(type), SCOREP_PARAM_UINT64);
        if (p == SCOREP_INVALID_ID)
            return;
        __atomic_store_n(&dep_params[type], p + 1, __ATOMIC_RELEASE);
    }
    thread_record(l, BUF_EV_THREAD_TASK_DEPEND, type, address, raw);
}
