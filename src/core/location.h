/* SPDX-License-Identifier: BSD-3-Clause */
/* location.h: one location per thread (later: per GPU stream), found through one
 * initial-exec TLS pointer; holds the thread's profile and trace buffer. */
#ifndef SCOREP_LOCATION_H
#define SCOREP_LOCATION_H

#include "base/arch.h"
#include "base/state.h"
#include "buffer/buffer.h"
#include "profile/profile.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A setjmp's note (adapters/compiler/longjmp.c): the jmp_buf, the stack pointer it returns
 * to, the call depth then and the call below it (its sp and region at depth - 1) */
enum { SCOREP_JUMP_NOTES = 8 };
typedef struct {
    const void *env;
    uintptr_t sp;
    uintptr_t below;
    uint32_t region;
    uint32_t depth;
} scorep_jump_note;

/* The global id of location LOCAL of rank RANK: LOCAL << 32 | RANK, as Score-P makes it
 * (SCOREP_Location_CalculateGlobalId). LOCAL is the location's id in its process
 * (scorep_location.id: the order of creation over every kind, CPU threads and GPU streams; 0
 * the master thread, so a master's global id is its rank). Scalasca reads a thread's number
 * back as id >> 32 (pearl's Location::getThreadId; square merges a process's locations of
 * equal numbers); the id also names the location's event file (traces/ID.evt). Every location
 * id the trace writer writes, and the substrate plugins' SCOREP_Location_GetGlobalId, is this. */
static inline uint64_t scorep_location_global_id(uint32_t rank, uint32_t local)
{
    return (uint64_t)local << 32 | rank;
}

typedef struct scorep_location {
    uint32_t id;        /* process-local, 0 = the thread that started the measurement */
    uint32_t depth;     /* current region call depth (trace) */
    uint32_t off_depth; /* calls entered while recording was off, still open */
    uint32_t parked_depth; /* off_depth set aside while a selected instance records (events.h) */
    uint32_t stack_cap; /* open calls: region and stack pointer per depth */
    uint32_t busy;      /* events in progress on this location (scorep_location_busy_begin) */
    uint32_t *stack_region;
    uintptr_t *stack_sp; /* where each call lies, its low bits the walk's leave (events.h) */
    uint64_t last_ts;   /* timestamps are made strictly increasing per location */
    uintptr_t fn_addr;  /* compiler adapter: last measured function seen by this thread ... */
    uint32_t fn_region; /* ... and its region (saves the table probe in loops and exits) */
    bool profiling, tracing;
    bool switched_off;   /* this thread switched recording off: "MEASUREMENT OFF" is open */
    bool finished;       /* thread ended; no more events */
    bool gpu;            /* a GPU stream (CUDA adapter): events come with converted times */
    /* substrate plugins (src/substrates) take this location's events; false without plugins
     * (the event functions test it: one predictable branch; it sits in padding, so the
     * fields of the event path keep their places) */
    bool substrates_on;
    /* SCOREP_EVENTS_FAST_*: profiling, tracing or both, without metric sources read at
     * events or substrate plugins; else 0 (scorep_location_modes_changed keeps it). The
     * compiler adapters' hooks take the fast path of the mode (events.h,
     * scorep_event_enter_measured) after a test of this one byte instead of the four fields */
    uint8_t events_fast;
    /* the MPI adapter's nesting flag: non-zero while a wrapper of this thread runs, so that
     * MPI calls made from inside it go straight to PMPI (adapters/mpi/mpi_adapter.h). Here,
     * in padding, rather than in a TLS variable of the adapter: its wrappers load the
     * location anyway, and in a shared library each access of a TLS variable loads its
     * offset from the GOT first (issue #31, session 19: 4 instructions per wrapped call) */
    uint8_t mpi_nesting;
    uint32_t create_seq; /* pthread sequence number of this thread (0 = main) */
    uint32_t parent_id;  /* location that created this thread */
    char name[32];
    scorep_profile profile;
    scorep_buffer buffer;
    struct scorep_sampling_thread *sampling; /* src/sampling: NULL when not sampled */
    struct scorep_metric_set *metrics;       /* metric sources read at enter/leave; NULL: none */
    uint64_t first_ts, end_ts;
    struct scorep_rewind_stack *rewind; /* open rewind points (rewind.c), NULL until used */
    /* selective recording (adapters/user/user_selective.c): the selected region whose
     * instance switched recording on from this thread, and how often it is open here */
    const void *selected_owner;
    uint32_t selected_open;
    uint32_t in_teams; /* OpenMP teams this location is in (team begin/end, events_thread.c) */
    struct scorep_location *next;
    struct scorep_substrate_loc *substrates_data; /* substrate plugins' per-location data */
    /* compiler adapter: the last throttled or filtered function seen by this thread and its
     * table entry; apart from fn_addr's, so that a hit there is a measured call without a
     * test of the region (issue #31, session 18); last, so that the event path's fields
     * keep their places */
    uintptr_t fn_other_addr;
    uint32_t fn_other_region;
    /* SCOREP_ENABLE_UNWINDING: the unwound frames at this location's enters
     * (sampling/unwind_enter.c); NULL when off. Its enters and leaves reach it through the
     * metric hook of the event path (l->metrics is then set, possibly empty) */
    struct scorep_unwind_loc *unwind;
    /* the latest setjmps of this thread (adapters/compiler/longjmp.c, a ring): here, not in
     * thread-local storage, whose static part a dlopen'ed runtime shares with every other
     * library */
    scorep_jump_note jump_notes[SCOREP_JUMP_NOTES];
    uint32_t jump_notes_next;
} scorep_location;

