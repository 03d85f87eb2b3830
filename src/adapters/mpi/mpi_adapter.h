/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_adapter.h: state shared by the generated PMPI wrappers (mpi_wrappers.c) and the
 * hand-written event logic of the MPI adapter: the enabled groups, the per-call frame, the
 * region table, the life cycle. */
#ifndef SCOREP_MPI_ADAPTER_H
#define SCOREP_MPI_ADAPTER_H

#include "core/events.h"
#include "core/events_mpi.h"
#include "base/mpi_groups.h"
#include "defs/defs.h"

#include <mpi.h>
#include <stdint.h>

#define SCOREP_MPI_WRAPPER __attribute__((visibility("default")))
/* The adapter's own globals, read on every wrapped call: declared hidden (the library is
 * built with -fvisibility=hidden, but a declaration without it is reached through the GOT,
 * one load more per access). */
#define SCOREP_MPI_HIDDEN __attribute__((visibility("hidden")))
#define SCOREP_MPI_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* The group bits in effect (0 before MPI_Init and after MPI_Finalize). */
extern SCOREP_MPI_HIDDEN uint64_t scorep_mpi_enabled;
/* The thread level MPI_Init/MPI_Init_thread provided. */
extern SCOREP_MPI_HIDDEN int scorep_mpi_thread_level;
/* The nesting flag is the location's (core/location.h, mpi_nesting): non-zero while this
 * thread is inside a wrapper, MPI calls made from there (by the MPI library or by the
 * adapter itself) go straight to PMPI. A thread without a location records nothing and sets
 * no flag; its calls go to PMPI as well. */

/* One entry per wrapped function (generated from mpi_functions.spec). */
typedef struct {
    const char *name;
    uint64_t group;
    scorep_role role;
} scorep_mpi_fn_info;
extern const scorep_mpi_fn_info scorep_mpi_fn_table[];
extern const uint32_t scorep_mpi_fn_count;
/* region id + 1 of each function, 0 until its first recorded call */
extern SCOREP_MPI_HIDDEN uint32_t scorep_mpi_region_ids[];

uint32_t scorep_mpi_region_define(uint32_t fn);

static inline uint32_t scorep_mpi_region(uint32_t fn)
{
    uint32_t r = __atomic_load_n(&scorep_mpi_region_ids[fn], __ATOMIC_RELAXED);
    if (__builtin_expect(r != 0, 1))
        return r - 1;
    return scorep_mpi_region_define(fn);
}

/* The state of one wrapped call. record: Enter/Leave and events are recorded (the group is
 * enabled); otherwise only the bookkeeping of 'track' functions runs. raw: the timer value
 * a post hook read for its event (scorep_mpi_now), which the Leave reuses; 0: none. */
typedef struct {
    scorep_location *l;
    uint32_t region;
    int record;
    uint64_t raw;
    /* the Enter is the pre hook's to record (scorep_mpi_begin_hot_open): a send writes it
     * and its message record in one step (scorep_mpi_enter_open otherwise) */
    int open;
} scorep_mpi_frame;

/* Whether SCOREP_MPI_MEMORY_RECORDING is on (mpi_memory.c) */
bool scorep_mpi_memory_on(void);

/* The Enter of the call in f (its location and region) */
static inline __attribute__((always_inline)) void scorep_mpi_enter_frame(scorep_mpi_frame *f)
{
    if (!scorep_event_mpi_enter_fast(f->l, f->region))
        scorep_event_enter(f->l, f->region);
}

/* Starts a wrapped call; 0 means: call PMPI only (nested call, measurement already ended
 * without MPI_Finalize, no location). An allocation (alloc) records the size asked for as
 * the Enter's ALLOCATION_SIZE attribute when SCOREP_MPI_MEMORY_RECORDING is on, as Score-P
 * does. A location in a fast mode (its mode byte: profiling, tracing or both, no metric
 * sources or substrate plugins) takes the fast Enter of core/events_mpi.h (no call; the
 * profile node also through next_hit, which a call alternating with another at its depth
 * needs), the general one otherwise. open: the Enter is left to the pre hook (f->open;
 * scorep_mpi_begin_hot_open). */
