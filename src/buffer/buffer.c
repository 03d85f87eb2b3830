/* buffer.c: page management of the hierarchical event buffer (the slow paths). */
#include "buffer/buffer.h"
#include "core/memory.h"

#include <stdlib.h>
#include <string.h>

enum { INITIAL_DEPTHS = 128 };

static int stream_page(buf_stream *s)
{
    buf_page *p = scorep_memory_page();
    if (!p)
        return -1;
    p->next = NULL;
    p->used_end = NULL;
    if (s->last) {
        s->last->used_end = s->cur;
        s->last->next = p;
    } else {
        s->first = p;
    }
    s->last = p;
    s->cur = (char *)(p + 1);
    s->end = (char *)p + scorep_memory_page_size();
    return 0;
}

int scorep_buffer_init(scorep_buffer *b)
{
    memset(b, 0, sizeof *b);
    b->depth = calloc(INITIAL_DEPTHS, sizeof *b->depth);
    if (!b->depth)
        return -1;
    b->depth_cap = INITIAL_DEPTHS;
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
    }
    b->lost++;
}

char *scorep_buffer_grow(scorep_buffer *b, buf_stream *s, uint64_t ts, uint32_t size)
{
    if (b->full || stream_page(s) != 0) {
        mark_full(b, ts);
        return NULL;
    }
    char *p = s->cur;
    s->cur += size;
    return p;
}

buf_stream *scorep_buffer_depth_slow(scorep_buffer *b, uint32_t depth, uint64_t ts)
{
    if (b->full) {
        mark_full(b, ts);
        return NULL;
    }
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
    return &d[depth];
}
