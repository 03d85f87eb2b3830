/* SPDX-License-Identifier: BSD-3-Clause */
/* buffer.c: page management of the hierarchical event buffer (the slow paths). */
#include "buffer/buffer.h"
#include "base/memory.h"

#include <stdlib.h>
#include <string.h>

enum { INITIAL_DEPTHS = 128 };

/* A page this buffer freed earlier, else one from the process's pool (within the share
 * the pool's reserve allows a buffer holding pool_pages). */
static buf_page *take_page(scorep_buffer *b)
{
    buf_page *p = b->spare;
    if (p) {
        b->spare = p->next;
        return p;
    }
    p = scorep_memory_page(b->pool_pages);
    b->pool_pages += p != NULL;
    return p;
}

static int stream_page(scorep_buffer *b, buf_stream *s)
{
    buf_page *p = take_page(b);
    if (!p)
        return -1;
    p->next = NULL;
    p->prev = s->last;
    p->used_end = NULL;
    p->zero = 0;
    if (s->last) {
        s->last->used_end = s->cur;
        s->last->next = p;
    } else {
        s->first = p;
    }
    s->last = p;
    s->start = s->cur = (char *)(p + 1);
    s->end = (char *)p + scorep_memory_page_size();
    b->n_pages++;
    return 0;
}

int scorep_buffer_init(scorep_buffer *b)
{
    memset(b, 0, sizeof *b);
    b->depth = calloc(INITIAL_DEPTHS, sizeof *b->depth);
    b->log = calloc(BUF_MAX_LOG, sizeof *b->log);
    if (!b->depth || !b->log) {
        free(b->depth);
        free(b->log);
        return -1;
    }
    b->depth_cap = INITIAL_DEPTHS;
    scorep_buffer_fast_leave_update(b);
    b->depth_limit = UINT32_MAX;
    b->depth_logged = UINT32_MAX;
    b->depth_room = UINT32_MAX;
    scorep_buffer_rec_depth_update(b);
    b->step = BUF_STEP_STOP; /* no reduction until the runtime configures the steps */
    b->spill_fd = -1;
    return 0;
}

/* From the first lost event on, nothing more is recorded in any stream: otherwise leaves
 * could land in streams that still have room while their enters were lost. */
static void mark_full(scorep_buffer *b, uint64_t ts)
{
    if (!b->full) {
        b->full = true;
        b->full_ts = ts;
        for (uint32_t d = 0; d < b->depth_cap; d++)
            b->depth[d].end = b->depth[d].cur;
        for (int k = 0; k < BUF_CLASS_COUNT; k++)
            b->cls[k].end = b->cls[k].cur;
        scorep_buffer_log(b, BUF_STEP_STOP, 0, ts, 0);
    }
    b->lost++;
}

char *scorep_buffer_grow(scorep_buffer *b, buf_stream *s, uint64_t ts, uint32_t size)
{
    if (b->full) {
        mark_full(b, ts);
        return NULL;
    }
    if (stream_page(b, s) != 0) {
        /* Reducing may compact s itself, so it can have room again without a new page. */
        int room = scorep_buffer_reduce(b, ts) == 0 &&
                   ((s->cur && s->cur + size <= s->end) || stream_page(b, s) == 0);
        if (!room) {
            mark_full(b, ts);
            return NULL;
        }
    }
    char *p = s->cur;
    s->cur += size;
    return p;
}

buf_stream *scorep_buffer_depth_slow(scorep_buffer *b, uint32_t depth, uint64_t ts, uint32_t region)
{
    if (b->full) {
        mark_full(b, ts);
        return NULL;
    }
    /* a dropped call level: only communication calls are still recorded there */
    if (depth >= b->depth_limit && !scorep_buffer_is_comm_region(region)) {
        /* the first call dropped at a depth no logged cut covers: the trace lacks it, so the
         * depth step that removed nothing when it set the limit is logged now (at this
         * call's time; buffer_reduce.c step_depth) */
        if (depth < b->depth_logged) {
            b->depth_logged = b->depth_limit;
            scorep_buffer_log(b, BUF_STEP_DEPTH, b->depth_limit, ts, 0);
        }
        return NULL;
    }
    if (depth < b->depth_cap)
        return &b->depth[depth];
    uint32_t cap = b->depth_cap ? b->depth_cap : INITIAL_DEPTHS;
    while (cap <= depth)
        cap *= 2;
    buf_stream *d = realloc(b->depth, cap * sizeof *d);
    if (!d) {
        mark_full(b, ts);
        return NULL;
    }
    memset(d + b->depth_cap, 0, (cap - b->depth_cap) * sizeof *d);
    b->depth = d;
    b->depth_cap = cap;
    scorep_buffer_rec_depth_update(b);
    scorep_buffer_fast_leave_update(b);
    return &d[depth];
}

bool scorep_buffer_pop_short(scorep_buffer *b, buf_stream *s, uint32_t region)
{
    buf_region_rec *e = (buf_region_rec *)s->cur - 1;
    if ((e->type & BUF_FLUSHED) || b->last_comm_ts > e->ts || scorep_buffer_is_comm_region(region))
        return false;
    s->cur = (char *)e;
    return true;
}

static uint64_t stream_bytes(const buf_stream *s)
{
    uint64_t n = 0;
    for (const buf_page *p = s->first; p; p = p->next) {
        const char *begin = (const char *)(p + 1);
        const char *end = p == s->last ? s->cur : p->used_end;
        n += sizeof(buf_page) + (uint64_t)(end - begin);
    }
    return n;
}

uint64_t scorep_buffer_used_bytes(const scorep_buffer *b, uint64_t *pages)
{
    uint64_t n = 0;
    for (uint32_t d = 0; d < b->depth_cap; d++)
        n += stream_bytes(&b->depth[d]);
    for (int k = 0; k < BUF_CLASS_COUNT; k++)
        n += stream_bytes(&b->cls[k]);
    *pages = b->n_pages;
    return n;
}
