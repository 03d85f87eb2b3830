/* buffer_reduce.c: frees trace memory by removing detail (minimum duration, deepest call
 * levels, calls without communication) and cuts streams back for rewinds. */
#include "buffer/buffer.h"
#include "core/memory.h"
#include "defs/defs.h"

#include <string.h>

bool scorep_buffer_is_comm_region(uint32_t region)
{
    const scorep_region_def *r = scorep_defs_region_get(region);
    return !r || (r->paradigm != SCOREP_PARADIGM_USER && r->paradigm != SCOREP_PARADIGM_COMPILER);
}

void scorep_buffer_log(scorep_buffer *b, buf_step rule, uint64_t param, uint64_t ts,
                       uint64_t removed)
{
    if (b->log && b->n_log < BUF_MAX_LOG)
        b->log[b->n_log] = (buf_reduction){rule, param, ts, removed};
    b->n_log++;
}

static const char *const step_names[] = {"min_duration", "depth", "noncomm", "stop", "rewind"};

const char *scorep_buffer_step_name(buf_step s)
{
    return s <= BUF_STEP_REWIND ? step_names[s] : "?";
}

int scorep_buffer_parse_steps(const char *spec, uint8_t *steps, uint8_t *n)
{
    *n = 0;
    if (strcmp(spec, "none") == 0)
        return 0;
    while (*spec) {
        size_t len = strcspn(spec, ",");
        int found = -1;
        for (int k = 0; k < BUF_MAX_STEPS; k++)
            if (strlen(step_names[k]) == len && strncmp(spec, step_names[k], len) == 0)
                found = k;
        for (uint8_t i = 0; found >= 0 && i < *n; i++)
            if (steps[i] == found)
                found = -1; /* each step at most once */
        if (found < 0)
            return -1;
        steps[(*n)++] = (uint8_t)found;
        spec += len + (spec[len] == ',');
    }
    return *n ? 0 : -1;
}

/* ------------------------------------------------------------ compaction */
typedef bool (*drop_fn)(const scorep_buffer *b, const buf_region_rec *e, const buf_region_rec *l,
                        uint32_t depth);

typedef struct {
    buf_page *page;
    char *pos;
} wcursor;

static char *page_data(buf_page *p)
{
    return (char *)(p + 1);
}

static void put(wcursor *w, const void *rec, uint32_t size)
{
    if (w->pos + size > (char *)w->page + scorep_memory_page_size()) {
        w->page->used_end = w->pos;
        w->page = w->page->next; /* the writer never overtakes the reader */
        w->pos = page_data(w->page);
    }
    memmove(w->pos, rec, size);
    w->pos += size;
}

/* Hands the pages after the writer's page (all of them when nothing was written) to the
 * spare list and makes the writer's position the stream's end. */
static void cut_after(scorep_buffer *b, buf_stream *s, wcursor *w, bool any)
{
    buf_page *p = any ? w->page->next : s->first;
    while (p) {
        buf_page *next = p->next;
        p->next = b->spare;
        b->spare = p;
        b->n_pages--;
        p = next;
    }
    if (!any) {
        memset(s, 0, sizeof *s);
        return;
    }
    w->page->next = NULL;
    s->last = w->page;
    s->start = page_data(w->page);
    s->cur = w->pos;
    s->end = b->full ? s->cur : (char *)w->page + scorep_memory_page_size();
}

/* Removes the closed calls of one depth stream that drop() selects; open enters stay last. */
static uint64_t compact_depth(scorep_buffer *b, uint32_t depth, drop_fn drop)
{
    buf_stream *s = &b->depth[depth];
    if (!s->first)
        return 0;
    wcursor w = {s->first, page_data(s->first)};
    buf_region_rec pend;
    bool have_pend = false, any = false;
    uint64_t removed = 0;
    for (buf_page *p = s->first; p; p = p->next) {
        char *end = p == s->last ? s->cur : p->used_end;
        for (char *r = page_data(p); r + sizeof pend <= end; r += sizeof pend) {
            buf_region_rec rec;
            memcpy(&rec, r, sizeof rec);
            if (rec.type == BUF_ENTER) {
                if (have_pend)
                    put(&w, &pend, sizeof pend), any = true;
                pend = rec;
                have_pend = true;
                continue;
            }
            if (have_pend && pend.region == rec.region && drop(b, &pend, &rec, depth)) {
                removed += 2;
            } else {
                if (have_pend)
                    put(&w, &pend, sizeof pend);
                put(&w, &rec, sizeof rec);
                any = true;
            }
            have_pend = false;
        }
    }
    if (have_pend)
        put(&w, &pend, sizeof pend), any = true;
    cut_after(b, s, &w, any);
    return removed;
}

static uint64_t compact_depths(scorep_buffer *b, uint32_t from, drop_fn drop)
{
    uint64_t removed = 0;
    for (uint32_t d = from; d < b->depth_cap; d++)
        removed += compact_depth(b, d, drop);
    return removed;
}

static bool reducible(const buf_region_rec *e, const buf_region_rec *l)
{
    return !(l->type & BUF_ENCLOSES_COMM) && !scorep_buffer_is_comm_region(e->region);
}

