/* SPDX-License-Identifier: BSD-3-Clause */
/* events.h: the core event API that every adapter calls. Inline, lock-free and
 * allocation-free on the common path; feeds the profile and the trace buffer. */
#ifndef SCOREP_EVENTS_H
#define SCOREP_EVENTS_H

#include "core/location.h"
#include "base/timer.h"
#include "defs/defs.h"
#include "metrics/metrics_event.h"
#include "profile/throttle_pending.h"
#include "substrates/substrates.h"

static inline uint64_t scorep_event_time(scorep_location *l)
{
    return scorep_location_now(l, scorep_timer_ticks());
}

/* Attribute k with value v for the trace: attached to the next Enter (enter true; call it
 * just before scorep_event_enter) or the next Leave of region on l. A record of its own
 * one tick after the location's last event, no clock read; the writer drops it when the
 * next region event is not the region's Enter or Leave (the call was not recorded). */
static inline void scorep_event_attr(scorep_location *l, uint32_t region, bool enter, buf_attr k,
                                     uint64_t v)
{
    SCOREP_LOCATION_EVENT_NONNULL(l);
    if (l->tracing && scorep_location_recording(l))
        scorep_buffer_event(&l->buffer, BUF_CLASS_PARAM, scorep_location_now(l, l->last_ts),
                            (enter ? BUF_EV_ATTR_ENTER : BUF_EV_ATTR_LEAVE) + (uint32_t)k, region,
                            v);
}

/* The metric values read for l's latest event, handed to substrate plugins with enter and
 * leave (NULL without metric sources read at events: none, or asynchronous plugins only). */
static inline uint64_t *scorep_event_metric_values(const scorep_location *l)
{
    return l->metrics && l->metrics->n ? l->metrics->values : NULL;
}

/* scorep_metrics_event out of line (events.c), for the enter and leave paths: the metric
 * sources' loops and reads inlined there made every traced or profiled call save and restore
 * registers for them, also without metrics; with metrics one call more per event. */
__attribute__((noinline)) uint64_t scorep_event_metrics(scorep_location *l, uint64_t t);
/* The same for an enter of region and a leave, which also place the call below the frames
 * unwound at its enter when SCOREP_ENABLE_UNWINDING is set (sampling/unwind_enter.c): such a
 * location has a metric set, empty when it reads no metric, so that the hook costs nothing
 * new when unwinding is off. */
__attribute__((noinline)) uint64_t scorep_event_metrics_enter(scorep_location *l, uint32_t region,
                                                              uint64_t t);
__attribute__((noinline)) uint64_t scorep_event_metrics_leave(scorep_location *l, uint64_t t);
/* The same for the leaves at a given time (OpenMP's, events_thread.h): the frames of calls
 * that ended are left first. OpenMP's enters (scorep_event_enter_at) are unwound as the
 * others; a leave on a worker's location may run on its team's master (omp_parallel.c), so
 * it only drops frames and never unwinds. */
__attribute__((noinline)) uint64_t scorep_event_metrics_settle(scorep_location *l, uint64_t t);
/* Slow paths (events.c): room for a deeper call, a leave that is not the innermost call. */
int scorep_event_grow_stack(scorep_location *l);
void scorep_event_leave_mismatch(scorep_location *l, uint32_t region);

/* sp: the stack pointer of the instrumented function (compiler adapter), else 0. It tells
 * which calls an exception unwound when the compiler does not report their exits. */
/* always inlined: in an adapter's function with a second, rare path (the user adapter's
 * dynamic regions) GCC would otherwise call an out-of-line copy (4 instructions more) */
static inline __attribute__((always_inline)) void scorep_event_enter_sp(scorep_location *l,
                                                                       uint32_t region,
                                                                       uintptr_t sp)
{
    SCOREP_LOCATION_EVENT_NONNULL(l);
    scorep_throttle_settle();
    if (__builtin_expect(!scorep_location_recording(l), 0)) {
        l->off_depth += scorep_measurement_on();
        return;
    }
    if (__builtin_expect(l->depth >= l->stack_cap, 0) && scorep_event_grow_stack(l) != 0)
        return;
    l->stack_region[l->depth] = region;
    l->stack_sp[l->depth] = sp;
    uint64_t t = scorep_event_time(l);
    if (l->metrics)
        t = scorep_event_metrics_enter(l, region, t);
    if (l->profiling)
        scorep_profile_enter(&l->profile, region, t);
    if (l->tracing)
        scorep_buffer_enter(&l->buffer, l->depth, t, region);
    l->depth++;
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_enter(l, t, region, scorep_event_metric_values(l));
}

