/* SPDX-License-Identifier: BSD-3-Clause */
/* an_delay.c: delay costs and the classification of wait states (Boehme et al., "Identifying
 * the root causes of wait states in large-scale parallel applications"; Scalasca's
 * Delay.MPI.pattern, MpiDelayOps.cpp, DelayOps.cpp, SynchpointHandler.cpp and
 * TmapCacheHandler.cpp). A wait state is caused by the extra work the causing rank did since
 * the two ranks' previous synchronisation point (its delay), and by the causing rank's own
 * waiting in that interval, through which it propagates.
 *
 * 0. Synchronisation points, as Scalasca's SynchpointHandler: a wait state is one on both
 *    ranks (a Late Sender at the receive and the send; a Late Receiver at the send's
 *    completion and the posting of the receive; a collective wait at the waiting rank's and
 *    the causing rank's collective), and every barrier and n-to-n collective is one of all its
 *    members. A message without a wait state is none. Each rank learns the wait states it
 *    caused from one all-to-all of their identities (and the leave of the other side's call
 *    comes back). The synchronisation interval after a point begins at the leave of its call
 *    and includes the call's completion time on the call's path (PruneDelayTimemap: the
 *    call's time less its total minus its completion time): for a Late Sender's receive the
 *    time after the send's leave, for its send the time after the receive's leave, for the
 *    posting of a receive the time after the send completion's leave, for a Late Receiver's
 *    send completion Scalasca's value (its leave minus the posting's leave, 0 when positive),
 *    for a collective 0 (Scalasca: after the earliest member's leave; not known here, a
 *    Barrier Completion of microseconds). Before the first point the interval begins at the
 *    leave of MPI_Init (the trace's first event without one).
 * 1. Bulk exchange (one personalised all-to-all): for every wait state (Late Sender, Late
 *    Receiver, Wait at Barrier, Wait at N x N, Late Broadcast, Early Reduce) the waiting rank
 *    sends the causing rank its time per call path in its synchronisation interval (from its
 *    previous synchronisation point with that rank to the waiting call, without waiting
 *    time). The causing rank compares its own time per call path in its interval (to its
 *    send, the posting of its receive, its enter into the collective): delay = max(0, own -
 *    peer's) per call path, and charges scale x delay, scale = min(1, wait / (sum of delays +
 *    its own waiting time in the interval)) (short-term costs). The rest of the wait, scale x
 *    its own waiting, is the part its own wait states propagated: the waiting rank's
 *    "indirect" wait (sent back in a second all-to-all), and the causing rank's wait states in
 *    the interval are "propagating" by that share (point-to-point only, as Scalasca).
 * 2. Backward replay of the costs (long-term): every wait state carries a cost per kind of
 *    wait state (the waiting time of that kind it caused further down the causal chain). Each
 *    rank walks its synchronisation points backward in trace order: at a wait state it sends
 *    its cost record to the rank that caused it (MPI_Isend, completed at the end); at a wait
 *    state it caused it receives the record, charges cost / (sum of delays + own waiting) x
 *    delay to its call paths (long-term costs) and adds that share, plus the short-term share
 *    of the wait's own kind, of its own wait states' time in the interval to their costs. A
 *    record is awaited in the walk only when the causing rank has wait states of its own in
 *    the interval (the reply of step 1 tells the waiting rank); the others go in one more
 *    all-to-all after the walk, when all costs are final (100,000 outstanding MPI_Isends per
 *    rank made the first version 50 times slower). The walk cannot deadlock: a record is
 *    awaited in it only when the causing rank reached the synchronisation point strictly
 *    before the waiting call ended, so every blocking receive waits for a later point in time
 *    (otherwise the wait passes only its short-term share on in order; a clock condition
 *    violation).
 * OpenMP (since session 24): the master thread's waits in OpenMP barriers are waiting, not
 * delay, in every interval (Scalasca's synchronisation points include OpenMP barriers): they
 * count in the own waiting of step 1 and take over costs in step 2 as the own wait states do;
 * after the walk an_omp_bwait_costs passes those costs on to the barrier's late thread (the
 * long-term costs of their kinds on its location), so that a Late Sender caused by a late
 * OpenMP thread is charged to that thread, as in scout.hyb.
 * Collectives are charged per waiting member against the last rank in (the root of a
 * broadcast), as point-to-point waits are. An Early Reduce (the root waited for the last
 * sender in, Scalasca 2.6's definition) is charged to that sender, as Scalasca's DELAY_N21
 * does (its COLL_N21 handler takes CollectiveInfo's latest). Call paths
 * are matched across ranks by a hash of their region path. */
#include "analysis/an_coll.h"
#include "analysis/an_context.h"
#include "analysis/an_p2p.h"
#include "analysis/an_regions.h"
#include "base/grow.h"

#include <otf2/OTF2_Events.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COST_TAG = 0x5CD1 };

typedef struct {
    uint64_t hash;
    double secs;
} tm_entry;

/* the bulk request: one per wait state, to the rank that caused it, followed by N tm_entry */
typedef struct {
    uint64_t msg_id;
    uint32_t comm, from, to, tag, kind, n;
    uint32_t waiter;  /* world rank that waited */
    uint32_t wid;     /* the wait state's index on the waiter */
    uint32_t inst;    /* collectives: instance number on comm */
    uint32_t ordered; /* 1: its cost record follows in the backward replay */
    double wait;
} req_head;

/* the cost record of the backward replay */
typedef struct {
    uint32_t wid, waiter;
    double cost[AN_W_KINDS];
} cost_rec;

/* the reply of the bulk phase: whether the wait's cost record is needed in the backward walk,
 * and the indirect part of a point-to-point wait */
typedef struct {
    uint32_t wid, walk;
    double indirect;
} ind_rec;

/* a value for a call path (delays) or for an own wait state (its time in an interval) */
typedef struct {
    uint32_t k;
    double v;
} dval;

/* a wait state this rank caused */
typedef struct {
    uint32_t waiter, wid, kind, ordered;
    uint32_t walk; /* its record is awaited in the walk (ordered, own wait states in it) */
    uint32_t ev;   /* this rank's event (AN_NONE: not found) */
    uint32_t pos; /* ENTER of the causing call: its place in the backward walk */
    size_t d_off, o_off;
    uint32_t d_n, o_n; /* delays per call path; own wait states in the interval */
    double denom;      /* sum of delays + own waiting time in the interval */
    double waited;     /* own waiting time in the interval */
    double scale_w;
    double cost[AN_W_KINDS];
    int arrived;
    size_t tm_off; /* its time map in the receive buffer */
    uint32_t tm_n;
    double wait;
} caused;

/* a synchronisation point of this rank (Scalasca's SynchpointHandler): a wait state of its own
 * (with the rank that caused it), a wait state it caused (with the rank that waited), or a
 * collective that synchronises all members (PEER AN_NONE: every member of COMM) */
typedef struct {
    uint32_t pos;      /* its event: the order in the trace */
    uint32_t peer;     /* world rank; AN_NONE: every member of COMM */
    uint32_t comm;
    uint32_t cnode;    /* the call path of its call */
    uint64_t start;    /* the leave of its call: the next interval begins there */
    double completion; /* its call's time after the synchronisation (Scalasca's
                        * completionTime), which the next interval includes */
} spoint;

