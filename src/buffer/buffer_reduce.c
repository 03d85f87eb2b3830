/* SPDX-License-Identifier: BSD-3-Clause */
/* buffer_reduce.c: frees trace memory by removing detail (minimum duration, deepest call
 * levels, calls without communication) and cuts streams back for rewinds. */
#include "buffer/buffer.h"
#include "base/memory.h"
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

static const char *const step_names[] = {"min_duration", "depth",  "noncomm", "flush",
                                         "stop",         "rewind", "lost",    "unread"};

int (*scorep_buffer_flush_hook)(scorep_buffer *b, uint64_t ts);

const char *scorep_buffer_step_name(buf_step s)
{
    return s <= BUF_STEP_UNREAD ? step_names[s] : "?";
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

/* ------------------------------------------------------------ communication in a call */
/* Whether a call enclosed communication: a record of the MPI class (messages, collectives,
 * one-sided and I/O events) or of the THREAD class between its Enter and its Leave, the
 * records that set last_comm_ts when they are written. Found here, at reduction time, and
 * not marked at the leave (issue #31: the traced leave's fast path had a load, a compare
 * and a select for it): each class stream is in time order (timestamps increase per
 * location), and so are the calls of one depth stream, so one forward cursor per class walks
 * with the calls of a depth. */
typedef struct {
    const buf_stream *s;
    const buf_page *p;
    const char *r, *end;
    uint32_t size;
} class_cursor;

typedef struct {
    const scorep_buffer *b;
    class_cursor mpi, thread;
} comm_scan;

static const char *page_records(const buf_page *p)
{
    return (const char *)(p + 1);
}

static void cursor_page(class_cursor *c, const buf_page *p)
{
    c->p = p;
    c->r = p ? page_records(p) : NULL;
    c->end = !p ? NULL : p == c->s->last ? c->s->cur : p->used_end;
}

/* Before the calls of each depth: the cursors at the first record of their class. */
static void comm_scan_start(comm_scan *cs, const scorep_buffer *b)
{
    cs->b = b;
    cs->mpi = (class_cursor){&b->cls[BUF_CLASS_MPI], NULL, NULL, NULL, sizeof(buf_mpi_rec)};
    cs->thread = (class_cursor){&b->cls[BUF_CLASS_THREAD], NULL, NULL, NULL, sizeof(buf_event_rec)};
    cursor_page(&cs->mpi, cs->mpi.s->first);
    cursor_page(&cs->thread, cs->thread.s->first);
}

/* The time of the class's first record after t (the cursor passes those at or before t),
 * UINT64_MAX when there is none. */
static uint64_t cursor_after(class_cursor *c, uint64_t t)
{
    for (;;) {
        while (c->p && c->r + c->size > c->end)
            cursor_page(c, c->p->next);
        if (!c->p)
            return UINT64_MAX;
        uint64_t ts;
        memcpy(&ts, c->r, sizeof ts);
        if (ts > t)
            return ts;
        c->r += c->size;
    }
}

/* Called for the calls of one depth in time order (the cursors only move forward). */
static bool encloses_comm(comm_scan *cs, const buf_region_rec *e, const buf_region_rec *l)
{
    return cursor_after(&cs->mpi, e->ts) <= l->ts || cursor_after(&cs->thread, e->ts) <= l->ts;
}

/* ------------------------------------------------------------ compaction */
typedef bool (*drop_fn)(comm_scan *cs, const buf_region_rec *e, const buf_region_rec *l,
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
    comm_scan cs;
    comm_scan_start(&cs, b);
    for (buf_page *p = s->first; p; p = p->next) {
        char *end = p == s->last ? s->cur : p->used_end;
        for (char *r = page_data(p); r + sizeof pend <= end; r += sizeof pend) {
            buf_region_rec rec;
            memcpy(&rec, r, sizeof rec);
            if ((rec.type & BUF_TYPE_MASK) == BUF_ENTER) {
                if (have_pend)
                    put(&w, &pend, sizeof pend), any = true;
                pend = rec;
                have_pend = true;
                continue;
            }
            if (have_pend && !(pend.type & BUF_FLUSHED) && pend.region == rec.region &&
                drop(&cs, &pend, &rec, depth)) {
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

static bool reducible(comm_scan *cs, const buf_region_rec *e, const buf_region_rec *l)
{
    return !scorep_buffer_is_comm_region(e->region) && !encloses_comm(cs, e, l);
}

static bool drop_short(comm_scan *cs, const buf_region_rec *e, const buf_region_rec *l,
                       uint32_t depth)
{
    (void)depth;
    return l->ts - e->ts < cs->b->min_dur && reducible(cs, e, l);
}

static bool drop_deep(comm_scan *cs, const buf_region_rec *e, const buf_region_rec *l,
                      uint32_t depth)
{
    (void)l;
    return depth >= cs->b->depth_limit && !scorep_buffer_is_comm_region(e->region);
}

static bool drop_noncomm(comm_scan *cs, const buf_region_rec *e, const buf_region_rec *l,
                         uint32_t depth)
{
    (void)depth;
    return reducible(cs, e, l);
}

/* ------------------------------------------------------------ the steps */
/* Each step plans with one counting pass which threshold or depth frees the goal (in
 * records), and applies that one (one marker, not one per trial). Returns 1 when the goal
 * in pages is met, 0 when it removed something but too little (the step is tried again),
 * -1 when it has nothing left to remove (the next step follows). */
enum { MAX_BUCKETS = 48 };

typedef void (*pair_fn)(void *ctx, comm_scan *cs, const buf_region_rec *e, const buf_region_rec *l,
                        uint32_t depth);

/* Calls fn for every closed call of every depth stream, those of a depth in time order. */
static void for_each_pair(const scorep_buffer *b, pair_fn fn, void *ctx)
{
    for (uint32_t d = 0; d < b->depth_cap; d++) {
        const buf_stream *s = &b->depth[d];
        const buf_region_rec *pend = NULL;
        comm_scan cs;
        comm_scan_start(&cs, b);
        for (buf_page *p = s->first; p; p = p->next) {
            const char *end = p == s->last ? s->cur : p->used_end;
            for (const char *r = page_data(p); r + sizeof *pend <= end; r += sizeof *pend) {
                const buf_region_rec *rec = (const buf_region_rec *)r;
                if ((rec->type & BUF_TYPE_MASK) == BUF_ENTER) {
                    pend = rec;
                    continue;
                }
                if (pend && !(pend->type & BUF_FLUSHED) && pend->region == rec->region)
                    fn(ctx, &cs, pend, rec, d);
                pend = NULL;
            }
        }
    }
}

typedef struct {
    uint64_t first;
    uint32_t n;
    uint64_t count[MAX_BUCKETS]; /* records removable at threshold first << k, not below */
} dur_hist;

static void count_duration(void *ctx, comm_scan *cs, const buf_region_rec *e,
                           const buf_region_rec *l, uint32_t depth)
{
    (void)depth;
    dur_hist *h = ctx;
    if (!reducible(cs, e, l))
        return;
    uint64_t dur = l->ts - e->ts;
    uint32_t k = 0;
    while (k < h->n && dur >= h->first << k)
        k++;
    if (k < h->n)
        h->count[k] += 2;
}

static uint64_t goal_records(uint32_t goal_pages)
{
    return (uint64_t)goal_pages * (scorep_memory_page_size() / sizeof(buf_region_rec));
}

static int met(const scorep_buffer *b, uint32_t goal, uint32_t start)
{
    return start - b->n_pages >= goal ? 1 : 0;
}

static int step_min_duration(scorep_buffer *b, uint64_t ts, uint32_t goal, uint32_t start)
{
    /* candidates: the current threshold doubled (or the first one), doubling up to the cap */
    dur_hist h = {b->min_dur ? 2 * b->min_dur : (b->min_dur_first ? b->min_dur_first : 1), 0, {0}};
    while (h.n < MAX_BUCKETS && (h.first << h.n) <= b->min_dur_cap)
        h.n++;
    for_each_pair(b, count_duration, &h);
    uint64_t want = goal_records(goal), cum = 0, best = 0;
    uint32_t pick = UINT32_MAX;
    for (uint32_t k = 0; k < h.n; k++) {
        cum += h.count[k];
        if (h.count[k])
            best = k; /* the smallest threshold that removes all that can be removed */
        if (cum >= want && pick == UINT32_MAX)
            pick = k;
    }
    if (cum == 0)
        return -1; /* no threshold up to the cap removes anything */
    b->min_dur = h.first << (pick != UINT32_MAX ? pick : best);
    scorep_buffer_fast_leave_update(b);
    uint64_t removed = compact_depths(b, 0, drop_short);
    scorep_buffer_log(b, BUF_STEP_MIN_DURATION, b->min_dur, ts, removed);
    return met(b, goal, start);
}

static void count_depth(void *ctx, comm_scan *cs, const buf_region_rec *e, const buf_region_rec *l,
                        uint32_t depth)
{
    (void)cs;
    (void)l;
    uint64_t *count = ctx;
    if (depth < MAX_BUCKETS && !scorep_buffer_is_comm_region(e->region))
        count[depth] += 2;
}

static int step_depth(scorep_buffer *b, uint64_t ts, uint32_t goal, uint32_t start)
{
    uint64_t count[MAX_BUCKETS] = {0};
    for_each_pair(b, count_depth, count);
    uint32_t used = b->depth_cap;
    while (used > 0 && !b->depth[used - 1].first)
        used--;
    uint32_t limit = b->depth_limit < used ? b->depth_limit : used;
    if (limit <= 1)
        return -1; /* depth 0 (the program's outermost calls) always stays */
    /* the shallowest cut that frees the goal; levels beyond MAX_BUCKETS count as freeing */
    uint64_t want = goal_records(goal), cum = limit > MAX_BUCKETS ? want : 0;
    uint32_t cut = limit - 1;
    for (; cut > 1; cut--) {
        if (cut < MAX_BUCKETS)
            cum += count[cut];
        if (cum >= want)
            break;
    }
    /* The rule is set whether or not the cut removes anything now: it keeps later deep calls
     * out of memory (threads recording past the measurement's end rely on it: passing the
     * step over there lost events, session 25). What the trace lacks is logged: a cut that
     * removed records now, or, for one that removed none (every deeper call one of
     * communication, CP2K's), the first later call that the rule drops
     * (scorep_buffer_depth_slow); a rule that never drops one leaves no marker, no
     * MANIFEST.md row and no "reduced" warning (docs/design-reduction.md, step 2). */
    b->depth_limit = cut;
    scorep_buffer_rec_depth_update(b);
    uint64_t removed = compact_depths(b, cut, drop_deep);
    if (removed) {
        scorep_buffer_log(b, BUF_STEP_DEPTH, cut, ts, removed);
        b->depth_logged = cut;
    }
    return met(b, goal, start);
}

/* Stays the current step while it frees the goal: new calls keep being recorded and are
 * removed again at the next pressure when they enclosed no communication. */
static int step_noncomm(scorep_buffer *b, uint64_t ts, uint32_t goal, uint32_t start)
{
    uint64_t removed = compact_depths(b, 0, drop_noncomm);
    /* only a step that removed something is logged: unlike the other two it leaves no rule
     * in force, and a trace of MPI calls alone (hpcc under scorep-run) lost nothing, which
     * its marker, MANIFEST.md and the warning said it had ("reduced", "incomplete") */
    if (removed)
        scorep_buffer_log(b, BUF_STEP_NONCOMM, 0, ts, removed);
    return met(b, goal, start) ? 1 : -1;
}

int scorep_buffer_reduce(scorep_buffer *b, uint64_t ts)
{
    /* Freeing an eighth of the buffer per reduction bounds the rescanning: the buffer
     * is scanned again only after that much new data. */
    uint32_t start = b->n_pages, goal = b->n_pages / 8 + 1;
    if (start == 0)
        return -1; /* the pool ran dry before this location got a page: nothing to reduce */
    while (b->step < b->n_steps) {
        buf_step st = b->steps[b->step];
        int rc = st == BUF_STEP_MIN_DURATION ? step_min_duration(b, ts, goal, start)
                 : st == BUF_STEP_DEPTH      ? step_depth(b, ts, goal, start)
                 : st == BUF_STEP_NONCOMM    ? step_noncomm(b, ts, goal, start)
                 : scorep_buffer_flush_hook && scorep_buffer_flush_hook(b, ts) == 0 ? 1
                                                                                    : -1;
        if (rc > 0)
            return 0;
        if (rc < 0)
            b->step++; /* exhausted: the next step follows, now and at later pressures */
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
