/* SPDX-License-Identifier: BSD-3-Clause */
/* events.c: the less frequent core events (parameters, metrics, threads, recording). */
#include "core/events.h"
#include "base/log.h"
#include "sampling/sampling.h"
#include "profile/profile_cluster.h"

#include <stdlib.h>

int scorep_event_grow_stack(scorep_location *l)
{
    uint32_t cap = l->stack_cap * 2;
    uint32_t *r = realloc(l->stack_region, cap * sizeof *r);
    if (r)
        l->stack_region = r;
    uintptr_t *s = r ? realloc(l->stack_sp, cap * sizeof *s) : NULL;
    if (!s)
        return -1; /* the call is not recorded; its leave will not match and is ignored */
    l->stack_sp = s;
    l->stack_cap = cap;
    if (l->tracing) /* the buffer's fast depth test covers the call stack's room */
        scorep_buffer_set_depth_room(&l->buffer, cap);
    return 0;
}

/* A leave that is not for the innermost call: leave the calls above it first (their exits
 * were lost); a leave of a call that is not open at all is ignored. */
void scorep_event_leave_mismatch(scorep_location *l, uint32_t region)
{
    uint32_t d = l->depth;
    while (d > 0 && l->stack_region[d - 1] != region)
        d--;
    if (d == 0)
        return;
    while (l->depth > d)
        scorep_event_leave(l, l->stack_region[l->depth - 1]);
    scorep_event_leave(l, region);
}

static void unwind_dynamic(scorep_location *l, uint32_t region, unsigned tag)
{
    (void)tag;
    scorep_event_leave_dynamic(l, region);
}

static scorep_unwind_leave_fn unwind_leaves[SCOREP_SP_TAGS] = {
    [SCOREP_SP_USER_DYNAMIC] = unwind_dynamic,
};

void scorep_event_unwind_register(unsigned tag, scorep_unwind_leave_fn fn)
{
    if (tag < SCOREP_SP_TAGS)
        __atomic_store_n(&unwind_leaves[tag], fn, __ATOMIC_RELEASE);
}

/* A call's recorded sp is its function's stack pointer at the hook's call (the hook's CFA):
 * the frame's own handler or setjmp caller has the same or a higher one at its call of
 * __cxa_begin_catch or setjmp, its callees a lower one (their CFA at most its stack
 * pointer, their stack pointer 16 bytes below at least). A wrapper's region (I/O, libwrap)
 * records a value just below its caller's stack pointer: it is a callee of that frame. A
 * call without sp (0: OpenMP's regions, the MPI, SHMEM, memory, pthread and CUDA wrappers,
 * see docs/design.md) ends the walk: where it lies is not known. The low bits say which
 * leave (SCOREP_SP_TAG_MASK). */
void scorep_event_unwind_to(scorep_location *l, uintptr_t sp)
{
    scorep_event_unwind_jump(l, sp, UINT32_MAX);
}

/* A call entered after the setjmp (depth at or above the setjmp's) in the setjmp caller's
 * frame (sp equal) is one inlined there whose exit the jump skips; a user region begun
 * there stays open (tag SCOREP_SP_USER and the others: docs/design.md, "Jumps out of
 * calls"). */
void scorep_event_unwind_jump(scorep_location *l, uintptr_t sp, uint32_t depth)
{
    SCOREP_LOCATION_EVENT(l);
    while (l && l->depth > 0 && !l->off_depth && scorep_measurement_on()) {
        uint32_t d = l->depth, region = l->stack_region[d - 1];
        uintptr_t rec = l->stack_sp[d - 1], at = rec & ~SCOREP_SP_TAG_MASK;
        unsigned tag = (unsigned)(rec & SCOREP_SP_TAG_MASK);
        if (rec == 0 || !(at < sp || (at == sp && tag == SCOREP_SP_PLAIN && d - 1 >= depth)))
            break;
        scorep_unwind_leave_fn fn =
            tag ? __atomic_load_n(&unwind_leaves[tag], __ATOMIC_ACQUIRE) : NULL;
        if (fn)
            fn(l, region, tag);
        else
            scorep_event_leave(l, region);
        if (l->depth >= d) /* not left (cannot happen with the tests above): never loop */
            break;
    }
}

static int usable(scorep_location *l)
{
    scorep_throttle_settle();
    return l && scorep_location_recording(l);
}

static void record(scorep_location *l, buf_class c, uint32_t type, uint32_t a, uint64_t v,
                   uint64_t t)
{
    if (l->tracing)
        scorep_buffer_event(&l->buffer, c, t, type, a, v);
}