typedef struct {
    double *acc; /* per cnode */
    uint32_t *touched;
    size_t n_touched;
    uint64_t *hash;      /* per cnode: hash of its region path */
    uint64_t *req_enter; /* per receive event: when its receive was posted */
    uint32_t *req_pos;   /* per receive event: the ENTER of the call that posted it */
    uint32_t *req_ev;    /* per receive event: the event that posted it (itself: MPI_Recv) */
    struct ev_key {
        uint64_t msg_id;
        uint32_t comm, peer, tag, event;
    } * sends, *recvs; /* this rank's messages, sorted, for finding a wait's cause */
    size_t n_sends, n_recvs;
    uint32_t *coll;    /* COLL_END events grouped by communicator, in order */
    size_t *coll_at;   /* [comm]: first of comm's in coll; [n_comms]: total */
    dval *ov;          /* own wait states overlapping the last time map: (wait, seconds) */
    size_t n_ov, cap_ov;
    spoint *sp; /* the synchronisation points, sorted by their event */
    size_t n_sp, cap_sp;
    uint64_t first; /* where the interval before the first synchronisation point begins */
    /* the master thread's OpenMP barrier waits (an_omp_master_bwaits), in time order: no time
     * of its own in an interval, but waiting, which the costs pass on to the barrier's late
     * thread; in d->ov as own wait states N_WAITS + their index */
    const an_omp_bwait *bw;
    size_t n_bw;
    uint32_t n_waits;
    int oom;
} dstate;

static int cmp_ev_key(const void *a, const void *b);

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return x;
}

static void add(dstate *d, uint32_t k, double v)
{
    if (k == AN_NONE || v == 0)
        return;
    if (d->acc[k] == 0)
        d->touched[d->n_touched++] = k;
    d->acc[k] += v;
    if (d->acc[k] == 0) /* keep it listed: a later add must not list it twice */
        d->acc[k] = 1e-300;
}

static void clear(dstate *d)
{
    for (size_t i = 0; i < d->n_touched; i++)
        d->acc[d->touched[i]] = 0;
    d->n_touched = 0;
}

static void ov_push(dstate *d, uint32_t wait, double v)
{
    if (d->n_ov == d->cap_ov) {
        size_t cap = d->cap_ov ? 2 * d->cap_ov : 64;
        dval *n = realloc(d->ov, cap * sizeof *n);
        if (!n) {
            d->oom = 1;
            return;
        }
        d->ov = n;
        d->cap_ov = cap;
    }
    d->ov[d->n_ov++] = (dval){wait, v};
}

/* this rank's time per call path in [a, b] without its waiting time; returns the waiting
 * time inside the interval; d->ov lists the wait states (with their delay record) in it */
static double time_map(an_ctx *c, dstate *d, uint64_t a, uint64_t b)
{
    const an_trace *t = c->t;
    clear(d);
    d->n_ov = 0;
    if (b <= a)
        return 0;
    size_t lo = 0, hi = t->n_events;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->events[mid].time <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo ? lo - 1 : 0; i + 1 < t->n_events && t->events[i].time < b; i++) {
        uint64_t s = t->events[i].time > a ? t->events[i].time : a;
        uint64_t e = t->events[i + 1].time < b ? t->events[i + 1].time : b;
        const an_event *ev = &t->events[i];
        /* a team's fork and join are its parallel region's (an_forkjoin_cnode) */
        uint32_t k = an_forkjoin_cnode(t, t->events, t->n_events, i);
        if (k == AN_NONE)
            k = ev->kind == AN_LEAVE
                    ? (ev->cnode == AN_NONE ? AN_NONE : t->cnodes[ev->cnode].parent)
                    : ev->cnode;
        if (e > s)
            add(d, k, an_sec(c, (int64_t)(e - s)));
    }
    double waited = 0;
    lo = 0;
    hi = c->n_sync; /* sorted by wait_end (an_critical_path.c): the first ending after a */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->sync[mid].wait_end <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* a rank waits in one call at a time: its wait states do not overlap, so sorted by their
     * end they are sorted by their begin too, and those overlapping [a, b] are consecutive */
    for (size_t i = lo; i < c->n_sync && c->sync[i].wait_begin < b; i++) {
        const an_sync *w = &c->sync[i];
        uint64_t s = w->wait_begin > a ? w->wait_begin : a;
        uint64_t e = w->wait_end < b ? w->wait_end : b;
        if (e > s) {
            double v = an_sec(c, (int64_t)(e - s));
            add(d, w->cnode, -v);
            waited += v;
            if (w->wait != AN_NONE)
                ov_push(d, w->wait, v);
        }
    }
    /* the master's OpenMP barrier waits: Scalasca's synchronisation points include OpenMP
     * barriers (SynchpointHandler, cb_pre_omp_barrier_wait), so PruneDelayTimemap takes their
     * waiting out of the delays too, and the wait states' costs pass it on to the late thread
     * (Delay.OMP.pattern's DELAY_OMP_BARRIER callbacks). They do not overlap one another nor
     * the MPI wait states (one thread, one call at a time). */
    lo = 0;
    hi = d->n_bw;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (d->bw[mid].end <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < d->n_bw && d->bw[i].begin < b; i++) {
        uint64_t s = d->bw[i].begin > a ? d->bw[i].begin : a;
        uint64_t e = d->bw[i].end < b ? d->bw[i].end : b;
        if (e > s) {
            double v = an_sec(c, (int64_t)(e - s));
            add(d, d->bw[i].cnode, -v);
            waited += v;
            ov_push(d, d->n_waits + (uint32_t)i, v);
        }
    }
    return waited;
}

static int cmp_entry(const void *a, const void *b)
{
    uint64_t x = ((const tm_entry *)a)->hash, y = ((const tm_entry *)b)->hash;
    return x < y ? -1 : x > y;
}

/* a communicator whose collectives the replay numbers (an_replay_coll.c: intercommunicators
 * with both groups defined too) */
static int valid_comm(const an_trace *t, uint32_t comm)
{
    return comm < t->n_comms && t->comms[comm].defined &&
           (!t->comms[comm].inter || t->comms[comm].ranks_b);
}

/* per call path its hash; per receive when it was posted; the messages sorted; the collective
 * events per communicator */
static int prepare(an_ctx *c, dstate *d)
{
    const an_trace *t = c->t;
    an_req_map irecv = {0};
    if (an_req_map_init(&irecv, t->n_events) != 0) {
        an_req_map_free(&irecv);
        return -1;
    }
    for (size_t k = 0; k < t->n_cnodes; k++) {
        uint32_t p = t->cnodes[k].parent;
        d->hash[k] = mix((p == AN_NONE ? 0x51ED27 : d->hash[p]) ^ mix(t->cnodes[k].region + 1));
    }
    d->sends = malloc(t->n_events * sizeof *d->sends + 1);
    d->recvs = malloc(t->n_events * sizeof *d->recvs + 1);
    d->coll_at = calloc(t->n_comms + 2, sizeof *d->coll_at);
    if (!d->sends || !d->recvs || !d->coll_at) {
        an_req_map_free(&irecv);
        return -1;
    }
    for (size_t i = 0; i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        struct ev_key k = {e->msg_id, e->comm, e->peer, e->tag, (uint32_t)i};
        if (e->kind == AN_SEND || e->kind == AN_ISEND)
            d->sends[d->n_sends++] = k;
        else if (e->kind == AN_RECV || e->kind == AN_IRECV)
            d->recvs[d->n_recvs++] = k;
        if (e->kind == AN_IRECV_REQUEST) {
            an_req_put(&irecv, e->request, (uint32_t)i);
        } else if (e->kind == AN_RECV || e->kind == AN_IRECV) {
            d->req_enter[i] = an_call_enter(c, e);
            d->req_pos[i] = e->enter == AN_NONE ? (uint32_t)i : e->enter;
            d->req_ev[i] = (uint32_t)i;
            if (e->kind == AN_IRECV) {
                uint32_t r = an_req_get(&irecv, e->request);
                if (r != AN_NONE) {
                    d->req_enter[i] = an_call_enter(c, &t->events[r]);
                    d->req_pos[i] = t->events[r].enter == AN_NONE ? r : t->events[r].enter;
                    d->req_ev[i] = r;
                }
            }
        } else if (e->kind == AN_COLL_END && valid_comm(t, e->comm)) {
            d->coll_at[e->comm + 1]++;
        }
    }
    an_req_map_free(&irecv);
    for (size_t k = 0; k < t->n_comms; k++)
        d->coll_at[k + 1] += d->coll_at[k];
    size_t *fill = calloc(t->n_comms + 1, sizeof *fill);
    if (!fill || !(d->coll = malloc((d->coll_at[t->n_comms] + 1) * sizeof *d->coll))) {
        free(fill);
        return -1;
    }
    for (size_t i = 0; i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        if (e->kind == AN_COLL_END && valid_comm(t, e->comm))
            d->coll[d->coll_at[e->comm] + fill[e->comm]++] = (uint32_t)i;
    }
    free(fill);
    qsort(d->sends, d->n_sends, sizeof *d->sends, cmp_ev_key);
    qsort(d->recvs, d->n_recvs, sizeof *d->recvs, cmp_ev_key);
    return 0;
}

