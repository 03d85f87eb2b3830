/* SPDX-License-Identifier: BSD-3-Clause */
/* buffer.h: the hierarchical event buffer of one location. Region enter/leave records go
 * into one chunked array per call depth, other events into one array per event class;
 * at write time all arrays are merged by timestamp (timestamps are unique per location). */
#ifndef SCOREP_BUFFER_H
#define SCOREP_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    BUF_CLASS_THREAD, /* thread create/begin/wait/end */
    BUF_CLASS_PARAM,  /* parameters and user metrics */
    BUF_CLASS_OTHER,  /* program begin/end, measurement on/off */
    BUF_CLASS_MPI,    /* messages, requests, collectives, one-sided (buf_mpi_rec) */
    BUF_CLASS_ASYNC,  /* asynchronous metric values, added at the end (src/metrics) */
    BUF_CLASS_COUNT
} buf_class;

enum { BUF_ENTER = 1, BUF_LEAVE = 2 };
/* (Whether a call enclosed communication, which keeps every reduction step from removing
 * it, the reduction finds from the records between its Enter and Leave: buffer_reduce.c.) */
/* Or'ed into an enter record's type: the enter of a call still open at a flush, already
 * written to the spill file; kept so that the call's leave is recorded. Never merged. */
enum { BUF_FLUSHED = 0x200, BUF_TYPE_MASK = 0xff };

typedef enum {
    BUF_EV_THREAD_CREATE = 16,
    BUF_EV_THREAD_BEGIN,
    BUF_EV_THREAD_WAIT,
    BUF_EV_THREAD_END,
    BUF_EV_PARAM_INT,
    BUF_EV_PARAM_UINT,
    BUF_EV_PARAM_STRING,
    BUF_EV_METRIC,
    BUF_EV_MEASUREMENT_ON,
    BUF_EV_MEASUREMENT_OFF,
    BUF_EV_PROGRAM_BEGIN,
    BUF_EV_PROGRAM_END,
    /* class THREAD, fork-join threading (OpenMP): records of events_thread.h */
    BUF_EV_THREAD_FORK,
    BUF_EV_THREAD_JOIN,
    BUF_EV_THREAD_TEAM_BEGIN,
    BUF_EV_THREAD_TEAM_END,
    BUF_EV_THREAD_ACQUIRE_LOCK,
    BUF_EV_THREAD_RELEASE_LOCK,
    BUF_EV_THREAD_TASK_CREATE,
    BUF_EV_THREAD_TASK_SWITCH,
    BUF_EV_THREAD_TASK_COMPLETE,
    BUF_EV_THREAD_TASK_DEPEND, /* one depend item of the task created last: a = type, b = address */
    BUF_EV_BUFFER_FLUSH, /* spill file only: a = 0, b = the flush's end time */
    /* class PARAM: an attribute of the next Enter (BUF_EV_ATTR_ENTER + buf_attr) or Leave
     * (BUF_EV_ATTR_LEAVE + buf_attr) of region a, value b (events.h scorep_event_attr) */
    BUF_EV_ATTR_ENTER,
    BUF_EV_ATTR_LEAVE = BUF_EV_ATTR_ENTER + 4,
    BUF_EV_ATTR_END = BUF_EV_ATTR_LEAVE + 4,
    /* class MPI */
    BUF_MPI_SEND = 64,
    BUF_MPI_RECV,
    BUF_MPI_ISEND,
    BUF_MPI_ISEND_COMPLETE,
    BUF_MPI_IRECV_REQUEST,
    BUF_MPI_IRECV,
    BUF_MPI_REQUEST_TEST,
    BUF_MPI_REQUEST_CANCELLED,
    BUF_MPI_PROBE, /* attributes of the next Leave */
    BUF_MPI_COLL_BEGIN,
    BUF_MPI_COLL_END,
    BUF_MPI_NBC_REQUEST,
    BUF_MPI_NBC_COMPLETE,
    BUF_MPI_COMM_CREATE,
    BUF_MPI_COMM_DESTROY,
    BUF_RMA_WIN_CREATE,
    BUF_RMA_WIN_DESTROY,
    BUF_RMA_PUT,
    BUF_RMA_GET,
    BUF_RMA_ATOMIC,
    BUF_RMA_OP_COMPLETE_BLOCKING,
    BUF_RMA_OP_COMPLETE_NON_BLOCKING,
    BUF_RMA_COLL_BEGIN,
    BUF_RMA_COLL_END,
    BUF_RMA_GROUP_SYNC,
    BUF_RMA_REQUEST_LOCK,
    BUF_RMA_ACQUIRE_LOCK,
    BUF_RMA_RELEASE_LOCK,
    BUF_RMA_SYNC,
    BUF_RMA_TRY_LOCK,           /* a lock attempt that did not get the lock (shmem_test_lock) */
    BUF_RMA_WAIT_CHANGE,        /* shmem_wait(_until): waits for a change of local memory */
    BUF_RMA_OP_COMPLETE_REMOTE, /* an operation completed at its target (MPI_Win_flush) */
    /* class MPI as well (64-byte records), I/O: read as buf_io_rec */
    BUF_IO_CREATE_HANDLE,
    BUF_IO_DESTROY_HANDLE,
    BUF_IO_DUPLICATE_HANDLE,
    BUF_IO_SEEK,
    BUF_IO_OPERATION_BEGIN,
    BUF_IO_OPERATION_COMPLETE,
    BUF_IO_OPERATION_ISSUED,
    BUF_IO_OPERATION_TEST,
    BUF_IO_OPERATION_CANCELLED,
    BUF_IO_CHANGE_STATUS_FLAGS,
    BUF_IO_DELETE_FILE,
    BUF_IO_ACQUIRE_LOCK, /* lockf, flockfile: the lock type in op (OTF2_LockType) */
    BUF_IO_RELEASE_LOCK,
    BUF_IO_TRY_LOCK /* an attempt that did not get the lock (lockf F_TLOCK, ftrylockfile) */
} buf_event_type;

