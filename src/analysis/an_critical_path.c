/* SPDX-License-Identifier: BSD-3-Clause */
/* an_critical_path.c: the critical path (Boehme et al., as Scalasca's CriticalPath.pattern
 * defines it): the longest path through the run without wait states. It ends where the last
 * rank ends (with MPI_Finalize recorded on every rank: at the Enter of MPI_Finalize of the
 * rank that entered it last, and it begins at the Enter of MPI_Init of the rank it reaches
 * last, as Scalasca 2.6 computes it: its FINALIZE and INIT callbacks take the calls' Leave
 * events, and scout.mpi's critical path holds no MPI_Finalize time and the whole MPI_Init of
 * that rank, measured on the same trace) and is followed backward in time: it stays on a rank until it
 * reaches the end of a wait state of that rank, then continues on the rank that caused the
 * wait, at the time that rank reached the synchronisation point (the sender's send, the
 * receiver's posted receive, the last rank into a collective, the root of a broadcast). Every
 * wait state of a rank is such a point, so a probed synchronous send keeps both of its
 * synchronisation points: the Late Receiver at the send (the path goes to the receive) and the
 * Late Sender at the probe (the path goes back to the send) (the seed's figure 17).
 * The walk is sequential by nature (it hops from rank to rank once per wait state on it): rank 0
 * gathers every rank's synchronisation points (24 bytes each), follows the path and sends each
 * rank its intervals on it; each rank credits the time of its call paths in them
 * (critical_path). (A token passed from rank to rank costs one message latency per hop: 8 s
 * for the 200,000 messages of the benchmark, against milliseconds here.) */
#include "analysis/an_context.h"
#include "analysis/an_regions.h"
#include "analysis/an_taskgraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void an_sync_add(an_ctx *c, uint64_t wait_begin, uint64_t wait_end, uint32_t cnode, uint32_t peer,
                 uint64_t peer_time)
{
    if (peer == AN_NONE || c->sync_oom)
        return;
    if (c->n_sync == c->cap_sync) {
        size_t cap = c->cap_sync ? 2 * c->cap_sync : 256;
        an_sync *n = realloc(c->sync, cap * sizeof *n);
        if (!n) {
            c->sync_oom = 1;
            return;
        }
        c->sync = n;
        c->cap_sync = cap;
    }
    c->sync[c->n_sync++] = (an_sync){wait_end, peer_time, wait_begin, peer, cnode, AN_NONE};
}

void an_wait_add(an_ctx *c, const an_wait_rec *w)
{
    if (c->sync_oom)
        return;
    if (c->n_waits == c->cap_waits) {
        size_t cap = c->cap_waits ? 2 * c->cap_waits : 256;
        an_wait_rec *n = realloc(c->waits, cap * sizeof *n);
        if (!n) {
            c->sync_oom = 1;
            return;
        }
        c->waits = n;
        c->cap_waits = cap;
    }
    an_sync *s = c->n_sync ? &c->sync[c->n_sync - 1] : NULL;
    /* the same wait state (the caller added both; an Early Reduce's synchronisation point and
     * its cause for the delay costs are both the last sender in, as in Scalasca 2.6) */
    if (s && s->wait == AN_NONE && (s->peer == w->cause || w->kind == AN_W_N21) &&
        s->cnode == w->cnode)
        s->wait = (uint32_t)c->n_waits;
    c->waits[c->n_waits++] = *w;
}

static int cmp_sync(const void *a, const void *b)
{
    uint64_t x = ((const an_sync *)a)->wait_end, y = ((const an_sync *)b)->wait_end;
    return x < y ? -1 : x > y;
}

/* the call path that runs after event i (until the next event); a team's fork and join are
 * its parallel region's (an_forkjoin_cnode) */
static uint32_t cnode_after(const an_trace *t, size_t i)
{
    const an_event *e = &t->events[i];
    uint32_t fj = an_forkjoin_cnode(t, t->events, t->n_events, i);
    if (fj != AN_NONE)
        return fj;
    if (e->kind == AN_LEAVE)
        return e->cnode == AN_NONE ? AN_NONE : t->cnodes[e->cnode].parent;
    return e->cnode;
}

/* credits the time of this rank's call paths in [from, to] to critical_path */
static void credit(an_ctx *c, uint64_t from, uint64_t to)
{
    const an_trace *t = c->t;
    size_t lo = 0, hi = t->n_events; /* first event with time > from */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->events[mid].time <= from)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t i = lo ? lo - 1 : 0;
    for (; i + 1 < t->n_events && t->events[i].time < to; i++) {
        uint64_t a = t->events[i].time > from ? t->events[i].time : from;
        uint64_t b = t->events[i + 1].time < to ? t->events[i + 1].time : to;
        uint32_t k = cnode_after(t, i);
        if (c->tg && c->tg->master_skip[i])
            continue; /* in a task or waiting for tasks: the task chain stands for it */
        if (b > a && k != AN_NONE) {
            an_add(c, M_CRITICAL_PATH, k, an_sec(c, (int64_t)(b - a)));
            uint32_t region = t->cnodes[k].region;
            uint32_t cls = region < t->n_regions ? t->regions[region].cls : AN_RC_USER;
            if (AN_RC_IS_MPI(cls) && (cls & AN_RC_MASK) != AN_RC_INIT_EXIT)
                c->cp_transfer += an_sec(c, (int64_t)(b - a));
        }
    }
    an_taskgraph_credit(c, from, to);
}