static int cmp_ev_key(const void *a, const void *b)
{
    const struct ev_key *x = a, *y = b;
#define CMP(f)                                                                                     \
    if (x->f != y->f)                                                                              \
        return x->f < y->f ? -1 : 1;
    CMP(comm)
    CMP(peer) CMP(tag) CMP(msg_id)
#undef CMP
        return 0;
}

typedef struct {
    uint32_t ev, i;
} ev_idx;
static int cmp_ev_idx(const void *a, const void *b)
{
    const ev_idx *x = a, *y = b;
    return x->ev != y->ev ? (x->ev < y->ev ? -1 : 1) : (x->i < y->i ? -1 : x->i > y->i);
}

/* a communicator whose every collective is a synchronisation point of all its members
 * (Scalasca's SYNC_COLL and COLL_N2N: MPI_Barrier, and the n-to-n operations, which overlap
 * fully in practice: no member can leave before the last one entered) */
static int coll_all(const an_trace *t, const an_event *e)
{
    if (!valid_comm(t, e->comm))
        return 0;
    an_coll_kind k = an_coll_kind_of(e->tag);
    return k == AN_COLL_BARRIER || k == AN_COLL_N2N;
}

static int sp_push(dstate *d, spoint p)
{
    if (scorep_grow((void **)&d->sp, &d->cap_sp, d->n_sp + 1, sizeof *d->sp) != 0)
        return -1;
    d->sp[d->n_sp++] = p;
    return 0;
}

static int cmp_sp(const void *a, const void *b)
{
    uint32_t x = ((const spoint *)a)->pos, y = ((const spoint *)b)->pos;
    return x < y ? -1 : x > y;
}

/* the collectives that synchronise all members, and where the intervals before the first
 * synchronisation point begin: the leave of MPI_Init (Scalasca's INIT synchronisation point,
 * its completion left out), or the trace's first event */
static int coll_points(an_ctx *c, dstate *d)
{
    const an_trace *t = c->t;
    d->first = t->n_events ? t->events[0].time : 0;
    int init = 0;
    for (size_t i = 0; i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        if (!init && e->kind == AN_LEAVE && e->enter != AN_NONE &&
            t->events[e->enter].region < t->n_regions &&
            (t->regions[t->events[e->enter].region].cls & AN_RC_MASK) == AN_RC_INIT_EXIT) {
            d->first = e->time; /* the first init-exit call ending is MPI_Init's */
            init = 1;
        }
        if (e->kind == AN_COLL_END && coll_all(t, e) &&
            sp_push(d, (spoint){(uint32_t)i, AN_NONE, e->comm, e->cnode, an_call_exit(c, e), 0}))
            return -1;
    }
    return 0;
}

/* OUT[i]: this rank's previous synchronisation point with world rank PEER[i] before event
 * EV[i] (an index into d->sp; AN_NONE: none, the interval begins at d->first), in one walk
 * over the synchronisation points (sorted by their event) */
static int prev_sync(an_ctx *c, dstate *d, size_t n, const uint32_t *ev, const uint32_t *peer,
                     uint32_t *out)
{
    const an_trace *t = c->t;
    uint32_t *last = malloc(((size_t)c->size + 1) * sizeof *last);
    ev_idx *q = malloc((n + 1) * sizeof *q);
    if (!last || !q) {
        free(last);
        free(q);
        return -1;
    }
    for (int r = 0; r < c->size; r++)
        last[r] = AN_NONE;
    for (size_t i = 0; i < n; i++)
        q[i] = (ev_idx){ev[i], (uint32_t)i};
    qsort(q, n, sizeof *q, cmp_ev_idx);
    size_t j = 0;
    for (size_t k = 0; k < n; k++) {
        for (; j < d->n_sp && d->sp[j].pos < q[k].ev; j++) { /* strictly before the event */
            const spoint *s = &d->sp[j];
            if (s->peer != AN_NONE) {
                if (s->peer < (uint32_t)c->size)
                    last[s->peer] = (uint32_t)j;
                continue;
            }
            const an_comm *m = &t->comms[s->comm]; /* every member (both groups) */
            for (uint32_t x = 0; x < m->n + (m->ranks_b ? m->n_b : 0); x++) {
                uint32_t w = x < m->n ? m->ranks[x] : m->ranks_b[x - m->n];
                if (w < (uint32_t)c->size)
                    last[w] = (uint32_t)j;
            }
        }
        uint32_t p = peer[q[k].i];
        out[q[k].i] = q[k].ev != AN_NONE && p < (uint32_t)c->size ? last[p] : AN_NONE;
    }
    free(last);
    free(q);
    return 0;
}

/* this rank's time per call path in its synchronisation interval from synchronisation point
 * SP (AN_NONE: from d->first) to B, as Scalasca's PruneDelayTimemap: from the leave of SP's
 * call, plus the part of that call after the synchronisation (its completion time) on its
 * call path (a negative one takes from that call path's other time, down to 0); returns the
 * waiting time of the wait states inside */
static double sp_map(an_ctx *c, dstate *d, uint32_t sp, uint64_t b)
{
    uint64_t a = sp == AN_NONE ? d->first : d->sp[sp].start;
    double waited = time_map(c, d, a, b);
    if (sp != AN_NONE && b > a && d->sp[sp].completion != 0 && d->sp[sp].cnode != AN_NONE) {
        uint32_t k = d->sp[sp].cnode;
        add(d, k, d->sp[sp].completion);
        if (d->acc[k] < 0)
            d->acc[k] = 1e-300; /* listed, nothing left */
    }
    return waited;
}

/* the LEAVE of the call that ENTER (an event index) opened; AN_NONE when not recorded */
static uint32_t leave_of(const an_trace *t, uint32_t enter)
{
    if (enter == AN_NONE)
        return AN_NONE;
    for (size_t j = enter + 1; j < t->n_events; j++)
        if (t->events[j].kind == AN_LEAVE && t->events[j].enter == enter)
            return (uint32_t)j;
    return AN_NONE;
}

/* this rank's event of a wait state it caused (AN_NONE: not found) */
static uint32_t find_event(const dstate *d, const an_trace *t, const req_head *h)
{
    if (h->kind >= AN_W_BARRIER) {
        if (!valid_comm(t, h->comm) || h->inst >= d->coll_at[h->comm + 1] - d->coll_at[h->comm])
            return AN_NONE;
        return d->coll[d->coll_at[h->comm] + h->inst];
    }
    int sending = h->kind == AN_W_LS; /* a Late Sender's cause sent; a Late Receiver's received */
    struct ev_key k = {h->msg_id, h->comm, sending ? h->to : h->from, h->tag, 0};
    const struct ev_key *f = bsearch(&k, sending ? d->sends : d->recvs,
                                     sending ? d->n_sends : d->n_recvs, sizeof k, cmp_ev_key);
    return f ? f->event : AN_NONE;
}