void scorep_event_enter_dynamic(scorep_location *l, uint32_t region, uintptr_t sp)
{
    SCOREP_LOCATION_EVENT(l);
    uint32_t depth = l->depth;
    scorep_event_enter_sp(l, region, sp);
    if (l->profiling && l->depth == depth + 1)
        scorep_profile_dynamic_enter(&l->profile, region);
}

void scorep_event_leave_dynamic(scorep_location *l, uint32_t region)
{
    SCOREP_LOCATION_EVENT(l);
    pnode *inst = l->profiling ? scorep_profile_dynamic_instance(&l->profile, region) : NULL;
    uint32_t depth = l->depth;
    scorep_event_leave(l, region); /* the profile closes the instance with the region */
    if (inst && l->depth + 1 == depth && l->profile.cur == inst->parent->parent)
        scorep_profile_dynamic_left(&l->profile, inst);
}

void scorep_event_program_begin(scorep_location *l, uint64_t t)
{
    SCOREP_LOCATION_EVENT_NONNULL(l);
    uint32_t root = scorep_program_region();
    if (!l->profiling || root == SCOREP_INVALID_ID)
        return;
    /* the counters' start values: the location's first reading (metrics.c, no read more:
     * a synchronous plugin counts its reads) */
    scorep_profile_enter(&l->profile, root, t);
}

void scorep_event_parameter_int(scorep_location *l, uint32_t param, int64_t v)
{
    SCOREP_LOCATION_EVENT(l);
    if (!usable(l))
        return;
    uint64_t t = scorep_event_time(l);
    if (l->profiling)
        scorep_profile_parameter(&l->profile, PNODE_PARAM_INT, param, v, t);
    record(l, BUF_CLASS_PARAM, BUF_EV_PARAM_INT, param, (uint64_t)v, t);
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_parameter(l, t, SCOREP_SUBSTRATES_PARAMETER_INT64, param, (uint64_t)v);
}

void scorep_event_parameter_uint(scorep_location *l, uint32_t param, uint64_t v)
{
    SCOREP_LOCATION_EVENT(l);
    if (!usable(l))
        return;
    uint64_t t = scorep_event_time(l);
    if (l->profiling)
        scorep_profile_parameter(&l->profile, PNODE_PARAM_UINT, param, (int64_t)v, t);
    record(l, BUF_CLASS_PARAM, BUF_EV_PARAM_UINT, param, v, t);
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_parameter(l, t, SCOREP_SUBSTRATES_PARAMETER_UINT64, param, v);
}

void scorep_event_parameter_string(scorep_location *l, uint32_t param, uint32_t string_id)
{
    SCOREP_LOCATION_EVENT(l);
    if (!usable(l))
        return;
    uint64_t t = scorep_event_time(l);
    if (l->profiling)
        scorep_profile_parameter(&l->profile, PNODE_PARAM_STRING, param, string_id, t);
    record(l, BUF_CLASS_PARAM, BUF_EV_PARAM_STRING, param, string_id, t);
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_parameter(l, t, SCOREP_SUBSTRATES_PARAMETER_STRING, param, string_id);
}

void scorep_event_metric(scorep_location *l, uint32_t metric, uint64_t bits, double as_double)
{
    SCOREP_LOCATION_EVENT(l);
    if (!usable(l))
        return;
    uint64_t t = scorep_event_time(l);
    if (l->profiling)
        scorep_profile_metric(&l->profile, metric, as_double);
    record(l, BUF_CLASS_PARAM, BUF_EV_METRIC, metric, bits, t);
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_counter(l, t, metric, bits, as_double);
}

void scorep_event_thread(scorep_location *l, buf_event_type type, uint32_t seq)
{
    SCOREP_LOCATION_EVENT(l);
    if (!l || !scorep_measurement_on())
        return;
    uint64_t t = scorep_event_time(l);
    record(l, BUF_CLASS_THREAD, type, 0, seq, t);
    if (__builtin_expect(l->substrates_on, 0)) {
        scorep_substrates_thread_event kind =
            type == BUF_EV_THREAD_CREATE  ? SCOREP_SUBSTRATES_THREAD_CREATE_WAIT_CREATE
            : type == BUF_EV_THREAD_WAIT  ? SCOREP_SUBSTRATES_THREAD_CREATE_WAIT_WAIT
            : type == BUF_EV_THREAD_BEGIN ? SCOREP_SUBSTRATES_THREAD_CREATE_WAIT_BEGIN
                                          : SCOREP_SUBSTRATES_THREAD_CREATE_WAIT_END;
        scorep_substrates_thread(l, t, kind, SCOREP_PARADIGM_PTHREAD, seq);
    }
}

/* The switch itself: the MeasurementOnOff event in l's trace, the process-wide flag, and in
 * l's profile the call of "MEASUREMENT OFF" that shows the time off. */