static inline __attribute__((always_inline)) void scorep_event_enter(scorep_location *l,
                                                                    uint32_t region)
{
    scorep_event_enter_sp(l, region, 0);
}

/* raw: a timer value the caller read (scorep_timer_ticks) when have_raw, else read here.
 * Always inlined into its three wrappers below; the compiler adapters take the one that is
 * always inlined into them (scorep_event_leave_inline), the others are GCC's choice. */
static inline __attribute__((always_inline)) void
scorep_event_leave_impl(scorep_location *l, uint32_t region, bool have_raw, uint64_t raw)
{
    SCOREP_LOCATION_EVENT_NONNULL(l);
    scorep_throttle_settle();
    if (__builtin_expect(!scorep_measurement_on() || l->off_depth || l->depth == 0, 0)) {
        l->off_depth -= l->off_depth > 0 && scorep_measurement_on();
        return;
    }
    if (__builtin_expect(l->stack_region[l->depth - 1] != region, 0)) {
        scorep_event_leave_mismatch(l, region);
        return;
    }
    uint64_t t = scorep_location_now(l, have_raw ? raw : scorep_timer_ticks());
    if (l->metrics)
        t = scorep_event_metrics_leave(l, t);
    l->depth--;
    if (l->profiling)
        scorep_profile_leave(&l->profile, region, t);
    if (l->tracing)
        scorep_buffer_leave(&l->buffer, l->depth, t, region);
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_exit(l, t, region, scorep_event_metric_values(l));
}

static inline void scorep_event_leave(scorep_location *l, uint32_t region)
{
    scorep_event_leave_impl(l, region, false, 0);
}

/* The same, inlined into the caller: the compiler adapters' exit hooks, which do nothing
 * else (GCC would otherwise tail-call an out-of-line copy that saves and restores six
 * registers of its own). */
static inline __attribute__((always_inline)) void scorep_event_leave_inline(scorep_location *l,
                                                                           uint32_t region)
{
    scorep_event_leave_impl(l, region, false, 0);
}

/* The leave of a call whose last event was stamped with the timer value raw, read by the
 * caller after the call's work (a message received, events_mpi.h): the leave takes the same
 * reading (one tick later, timestamps being unique per location) instead of reading the
 * timer again. */
static inline void scorep_event_leave_raw(scorep_location *l, uint32_t region, uint64_t raw)
{
    scorep_event_leave_impl(l, region, true, raw);
}

/* The fast path of a measured call, for the compiler adapters' hooks (through the
 * functions of each mode below, scorep_event_enter_measured), where l's profiling and
 * tracing are as given and it reads no metric sources and has no substrate plugins
 * (scorep_location_events_fast, which the caller reads first). It takes the common case
 * only: l records, throttles nothing, reads the TSC (the three process-wide conditions in
 * one load, base/state.h's event gate), the call's depth has room in the call stack; the
 * profile's node is the last one its parent found (scorep_profile_enter's first test) and
 * no depth limit, metric values or throttling applies at the leave; the trace's stream has
 * room in its page (and at the leave the call's Enter is its stream's last record, no
 * minimum duration applies). Then the same profile, records and call stack as
 * scorep_event_enter_sp and scorep_event_leave_inline, with every test made before the
 * first change: any other case returns false having changed nothing, and the caller
 * tail-calls the general path (scorep_event_enter_general, ..._leave_general). Nothing on
 * this path is a call, and the stores that need no timestamp come before the TSC read, so
 * that the code of each mode needs no callee-saved registers. The busy mark as everywhere
 * (core/location.h: scorep_location_busy_fast_begin, one instruction at each end on x86-64). */
/* A message record that a fast step writes beside its region record (the MPI adapter's
 * message path, core/events_mpi.h): a send's (MpiSend with request 0 or MpiIsend) one tick
 * after its Enter, a receive's (MpiRecv) at the time read for it, before its Leave. */