/* The UINT64 attributes an adapter can attach to a region's Enter or Leave: Score-P's
 * attributes of memory allocations (names and meaning in trace_otf2.c's definitions). */
typedef enum {
    BUF_ATTR_ALLOCATION_SIZE,
    BUF_ATTR_DEALLOCATION_SIZE,
    BUF_ATTR_ARGUMENT_ADDRESS,
    BUF_ATTR_RESULT_ADDRESS,
    BUF_ATTR_COUNT
} buf_attr;
_Static_assert(BUF_ATTR_COUNT == BUF_EV_ATTR_LEAVE - BUF_EV_ATTR_ENTER, "one type per attribute");
_Static_assert(BUF_EV_ATTR_END <= BUF_MPI_SEND, "attribute types below the MPI class");

typedef struct {
    uint64_t ts;
    uint32_t region;
    uint32_t type; /* BUF_ENTER or BUF_LEAVE */
} buf_region_rec;

typedef struct {
    uint64_t ts;
    uint32_t type; /* buf_event_type */
    uint32_t a;    /* contingent / parameter / metric id */
    uint64_t b;    /* sequence number / value bits */
} buf_event_rec;

/* An I/O event (BUF_IO_*, written by core/events_io.c) in the class-MPI record's 64 bytes,
 * each slot under the names I/O gives it; the values are OTF2's as the trace records them. */
typedef struct {
    uint64_t ts;
    uint32_t type;
    uint32_t handle; /* the I/O handle (defs_io id); BUF_IO_DELETE_FILE: the file */
    union {
        uint32_t access;     /* CREATE_HANDLE: OTF2_IoAccessMode */
        uint32_t new_handle; /* DUPLICATE_HANDLE */
        uint32_t whence;     /* SEEK: OTF2_IoSeekOption */
        uint32_t op;         /* OPERATION_BEGIN, _COMPLETE: scorep_io_op; the *_LOCK: the lock type */
        uint32_t paradigm;   /* DELETE_FILE: defs_io.h scorep_io_paradigm */
    };
    union {
        uint32_t creation; /* CREATE_HANDLE: OTF2_IoCreationFlag */
        uint32_t op_flags; /* OPERATION_BEGIN: OTF2_IoOperationFlag */
    };
    union {
        uint64_t requested; /* OPERATION_BEGIN: the bytes asked for */
        uint64_t offset;    /* SEEK: the offset given (int64_t's bits) */
    };
    union {
        uint64_t transferred; /* OPERATION_COMPLETE */
        uint64_t result;      /* SEEK: the position reached */
    };
    uint64_t matching_id; /* the OPERATION_* events */
    union {
        uint64_t status; /* CREATE_, DUPLICATE_HANDLE, CHANGE_STATUS_FLAGS: OTF2_IoStatusFlag */
        uint64_t error;  /* OPERATION_COMPLETE: errno of a failed operation, else 0 */
    };
    uint64_t unused;
} buf_io_rec;

