/* SPDX-License-Identifier: BSD-3-Clause */
/* buffer_merge.c: k-way merge (binary heap) of all record arrays of a location by time. */
#include "buffer/buffer.h"

#include <stdlib.h>

typedef struct {
    const buf_page *page;
    const char *pos, *end;
    const char *stream_cur; /* end of the last page */
    uint32_t rec_size;
    uint64_t ts;
} cursor;

struct buf_merge {
    cursor *c;
    uint32_t n;
};

static const char *page_end(const buf_page *p, const char *stream_cur)
{
    return p->next ? p->used_end : stream_cur;
}

/* Positions a cursor on its next record; 0 when the stream is exhausted. */
static int cursor_load(cursor *c)
{
    while (c->page && c->pos + c->rec_size > c->end) {
        c->page = c->page->next;
        if (!c->page)
            return 0;
        c->pos = (const char *)(c->page + 1);
        c->end = page_end(c->page, c->stream_cur);
    }
    if (!c->page)
        return 0;
    c->ts = *(const uint64_t *)c->pos;
    return 1;
}

static void sift_down(buf_merge *m, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, s = i;
        if (l < m->n && m->c[l].ts < m->c[s].ts)
            s = l;
        if (r < m->n && m->c[r].ts < m->c[s].ts)
            s = r;
        if (s == i)
            return;
        cursor t = m->c[i];
        m->c[i] = m->c[s];
        m->c[s] = t;
        i = s;
    }
}

static void add_stream(buf_merge *m, const buf_stream *s, uint32_t rec_size)
{
    if (!s->first)
        return;
    cursor *c = &m->c[m->n];
    c->page = s->first;
    c->pos = (const char *)(s->first + 1);
    c->stream_cur = s->cur;
    c->end = page_end(s->first, s->cur);
    c->rec_size = rec_size;
    if (cursor_load(c))
        m->n++;
}

buf_merge *buf_merge_new(const scorep_buffer *b)
{
    buf_merge *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->c = calloc(b->depth_cap + BUF_CLASS_COUNT + 1, sizeof *m->c);
    if (!m->c) {
        free(m);
        return NULL;
    }
    for (uint32_t d = 0; d < b->depth_cap; d++)
        add_stream(m, &b->depth[d], sizeof(buf_region_rec));
    for (int k = 0; k < BUF_CLASS_COUNT; k++)
        add_stream(m, &b->cls[k], k == BUF_CLASS_MPI ? sizeof(buf_mpi_rec) : sizeof(buf_event_rec));
    for (uint32_t i = m->n; i-- > 0;)
        sift_down(m, i);
    return m;
}

static void advance(buf_merge *m)
{
    cursor *c = &m->c[0];
    c->pos += c->rec_size;
    if (!cursor_load(c))
        m->c[0] = m->c[--m->n];
    sift_down(m, 0);
}

/* Enters kept over a flush were written before it: they are not merged again. */
static bool flushed_placeholder(const cursor *c)
{
    return c->rec_size == sizeof(buf_region_rec) &&
           (((const buf_region_rec *)(const void *)c->pos)->type & BUF_FLUSHED);
}

int buf_merge_next(buf_merge *m, buf_item *it)
{
    while (m->n > 0 && flushed_placeholder(&m->c[0]))
        advance(m);
    if (m->n == 0)
        return 0;
    cursor *c = &m->c[0];
    if (c->rec_size == sizeof(buf_region_rec)) {
        const buf_region_rec *r = (const void *)c->pos;
        *it = (buf_item){r->ts, r->type, r->region, 0, NULL};
    } else if (c->rec_size == sizeof(buf_mpi_rec)) {
        const buf_mpi_rec *r = (const void *)c->pos;
        *it = (buf_item){r->ts, r->type, r->comm, 0, r};
    } else {
        const buf_event_rec *r = (const void *)c->pos;
        *it = (buf_item){r->ts, r->type, r->a, r->b, NULL};
    }
    advance(m);
    return 1;
}

void buf_merge_free(buf_merge *m)
{
    if (m) {
        free(m->c);
        free(m);
    }
}

uint64_t scorep_buffer_count(const scorep_buffer *b)
{
    buf_merge *m = buf_merge_new(b);
    buf_item it;
    uint64_t n = 0;
    while (m && buf_merge_next(m, &it))
        n++;
    buf_merge_free(m);
    return n;
}