static const an_metric short_leaf[AN_W_KINDS] = {
    M_DELAY_LATESENDER, M_DELAY_LATERECEIVER, M_DELAY_BARRIER, M_DELAY_N2N,
    M_DELAY_12N,        M_DELAY_N21,          M_DELAY_OMPIDLE /* (no wait of its own) */,
    M_DELAY_OMPBARRIER /* (no wait of its own) */};
static const an_metric long_leaf[AN_W_KINDS] = {
    M_DELAY_LATESENDER_LONGTERM, M_DELAY_LATERECEIVER_LONGTERM, M_DELAY_BARRIER_LONGTERM,
    M_DELAY_N2N_LONGTERM,        M_DELAY_12N_LONGTERM,          M_DELAY_N21_LONGTERM,
    M_DELAY_OMPIDLE_LONGTERM,    M_DELAY_OMPBARRIER_LONGTERM};

/* adds V to LEAF and every metric above it. V is rounded to a multiple of 2^-40 s (about a
 * picosecond): sums of such values are exact in a double up to 2^13 s, so a parent is exactly
 * the sum of its children, whatever the order of the additions (otherwise a parent that
 * collected a child's values interleaved with another's differs from their sum by a rounding
 * error, a negative exclusive value of -1e-15 s in Cube) */
static void add_up(an_ctx *c, an_metric leaf, uint32_t cnode, double v)
{
    const double q = 1099511627776.0; /* 2^40: scaling by it is exact */
    double x = v * q;
    if (x < 9e18 && x > -9e18)
        v = (double)(int64_t)(x + (x >= 0 ? 0.5 : -0.5)) / q;
    if (v == 0)
        return;
    for (int m = leaf; m >= 0; m = an_metrics[m].parent)
        an_add(c, (an_metric)m, cnode, v);
}

/* the analysis state of this pass */
typedef struct {
    dstate d;
    caused *cz;
    size_t n_cz;
    dval *dpool, *opool;
    size_t n_dpool, cap_dpool, n_opool, cap_opool;
    double *own_cost; /* [wait * AN_W_KINDS + kind] */
    double *pw;       /* per own wait: its propagating part */
    double *ind;      /* per own wait: its indirect part */
    int *ordered;     /* per own wait: its cause got there before the waiting call ended */
    int *walk_own;    /* per own wait: its record is awaited in the cause's walk */
    uint32_t *pos;    /* per own wait: the LEAVE of the waiting call */
    /* the exchanges of an_delay: bytes to and from each rank, what goes out and comes back */
    int *scount, *rcount;
    char *sbuf, *rbuf, *reply, *back;
    /* an exchange would have passed c->delay_limit (MPI's int counts: more than 2 GiB to or
     * from one rank): a limit of the analysis, not a lack of memory (the message says which) */
    int limit;
} pass;

static int pool_push(dval **pool, size_t *n, size_t *cap, uint32_t k, double v)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 256;
        dval *p = realloc(*pool, nc * sizeof *p);
        if (!p)
            return -1;
        *pool = p;
        *cap = nc;
    }
    (*pool)[(*n)++] = (dval){k, v};
    return 0;
}

/* the causing side of one wait state: short-term costs now, what the backward replay needs
 * kept (delays, own wait states in the interval), the propagating and indirect shares */
static int charge(an_ctx *c, pass *ps, caused *v, uint32_t sp, const tm_entry *theirs)
{
    dstate *d = &ps->d;
    const an_event *e = &c->t->events[v->ev];
    uint64_t b = v->kind == AN_W_LR ? d->req_enter[v->ev] : an_call_enter(c, e);
    double waited = sp_map(c, d, sp, b), sum = 0;
    if (d->oom)
        return -1;
    for (size_t i = 0; i < d->n_touched; i++) { /* delay: own time beyond the peer's */
        uint32_t k = d->touched[i];
        tm_entry key = {d->hash[k], 0};
        const tm_entry *p = bsearch(&key, theirs, v->tm_n, sizeof *theirs, cmp_entry);
        double dv = d->acc[k] - (p ? p->secs : 0);
        d->acc[k] = dv > 0 ? dv : 1e-300;
        sum += dv > 0 ? dv : 0;
    }
    v->denom = sum + waited;
    v->waited = waited;
    if (v->denom <= 0)
        return 0;
    /* at most 1 (Delay.MPI.pattern; for a collective Scalasca's CalculateCollectiveDelay
     * has no such bound: docs/analysis.md, why we keep it) */
    v->scale_w = v->wait / v->denom;
    if (v->scale_w > 1)
        v->scale_w = 1;
    v->d_off = ps->n_dpool;
    for (size_t i = 0; i < d->n_touched; i++) {
        uint32_t k = d->touched[i];
        if (d->acc[k] <= 1e-300)
            continue;
        add_up(c, short_leaf[v->kind], k, v->scale_w * d->acc[k]);
        if (pool_push(&ps->dpool, &ps->n_dpool, &ps->cap_dpool, k, d->acc[k]) != 0)
            return -1;
        v->d_n++;
    }
    v->o_off = ps->n_opool;
    for (size_t i = 0; i < d->n_ov; i++) {
        if (pool_push(&ps->opool, &ps->n_opool, &ps->cap_opool, d->ov[i].k, d->ov[i].v) != 0)
            return -1;
        v->o_n++;
        /* propagating: the largest share of an own point-to-point wait state that a
         * point-to-point wait it caused took over (Scalasca: max over the waits) */
        if (v->kind <= AN_W_LR && waited > 0 && d->ov[i].k < c->n_waits) {
            double p = v->scale_w * d->ov[i].v;
            if (p > ps->pw[d->ov[i].k])
                ps->pw[d->ov[i].k] = p;
        }
    }
    return 0;
}

/* the backward replay's step at a wait state this rank caused: long-term costs and the costs
 * its own wait states in the interval take over (the record's shares, with PROPAGATE, and the
 * short-term share of the wait's own kind, with SHORT) */
static void apply(an_ctx *c, pass *ps, caused *v, int propagate, int short_share)
{
    if (v->ev == AN_NONE || v->denom <= 0)
        return;
    double sc[AN_W_KINDS];
    for (int k = 0; k < AN_W_KINDS; k++)
        sc[k] = v->cost[k] / v->denom;
    if (propagate || !short_share)
        for (uint32_t i = 0; i < v->d_n; i++) {
            const dval *dv = &ps->dpool[v->d_off + i];
            for (int k = 0; k < AN_W_KINDS; k++)
                if (sc[k] > 0)
                    add_up(c, long_leaf[k], dv->k, sc[k] * dv->v);
        }
    for (uint32_t i = 0; i < v->o_n; i++) {
        const dval *o = &ps->opool[v->o_off + i];
        for (int k = 0; k < AN_W_KINDS; k++)
            ps->own_cost[(size_t)o->k * AN_W_KINDS + k] +=
                ((propagate ? sc[k] : 0) + (short_share && k == (int)v->kind ? v->scale_w : 0)) *
                o->v;
    }
}

/* stores a cost record from WAITER in the wait it belongs to */
static void store_record(pass *ps, uint32_t waiter, const cost_rec *r)
{
    size_t lo = 0, hi = ps->n_cz;
    while (lo < hi) { /* the first caused wait with (waiter, wid) >= (waiter, r->wid) */
        size_t mid = (lo + hi) / 2;
        const caused *m = &ps->cz[mid];
        if (m->waiter < waiter || (m->waiter == waiter && m->wid < r->wid))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < ps->n_cz) {
        caused *m = &ps->cz[lo];
        if (m->waiter == waiter && m->wid == r->wid) {
            memcpy(m->cost, r->cost, sizeof m->cost);
            m->arrived = 1;
        }
    }
}