/* 64 bytes; which field means what depends on the type (see events_mpi.c); an I/O record
 * (BUF_IO_*) is read and written as io */
typedef struct {
    union {
        struct {
            uint64_t ts;
            uint32_t type;
            uint32_t comm;          /* communicator or window (defs id) */
            uint32_t peer;          /* rank in the communicator: receiver, sender, root, remote */
            uint32_t tag;           /* tag, collective op, lock/atomic/sync type */
            uint64_t bytes, bytes2; /* length / sent, received / sync level, group */
            uint64_t request;       /* request id, matching id, lock id */
            uint64_t msg_id;
            uint64_t handle; /* Mprobe message handle */
        };
        buf_io_rec io;
    };
} buf_mpi_rec;
/* the bytes of an I/O record are where they were when it borrowed the MPI fields' names
 * (readers of saved buffers, buffer_merge.c, see the same layout) */
_Static_assert(sizeof(buf_io_rec) == 64 && sizeof(buf_mpi_rec) == 64, "64-byte records");
_Static_assert(offsetof(buf_mpi_rec, io.handle) == offsetof(buf_mpi_rec, comm) &&
                   offsetof(buf_mpi_rec, io.access) == offsetof(buf_mpi_rec, peer) &&
                   offsetof(buf_mpi_rec, io.creation) == offsetof(buf_mpi_rec, tag) &&
                   offsetof(buf_mpi_rec, io.requested) == offsetof(buf_mpi_rec, bytes) &&
                   offsetof(buf_mpi_rec, io.transferred) == offsetof(buf_mpi_rec, bytes2) &&
                   offsetof(buf_mpi_rec, io.matching_id) == offsetof(buf_mpi_rec, request) &&
                   offsetof(buf_mpi_rec, io.status) == offsetof(buf_mpi_rec, msg_id),
               "the I/O record's slots");

typedef struct buf_page {
    struct buf_page *next, *prev; /* prev: rewinds cut streams from their end */
    char *used_end;               /* end of the records in this page (set when the page is left) */
    /* 0: what the traced leave's fast path (core/events.h) reads as the type of the record
     * before a page's first, never BUF_ENTER, so that it needs no test for an empty page */
    uint64_t zero;
} buf_page;
_Static_assert(sizeof(buf_page) % sizeof(buf_region_rec) == 0 &&
                   offsetof(buf_page, zero) + sizeof(uint64_t) == sizeof(buf_page),
               "buf_page: zero is the type of the region record slot before the first");

typedef struct {
    char *cur, *end;
    char *start; /* first record slot of the last page (NULL while the stream is empty) */
    buf_page *first, *last;
    /* to 64 bytes: the fast paths find depth d's stream with one shift instead of two
     * multiplying lea's (issue #31) */
    char pad_to_64[64 - 5 * sizeof(char *)];
} buf_stream;
_Static_assert(sizeof(buf_stream) == 64, "buf_stream: 64 bytes, see pad_to_64");

/* Reduction steps under memory pressure (buffer_reduce.c, docs/design-reduction.md). */
typedef enum {
    BUF_STEP_MIN_DURATION, /* raise the minimum duration, remove shorter calls */
    BUF_STEP_DEPTH,        /* drop the deepest call level */
    BUF_STEP_NONCOMM,      /* drop compiler/user calls that enclose no communication */
    BUF_STEP_FLUSH,        /* write everything to the spill file (scorep_buffer_flush_hook) */
    BUF_STEP_STOP,         /* nothing left to reduce: the trace stops (not a list entry) */
    BUF_STEP_REWIND,       /* log entry only: a user rewind discarded events */
    BUF_STEP_LOST,         /* log entry only: an adapter lost records before they reached the
                            * buffer (CUPTI activity records); param = records */
    BUF_STEP_UNREAD        /* log entry only: records the trace had that could not be read
                            * back (a spill file or a rank-local trace piece cut short, damaged,
                            * empty, missing, unwritable); param = buf_unread, removed = records */
} buf_step;

/* Why records were not read back (BUF_STEP_UNREAD's param; trace_reduction.c describes them). */
typedef enum {
    BUF_UNREAD_SPILL_CUT = 1,   /* the spill file is shorter than what was flushed to it */
    BUF_UNREAD_SPILL_GONE,      /* its descriptor was closed or refers to another file */
    BUF_UNREAD_PIECE_UNWRITTEN, /* the rescue could not write the rank-local trace piece */
    BUF_UNREAD_PIECE_MISSING,   /* scorep-recover: the trace piece is missing */
    BUF_UNREAD_PIECE_EMPTY,     /* ... is empty (0 bytes) */
    BUF_UNREAD_PIECE_CUT,       /* ... is cut short */
    BUF_UNREAD_PIECE_DAMAGED    /* ... is damaged from a record on */
} buf_unread;