static bool drop_short(const scorep_buffer *b, const buf_region_rec *e, const buf_region_rec *l,
                       uint32_t depth)
{
    (void)depth;
    return l->ts - e->ts < b->min_dur && reducible(e, l);
}

static bool drop_deep(const scorep_buffer *b, const buf_region_rec *e, const buf_region_rec *l,
                      uint32_t depth)
{
    (void)l;
    return depth >= b->depth_limit && !scorep_buffer_is_comm_region(e->region);
}

static bool drop_noncomm(const scorep_buffer *b, const buf_region_rec *e, const buf_region_rec *l,
                         uint32_t depth)
{
    (void)b;
    (void)depth;
    return reducible(e, l);
}

/* ------------------------------------------------------------ the steps */
/* Each step returns true when it freed at least goal pages; false moves on to the next. */
static bool step_min_duration(scorep_buffer *b, uint64_t ts, uint32_t goal, uint32_t start)
{
    while (b->min_dur < b->min_dur_cap) {
        uint64_t t = b->min_dur ? 2 * b->min_dur : (b->min_dur_first ? b->min_dur_first : 1);
        b->min_dur = t < b->min_dur_cap ? t : b->min_dur_cap;
        uint64_t removed = compact_depths(b, 0, drop_short);
        scorep_buffer_log(b, BUF_STEP_MIN_DURATION, b->min_dur, ts, removed);
        if (start - b->n_pages >= goal)
            return true;
    }
    return false;
}

static uint32_t deepest_used(const scorep_buffer *b)
{
    uint32_t d = b->depth_cap;
    while (d > 0 && !b->depth[d - 1].first)
        d--;
    return d; /* one past the deepest level holding records */
}

static bool step_depth(scorep_buffer *b, uint64_t ts, uint32_t goal, uint32_t start)
{
    uint32_t used = deepest_used(b);
    uint32_t limit = b->depth_limit < used ? b->depth_limit : used;
    while (limit > 1) { /* depth 0 (the program's outermost calls) always stays */
        b->depth_limit = --limit;
        b->rec_depth = b->depth_cap < limit ? b->depth_cap : limit;
        uint64_t removed = compact_depths(b, limit, drop_deep);
        scorep_buffer_log(b, BUF_STEP_DEPTH, limit, ts, removed);
        if (start - b->n_pages >= goal)
            return true;
    }
    return false;
}

static bool step_noncomm(scorep_buffer *b, uint64_t ts, uint32_t goal, uint32_t start)
{
    uint64_t removed = compact_depths(b, 0, drop_noncomm);
    scorep_buffer_log(b, BUF_STEP_NONCOMM, 0, ts, removed);
    return start - b->n_pages >= goal;
}

int scorep_buffer_reduce(scorep_buffer *b, uint64_t ts)
{
    /* Freeing an eighth of the buffer per reduction bounds the rescanning: the buffer
     * is scanned again only after that much new data. */
    uint32_t start = b->n_pages, goal = b->n_pages / 8 + 1;
    while (b->step < b->n_steps) {
        buf_step st = b->steps[b->step];
        bool done = st == BUF_STEP_MIN_DURATION ? step_min_duration(b, ts, goal, start)
                    : st == BUF_STEP_DEPTH      ? step_depth(b, ts, goal, start)
                                                : step_noncomm(b, ts, goal, start);
        if (done)
            return 0;
        b->step++; /* exhausted: the next pressure goes on with the next step */
    }
    return b->spare ? 0 : -1;
}

/* ------------------------------------------------------------ rewind */
static uint64_t truncate_stream(scorep_buffer *b, buf_stream *s, uint32_t size, uint64_t t0)
{
    uint64_t removed = 0;
    while (s->last) {
        buf_page *p = s->last;
        char *data = page_data(p), *end = s->cur;
        if (end > data && *(const uint64_t *)data < t0) {
            while (*(const uint64_t *)(end - size) >= t0)
                end -= size, removed++;
            s->cur = end;
            break;
        }
        removed += (uint64_t)(end - data) / size;
        s->last = p->prev;
        p->next = b->spare;
        b->spare = p;
        b->n_pages--;
        if (!s->last) {
            memset(s, 0, sizeof *s);
            return removed;
        }
        s->last->next = NULL;
        s->start = page_data(s->last);
        s->cur = s->last->used_end;
        s->end = (char *)s->last + scorep_memory_page_size();
    }
    if (b->full)
        s->end = s->cur;
    return removed;
}

uint64_t scorep_buffer_truncate(scorep_buffer *b, uint64_t t0)
{
    uint64_t removed = 0;
    for (uint32_t d = 0; d < b->depth_cap; d++)
        removed += truncate_stream(b, &b->depth[d], sizeof(buf_region_rec), t0);
    for (int k = 0; k < BUF_CLASS_COUNT; k++)
        removed += truncate_stream(
            b, &b->cls[k], k == BUF_CLASS_MPI ? sizeof(buf_mpi_rec) : sizeof(buf_event_rec), t0);
    return removed;
}