/* on rank 0: the path through all ranks' synchronisation points (SYNC: all of them,
 * rank r's from OFF[r], N[r] of them, each rank's sorted by wait_end), from END[OWNER] back to
 * where rank r's part ends (FIRST[r]); appends the intervals (from, to) of rank r to OUT[r] */
typedef struct {
    uint64_t *v;
    size_t n, cap;
} ivals;

static int push(ivals *o, uint64_t a, uint64_t b)
{
    if (o->n + 2 > o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 64;
        uint64_t *n = realloc(o->v, cap * sizeof *n);
        if (!n)
            return -1;
        o->v = n;
        o->cap = cap;
    }
    o->v[o->n++] = a;
    o->v[o->n++] = b;
    return 0;
}

static const an_sync *before(const an_sync *s, size_t n, uint64_t t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s[mid].wait_end < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &s[lo - 1] : NULL;
}

static int walk(const an_sync *sync, const int *off, const int *n, const uint64_t *first,
                const uint64_t *end, int size, int owner, ivals *out)
{
    uint64_t at = end[owner];
    size_t total = 0;
    for (int r = 0; r < size; r++)
        total += (size_t)n[r];
    for (size_t hop = 0;; hop++) {
        const an_sync *s = hop <= total ? before(sync + off[owner], (size_t)n[owner], at) : NULL;
        if (!s || s->wait_end <= first[owner])
            return push(&out[owner], first[owner], at);
        if (push(&out[owner], s->wait_end, at) != 0)
            return -1;
        owner = (int)s->peer;
        at = s->peer_time;
        if (owner < 0 || owner >= size)
            return 0;
    }
}

/* the path's pieces as text for the report (the longest CP_MAX_SEGMENTS of them; the
 * timeline cannot draw more), "rank begin end;" each; NULL when memory runs out */
enum { CP_MAX_SEGMENTS = 4000 };
typedef struct {
    uint64_t b, e;
    int rank;
} segment;
static int by_length_desc(const void *a, const void *b)
{
    const segment *x = a, *y = b;
    uint64_t lx = x->e - x->b, ly = y->e - y->b;
    return lx < ly ? 1 : lx > ly ? -1 : 0;
}
static int by_begin(const void *a, const void *b)
{
    const segment *x = a, *y = b;
    return x->b < y->b ? -1 : x->b > y->b;
}
static char *segments_text(const ivals *out, int size)
{
    size_t n = 0;
    for (int r = 0; r < size; r++)
        n += out[r].n / 2;
    segment *s = malloc((n + 1) * sizeof *s);
    if (!s)
        return NULL;
    size_t k = 0;
    for (int r = 0; r < size; r++)
        for (size_t i = 0; i + 1 < out[r].n; i += 2)
            if (out[r].v[i + 1] > out[r].v[i])
                s[k++] = (segment){out[r].v[i], out[r].v[i + 1], r};
    if (k > CP_MAX_SEGMENTS) {
        qsort(s, k, sizeof *s, by_length_desc);
        k = CP_MAX_SEGMENTS;
    }
    qsort(s, k, sizeof *s, by_begin);
    char *text = malloc(k * 64 + 1);
    if (text) {
        size_t at = 0;
        text[0] = '\0';
        for (size_t i = 0; i < k; i++)
            at += (size_t)snprintf(text + at, 64, "%d %llu %llu;", s[i].rank,
                                   (unsigned long long)s[i].b, (unsigned long long)s[i].e);
    }
    free(s);
    return text;
}