enum { SCOREP_EVENTS_FAST_PROFILE = 1, SCOREP_EVENTS_FAST_TRACE = 2, SCOREP_EVENTS_FAST_BOTH = 3 };

extern __thread scorep_location *scorep_tls_location __attribute__((tls_model("initial-exec")));
/* scorep_measurement_on(), scorep_recording_on(): base/state.h */

/* What every new location gets, given once by the runtime at init before the first
 * location is created (scorep_location_configure). */
typedef struct {
    bool profiling, tracing;
    uint32_t max_callpath_depth;
    uint64_t throttle_calls, throttle_sum; /* profile throttling thresholds; 0: off */
    /* trace buffer: the reduction steps and the minimum-duration thresholds (ticks) */
    uint8_t steps[BUF_MAX_STEPS], n_steps;
    uint64_t min_dur, min_dur_first, min_dur_cap;
    /* Hook called on a new thread's location, on that thread, after it is registered: the
     * runtime's subsystems (metrics, sampling) prepare their per-location state. */
    void (*created)(scorep_location *l);
} scorep_location_setup;

void scorep_location_configure(const scorep_location_setup *setup);

/* Hook (registered by the runtime before any event can come): starts the measurement on
 * the first event; returns 1 when the measurement runs. */
void scorep_location_on_first_use(int (*start)(void));

/* Returns this thread's location, creating it (and, through the first-use hook, starting
 * the measurement) on first use. NULL when the measurement is off or the thread cannot get
 * a location. */
scorep_location *scorep_location_slow(void);

static inline scorep_location *scorep_location_get(void)
{
    scorep_location *l = scorep_tls_location;
    if (__builtin_expect(l != NULL, 1))
        return l;
    return scorep_location_slow();
}

/* Events in progress. A thread may still record when another one ends the measurement
 * (exit() or a return from main while threads run): finalize then switches the measurement
 * off, and before it reads, closes or writes any location it waits until no event is in
 * progress on it (scorep_location_quiesce). Each event marks itself on its location from
 * before its first check of the measurement state to after its last change of the
 * location. Only the location's thread changes busy (a signal handler on it nests and
 * restores it): a plain read and an atomic store, no read-modify-write, no fence; the
 * compiler barrier keeps the state check after the mark, and finalize's membarrier gives
 * the store-load order between the threads (location.c). The release store at the end
 * hands the event's changes to finalize. */