static inline __attribute__((always_inline)) int
scorep_mpi_begin_impl(scorep_mpi_frame *f, uint32_t fn, int record, bool alloc, uint64_t size,
                      bool open)
{
    if (SCOREP_MPI_UNLIKELY(!scorep_measurement_on()))
        return 0;
    scorep_location *l = scorep_location_get();
    if (SCOREP_MPI_UNLIKELY(l == NULL || l->mpi_nesting))
        return 0;
    l->mpi_nesting = 1;
    f->l = l;
    f->record = record;
    f->raw = 0;
    f->open = 0;
    if (record) {
        f->region = scorep_mpi_region(fn);
        if (SCOREP_MPI_UNLIKELY(f->region == SCOREP_INVALID_ID))
            f->record = 0;
        else {
            if (alloc && scorep_mpi_memory_on())
                scorep_event_attr(l, f->region, true, BUF_ATTR_ALLOCATION_SIZE, size);
            if (open)
                f->open = 1;
            else
                scorep_mpi_enter_frame(f);
        }
    }
    return 1;
}

/* The Enter a begin left open (f->open), where the pre hook records it on its own */
static inline __attribute__((always_inline)) void scorep_mpi_enter_open(scorep_mpi_frame *f)
{
    if (f->open) {
        f->open = 0;
        scorep_mpi_enter_frame(f);
    }
}

/* The start of every wrapped call but the allocations: out of line (mpi_adapter.c), one
 * copy with the Enter inlined and no allocation branch, not a generic copy per wrapper
 * file that takes alloc and size as arguments. */
int scorep_mpi_begin(scorep_mpi_frame *f, uint32_t fn, int record);

/* The same inlined into the wrappers of the message path (spec item 'hot'): the frame stays
 * in registers, and the call, the stack frame of its own and the stores and reloads of the
 * frame are gone (docs/mpi.md, "The message path inlined"). */
static inline __attribute__((always_inline)) int scorep_mpi_begin_hot(scorep_mpi_frame *f,
                                                                      uint32_t fn, int record)
{
    return scorep_mpi_begin_impl(f, fn, record, false, 0, false);
}

/* The same for the wrappers whose pre hook records a message one tick after the Enter
 * (spec item 'open': MPI_Send, MPI_Isend): the Enter is left to the hook, which writes it
 * and the message record with one busy mark, one gate test and one timer reading
 * (core/events_mpi.h, scorep_event_mpi_enter_send_fast), or calls scorep_mpi_enter_open. */
static inline __attribute__((always_inline)) int
scorep_mpi_begin_hot_open(scorep_mpi_frame *f, uint32_t fn, int record)
{
    return scorep_mpi_begin_impl(f, fn, record, false, 0, true);
}

static inline int scorep_mpi_begin_alloc(scorep_mpi_frame *f, uint32_t fn, uint64_t size)
{
    return scorep_mpi_begin_impl(f, fn, 1, true, size, false);
}

/* The time of an event a hook records after the PMPI call: read once per call, and the
 * Leave of the call is stamped with it too (one tick later), so that a call with such an
 * event reads the timer twice, as one without. */
static inline uint64_t scorep_mpi_now(scorep_mpi_frame *f)
{
    if (!f->raw)
        f->raw = scorep_timer_ticks();
    return f->raw;
}

/* The end of a wrapped call: its Leave (with the post hook's timer reading, if any), out of
 * line in mpi_adapter.c with the Leave inlined (one call, not two). */
void scorep_mpi_end(scorep_mpi_frame *f);