static int cmp_caused(const void *a, const void *b)
{
    const caused *x = a, *y = b;
    if (x->waiter != y->waiter)
        return x->waiter < y->waiter ? -1 : 1;
    return x->wid < y->wid ? -1 : x->wid > y->wid;
}

/* the caused wait states in (waiter, wid) order, for store_record's search: they arrive so
 * (the exchange concatenates the requests by waiting rank, and each rank writes its requests
 * in the order of its wait states: requests()), so the sort runs only if that ever changes
 * (a sort of the records themselves: no index array, no comparison context) */
static void order_caused(pass *ps)
{
    for (size_t i = 1; i < ps->n_cz; i++)
        if (cmp_caused(&ps->cz[i - 1], &ps->cz[i]) > 0) {
            qsort(ps->cz, ps->n_cz, sizeof *ps->cz, cmp_caused);
            return;
        }
}

/* receives cost records from V's waiting rank until V's is there */
static void await_record(an_ctx *c, pass *ps, caused *v)
{
    while (!v->arrived) {
        cost_rec r;
        an_net_recv(c->net, &r, (int)sizeof r, AN_T_BYTE, (int)v->waiter, COST_TAG);
        store_record(ps, v->waiter, &r);
    }
}

typedef struct {
    uint32_t pos;
    uint32_t own; /* 1: an own wait state (index i), 0: a caused one */
    uint32_t i;
} item;
static int cmp_item_desc(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->pos != y->pos)
        return x->pos > y->pos ? -1 : 1;
    return x->own < y->own ? -1 : x->own > y->own; /* caused first */
}

static char *exchange(an_ctx *c, pass *ps, const char *sbuf, const int *scount, size_t *used);

/* after the walk: the cost records that no walk waited for, in one all-to-all (every rank's
 * costs are final now), and the long-term costs of the waits they belong to */
static int deferred(an_ctx *c, pass *ps)
{
    int *scount = calloc((size_t)c->size, sizeof *scount);
    size_t *at = calloc((size_t)c->size + 1, sizeof *at), n = 0, used = 0;
    cost_rec *sbuf = NULL;
    char *rbuf = NULL;
    int ok = scount && at;
    for (size_t w = 0; ok && w < c->n_waits; w++)
        if (c->waits[w].cause < (uint32_t)c->size && c->waits[w].cause != (uint32_t)c->rank &&
            !ps->walk_own[w]) {
            scount[c->waits[w].cause] += (int)sizeof(cost_rec);
            n++;
        }
    if (ok && !(sbuf = malloc((n + 1) * sizeof *sbuf)))
        ok = 0;
    for (int r = 0; ok && r < c->size; r++)
        at[r + 1] = at[r] + (size_t)scount[r] / sizeof(cost_rec);
    for (size_t w = 0; ok && w < c->n_waits; w++) {
        uint32_t cause = c->waits[w].cause;
        if (cause >= (uint32_t)c->size || cause == (uint32_t)c->rank || ps->walk_own[w])
            continue;
        cost_rec *r = &sbuf[at[cause]++];
        r->wid = (uint32_t)w;
        r->waiter = (uint32_t)c->rank;
        memcpy(r->cost, &ps->own_cost[w * AN_W_KINDS], sizeof r->cost);
    }
    if (!ok)
        memset(scount, 0, (size_t)c->size * sizeof *scount);
    int all_ok;
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    int rc = -1;
    if (all_ok && (rbuf = exchange(c, ps, (const char *)sbuf, scount, &used))) {
        for (size_t off = 0; off + sizeof(cost_rec) <= used; off += sizeof(cost_rec)) {
            cost_rec r;
            memcpy(&r, rbuf + off, sizeof r);
            store_record(ps, r.waiter, &r);
        }
        for (size_t i = 0; i < ps->n_cz; i++)
            if (!ps->cz[i].walk)
                apply(c, ps, &ps->cz[i], 0, 0); /* long-term costs only */
        rc = 0;
    }
    free(scount);
    free(at);
    free(sbuf);
    free(rbuf);
    return rc;
}

/* the backward replay of the costs (see the top of the file); collective over c->net */
static int backward(an_ctx *c, pass *ps)
{
    size_t n_own = 0, n_items = 0;
    for (size_t w = 0; w < c->n_waits; w++)
        n_own += ps->walk_own[w] != 0;
    for (size_t i = 0; i < ps->n_cz; i++)
        n_items += ps->cz[i].o_n > 0 && ps->cz[i].ev != AN_NONE;
    n_items += n_own;
    item *it = malloc((n_items + 1) * sizeof *it);
    cost_rec *out = malloc((n_own + 1) * sizeof *out);
    int ok = it && out, all_ok;
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    if (!all_ok) {
        free(it);
        free(out);
        return -1;
    }
    order_caused(ps);
    size_t k = 0;
    for (size_t w = 0; w < c->n_waits; w++)
        if (ps->walk_own[w])
            it[k++] = (item){ps->pos[w], 1, (uint32_t)w};
    for (size_t i = 0; i < ps->n_cz; i++)
        if (ps->cz[i].o_n > 0 && ps->cz[i].ev != AN_NONE)
            it[k++] = (item){ps->cz[i].pos, 0, (uint32_t)i};
    qsort(it, n_items, sizeof *it, cmp_item_desc);
    size_t n_out = 0;
    for (size_t j = 0; j < n_items; j++) {
        if (it[j].own) {
            const an_wait_rec *w = &c->waits[it[j].i];
            cost_rec *r = &out[n_out];
            r->wid = it[j].i;
            r->waiter = (uint32_t)c->rank;
            memcpy(r->cost, &ps->own_cost[(size_t)it[j].i * AN_W_KINDS], sizeof r->cost);
            an_net_isend(c->net, r, (int)sizeof *r, AN_T_BYTE, (int)w->cause, COST_TAG);
            n_out++;
        } else {
            caused *v = &ps->cz[it[j].i];
            if (v->walk)
                await_record(c, ps, v);
            /* without its record (not ordered: a clock condition violation) the wait passes
             * on its short-term share only; its long-term costs follow after the walk */
            apply(c, ps, v, (int)v->walk, 1);
        }
    }
    an_net_waitall(c->net);
    free(it);
    free(out);
    return deferred(c, ps);
}

/* sends SCOUNT[r] bytes of SBUF (in rank order) to each rank r; returns what arrives
 * (malloc'ed, *used bytes) or NULL on every rank when one ran out of memory or would receive
 * more than an int count holds (ps->limit set there) */
static char *exchange(an_ctx *c, pass *ps, const char *sbuf, const int *scount, size_t *used)
{
    int p = c->size;
    int *rcount = calloc((size_t)p, sizeof *rcount), *sdispl = calloc((size_t)p, sizeof *sdispl),
        *rdispl = calloc((size_t)p, sizeof *rdispl);
    int ok = rcount && sdispl && rdispl, all_ok;
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    char *rbuf = NULL;
    if (all_ok) {
        an_net_alltoall(c->net, scount, rcount, 1, AN_T_INT);
        size_t s = 0, r = 0;
        for (int i = 0; i < p; i++) {
            sdispl[i] = (int)s;
            s += (size_t)scount[i];
            rdispl[i] = (int)r;
            r += (size_t)rcount[i];
        }
        ps->limit |= r > c->delay_limit;
        ok = r <= c->delay_limit && (rbuf = malloc(r + 1)) != NULL;
        an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
        if (all_ok) {
            an_net_alltoallv(c->net, sbuf, scount, sdispl, rbuf, rcount, rdispl, AN_T_BYTE);
            *used = r;
        } else {
            free(rbuf);
            rbuf = NULL;
        }
    }
    free(rcount);
    free(sdispl);
    free(rdispl);
    return rbuf;
}