enum { BUF_MAX_STEPS = 4, BUF_MAX_LOG = 64 };

/* One applied reduction: what (rule), how far (threshold in ticks or depth), when, and
 * how many records it removed. */
typedef struct {
    uint32_t rule; /* buf_step */
    uint64_t param, ts, removed;
} buf_reduction;

typedef struct {
    buf_stream *depth; /* REGION class, one stream per call depth */
    uint32_t depth_cap;
    /* calls at depth >= rec_depth take the slow path (depth_slow): the least of depth_cap,
     * depth_limit and depth_room (scorep_buffer_rec_depth_update) */
    uint32_t rec_depth;
    /* the owner's bound on rec_depth: the location's call stack capacity, so that the
     * traced enter's one depth test (core/events.h) also says the call stack has room;
     * UINT32_MAX: none (scorep_buffer_set_depth_room) */
    uint32_t depth_room;
    /* depth_cap, or 0 while a minimum duration applies: the compiler hooks' fast leave
     * (core/events.h) tests this one field for both (scorep_buffer_fast_leave_update) */
    uint32_t fast_leave_depth;
    buf_stream cls[BUF_CLASS_COUNT];
    buf_page *spare;  /* pages freed by reductions and rewinds, reused before the pool */
    uint32_t n_pages; /* pages this buffer holds (in streams) */
    /* pages it took from the pool (they stay its own): what the pool's reserve weighs */
    uint32_t pool_pages;
    bool full;        /* the memory budget ran out: nothing more is recorded */
    uint64_t full_ts; /* time of the first lost event */
    uint64_t lost;    /* events not recorded since */
    /* reduction: the configured order, the step reached, and what is applied from now on */
    uint8_t steps[BUF_MAX_STEPS], n_steps, step;
    uint64_t min_dur;       /* calls shorter than this (ticks) are popped at their leave */
    uint64_t min_dur_first; /* the minimum-duration step's first threshold (ticks) */
    uint64_t min_dur_cap;   /* ... and the highest it raises to */
    uint32_t depth_limit;   /* non-communication calls this deep or deeper are not recorded */
    /* the shallowest depth limit logged so far (UINT32_MAX: none). A depth step that removed
     * nothing sets depth_limit unlogged; the first call its rule drops (depth_slow, at a
     * depth this one does not cover) logs it then, so a trace whose rule dropped nothing
     * (every deeper call one of communication) is not called reduced */
    uint32_t depth_logged;
    uint64_t last_comm_ts; /* time of the latest communication record (MPI, threads): the
                            * minimum duration keeps a call that encloses one (pop_short) */
    buf_reduction *log;    /* BUF_MAX_LOG entries; n_log may count further ones */
    uint32_t n_log;
    /* flush mode (core/flush.c): records written so far, in merged order */
    int spill_fd; /* -1 until the first flush */
    uint32_t n_flushes;
    /* the records written to it (BufferFlush marks included), and the file's identity: a
     * rescue checks that the descriptor still leads to all of them (scorep_flush_check_spill) */
    uint64_t spill_recs, spill_dev, spill_ino;
    uint64_t last_flush_ts; /* end of the latest flush: no rewind reaches behind it */
} scorep_buffer;

/* Set by the runtime: writes all of b's records to its spill file and empties b. 0 or -1. */
extern int (*scorep_buffer_flush_hook)(scorep_buffer *b, uint64_t ts);

int scorep_buffer_init(scorep_buffer *b);
/* Slow paths: next page for a stream / room for a deeper call level. NULL when full. */
char *scorep_buffer_grow(scorep_buffer *b, buf_stream *s, uint64_t ts, uint32_t rec_size);
buf_stream *scorep_buffer_depth_slow(scorep_buffer *b, uint32_t depth, uint64_t ts,
                                     uint32_t region);
/* After every change of b->depth_cap or b->min_dur. */
static inline void scorep_buffer_fast_leave_update(scorep_buffer *b)
{
    b->fast_leave_depth = b->min_dur ? 0 : b->depth_cap;
}

/* After every change of b->depth_cap, b->depth_limit or b->depth_room. */
static inline void scorep_buffer_rec_depth_update(scorep_buffer *b)
{
    uint32_t r = b->depth_cap < b->depth_limit ? b->depth_cap : b->depth_limit;
    b->rec_depth = r < b->depth_room ? r : b->depth_room;
}