/* Its body, inlined there and into the wrappers of the message path (scorep_mpi_begin_hot) */
static inline __attribute__((always_inline)) void scorep_mpi_end_hot(scorep_mpi_frame *f)
{
    scorep_location *l = f->l;
#if defined(__GNUC__)
    /* the location's fields at their offsets from l's register: else GCC keeps the address
     * of the mode byte, computed before the PMPI call, across it on the stack (a store, a
     * load and the address's computation: 2 instructions per MPI_Send, issue #31) */
    __asm__("" : "+r"(l));
#endif
    if (f->record) {
        /* the Leave of l's fast mode (events_mpi.h): at the post hook's reading, or at one
         * of the TSC's of its own; a receive wrote its Leave with its MpiRecv where it could
         * (scorep_event_mpi_recv_leave_fast) */
        if (!(f->raw ? scorep_event_mpi_leave_raw_fast(l, f->region, f->raw)
                     : scorep_event_mpi_leave_fast(l, f->region)))
            scorep_event_leave_impl(l, f->region, true, f->raw ? f->raw : scorep_timer_ticks());
    }
    l->mpi_nesting = 0;
}

/* The wrappers without hooks (spec events '-'): no frame. scorep_mpi_enter records the
 * call's Enter (fn: its table index) and returns 1, or returns 0 (call PMPI only: nested
 * call, measurement not running, no location, no region); after PMPI, scorep_mpi_leave
 * records the Leave of the innermost call: the location, its region and the nesting flag are
 * read again rather than kept across the PMPI call, so that the wrapper keeps nothing but
 * its arguments and return value. */
int scorep_mpi_enter(uint32_t fn);
void scorep_mpi_leave(uint32_t fn);

/* A local call (spec events 'local': MPI_Comm_rank, MPI_Type_size, ...: no communication,
 * no waiting, nothing nested). Two timer readings (12 ns each on some machines) would
 * cost more than the call; scorep_mpi_stamp records its Enter with one reading and its
 * Leave one tick later, before the PMPI call, which the wrapper then makes as a tail call:
 * the call's own few nanoseconds go to the caller (docs/mpi.md). Returns 0 then (and when
 * nothing is recorded). With SCOREP_MPI_TIME_LOCAL_CALLS=true it records the Enter only,
 * as scorep_mpi_enter, and returns 1: the wrapper calls PMPI and scorep_mpi_leave. */
int scorep_mpi_stamp(uint32_t fn);
/* SCOREP_MPI_TIME_LOCAL_CALLS, read at MPI_Init */
extern SCOREP_MPI_HIDDEN int scorep_mpi_time_local;

/* scorep_mpi_stamp's common case inlined into the local calls' wrappers: the location (not
 * nested), the region defined, and the fast path of l's mode (scorep_event_stamped_fast:
 * one reading, no call). true: recorded, the wrapper tail-calls PMPI with its arguments
 * still in their registers; false: nothing changed, the wrapper tail-calls its out-of-line
 * part, which calls scorep_mpi_stamp (the same tests again, then the general path). With
 * the call of scorep_mpi_stamp in it, the wrapper kept a frame of its own and its arguments
 * in callee-saved registers around the call (issue #31, session 19). */
static inline __attribute__((always_inline)) bool scorep_mpi_stamp_fast(uint32_t fn)
{
    scorep_location *l = scorep_tls_location;
    uint32_t r = __atomic_load_n(&scorep_mpi_region_ids[fn], __ATOMIC_RELAXED);
    return __builtin_expect(l != NULL, 1) && __builtin_expect(r != 0, 1) &&
           __builtin_expect(!scorep_mpi_time_local, 1) && __builtin_expect(!l->mpi_nesting, 1) &&
           scorep_event_stamped_fast(l, r - 1, scorep_location_events_fast(l));
}

static inline int scorep_mpi_group_on(uint64_t bits)
{
    return (__atomic_load_n(&scorep_mpi_enabled, __ATOMIC_RELAXED) & bits) != 0;
}

/* Life cycle (generated MPI_Init, MPI_Init_thread, MPI_Finalize). */
int scorep_mpi_init_begin(scorep_mpi_frame *f, uint32_t fn);
void scorep_mpi_init_end(scorep_mpi_frame *f, int active, int ret, int provided);
/* MPI_Finalize before its PMPI call (fn: its table index): records the call as Score-P does
 * (Enter, a barrier on MPI_COMM_WORLD, Leave) and then ends the measurement. */
void scorep_mpi_finalize_begin(uint32_t fn);

/* Parses a SCOREP_MPI_ENABLE_GROUPS value into group bits with the derived groups added.
 * Returns 0, or -1 with the accepted forms in err. */