/* the identity of a wait state, sent to the rank that caused it, and the reply */
typedef struct {
    uint64_t msg_id;
    uint64_t leave; /* the leave of the waiting call */
    uint32_t comm, from, to, tag, kind, inst, wid, pad;
} id_rec;
typedef struct {
    uint64_t leave; /* the leave of the causing call */
    uint32_t wid, found;
} id_reply;

/* A - B in seconds, 0 when negative */
static double pos_sec(const an_ctx *c, uint64_t a, uint64_t b)
{
    return a > b ? an_sec(c, (int64_t)(a - b)) : 0;
}

/* the causing side of one wait state's identity: its synchronisation point here (none for a
 * barrier or n-to-n collective: coll_points has it); the leave of its call in *leave */
static int caused_point(an_ctx *c, dstate *d, const id_rec *r, uint32_t waiter, uint64_t *leave)
{
    const an_trace *t = c->t;
    req_head h = {r->msg_id, r->comm, r->from, r->to, r->tag, r->kind, 0, waiter, r->wid,
                  r->inst, 0, 0};
    uint32_t ev = r->kind < AN_W_KINDS ? find_event(d, t, &h) : AN_NONE;
    if (ev == AN_NONE)
        return 0;
    if (r->kind == AN_W_LR) /* the posting of the receive; completion: after the send's */
        ev = d->req_ev[ev];
    const an_event *e = &t->events[ev];
    *leave = an_call_exit(c, e);
    double cmpl = r->kind <= AN_W_LR ? pos_sec(c, *leave, r->leave) : 0;
    if (r->kind == AN_W_BARRIER || r->kind == AN_W_N2N)
        return 1;
    return sp_push(d, (spoint){ev, waiter, e->comm, e->cnode, *leave, cmpl}) ? -1 : 1;
}

/* this rank's own wait state W as a synchronisation point, the causing call having left at
 * CAUSE_LEAVE: a Late Sender's completion is the time its receive took after the send's
 * leave; a Late Receiver's is Scalasca's (MPI.pattern, LATE_RECEIVER: the send completion's
 * leave minus the receive posting's, 0 when that is positive, so never more than 0) */
static int own_point(an_ctx *c, dstate *d, uint32_t w, uint64_t cause_leave)
{
    const an_wait_rec *wr = &c->waits[w];
    if (wr->kind == AN_W_BARRIER || wr->kind == AN_W_N2N)
        return 0; /* coll_points has it */
    uint32_t ev = wr->kind == AN_W_LR ? wr->completion : wr->event;
    const an_event *e = &c->t->events[ev];
    uint64_t leave = an_call_exit(c, e);
    double cmpl = 0;
    if (wr->kind == AN_W_LS)
        cmpl = pos_sec(c, leave, cause_leave);
    else if (wr->kind == AN_W_LR)
        cmpl = -pos_sec(c, cause_leave, leave);
    return sp_push(d, (spoint){ev, wr->cause, wr->comm, wr->cnode, leave, cmpl});
}

/* this rank's wait states' identities, grouped by causing rank (SCOUNT[r]: bytes for r);
 * NULL when out of memory */
static id_rec *id_requests(an_ctx *c, int *scount)
{
    int p = c->size;
    size_t *at = calloc((size_t)p + 1, sizeof *at), n = 0;
    id_rec *sbuf = NULL;
    for (size_t w = 0; at && w < c->n_waits; w++)
        if (c->waits[w].cause < (uint32_t)p && c->waits[w].cause != (uint32_t)c->rank) {
            scount[c->waits[w].cause] += (int)sizeof(id_rec);
            n++;
        }
    if (!at || !(sbuf = calloc(n + 1, sizeof *sbuf))) {
        free(at);
        return NULL;
    }
    for (int r = 0; r < p; r++)
        at[r + 1] = at[r] + (size_t)scount[r] / sizeof(id_rec);
    for (size_t w = 0; w < c->n_waits; w++) {
        const an_wait_rec *wr = &c->waits[w];
        if (wr->cause >= (uint32_t)p || wr->cause == (uint32_t)c->rank)
            continue;
        const an_event *e = &c->t->events[wr->kind == AN_W_LR ? wr->completion : wr->event];
        sbuf[at[wr->cause]++] = (id_rec){wr->msg_id, an_call_exit(c, e), wr->comm, wr->from,
                                         wr->to, wr->tag, wr->kind, wr->inst, (uint32_t)w, 0};
    }
    free(at);
    return sbuf;
}

/* the causing side: a synchronisation point for each identity in RBUF (USED bytes; RCOUNT[r]
 * bytes from rank r, in rank order) and a reply for each, in the same order (NULL when out of
 * memory) */
static id_reply *id_answers(an_ctx *c, dstate *d, const char *rbuf, size_t used,
                            const int *rcount)
{
    size_t n = used / sizeof(id_rec), i = 0;
    id_reply *reply = calloc(n + 1, sizeof *reply);
    for (int r = 0; reply && r < c->size; r++)
        for (int j = 0; j < rcount[r] / (int)sizeof(id_rec) && i < n; j++, i++) {
            id_rec q;
            memcpy(&q, rbuf + i * sizeof q, sizeof q);
            uint64_t leave = 0;
            int f = caused_point(c, d, &q, (uint32_t)r, &leave);
            if (f < 0) {
                free(reply);
                return NULL;
            }
            reply[i] = (id_reply){leave, q.wid, f > 0};
        }
    return reply;
}

/* the synchronisation points of this rank (Scalasca's SynchpointHandler): the collectives of
 * all members, its own wait states and the ones it caused, which it learns from one
 * all-to-all of the waits' identities to the causing ranks (and one back with the leave of
 * the causing call, for the completion times); sorted by their event. Collective over
 * c->net; OK 0 on entry: this rank failed before (the others learn it) */
static int points(an_ctx *c, pass *ps, int ok)
{
    dstate *d = &ps->d;
    int p = c->size, all_ok, rc = -1;
    int *scount = calloc((size_t)p, sizeof *scount), *rcount = calloc((size_t)p, sizeof *rcount);
    size_t used = 0, back_used = 0;
    id_rec *sbuf = NULL;
    id_reply *reply = NULL;
    char *rbuf = NULL, *back = NULL;
    ok = ok && scount && rcount && coll_points(c, d) == 0 && (sbuf = id_requests(c, scount));
    if (!ok && scount)
        memset(scount, 0, (size_t)p * sizeof *scount);
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    if (!all_ok || !(rbuf = exchange(c, ps, (const char *)sbuf, scount, &used)))
        goto out;
    an_net_alltoall(c->net, scount, rcount, 1, AN_T_INT); /* bytes from each rank */
    ok = (reply = id_answers(c, d, rbuf, used, rcount)) != NULL;
    for (int r = 0; r < p; r++) /* the replies go back in the order the requests came */
        rcount[r] = ok ? rcount[r] / (int)sizeof(id_rec) * (int)sizeof(id_reply) : 0;
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    if (!all_ok || !(back = exchange(c, ps, (const char *)reply, rcount, &back_used)))
        goto out;
    for (size_t off = 0; ok && off + sizeof(id_reply) <= back_used; off += sizeof(id_reply)) {
        id_reply r;
        memcpy(&r, back + off, sizeof r);
        if (r.found && r.wid < c->n_waits)
            ok = own_point(c, d, r.wid, r.leave) == 0;
    }
    if (d->n_sp)
        qsort(d->sp, d->n_sp, sizeof *d->sp, cmp_sp);
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    rc = all_ok ? 0 : -1;
out:
    free(scount);
    free(rcount);
    free(sbuf);
    free(reply);
    free(rbuf);
    free(back);
    return rc;
}

/* the waiting side: this rank's interval of each of its wait states, whether its cost record
 * goes in the backward replay, and the requests (grouped by causing rank) */