typedef struct {
    uint32_t type, comm, peer, tag;
    uint64_t bytes, request, msg_id;
} scorep_event_fast_msg;

/* Throttled calls waiting to be counted (profile/throttle_pending.h), for the fast paths'
 * gate test: none when l does not profile. Only the profile throttles regions, so the
 * plugins' inline code then counts into no slot but the discard slot (filtered regions),
 * whose calls nobody counts: a settle would only clear them (issue #31: 2 instructions per
 * traced event). */
static inline __attribute__((always_inline)) uint64_t scorep_event_fast_pending(const bool profiling)
{
    return profiling ? SCOREP_THROTTLE_MASK : 0;
}

/* The profile node of region under p->cur that scorep_profile_enter finds without a call:
 * the one the parent found last or, with next_hit, the one that one found next (a
 * send-receive loop alternates two calls at one depth: its next_hit chain); else NULL. */
static inline __attribute__((always_inline)) pnode *
scorep_event_fast_node(const scorep_profile *p, uint32_t region, const bool next_hit)
{
    pnode *cur = p->cur, *c = cur->last_hit;
    if (__builtin_expect(c && c->key != region, 0)) {
        if (!next_hit)
            return NULL;
        c = c->next_hit;
        if (!c || c->key != region || c->parent != cur)
            return NULL;
    }
    return c;
}

/* The enter's fast path (above) with an optional message (msg: NULL for none; a send's
 * record one tick after the Enter when tracing, its bytes sent in the profile) and the
 * profile node found through next_hit too (next_hit). */
static inline __attribute__((always_inline)) bool
scorep_event_enter_fast_msg_as(scorep_location *l, uint32_t region, uintptr_t sp,
                               const scorep_event_fast_msg *msg, const bool next_hit,
                               const bool profiling, const bool tracing)
{
    scorep_location_fast_mark busy = scorep_location_busy_fast_begin(l);
    bool ok = false;
    uint32_t d = l->depth;
    scorep_profile *p = &l->profile;
    pnode *c = NULL;
    buf_stream *s = NULL;
    buf_region_rec *r = NULL;
    buf_mpi_rec *m = NULL;
    /* the gate: measurement on, recording on, the inline timer (the TSC on x86,
     * base/state.h); with off_depth 0 that is scorep_location_recording */
    /* with the pending throttled calls in one test: or'ed, one branch (issue #31) */
    if (__builtin_expect((scorep_event_fast_pending(profiling) | scorep_gate() | l->off_depth) != 0,
                         0))
        goto general;
    /* room in the call stack: when tracing, the slot's depth test below says it (the
     * buffer's rec_depth is at most stack_cap: buffer.h, depth_room) */
    if (!tracing && __builtin_expect(d >= l->stack_cap, 0))
        goto general;
    if (profiling) {
        c = scorep_event_fast_node(p, region, next_hit);
        if (__builtin_expect(p->depth >= p->max_depth || !c || c->dense, 0))
            goto general;
    }
    if (tracing && !(scorep_buffer_fast_slot(&l->buffer, d, l->buffer.rec_depth, 1, &s, &r) &&
                     (!msg || scorep_buffer_mpi_slot(&l->buffer, &m))))
        goto general;
    /* every store that needs no timestamp first: the values die before the TSC read,
     * whose two output registers would otherwise push the path into callee-saved ones */
    if (tracing) {
        s->cur = (char *)(r + 1);
        if (msg)
            l->buffer.cls[BUF_CLASS_MPI].cur = (char *)(m + 1);
        r->region = region;
        r->type = BUF_ENTER;
    }
    l->stack_region[d] = region;
    l->stack_sp[d] = sp;
    l->depth++; /* in memory: d stays the index, no copy of it (issue #31) */
    if (profiling) {
        if (next_hit)
            p->cur->last_hit = c;
        p->cur = c;
        p->depth++;
        if (msg)
            c->bytes_sent += msg->bytes;
    }
    uint64_t t = scorep_location_now(l, scorep_timer_tsc());
    if (profiling)
        c->enter_ts = t;
    if (tracing)
        r->ts = t;
    if (tracing && msg) {
        /* the message one tick after the Enter (SCOREP_TS_NEXT) */
        l->last_ts = t + 1;
        l->buffer.last_comm_ts = t + 1;
        scorep_buffer_mpi_fill(m, t + 1, msg->type, msg->comm, msg->peer, msg->tag, msg->bytes,
                               msg->request, msg->msg_id, 0);
    }
    ok = true;
general:
    scorep_location_busy_fast_end(l, busy);
    return ok;
}

