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
    BUF_EV_PROGRAM_END
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

static inline void *scorep_buffer_alloc(scorep_buffer *b, buf_stream *s, uint64_t ts,
                                        uint32_t size)
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
    buf_stream *s = depth < b->depth_cap ? &b->depth[depth] : scorep_buffer_depth_slow(b, depth, ts);
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

/* ------------------------------------------------------ merged reading (buffer_merge.c) */
typedef struct {
    uint64_t ts;
    uint32_t type; /* BUF_ENTER, BUF_LEAVE or a buf_event_type */
    uint32_t a;    /* region for enter/leave */
    uint64_t b;
} buf_item;

typedef struct buf_merge buf_merge;
/* Iterates all records of b in timestamp order. Returns NULL when out of memory. */
buf_merge *buf_merge_new(const scorep_buffer *b);
/* 1 and fills *it, or 0 at the end. */
int buf_merge_next(buf_merge *m, buf_item *it);
void buf_merge_free(buf_merge *m);
uint64_t scorep_buffer_count(const scorep_buffer *b);

#endif