static char *requests(an_ctx *c, pass *ps, int *scount, int *ok)
{
    const an_trace *t = c->t;
    size_t n = c->n_waits;
    uint32_t *ev = calloc(n + 1, sizeof *ev), *peer = calloc(n + 1, sizeof *peer);
    uint32_t *prev = malloc((n + 1) * sizeof *prev);
    size_t *at = calloc((size_t)c->size + 1, sizeof *at);
    char *sbuf = NULL;
    if (!ev || !peer || !prev || !at || !*ok)
        goto fail;
    for (size_t w = 0; w < n; w++) { /* a Late Receiver's synchronisation point: its completion */
        ev[w] = c->waits[w].kind == AN_W_LR ? c->waits[w].completion : c->waits[w].event;
        peer[w] = c->waits[w].cause;
    }
    if (prev_sync(c, &ps->d, n, ev, peer, prev) != 0)
        goto fail;
    for (int pass_no = 0; pass_no < 2; pass_no++) {
        if (pass_no == 1) {
            size_t cap = 0;
            for (int r = 0; r < c->size; r++) {
                at[r] = cap;
                cap += (size_t)scount[r];
            }
            ps->limit |= cap > c->delay_limit;
            if (cap > c->delay_limit || !(sbuf = malloc(cap + 1)))
                goto fail;
        }
        for (size_t w = 0; w < n; w++) {
            const an_wait_rec *wr = &c->waits[w];
            uint32_t cause = wr->cause;
            if (cause >= (uint32_t)c->size || cause == (uint32_t)c->rank)
                continue;
            const an_event *e = &t->events[wr->event];
            const an_event *call = wr->kind == AN_W_LR ? &t->events[wr->completion] : e;
            uint64_t b = an_call_enter(c, call);
            if (wr->kind == AN_W_LR && wr->probed)
                time_map(c, &ps->d, e->time, b); /* from its send: the probe saw the message */
            else
                sp_map(c, &ps->d, prev[w], b);
            size_t bytes = sizeof(req_head) + ps->d.n_touched * sizeof(tm_entry);
            if (pass_no == 0) {
                if (bytes > c->delay_limit - (size_t)scount[cause]) {
                    ps->limit = 1;
                    goto fail;
                }
                scount[cause] += (int)bytes;
                /* ordered: the causing rank got there strictly before the waiting call ended
                 * (the walk's blocking receives then wait for later points in time only) */
                ps->pos[w] = leave_of(t, call->enter);
                ps->ordered[w] = ps->pos[w] != AN_NONE && wr->peer_time < an_call_exit(c, call);
                continue;
            }
            req_head h = {wr->msg_id, wr->comm, wr->from, wr->to, wr->tag,
                          wr->kind,   (uint32_t)ps->d.n_touched, (uint32_t)c->rank,
                          (uint32_t)w, wr->inst, (uint32_t)ps->ordered[w], wr->wait};
            memcpy(sbuf + at[cause], &h, sizeof h);
            tm_entry *te = (tm_entry *)(sbuf + at[cause] + sizeof h);
            for (size_t i = 0; i < ps->d.n_touched; i++)
                te[i] = (tm_entry){ps->d.hash[ps->d.touched[i]], ps->d.acc[ps->d.touched[i]]};
            qsort(te, ps->d.n_touched, sizeof *te, cmp_entry);
            at[cause] += bytes;
        }
    }
    free(ev);
    free(peer);
    free(prev);
    free(at);
    return sbuf;
fail:
    *ok = 0;
    memset(scount, 0, (size_t)c->size * sizeof *scount);
    free(ev);
    free(peer);
    free(prev);
    free(at);
    free(sbuf);
    return NULL;
}

/* the causing side: the requests that arrived, their intervals, short-term costs; the
 * indirect shares for the waiting ranks (grouped by waiting rank in *reply) */
static int causes(an_ctx *c, pass *ps, const char *rbuf, size_t used, char **reply, int *rcount)
{
    const an_trace *t = c->t;
    size_t n = 0;
    for (size_t off = 0; off + sizeof(req_head) <= used; n++) {
        req_head h;
        memcpy(&h, rbuf + off, sizeof h);
        off += sizeof h + h.n * sizeof(tm_entry);
    }
    ps->cz = calloc(n + 1, sizeof *ps->cz);
    uint32_t *ev = calloc(n + 1, sizeof *ev), *peer = calloc(n + 1, sizeof *peer);
    uint32_t *prev = malloc((n + 1) * sizeof *prev);
    int rc = -1;
    if (!ps->cz || !ev || !peer || !prev)
        goto out;
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        req_head h;
        memcpy(&h, rbuf + off, sizeof h);
        caused *v = &ps->cz[i];
        v->waiter = h.waiter;
        v->wid = h.wid;
        v->kind = h.kind < AN_W_KINDS ? h.kind : AN_W_LS;
        v->ordered = h.ordered;
        v->wait = h.wait;
        v->tm_off = off + sizeof h;
        v->tm_n = h.n;
        v->ev = h.kind < AN_W_KINDS ? find_event(&ps->d, t, &h) : AN_NONE;
        v->pos = AN_NONE;
        if (v->ev != AN_NONE) {
            const an_event *e = &t->events[v->ev];
            v->pos = v->kind == AN_W_LR ? ps->d.req_pos[v->ev]
                                        : (e->enter == AN_NONE ? v->ev : e->enter);
        }
        /* a Late Receiver's synchronisation point here: the posting of the receive */
        ev[i] = v->ev == AN_NONE ? AN_NONE : v->kind == AN_W_LR ? ps->d.req_ev[v->ev] : v->ev;
        peer[i] = v->waiter;
        off += sizeof h + h.n * sizeof(tm_entry);
    }
    ps->n_cz = n;
    if (prev_sync(c, &ps->d, n, ev, peer, prev) != 0)
        goto out;
    for (size_t i = 0; i < n; i++) {
        caused *v = &ps->cz[i];
        if (v->ev == AN_NONE)
            continue;
        tm_entry *theirs = (tm_entry *)(rbuf + v->tm_off); /* malloc'ed: aligned for 8 bytes */
        if (charge(c, ps, v, prev[i], theirs) != 0)
            goto out;
    }
    /* the indirect part of each point-to-point wait: the share of it that the causing
     * rank's own waiting in the interval explains */
    size_t *at = calloc((size_t)c->size + 1, sizeof *at);
    if (!at)
        goto out;
    for (size_t i = 0; i < n; i++) {
        caused *v = &ps->cz[i];
        v->walk = v->ordered && v->o_n > 0 && v->ev != AN_NONE && v->denom > 0;
        if (v->waiter < (uint32_t)c->size)
            rcount[v->waiter] += (int)sizeof(ind_rec);
    }
    size_t total = 0;
    for (int r = 0; r < c->size; r++) {
        at[r] = total;
        total += (size_t)rcount[r];
    }
    if (!(*reply = malloc(total + 1))) {
        free(at);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        caused *v = &ps->cz[i];
        if (v->waiter >= (uint32_t)c->size)
            continue;
        ind_rec r = {v->wid, v->walk,
                     v->ev != AN_NONE && v->kind <= AN_W_LR && v->denom > 0 && v->waited > 0
                         ? v->scale_w * v->waited
                         : 0};
        memcpy(*reply + at[v->waiter], &r, sizeof r);
        at[v->waiter] += sizeof r;
    }
    free(at);
    rc = 0;
out:
    free(ev);
    free(peer);
    free(prev);
    return rc;
}