static void switch_recording(scorep_location *l, bool on)
{
    uint64_t t = scorep_event_time(l);
    record(l, BUF_CLASS_OTHER, on ? BUF_EV_MEASUREMENT_ON : BUF_EV_MEASUREMENT_OFF, 0, 0, t);
    /* plugins hear of the switch while recording is on: before off, after on (Score-P) */
    if (!on && __builtin_expect(l->substrates_on, 0))
        scorep_substrates_recording(l, t, false, scorep_profile_off_region());
    if (!on)
        scorep_gate_set(SCOREP_GATE_NO_RECORDING, 1);
    __atomic_store_n(&scorep_recording_enabled, on, __ATOMIC_RELEASE);
    if (on)
        scorep_gate_set(SCOREP_GATE_NO_RECORDING, 0);
    if (on && __builtin_expect(l->substrates_on, 0))
        scorep_substrates_recording(l, t, true, scorep_profile_off_region());
    uint32_t off = l->profiling ? scorep_profile_off_region() : SCOREP_INVALID_ID;
    if (off == SCOREP_INVALID_ID)
        return;
    if (l->unwind) /* not below the frames of a call that ended (sampling/unwind_enter.c) */
        scorep_unwind_leave(l);
    if (!on) {
        scorep_profile_enter(&l->profile, off, t);
        l->switched_off = true;
    } else if (l->switched_off) {
        /* switched on by the thread that switched off (by another one, its MEASUREMENT OFF
         * call stays open until that thread ends: switch on and off on one thread) */
        scorep_profile_leave(&l->profile, off, t);
        l->switched_off = false;
    }
}

/* Score-P's semantics: recording is switched for the whole process. The thread that
 * switches it off shows the time off as a call of "MEASUREMENT OFF" where it switched, and
 * its trace has the MeasurementOnOff events; the other threads record nothing meanwhile
 * (calls they entered while it was off end unrecorded, see scorep_location_recording). */
void scorep_event_recording(scorep_location *l, bool on)
{
    SCOREP_LOCATION_EVENT(l);
    scorep_throttle_settle();
    if (!l || !scorep_measurement_on() || (scorep_recording_on() != 0) == on)
        return;
    /* As in Score-P, recording may only be switched on again at the call level where it
     * was switched off; otherwise enters and leaves would no longer pair. */
    if (on && l->off_depth) {
        scorep_warn_once("SCOREP_RECORDING_ON at a different call level than the matching "
                         "RECORDING_OFF is ignored; switch on and off at the same level");
        return;
    }
    switch_recording(l, on);
}

void scorep_event_recording_start_off(scorep_location *l)
{
    SCOREP_LOCATION_EVENT(l);
    if (l && scorep_recording_on())
        switch_recording(l, false);
}

bool scorep_event_recording_select(scorep_location *l)
{
    SCOREP_LOCATION_EVENT(l);
    scorep_throttle_settle();
    if (!l || !scorep_measurement_on() || scorep_recording_on())
        return false;
    l->parked_depth = l->off_depth;
    l->off_depth = 0;
    switch_recording(l, true);
    return true;
}

void scorep_event_recording_deselect(scorep_location *l)
{
    SCOREP_LOCATION_EVENT(l);
    scorep_throttle_settle();
    if (scorep_measurement_on() && scorep_recording_on())
        switch_recording(l, false);
    l->off_depth += l->parked_depth;
    l->parked_depth = 0;
}

uint64_t scorep_event_metrics(scorep_location *l, uint64_t t)
{
    /* an empty set: a location that unwinds at events (sampling/unwind_enter.c) */
    return l->metrics->n ? scorep_metrics_event(l, t) : t;
}

uint64_t scorep_event_metrics_enter(scorep_location *l, uint32_t region, uint64_t t)
{
    t = scorep_event_metrics(l, t);
    if (l->unwind)
        scorep_unwind_enter(l, region, t);
    if (l->sampling)
        scorep_sampling_event(l);
    return t;
}

uint64_t scorep_event_metrics_leave(scorep_location *l, uint64_t t)
{
    if (l->unwind)
        scorep_unwind_leave(l);
    if (l->sampling)
        scorep_sampling_event(l);
    return scorep_event_metrics(l, t);
}

uint64_t scorep_event_metrics_settle(scorep_location *l, uint64_t t)
{
    return scorep_event_metrics_leave(l, t); /* frames at depth >= l->depth are stale */
}

void scorep_event_enter_general(scorep_location *l, uint32_t region, uintptr_t sp)
{
    scorep_event_enter_sp(l, region, sp);
}

void scorep_event_leave_general(scorep_location *l, uint32_t region)
{
    scorep_event_leave_impl(l, region, false, 0);
}