/* The owner's bound on the depths the fast paths record (buf->depth_room). */
static inline void scorep_buffer_set_depth_room(scorep_buffer *b, uint32_t room)
{
    b->depth_room = room;
    scorep_buffer_rec_depth_update(b);
}

/* The event fast paths' slot (core/events.h): room for n region records in the current
 * page of the stream at depth d, d below limit (rec_depth, or fast_leave_depth for a
 * leave); false when there is none and the caller takes the general path. *s: the
 * stream, *r: its first free record. (A bool, not a NULL record: tested as a condition,
 * it costs no test of its own.) */
static inline __attribute__((always_inline)) bool
scorep_buffer_fast_slot(scorep_buffer *b, uint32_t d, uint32_t limit, uint32_t n, buf_stream **s,
                        buf_region_rec **r)
{
    if (__builtin_expect(d >= limit, 0))
        return false;
    *s = &b->depth[d];
    *r = (buf_region_rec *)(*s)->cur;
    return __builtin_expect((char *)(*r + n) <= (*s)->end, 1);
}

/* A leave whose call was recorded and is shorter than min_dur: removes the call when it is
 * no communication call and enclosed no communication. true when removed. */
bool scorep_buffer_pop_short(scorep_buffer *b, buf_stream *s, uint32_t region);

/* ------------------------------------------ reduction and rewind (buffer_reduce.c) */
/* true for regions of communication paradigms (MPI, OpenMP, SHMEM, CUDA, pthread): their
 * calls are never removed by a reduction step. */
bool scorep_buffer_is_comm_region(uint32_t region);
/* Frees pages by the next reduction steps; 0 when at least one page is free. */
int scorep_buffer_reduce(scorep_buffer *b, uint64_t ts);
/* Removes every record with a timestamp >= t0 from every stream (a discarding rewind). */
uint64_t scorep_buffer_truncate(scorep_buffer *b, uint64_t t0);
void scorep_buffer_log(scorep_buffer *b, buf_step rule, uint64_t param, uint64_t ts,
                       uint64_t removed);
const char *scorep_buffer_step_name(buf_step s);
/* Parses "min_duration,depth,noncomm,flush" (any order, each at most once) or "none". */
int scorep_buffer_parse_steps(const char *spec, uint8_t *steps, uint8_t *n);

static inline void *scorep_buffer_alloc(scorep_buffer *b, buf_stream *s, uint64_t ts, uint32_t size)
{
    char *p = s->cur;
    if (__builtin_expect(p + size > s->end, 0))
        return scorep_buffer_grow(b, s, ts, size);
    s->cur = p + size;
    return p;
}

/* The record of a traced call's enter or leave: the NULL test of a full buffer only on the
 * slow path (a new page), region and type in one 8-byte store. */
static inline void scorep_buffer_put_region(scorep_buffer *b, buf_stream *s, uint64_t ts,
                                            uint32_t region, uint32_t type)
{
    buf_region_rec *r = (buf_region_rec *)s->cur;
    if (__builtin_expect((char *)(r + 1) > s->end, 0)) {
        r = (buf_region_rec *)scorep_buffer_grow(b, s, ts, sizeof *r);
        if (!r)
            return;
    } else {
        s->cur = (char *)(r + 1);
    }
    r->ts = ts;
    r->region = region;
    r->type = type;
}

static inline void scorep_buffer_enter(scorep_buffer *b, uint32_t depth, uint64_t ts,
                                       uint32_t region)
{
    buf_stream *s =
        depth < b->rec_depth ? &b->depth[depth] : scorep_buffer_depth_slow(b, depth, ts, region);
    if (s)
        scorep_buffer_put_region(b, s, ts, region, BUF_ENTER);
}

/* Only one call per depth is open, so the call being left was recorded exactly when the
 * last record of its depth's stream is an enter; reductions keep open enters last. */
static inline void scorep_buffer_leave(scorep_buffer *b, uint32_t depth, uint64_t ts,
                                       uint32_t region)
{
    buf_stream *s = depth < b->depth_cap ? &b->depth[depth] : NULL;
    const buf_region_rec *e = s && s->cur > s->start ? (const buf_region_rec *)s->cur - 1 : NULL;
    if (!e || (e->type & BUF_TYPE_MASK) != BUF_ENTER) {
        b->lost += b->full; /* after a stop every leave counts as lost, as its enter did */
        return;
    }
    if (__builtin_expect(ts - e->ts < b->min_dur, 0) && scorep_buffer_pop_short(b, s, region))
        return;
    scorep_buffer_put_region(b, s, ts, region, BUF_LEAVE);
}