static inline __attribute__((always_inline)) bool
scorep_event_enter_fast_as(scorep_location *l, uint32_t region, uintptr_t sp, const bool profiling,
                           const bool tracing)
{
    return scorep_event_enter_fast_msg_as(l, region, sp, NULL, false, profiling, tracing);
}

/* The leave's fast path (above) at the time read for it by the caller (with_raw: raw,
 * else the TSC now; with it the whole gate, recording on, is required) with an optional
 * received message (msg: MpiRecv, or a completion's MpiIrecv or MpiIsendComplete, at that
 * time and the Leave one tick later when tracing, its bytes received in the profile;
 * handle 0). */
static inline __attribute__((always_inline)) bool
scorep_event_leave_fast_msg_as(scorep_location *l, uint32_t region, uint64_t raw,
                               const bool with_raw, const scorep_event_fast_msg *msg,
                               const bool profiling, const bool tracing)
{
    scorep_location_fast_mark busy = scorep_location_busy_fast_begin(l);
    bool ok = false;
    uint32_t d = l->depth - 1; /* UINT32_MAX at depth 0: not below stack_cap */
    scorep_profile *p = &l->profile;
    pnode *c = NULL;
    buf_stream *s = NULL;
    buf_region_rec *r = NULL;
    buf_mpi_rec *m = NULL;
    const buf_region_rec *e = NULL;
    /* the whole gate, as the enter's: a leave records while recording is off
     * (scorep_event_leave_impl), but such leaves (of calls entered before recording went
     * off; the others have off_depth) take the general path, which does; a message needs
     * recording on anyway. One instruction fewer than masking the gate (issue #31). */
    uint32_t gate = scorep_gate();
    if (__builtin_expect((scorep_event_fast_pending(profiling) | gate | l->off_depth) != 0, 0))
        goto general;
    if (tracing) {
        /* d < depth_cap and no minimum duration, in one test (fast_leave_depth); so also
         * d < depth <= stack_cap (d is UINT32_MAX at depth 0): no test of its own */
        if (!(scorep_buffer_fast_slot(&l->buffer, d, l->buffer.fast_leave_depth, 1, &s, &r) &&
              (!msg || scorep_buffer_mpi_slot(&l->buffer, &m))))
            goto general;
    } else if (__builtin_expect(d >= l->stack_cap, 0)) {
        goto general;
    }
    /* the call left is the innermost one: without tracing by the call stack; with it by
     * the call's Enter below, which is the last record of its depth's stream and has the
     * region (issue #31, session 18: the stack's pointer load and an index copy fewer) */
    if (!tracing && __builtin_expect(l->stack_region[d] != region, 0))
        goto general;
    if (profiling) {
        c = p->cur;
        if (__builtin_expect(p->overflow || c->kind != PNODE_REGION || c->id != region ||
                                 c->dense || c->visits + 1 == p->throttle_calls,
                             0))
            goto general;
    }
    if (tracing) {
        /* the call's Enter is its stream's last record; in an empty page e is the page
         * header's last 16 bytes, whose type is 0 (buffer.h, buf_page.zero). Its region is
         * the call stack's at d: at each depth only the innermost call is open, every
         * recorded enter pushes its region with its Enter and every pop writes its Leave
         * where the page has room (scorep_buffer_leave); so an Enter last in a page with
         * room is the open call's. A leave of another region (exits lost) takes the
         * general path, as with the stack's test (design.md, session 18). */
        e = r - 1;
        if (__builtin_expect((e->type & BUF_TYPE_MASK) != BUF_ENTER || e->region != region, 0))
            goto general;
    }
    /* as the enter: the stores without the timestamp first */
#if SCOREP_ASM_X86_64
    /* in memory, as the enter's: a decrement there, so that d is only the stream's index
     * (storing d, GCC kept a second copy of it for the index: one instruction per leave,
     * issue #31, session 18) */
    __asm__("subl $1, %0" : "+m"(l->depth));
#else
    l->depth--;
#endif
    if (profiling) {
        if (msg)
            c->bytes_received += msg->bytes;
        p->cur = c->parent;
        p->depth--;
    }
    if (tracing) {
        s->cur = (char *)(r + 1);
        if (msg)
            l->buffer.cls[BUF_CLASS_MPI].cur = (char *)(m + 1);
        r->region = region;
        /* whether the call enclosed communication, the reduction finds out itself (the
         * communication records between the Enter and the Leave, buffer_reduce.c) */
        r->type = BUF_LEAVE;
    }
    uint64_t t = scorep_location_now(l, with_raw ? raw : scorep_timer_tsc());
    if (tracing && msg) {
        l->last_ts = t + 1;
        l->buffer.last_comm_ts = t;
        scorep_buffer_mpi_fill(m, t, msg->type, msg->comm, msg->peer, msg->tag, msg->bytes,
                               msg->request, msg->msg_id, 0);
    }
    /* the Leave's time */
    uint64_t tl = tracing && msg ? t + 1 : t;
    if (profiling)
        scorep_profile_close_node(c, tl);
    if (tracing)
        r->ts = tl;
    ok = true;
general:
    scorep_location_busy_fast_end(l, busy);
    return ok;
}