int scorep_mpi_parse_groups(const char *value, uint64_t *bits, char *err, size_t errlen);

/* Per-process counter, atomic, never 0: Mprobe message handles (request ids:
 * mpi_request.c). */
uint64_t scorep_mpi_next_message_handle(void);

/* A receive call took its message: it succeeded, or failed with MPI_ERR_TRUNCATE (the
 * message is consumed and the status filled, as for a success). The error's class out of
 * line: inlined, its variable on the stack was written on every receive (issue #31). */
int scorep_mpi_received_error(int ret);
static inline int scorep_mpi_received(int ret)
{
    return ret == MPI_SUCCESS || scorep_mpi_received_error(ret);
}

/* Byte count of a status (what PMPI_Get_elements_x with MPI_BYTE gives: exact beyond 2 GiB;
 * 0 when undefined). Reads only what MPI set: call it for statuses of completed
 * receives/probes. With Open MPI a field read, inline (checked by scorep_mpi_types_init);
 * else the _slow call asks MPI. */
uint64_t scorep_mpi_status_bytes_slow(const MPI_Status *st);
/* whether the loaded Open MPI keeps it in _ucount (scorep_mpi_types_init) */
extern SCOREP_MPI_HIDDEN int scorep_mpi_status_field_ok;

static inline uint64_t scorep_mpi_status_bytes(const MPI_Status *st)
{
#if defined(OPEN_MPI) && OPEN_MPI
    if (__builtin_expect(scorep_mpi_status_field_ok, 1))
        return (uint64_t)st->_ucount;
#endif
    return scorep_mpi_status_bytes_slow(st);
}
/* count elements of datatype, in bytes, 64-bit (MPI_Type_size_x). The sizes of predefined
 * types are cached below MPI_THREAD_MULTIPLE (mpi_types.c says why that is safe). */
enum { SCOREP_MPI_TYPE_SLOTS = 64 };
typedef struct {
    MPI_Datatype type;
    int named; /* a predefined type: size is its size */
    uint64_t size;
} scorep_mpi_type_entry;
extern SCOREP_MPI_HIDDEN scorep_mpi_type_entry scorep_mpi_type_cache[SCOREP_MPI_TYPE_SLOTS];
/* The predefined type whose size was read last, tried before the slots: a program sends one
 * type most of the time, and this test is one compare where the slot's is a hash and four
 * (type, named, count, thread level). Written with the slots' rules: below
 * MPI_THREAD_MULTIPLE only (type stays 0, no handle, under it), predefined types only. */
typedef struct {
    MPI_Datatype type;
    uint64_t size;
} scorep_mpi_type_last_entry;
extern SCOREP_MPI_HIDDEN scorep_mpi_type_last_entry scorep_mpi_type_last;
uint64_t scorep_mpi_type_bytes_slow(int count, MPI_Datatype type);

static inline size_t scorep_mpi_type_slot(MPI_Datatype type)
{
    uintptr_t h = (uintptr_t)type;
    return (size_t)(h ^ h >> 6 ^ h >> 12) & (SCOREP_MPI_TYPE_SLOTS - 1);
}

static inline uint64_t scorep_mpi_type_bytes(int count, MPI_Datatype type)
{
    /* count 0 gives 0 as the slow path does; a negative count goes there */
    if (__builtin_expect(type == scorep_mpi_type_last.type && count >= 0, 1))
        return (uint64_t)count * scorep_mpi_type_last.size;
    const scorep_mpi_type_entry *e = &scorep_mpi_type_cache[scorep_mpi_type_slot(type)];
    if (__builtin_expect(e->type == type && e->named && count > 0 &&
                             scorep_mpi_thread_level != MPI_THREAD_MULTIPLE,
                         1)) {
        scorep_mpi_type_last.size = e->size;
        scorep_mpi_type_last.type = type;
        return (uint64_t)count * e->size;
    }
    return scorep_mpi_type_bytes_slow(count, type);
}
/* After PMPI_Init*: checks where the loaded MPI library keeps a status's byte count. */
void scorep_mpi_types_init(void);

#endif