int an_critical_path(an_ctx *c, char *err, size_t len)
{
    const an_trace *t = c->t;
    int bad = c->sync_oom, any;
    an_net_allreduce(c->net, &bad, &any, 1, AN_T_INT, AN_OP_MAX);
    if (any) {
        snprintf(err, len, "out of memory recording the synchronisation points");
        return -1;
    }
    if (c->n_sync) /* qsort's base must not be NULL, even for no elements */
        qsort(c->sync, c->n_sync, sizeof *c->sync, cmp_sync);
    /* rank 0 collects the synchronisation points (24 bytes each) and the ranks' time ranges,
     * follows the path and sends each rank its intervals on it */
    int size = c->size, mine = (int)(c->n_sync * sizeof(an_sync));
    /* where this rank's part of the path can begin and end: as Scalasca, from MPI_Init's
     * Enter to MPI_Finalize's when every rank has them; else its first event and its last
     * one before the leave of its program root (ProgramEnd, in finalize, where the ranks end
     * about together); a program without MPI: to that leave (scout.omp and scout.ser end
     * the path at the program's end) */
    size_t last = t->n_events ? t->n_events - 1 : 0;
    if (last > 0 && t->has_mpi && an_program_cnode(t) != AN_NONE &&
        t->events[last].kind == AN_LEAVE && t->events[last].enter == 0)
        last--;
    uint64_t range[2] = {t->n_events ? t->events[0].time : 0,
                         t->n_events ? t->events[last].time : 0};
    if (c->all_init && c->init_enter > range[0])
        range[0] = c->init_enter;
    if (c->all_fin)
        range[1] = c->fin_enter;
    int *cnt = NULL, *off = NULL, *n = NULL, *icnt = NULL, *ioff = NULL;
    uint64_t *ranges = NULL, *first = NULL, *end = NULL, *all_iv = NULL;
    an_sync *all = NULL;
    ivals *out = NULL;
    int ok = 1;
    if (c->rank == 0) {
        cnt = calloc((size_t)size, sizeof *cnt);
        off = calloc((size_t)size, sizeof *off);
        n = calloc((size_t)size, sizeof *n);
        icnt = calloc((size_t)size, sizeof *icnt);
        ioff = calloc((size_t)size, sizeof *ioff);
        ranges = calloc(2 * (size_t)size, sizeof *ranges);
        first = calloc((size_t)size, sizeof *first);
        end = calloc((size_t)size, sizeof *end);
        out = calloc((size_t)size, sizeof *out);
        ok = cnt && off && n && icnt && ioff && ranges && first && end && out;
    }
    an_net_gather(c->net, &mine, 1, cnt, AN_T_INT, 0);
    an_net_gather(c->net, range, 2, ranges, AN_T_U64, 0);
    size_t bytes = 0;
    if (c->rank == 0 && ok) {
        for (int r = 0; r < size; r++) {
            off[r] = (int)bytes;
            bytes += (size_t)cnt[r];
        }
        ok = (all = malloc(bytes + 1)) != NULL;
    }
    an_net_gatherv(c->net, c->sync, mine, all, cnt, off, AN_T_BYTE, 0);
    if (c->rank == 0 && ok) {
        for (int r = 0; r < size; r++) {
            off[r] /= (int)sizeof(an_sync);
            n[r] = cnt[r] / (int)sizeof(an_sync);
            first[r] = ranges[2 * r];
            end[r] = ranges[2 * r + 1];
        }
        /* the path starts where the rank that ends last ends; with MPI_Finalize on every
         * rank, at the Enter of that of the rank that entered it last (Scalasca's start) */
        int owner = 0;
        for (int r = 1; r < size; r++)
            if (end[r] > end[owner])
                owner = r;
        if (c->all_fin && c->fin_last >= 0 && c->fin_last < size)
            owner = c->fin_last;
        ok = walk(all, off, n, first, end, size, owner, out) == 0 &&
             (c->cp_segments = segments_text(out, size)) != NULL;
        size_t tot = 0;
        for (int r = 0; ok && r < size; r++) {
            icnt[r] = (int)out[r].n;
            ioff[r] = (int)tot;
            tot += out[r].n;
        }
        if (ok && (all_iv = malloc((tot + 1) * sizeof *all_iv)))
            for (int r = 0; r < size; r++)
                if (out[r].n) /* a rank off the path has no intervals (v NULL) */
                    memcpy(all_iv + ioff[r], out[r].v, out[r].n * sizeof *all_iv);
        ok = ok && all_iv;
    }
    an_net_bcast(c->net, &ok, 1, AN_T_INT, 0);
    int rc = 0;
    if (!ok) {
        snprintf(err, len, "out of memory following the critical path");
        rc = -1;
    } else {
        int my_n;
        an_net_scatter(c->net, icnt, &my_n, 1, AN_T_INT, 0);
        uint64_t *iv = malloc(((size_t)my_n + 1) * sizeof *iv);
        int got = iv != NULL, all_got;
        an_net_allreduce(c->net, &got, &all_got, 1, AN_T_INT, AN_OP_MIN);
        if (!all_got) {
            snprintf(err, len, "out of memory following the critical path");
            rc = -1;
        } else {
            an_net_scatterv(c->net, all_iv, icnt, ioff, iv, my_n, AN_T_U64, 0);
            for (int i = 0; i + 1 < my_n; i += 2)
                credit(c, iv[i], iv[i + 1]);
            c->cp_iv = iv; /* for the threads' part (an_omp.c) */
            c->n_cp_iv = my_n;
            iv = NULL;
        }
        free(iv);
    }
    for (int r = 0; out && r < size; r++)
        free(out[r].v);
    free(out);
    free(cnt);
    free(off);
    free(n);
    free(icnt);
    free(ioff);
    free(ranges);
    free(first);
    free(end);
    free(all);
    free(all_iv);
    return rc;
}