static inline __attribute__((always_inline)) bool
scorep_event_leave_fast_as(scorep_location *l, uint32_t region, const bool profiling,
                           const bool tracing)
{
    return scorep_event_leave_fast_msg_as(l, region, 0, false, NULL, profiling, tracing);
}

/* l's current call path as its next event sees it: with SCOREP_ENABLE_UNWINDING the frames
 * unwound for a call that ended are left first (sampling/unwind_enter.c), so that an OpenMP
 * fork does not hang its workers below them. */
void scorep_unwind_leave(struct scorep_location *l);
static inline pnode *scorep_event_current_node(scorep_location *l)
{
    if (__builtin_expect(l->unwind != NULL, 0))
        scorep_unwind_leave(l);
    return l->profile.cur;
}

/* scorep_event_enter_sp and scorep_event_leave out of line: the fast path's callers reach
 * them by a tail call. */
__attribute__((noinline)) void scorep_event_enter_general(scorep_location *l, uint32_t region,
                                                          uintptr_t sp);
__attribute__((noinline)) void scorep_event_leave_general(scorep_location *l, uint32_t region);

/* A measured call's enter and leave from the compiler adapters' hooks and the user regions:
 * the fast path of l's mode (scorep_location_events_fast) inlined, each mode's code on its
 * own branch, so that the hooks need no callee-saved register; else, and for the fast
 * path's own exceptions, the general path by a tail call. (Session 15 tail-called one
 * function per mode; inlined, the arguments' moves and the jump go: callgrind per traced
 * call 141.5 against 150.5 with the busy mark's cut, profiled 150 against 157.) The tracing
 * mode is tested first, by one compare of the byte in memory (scorep_location_events_fast_is),
 * the others on the byte loaded after it. */
static inline __attribute__((always_inline)) void
scorep_event_enter_measured(scorep_location *l, uint32_t region, uintptr_t sp)
{
    uint32_t mode;
    if (scorep_location_events_fast_is(l, SCOREP_EVENTS_FAST_TRACE)) {
        if (!scorep_event_enter_fast_as(l, region, sp, false, true))
            scorep_event_enter_general(l, region, sp);
    } else if ((mode = scorep_location_events_fast(l)) == SCOREP_EVENTS_FAST_PROFILE) {
        if (!scorep_event_enter_fast_as(l, region, sp, true, false))
            scorep_event_enter_general(l, region, sp);
    } else if (mode == SCOREP_EVENTS_FAST_BOTH) {
        if (!scorep_event_enter_fast_as(l, region, sp, true, true))
            scorep_event_enter_general(l, region, sp);
    } else {
        scorep_event_enter_general(l, region, sp);
    }
}