static inline void scorep_location_busy_begin(scorep_location *l)
{
    __atomic_store_n(&l->busy, l->busy + 1, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* The same, returning the old value for the end's plain store (the fast paths, which keep
 * it in a register: events.h) */
static inline uint32_t scorep_location_busy_keep(scorep_location *l)
{
    uint32_t busy = l->busy;
    __atomic_store_n(&l->busy, busy + 1, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return busy;
}

/* The fast paths' mark (core/events.h), one instruction at each end on x86-64: an unlocked
 * add to memory is one instruction, so a signal handler on this thread (which runs between
 * instructions) sees it whole, and only this thread writes busy; the "memory" clobber is
 * the compiler barrier of the plain version, and x86's stores are releases. The plain
 * load-and-store elsewhere (scorep_location_busy_keep; issue #31: 4 instructions per event
 * become 2). */
#if SCOREP_ASM_X86_64
typedef struct {
} scorep_location_fast_mark;
static inline __attribute__((always_inline)) scorep_location_fast_mark
scorep_location_busy_fast_begin(scorep_location *l)
{
    __asm__ volatile("addl $1, %0" : "+m"(l->busy) : : "memory");
    return (scorep_location_fast_mark){};
}
static inline __attribute__((always_inline)) void
scorep_location_busy_fast_end(scorep_location *l, scorep_location_fast_mark m)
{
    (void)m;
    __asm__ volatile("subl $1, %0" : "+m"(l->busy) : : "memory");
}
#else
typedef uint32_t scorep_location_fast_mark;
static inline __attribute__((always_inline)) scorep_location_fast_mark
scorep_location_busy_fast_begin(scorep_location *l)
{
    return scorep_location_busy_keep(l);
}
static inline __attribute__((always_inline)) void
scorep_location_busy_fast_end(scorep_location *l, scorep_location_fast_mark m)
{
    __atomic_store_n(&l->busy, m, __ATOMIC_RELEASE);
}
#endif

/* (busy is read again rather than kept: one register fewer on the enter path; a signal
 * handler that ran in between left it as it found it) */
static inline void scorep_location_busy_end(scorep_location *l)
{
    __atomic_store_n(&l->busy, l->busy - 1, __ATOMIC_RELEASE); /* the event's stores first */
}

static inline scorep_location *scorep_location_mark(scorep_location *l)
{
    if (l)
        scorep_location_busy_begin(l);
    return l;
}

static inline void scorep_location_unmark(scorep_location **l)
{
    if (*l)
        scorep_location_busy_end(*l);
}

static inline scorep_location *scorep_location_mark_nonnull(scorep_location *l)
{
    scorep_location_busy_begin(l);
    return l;
}

static inline void scorep_location_unmark_nonnull(scorep_location **l)
{
    scorep_location_busy_end(*l);
}

/* SCOREP_LOCATION_EVENT(l); as the first statement of an event function marks the whole
 * function (every return) as an event in progress on l (l may be NULL). */
#define SCOREP_LOCATION_EVENT(l)                                                                   \
    __attribute__((cleanup(scorep_location_unmark))) scorep_location *scorep_event_mark_ =       \
        scorep_location_mark(l)
/* The same where l is never NULL (the enter and leave paths): no test. */
#define SCOREP_LOCATION_EVENT_NONNULL(l)                                                           \
    __attribute__((cleanup(scorep_location_unmark_nonnull))) scorep_location *scorep_event_mark_ = \
        scorep_location_mark_nonnull(l)

/* At finalize, after the measurement was switched off: no more thread locations are made,
 * and every other location's events in progress have ended (waits up to a few seconds for
 * a thread that is descheduled in one; a thread stopped inside an event for longer is
 * named in a warning and its location read as it is). Afterwards the location list and
 * the locations are the finalizing thread's. */
void scorep_location_quiesce(void);
/* The same, not waiting for except (the location of a thread that a signal stopped inside
 * an event, while another thread writes its data: it will not end the event). */
void scorep_location_quiesce_except(const scorep_location *except);

/* Every change of l->tracing, l->profiling, l->metrics or l->substrates_on is followed by
 * this call, on l's thread or before l records (events_fast above). */
static inline void scorep_location_modes_changed(scorep_location *l)
{
    /* an atomic store: finalize changes it on other threads' locations (substrates) */
    uint8_t m = (l->profiling ? SCOREP_EVENTS_FAST_PROFILE : 0) |
                (l->tracing ? SCOREP_EVENTS_FAST_TRACE : 0);
    __atomic_store_n(&l->events_fast, l->metrics || l->substrates_on ? 0 : m, __ATOMIC_RELAXED);
}

/* l->events_fast, read before an event's mark (events.h, scorep_event_enter_measured): it
 * changes on l's thread, or at finalize after the measurement is off, which the event's
 * test after its mark sees. */
static inline uint32_t scorep_location_events_fast(const scorep_location *l)
{
    return __atomic_load_n(&l->events_fast, __ATOMIC_RELAXED);
}

/* Whether l->events_fast is m, read as scorep_location_events_fast: on x86-64 one compare
 * of the byte in memory (cmpb, then the branch), where the atomic load above takes a movzbl
 * and a compare of the register (GCC does not fold an atomic load into an operand): one
 * instruction fewer per traced event when the hooks test the tracing mode first (issue #31,
 * session 18). A byte's load is atomic on x86; the asm reads it once, and its memory
 * operand orders it after this thread's stores to the byte as the atomic load is. */
static inline __attribute__((always_inline)) bool
scorep_location_events_fast_is(const scorep_location *l, uint8_t m)
{
#if SCOREP_ASM_X86_64 && defined(__GCC_ASM_FLAG_OUTPUTS__)
    bool eq;
    __asm__("cmpb %2, %1" : "=@ccz"(eq) : "m"(l->events_fast), "i"(m));
    return eq;
#else
    return scorep_location_events_fast(l) == m;
#endif
}

/* Whether l records now: the measurement runs, recording is on, and l is not inside a call
 * it entered while recording was off (such calls end unrecorded before l records again). */
static inline bool scorep_location_recording(const scorep_location *l)
{
    return scorep_measurement_on() && scorep_recording_on() && !l->off_depth;
}

/* Strictly increasing timestamp for this location: the buffer merges its streams by
 * timestamp (unique per location), and OTF2, the reduction and the analysis need them in
 * order. The fix-up is a branch, not a select: the common case (the reading is later) is
 * a compare with the last timestamp in memory, a not-taken branch and the store, 3
 * instructions instead of 5 (issue #31); a reading at or before the last one (a TSC that
 * went backwards, a thread moved to a CPU whose TSC lags, two readings of one tick, a
 * timestamp made one tick later by the caller) takes last + 1 on the cold side. */
static inline __attribute__((always_inline)) uint64_t scorep_location_now(scorep_location *l,
                                                                         uint64_t raw)
{
    if (__builtin_expect(raw <= l->last_ts, 0)) {
        /* an empty volatile asm: GCC would turn the branch back into a select */
        __asm__ volatile("");
        raw = l->last_ts + 1;
    }
    l->last_ts = raw;
    return raw;
}

scorep_location *scorep_location_create(uint32_t create_seq, uint32_t parent_id);
/* A location for a GPU stream (CUDA adapter): registered like a thread's, but not bound to
 * the calling thread; its events are written by whoever processes the activity records. */
scorep_location *scorep_location_create_gpu(const char *name, uint64_t first_ts);
/* scorep-recover: a location of a rank-local piece, in the order of its ids (the next id
 * is the count so far), bound to no thread; its profile and buffer start empty. */
scorep_location *scorep_location_restore(const char *name, uint32_t create_seq,
                                         uint32_t parent_id, bool gpu, uint64_t first_ts);
scorep_location *scorep_location_first(void);
uint32_t scorep_location_count(void);

#endif