/* Kept for callers that record both kinds through one entry (unit tests). */
static inline void scorep_buffer_region(scorep_buffer *b, uint32_t depth, uint64_t ts,
                                        uint32_t region, uint32_t type)
{
    if (type == BUF_ENTER)
        scorep_buffer_enter(b, depth, ts, region);
    else
        scorep_buffer_leave(b, depth, ts, region);
}

static inline void scorep_buffer_event(scorep_buffer *b, buf_class c, uint64_t ts, uint32_t type,
                                       uint32_t a, uint64_t v)
{
    buf_event_rec *r = scorep_buffer_alloc(b, &b->cls[c], ts, sizeof *r);
    if (r) {
        if (c == BUF_CLASS_THREAD)
            b->last_comm_ts = ts;
        r->ts = ts;
        r->type = type;
        r->a = a;
        r->b = v;
    }
}

static inline buf_mpi_rec *scorep_buffer_mpi(scorep_buffer *b, uint64_t ts, uint32_t type)
{
    buf_mpi_rec *r = scorep_buffer_alloc(b, &b->cls[BUF_CLASS_MPI], ts, sizeof *r);
    if (r) {
        b->last_comm_ts = ts;
        *r = (buf_mpi_rec){0};
        r->ts = ts;
        r->type = type;
    }
    return r;
}

/* A message record's fields, each byte stored once (no clearing first); the caller has
 * taken the slot and sets last_comm_ts */
static inline __attribute__((always_inline)) void
scorep_buffer_mpi_fill(buf_mpi_rec *r, uint64_t ts, uint32_t type, uint32_t comm, uint32_t peer,
                       uint32_t tag, uint64_t bytes, uint64_t request, uint64_t msg_id,
                       uint64_t handle)
{
    r->ts = ts;
    r->type = type;
    r->comm = comm;
    r->peer = peer;
    r->tag = tag;
    r->bytes = bytes;
    r->bytes2 = 0;
    r->request = request;
    r->msg_id = msg_id;
    r->handle = handle;
}

/* A message record with every field given, on the path of every traced message. */
static inline void scorep_buffer_mpi_message(scorep_buffer *b, uint64_t ts, uint32_t type,
                                             uint32_t comm, uint32_t peer, uint32_t tag,
                                             uint64_t bytes, uint64_t request, uint64_t msg_id,
                                             uint64_t handle)
{
    buf_mpi_rec *r = scorep_buffer_alloc(b, &b->cls[BUF_CLASS_MPI], ts, sizeof *r);
    if (r) {
        b->last_comm_ts = ts;
        scorep_buffer_mpi_fill(r, ts, type, comm, peer, tag, bytes, request, msg_id, handle);
    }
}

/* The MPI adapter's fast paths' slot for one message record (core/events_mpi.h): false
 * when the class stream's page has no room and the caller takes the general path. */
static inline __attribute__((always_inline)) bool scorep_buffer_mpi_slot(scorep_buffer *b,
                                                                        buf_mpi_rec **m)
{
    *m = (buf_mpi_rec *)b->cls[BUF_CLASS_MPI].cur;
    return __builtin_expect((char *)(*m + 1) <= b->cls[BUF_CLASS_MPI].end, 1);
}

/* ------------------------------------------------------ merged reading (buffer_merge.c) */
typedef struct {
    uint64_t ts;
    uint32_t type; /* BUF_ENTER, BUF_LEAVE or a buf_event_type */
    uint32_t a;    /* region for enter/leave */
    uint64_t b;
    const buf_mpi_rec *mpi; /* the whole record for class MPI */
} buf_item;

typedef struct buf_merge buf_merge;
/* Iterates all records of b in timestamp order. Returns NULL when out of memory. */
buf_merge *buf_merge_new(const scorep_buffer *b);
/* 1 and fills *it, or 0 at the end. */
int buf_merge_next(buf_merge *m, buf_item *it);
void buf_merge_free(buf_merge *m);
uint64_t scorep_buffer_count(const scorep_buffer *b);
/* Bytes the buffer uses now: its records plus one page header (sizeof(buf_page)) per page
 * held in a stream; *pages gets that page count. What scorep-score's max_buf estimates. */
uint64_t scorep_buffer_used_bytes(const scorep_buffer *b, uint64_t *pages);

#endif