static inline __attribute__((always_inline)) void
scorep_event_leave_measured(scorep_location *l, uint32_t region)
{
    uint32_t mode;
    if (scorep_location_events_fast_is(l, SCOREP_EVENTS_FAST_TRACE)) {
        if (!scorep_event_leave_fast_as(l, region, false, true))
            scorep_event_leave_general(l, region);
    } else if ((mode = scorep_location_events_fast(l)) == SCOREP_EVENTS_FAST_PROFILE) {
        if (!scorep_event_leave_fast_as(l, region, true, false))
            scorep_event_leave_general(l, region);
    } else if (mode == SCOREP_EVENTS_FAST_BOTH) {
        if (!scorep_event_leave_fast_as(l, region, true, true))
            scorep_event_leave_general(l, region);
    } else {
        scorep_event_leave_general(l, region);
    }
}

/* A call stamped with one timer reading: its Enter at the reading, its Leave one tick
 * later, nothing recorded in between (the MPI adapter's local calls, which it records just
 * before making them). The same records as scorep_event_enter and scorep_event_leave_raw
 * with the Enter's timestamp; in the common case (no metric sources, no substrate plugins)
 * without the call stack's push and pop, one busy mark and one recording check. */
static inline __attribute__((always_inline)) void scorep_event_stamped(scorep_location *l,
                                                                      uint32_t region)
{
    if (__builtin_expect(l->metrics != NULL || l->substrates_on, 0)) {
        scorep_event_enter(l, region);
        scorep_event_leave_raw(l, region, l->last_ts);
        return;
    }
    SCOREP_LOCATION_EVENT_NONNULL(l);
    scorep_throttle_settle();
    /* unrecorded, the pair changes nothing (off_depth up and down again, events.h above) */
    if (__builtin_expect(!scorep_location_recording(l), 0))
        return;
    uint64_t t = scorep_event_time(l);
    l->last_ts = t + 1;
    if (l->profiling)
        scorep_profile_stamped(&l->profile, region, t);
    if (l->tracing) {
        scorep_buffer_enter(&l->buffer, l->depth, t, region);
        scorep_buffer_leave(&l->buffer, l->depth, t + 1, region);
    }
}

/* scorep_event_stamped's common case, for a location in the mode given (profiling, tracing
 * or both: its events_fast byte, which the caller reads first; so no metric sources and no
 * substrate plugins): no throttle update pending, the inline timer, l recording; the
 * profile node that the region's last visit found still the one to add the visit to (no
 * depth limit, no throttling at this visit); the trace stream of the call's depth with
 * room for both records in its page and no minimum duration that could remove a one-tick
 * call (buffer.min_dur > 1). Every test before the first change: in any other case it returns
 * false having changed nothing, and the caller tail-calls scorep_event_stamped out of line,
 * so that this case keeps no registers of its own to save and restore for the other cases'
 * calls (issue #31: a local MPI call's +20 ns). The same profile and records as
 * scorep_event_stamped (Enter at t, Leave at t + 1, as scorep_buffer_enter and _leave
 * write them; the profiling mode without reading the timer, below); the busy mark as
 * everywhere (core/location.h). */
static inline __attribute__((always_inline)) bool
scorep_event_stamped_fast_as(scorep_location *l, uint32_t region, const bool profiling,
                             const bool tracing)
{
    scorep_location_fast_mark busy = scorep_location_busy_fast_begin(l);
    scorep_profile *p = &l->profile;
    scorep_buffer *b = &l->buffer;
    pnode *c = NULL;
    buf_stream *s = NULL;
    buf_region_rec *r = NULL;
    /* the enter's test (scorep_event_enter_fast_msg_as): the gate word for the measurement,
     * recording and the TSC, off_depth 0 for scorep_location_recording, pending throttled
     * calls when profiling, or'ed into one branch; before session 19 three flags through the
     * GOT each (issue #31: 8 instructions per MPI_Comm_rank) */
    if (__builtin_expect((scorep_event_fast_pending(profiling) | scorep_gate() | l->off_depth) != 0,
                         0))
        goto general;
    if (profiling) {
        c = p->cur->last_hit;
        if (__builtin_expect(!(c && c->key == region && c->kind == PNODE_REGION &&
                               p->depth < p->max_depth && !c->dense &&
                               c->visits + 1 != p->throttle_calls),
                             0))
            goto general;
    }
    if (tracing && (__builtin_expect(b->min_dur > 1, 0) ||
                    !scorep_buffer_fast_slot(b, l->depth, b->rec_depth, 2, &s, &r)))
        goto general;
    if (profiling && !tracing) {
        /* The profile keeps only the visit's duration, one tick by the stamp's definition;
         * the timer reading placed the trace's records and nothing else, so the profiling
         * mode reads none (issue #31: one rdtsc is 12 ns on the AMD VM, 17-21 ns on the
         * Intel Xeon, where the call's goal is +20 ns). l->last_ts stays the last reading:
         * the next one is later still. */
        scorep_profile_close_node_tick(c);
        scorep_location_busy_fast_end(l, busy);
        return true;
    }
    uint64_t t = scorep_location_now(l, scorep_timer_tsc());
    l->last_ts = t + 1;
    if (profiling) {
        c->enter_ts = t;
        scorep_profile_close_node(c, t + 1);
    }
    if (tracing) {
        s->cur = (char *)(r + 2);
        r[0].ts = t;
        r[0].region = region;
        r[0].type = BUF_ENTER;
        r[1].ts = t + 1;
        r[1].region = region;
        r[1].type = BUF_LEAVE;
    }
    scorep_location_busy_fast_end(l, busy);
    return true;
general:
    scorep_location_busy_fast_end(l, busy);
    return false;
}

