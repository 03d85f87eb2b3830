/* buffer.h: the hierarchical event buffer of one location. Region enter/leave records go
 * into one chunked array per call depth, other events into one array per event class;
 * at write time all arrays are merged by timestamp (timestamps are unique per location). */
#ifndef SCOREP_BUFFER_H
#define SCOREP_BUFFER_H

#include <stdbool.h>
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
    BUF_RMA_SYNC
} buf_event_type;

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

/* 64 bytes; which field means what depends on the type (see events_mpi.c) */
typedef struct {
    uint64_t ts;
    uint32_t type;
    uint32_t comm;          /* communicator or window (defs id) */
    uint32_t peer;          /* rank in the communicator: receiver, sender, root, remote */
    uint32_t tag;           /* tag, collective op, lock/atomic/sync type */
    uint64_t bytes, bytes2; /* length / sent, received / sync level, group */
    uint64_t request;       /* request id, matching id, lock id */
    uint64_t msg_id;
    uint64_t handle; /* Mprobe message handle */
} buf_mpi_rec;

typedef struct buf_page {
    struct buf_page *next;
    char *used_end; /* end of the records in this page (set when the page is left) */
} buf_page;

typedef struct {
    char *cur, *end;
    buf_page *first, *last;
} buf_stream;

typedef struct {
    buf_stream *depth; /* REGION class, one stream per call depth */
    uint32_t depth_cap;
    buf_stream cls[BUF_CLASS_COUNT];
    bool full;        /* the memory budget ran out: nothing more is recorded */
    uint64_t full_ts; /* time of the first lost event */
    uint64_t lost;    /* events not recorded since */
} scorep_buffer;

int scorep_buffer_init(scorep_buffer *b);
/* Slow paths: next page for a stream / room for a deeper call level. NULL when full. */
char *scorep_buffer_grow(scorep_buffer *b, buf_stream *s, uint64_t ts, uint32_t rec_size);
buf_stream *scorep_buffer_depth_slow(scorep_buffer *b, uint32_t depth, uint64_t ts);

static inline void *scorep_buffer_alloc(scorep_buffer *b, buf_stream *s, uint64_t ts, uint32_t size)
{
    char *p = s->cur;
    if (__builtin_expect(p + size > s->end, 0))
        return scorep_buffer_grow(b, s, ts, size);
    s->cur = p + size;
    return p;
}

static inline void scorep_buffer_region(scorep_buffer *b, uint32_t depth, uint64_t ts,
                                        uint32_t region, uint32_t type)
{
    buf_stream *s =
        depth < b->depth_cap ? &b->depth[depth] : scorep_buffer_depth_slow(b, depth, ts);
    if (!s)
        return;
    buf_region_rec *r = scorep_buffer_alloc(b, s, ts, sizeof *r);
    if (r) {
        r->ts = ts;
        r->region = region;
        r->type = type;
    }
}

static inline void scorep_buffer_event(scorep_buffer *b, buf_class c, uint64_t ts, uint32_t type,
                                       uint32_t a, uint64_t v)
{
    buf_event_rec *r = scorep_buffer_alloc(b, &b->cls[c], ts, sizeof *r);
    if (r) {
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
        *r = (buf_mpi_rec){0};
        r->ts = ts;
        r->type = type;
    }
    return r;
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

#endif