/* the classifications of this rank's point-to-point wait states */
static void classify(an_ctx *c, const pass *ps)
{
    for (size_t w = 0; w < c->n_waits; w++) {
        const an_wait_rec *wr = &c->waits[w];
        if (wr->kind > AN_W_LR || wr->wait <= 0)
            continue;
        int ls = wr->kind == AN_W_LS;
        double prop = ps->pw[w] < wr->wait ? ps->pw[w] : wr->wait;
        double ind = ps->ind[w] < wr->wait ? ps->ind[w] : wr->wait;
        add_up(c, ls ? M_MPI_WAIT_PROPAGATING_LS : M_MPI_WAIT_PROPAGATING_LR, wr->cnode, prop);
        add_up(c, ls ? M_MPI_WAIT_TERMINAL_LS : M_MPI_WAIT_TERMINAL_LR, wr->cnode,
               wr->wait - prop);
        add_up(c, ls ? M_MPI_WAIT_INDIRECT_LATESENDER : M_MPI_WAIT_INDIRECT_LATERECEIVER,
               wr->cnode, ind);
        add_up(c, ls ? M_MPI_WAIT_DIRECT_LATESENDER : M_MPI_WAIT_DIRECT_LATERECEIVER, wr->cnode,
               wr->wait - ind);
    }
}

/* the costs the idle OpenMP workers give the master's MPI wait states outside parallel regions
 * (Scalasca's Delay.OMP.pattern, DELAY_OMPIDLE_LONGTERM: at each fork, and at the end, the
 * wait states since the previous join carry (threads - 1) x their waiting time): each idle
 * worker waited as long; the backward replay passes that cost on to the wait's cause as
 * delay_ompidle_longterm, and further along the chain as the other long-term costs do */
static void ompidle_costs(an_ctx *c, pass *ps)
{
    size_t workers = an_omp_workers(c->t);
    for (size_t w = 0; workers && w < c->n_waits; w++)
        if (!an_in_parallel(c->t, c->waits[w].cnode) && c->waits[w].wait > 0)
            ps->own_cost[w * AN_W_KINDS + AN_W_OMPIDLE] = (double)workers * c->waits[w].wait;
}

/* the tables of the pass: per call path (time map), per event (receives), per own wait
 * state (costs, shares, order), per rank (exchange counts); the rest grows as it goes
 * (prepare, points, causes, the pools). -1 when one is missing (pass_free frees the rest). */
static int pass_init(pass *ps, const an_ctx *c, const an_omp_bwait *bw, size_t n_bw)
{
    memset(ps, 0, sizeof *ps);
    dstate *d = &ps->d;
    size_t n = c->t->n_cnodes + 1, ne = c->t->n_events + 1, nw = c->n_waits + 1;
    d->bw = bw;
    d->n_bw = n_bw;
    d->n_waits = (uint32_t)c->n_waits;
    d->acc = calloc(n, sizeof *d->acc);
    d->touched = calloc(n, sizeof *d->touched);
    d->hash = calloc(n, sizeof *d->hash);
    d->req_enter = calloc(ne, sizeof *d->req_enter);
    d->req_pos = calloc(ne, sizeof *d->req_pos);
    d->req_ev = calloc(ne, sizeof *d->req_ev);
    ps->own_cost = calloc((nw + n_bw) * AN_W_KINDS, sizeof *ps->own_cost); /* + barriers */
    ps->pw = calloc(nw, sizeof *ps->pw);
    ps->ind = calloc(nw, sizeof *ps->ind);
    ps->ordered = calloc(nw, sizeof *ps->ordered);
    ps->walk_own = calloc(nw, sizeof *ps->walk_own);
    ps->pos = calloc(nw, sizeof *ps->pos);
    ps->scount = calloc((size_t)c->size, sizeof *ps->scount);
    ps->rcount = calloc((size_t)c->size, sizeof *ps->rcount);
    return d->acc && d->touched && d->hash && d->req_enter && d->req_pos && d->req_ev &&
                   ps->own_cost && ps->pw && ps->ind && ps->ordered && ps->walk_own && ps->pos &&
                   ps->scount && ps->rcount
               ? 0
               : -1;
}

static void pass_free(pass *ps)
{
    dstate *d = &ps->d;
    void *all[] = {d->acc,     d->touched,  d->hash,    d->req_enter, d->req_pos, d->req_ev,
                   d->sp,      d->sends,    d->recvs,   d->coll,      d->coll_at, d->ov,
                   ps->cz,     ps->dpool,   ps->opool,  ps->own_cost, ps->pw,     ps->ind,
                   ps->ordered, ps->walk_own, ps->pos,  ps->scount,   ps->rcount, ps->sbuf,
                   ps->rbuf,   ps->reply,   ps->back};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]);
    memset(ps, 0, sizeof *ps);
}

/* the indirect shares of this rank's wait states that came back from their causing ranks */
static void take_indirect(an_ctx *c, pass *ps, size_t used)
{
    for (size_t off = 0; off + sizeof(ind_rec) <= used; off += sizeof(ind_rec)) {
        ind_rec r;
        memcpy(&r, ps->back + off, sizeof r);
        if (r.wid < c->n_waits) {
            ps->ind[r.wid] += r.indirect;
            ps->walk_own[r.wid] = ps->ordered[r.wid] && r.walk;
        }
    }
}

/* steps 0 and 1 (see the top of the file): the synchronisation points, the intervals sent to
 * the causing ranks, the short-term costs there, the indirect shares back. Collective; OK 0
 * on entry: this rank failed before (the others learn it). */
static int short_term(an_ctx *c, pass *ps, int ok)
{
    size_t used = 0, back_used = 0;
    int all_ok;
    if (points(c, ps, ok) != 0)
        return -1;
    ps->sbuf = requests(c, ps, ps->scount, &ok);
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    if (!all_ok || !(ps->rbuf = exchange(c, ps, ps->sbuf, ps->scount, &used)))
        return -1;
    free(ps->sbuf);
    ps->sbuf = NULL;
    ok = causes(c, ps, ps->rbuf, used, &ps->reply, ps->rcount) == 0;
    if (!ok)
        memset(ps->rcount, 0, (size_t)c->size * sizeof *ps->rcount);
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    if (!all_ok || !(ps->back = exchange(c, ps, ps->reply, ps->rcount, &back_used)))
        return -1;
    take_indirect(c, ps, back_used);
    return 0;
}

int an_delay(an_ctx *c, char *err, size_t len)
{
    pass ps;
    an_omp_bwait *bw = NULL;
    size_t n_bw = 0;
    int ok = an_omp_master_bwaits(c, &bw, &n_bw) == 0;
    ok = pass_init(&ps, c, bw, n_bw) == 0 && ok && prepare(c, &ps.d) == 0;
    int all_ok, rc = short_term(c, &ps, ok);
    if (rc == 0) {
        ompidle_costs(c, &ps);
        ok = an_omp_barrier_seeds(c, ps.own_cost + AN_W_OMPBARRIER, AN_W_KINDS) == 0;
        an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
        rc = all_ok ? backward(c, &ps) : -1;
    }
    if (rc == 0) { /* the costs the master's barrier waits took over: to their late threads */
        ok = an_omp_bwait_costs(c, bw, n_bw, ps.own_cost + c->n_waits * AN_W_KINDS, AN_W_KINDS,
                                long_leaf, AN_W_KINDS) == 0;
        an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
        rc = all_ok ? 0 : -1;
    }
    if (rc == 0) {
        classify(c, &ps);
    } else { /* every rank fails here together: say the same everywhere */
        int limit = ps.limit ? c->rank : c->size, first;
        an_net_allreduce(c->net, &limit, &first, 1, AN_T_INT, AN_OP_MIN);
        if (first < c->size)
            snprintf(err, len,
                     "size limit in the delay analysis: rank %d would send or receive more "
                     "than %zu bytes of records in one exchange (MPI's int counts)",
                     first, c->delay_limit);
        else
            snprintf(err, len, "out of memory in the delay analysis");
    }
    pass_free(&ps);
    free(bw);
    return rc;
}