/* The fast path in l's mode (scorep_location_events_fast, read by the caller): each mode's
 * code compiled on its own; false (nothing changed) for mode 0 as for the cases above. */
static inline __attribute__((always_inline)) bool
scorep_event_stamped_fast(scorep_location *l, uint32_t region, uint32_t mode)
{
    if (mode == SCOREP_EVENTS_FAST_PROFILE)
        return scorep_event_stamped_fast_as(l, region, true, false);
    if (mode == SCOREP_EVENTS_FAST_TRACE)
        return scorep_event_stamped_fast_as(l, region, false, true);
    return mode == SCOREP_EVENTS_FAST_BOTH && scorep_event_stamped_fast_as(l, region, true, true);
}

/* A call of a throttled region (compiler adapter): one more visit in the profile; no time,
 * no trace record, no call stack entry. */
static inline void scorep_event_throttled_enter(scorep_location *l, uint32_t region)
{
    SCOREP_LOCATION_EVENT(l);
    if (__builtin_expect(scorep_location_recording(l), 1) && l->profiling)
        scorep_profile_throttled_visit(&l->profile, region);
}

/* Its common case without a call, for the compiler adapter's hook: the node of the current
 * call path already counts the region's throttled visits. false (nothing changed) when the
 * profile needs scorep_event_throttled_enter (scorep_profile_throttled_slow). */
static inline __attribute__((always_inline)) bool
scorep_event_throttled_enter_fast(scorep_location *l, uint32_t region)
{
    scorep_location_fast_mark busy = scorep_location_busy_fast_begin(l);
    bool done = true;
    if (__builtin_expect(scorep_location_recording(l), 1) && l->profiling) {
        pnode *c = l->profile.cur->last_hit;
        if (__builtin_expect(c && c->key == region && c->kind == PNODE_REGION && c->throttled, 1)) {
            c->visits++;
            c->throttled->visits++;
        } else {
            done = false;
        }
    }
    scorep_location_busy_fast_end(l, busy);
    return done;
}

/* Its leave. Throttled calls are never on the call stack, so the region on top of it is a
 * call entered before the region was throttled (a recursive region may end such a call
 * early; documented). */
static inline void scorep_event_throttled_leave(scorep_location *l, uint32_t region)
{
    if (l->depth && l->stack_region[l->depth - 1] == region)
        scorep_event_leave(l, region);
}

/* A dynamic region (user region of a type with the DYNAMIC bit): every visit its own call
 * path "instance=N" in the profile, clustered (profile/profile_cluster.h); the trace records
 * the plain enter and leave, as Score-P's. Only dynamic regions take these (events.c). sp:
 * where it was begun, tagged (scorep_sp_tagged), as scorep_event_enter_sp's. */
void scorep_event_enter_dynamic(scorep_location *l, uint32_t region, uintptr_t sp);
void scorep_event_leave_dynamic(scorep_location *l, uint32_t region);

/* Slower events (events.c). */
/* ProgramBegin on the first location: the call of the program region (base/state.h) opens
 * at t in its profile and is closed with the location at finalize (its trace has
 * ProgramBegin and ProgramEnd instead, as Score-P's). */
void scorep_event_program_begin(scorep_location *l, uint64_t t);
void scorep_event_parameter_int(scorep_location *l, uint32_t param, int64_t v);
void scorep_event_parameter_uint(scorep_location *l, uint32_t param, uint64_t v);
void scorep_event_parameter_string(scorep_location *l, uint32_t param, uint32_t string_id);
void scorep_event_metric(scorep_location *l, uint32_t metric, uint64_t bits, double as_double);
void scorep_event_thread(scorep_location *l, buf_event_type type, uint32_t seq);
void scorep_event_recording(scorep_location *l, bool on);
/* Selective recording (SCOREP_SELECTIVE_CONFIG_FILE, adapters/user/user_selective.c): recording
 * goes on at the enter of a selected instance of a user region and off after its leave, at one
 * call level, on l's thread. The calls l entered while recording was off are still open below
 * that level: select sets them aside (they would keep l from recording, see
 * scorep_location_recording) and deselect gives them back, so that their leaves stay
 * unrecorded as their enters were. select returns false (and changes nothing) when recording
 * is on already; deselect follows a select that returned true, after the region's leave. */
bool scorep_event_recording_select(scorep_location *l);
/* At start (the runtime's begin phase, before the measurement is active): recording off. */
void scorep_event_recording_start_off(scorep_location *l);
void scorep_event_recording_deselect(scorep_location *l);
/* Leaves every call whose frame lies below sp (deeper in the stack), innermost first: they
 * were unwound (an exception caught at sp, compiler_adapter.c) or are abandoned by a jump
 * to sp (longjmp.c). */
void scorep_event_unwind_to(scorep_location *l, uintptr_t sp);
/* The same for a jump to sp whose setjmp was made at call depth depth (longjmp.c's note of
 * it): the calls entered after it with the setjmp caller's own sp are left too (calls
 * inlined into that frame: their hooks record its sp, and their exits are skipped); the
 * user regions begun there stay open (docs/design.md). UINT32_MAX: not known. */
void scorep_event_unwind_jump(scorep_location *l, uintptr_t sp, uint32_t depth);

/* A recorded sp's low bits: how the walk above leaves the call. A frame's stack pointer is
 * 8-aligned on LP64 (x86-64 and AArch64 keep 16 at every call), so 3 bits are free there;
 * 0 is the plain leave (the compiler hooks and plain user regions: their sp is stored as
 * it is, the fast paths unchanged). The others' leave does more than the plain one: the
 * walk calls the function registered for the tag (docs/design.md, "Jumps out of calls"). */
enum {
    SCOREP_SP_PLAIN = 0,
    SCOREP_SP_USER_DYNAMIC = 1,  /* a dynamic user region: its instance node */
    SCOREP_SP_USER_SELECTED = 2, /* a selected user region: recording goes off after it */
    SCOREP_SP_USER_SELECTED_DYNAMIC = 3,
    SCOREP_SP_IO = 4,   /* a POSIX I/O wrapper: the adapter's nesting mark */
    SCOREP_SP_USER = 5, /* a plain user region: the plain leave; tells it from a call */
    SCOREP_SP_TAGS = 8
};
#define SCOREP_SP_TAG_MASK ((uintptr_t)(sizeof(uintptr_t) == 8 ? SCOREP_SP_TAGS - 1 : 0))
/* the plain user regions' tag, added to the begin's CFA (one lea either way): none where
 * pointers have no free bits */
#define SCOREP_SP_USER_TAG ((uintptr_t)(sizeof(uintptr_t) == 8 ? SCOREP_SP_USER : 0))
/* sp with tag; a machine with 4-byte pointers has no free bits: 0 for a tagged call, where
 * the walk stops, as it did for these calls before session 24 */
static inline uintptr_t scorep_sp_tagged(uintptr_t sp, unsigned tag)
{
    return sizeof(uintptr_t) == 8 || tag == SCOREP_SP_PLAIN ? sp | tag : 0;
}
/* The walk's leave of a call recorded with tag (region on top of l's call stack); one per
 * tag, set once by the adapter (its constructor); a tag without one gets the plain leave. */
typedef void (*scorep_unwind_leave_fn)(scorep_location *l, uint32_t region, unsigned tag);
void scorep_event_unwind_register(unsigned tag, scorep_unwind_leave_fn fn);

#endif
