/* an_delay.c: short-term delay costs of point-to-point wait states (Boehme et al.; Scalasca's
 * Delay.MPI.pattern): a wait state is caused by the extra work the other rank did since the
 * two ranks' previous synchronisation point. For every Late Sender (Late Receiver) the waiting
 * rank sends the causing rank its time per call path in its synchronisation interval (from its
 * previous communication with that rank to the waiting call, without waiting time); the
 * causing rank compares its own time per call path in its interval (up to the send, or to the
 * posting of the receive), and charges the wait to the call paths where it spent more:
 * delay = max(0, own - peer's) per call path, scaled by min(1, wait / (sum of delays + own
 * waiting time in the interval)). A probed message's send and probe are a synchronisation
 * point: the Late Receiver of a probed synchronous send is charged to the receiver's work
 * since the probe (the seed's figure 16, with both delays kept). Long-term costs (wait states
 * that propagate) are not computed. Call paths are matched across ranks by a hash of their
 * region path. */
#include "analysis/an_context.h"
#include "analysis/an_p2p.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t hash;
    double secs;
} tm_entry;

typedef struct {
    uint64_t msg_id;
    uint32_t comm, from, to, tag, kind, n;
    uint32_t pad;
    double wait;
} req_head;

typedef struct {
    double *acc; /* per cnode */
    uint32_t *touched;
    size_t n_touched;
    uint64_t *hash;      /* per cnode: hash of its region path */
    uint64_t *prev;      /* per event: time of the previous communication with the same peer */
    uint64_t *req_enter; /* per receive event: when its receive was posted */
    uint64_t longest;    /* the longest wait state (ticks) */
    struct ev_key {
        uint64_t msg_id;
        uint32_t comm, peer, tag, event;
    } * sends, *recvs; /* this rank's messages, sorted, for finding a wait's cause */
    size_t n_sends, n_recvs;
} dstate;

static int cmp_ev_key(const void *a, const void *b);

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return x;
}

static void add(an_ctx *c, dstate *d, uint32_t k, double v)
{
    if (k == AN_NONE || v == 0)
        return;
    if (d->acc[k] == 0)
        d->touched[d->n_touched++] = k;
    d->acc[k] += v;
    if (d->acc[k] == 0) /* keep it listed: a later add must not list it twice */
        d->acc[k] = 1e-300;
    (void)c;
}

static void clear(dstate *d)
{
    for (size_t i = 0; i < d->n_touched; i++)
        d->acc[d->touched[i]] = 0;
    d->n_touched = 0;
}

/* this rank's time per call path in [a, b] without its waiting time; returns the waiting
 * time inside the interval */
static double time_map(an_ctx *c, dstate *d, uint64_t a, uint64_t b)
{
    const an_trace *t = c->t;
    clear(d);
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
        uint32_t k = ev->kind == AN_LEAVE
                         ? (ev->cnode == AN_NONE ? AN_NONE : t->cnodes[ev->cnode].parent)
                         : ev->cnode;
        if (e > s)
            add(c, d, k, an_sec(c, (int64_t)(e - s)));
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
            add(c, d, w->cnode, -v);
            waited += v;
        }
    }
    return waited;
}

static int cmp_entry(const void *a, const void *b)
{
    uint64_t x = ((const tm_entry *)a)->hash, y = ((const tm_entry *)b)->hash;
    return x < y ? -1 : x > y;
}

/* per event: the previous communication with the same peer (messages both ways, probes,
 * collectives on a communicator with it); per receive: when it was posted */
static int prepare(an_ctx *c, dstate *d)
{
    const an_trace *t = c->t;
    uint64_t first = t->n_events ? t->events[0].time : 0;
    uint64_t *last = malloc((size_t)c->size * sizeof *last);
    an_req_map irecv = {0};
    if (!last || an_req_map_init(&irecv, t->n_events) != 0) {
        free(last);
        an_req_map_free(&irecv);
        return -1;
    }
    for (int r = 0; r < c->size; r++)
        last[r] = first;
    for (size_t k = 0; k < t->n_cnodes; k++) {
        uint32_t p = t->cnodes[k].parent;
        d->hash[k] = mix((p == AN_NONE ? 0x51ED27 : d->hash[p]) ^ mix(t->cnodes[k].region + 1));
    }
    if (!(d->sends = malloc(t->n_events * sizeof *d->sends + 1)) ||
        !(d->recvs = malloc(t->n_events * sizeof *d->recvs + 1))) {
        free(last);
        an_req_map_free(&irecv);
        return -1;
    }
    for (size_t i = 0; i < c->n_sync; i++) {
        uint64_t len = c->sync[i].wait_end - c->sync[i].wait_begin;
        d->longest = len > d->longest ? len : d->longest;
    }
    d->longest++;
    for (size_t i = 0; i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        struct ev_key k = {e->msg_id, e->comm, e->peer, e->tag, (uint32_t)i};
        if (e->kind == AN_SEND || e->kind == AN_ISEND)
            d->sends[d->n_sends++] = k;
        else if (e->kind == AN_RECV || e->kind == AN_IRECV)
            d->recvs[d->n_recvs++] = k;
        switch (e->kind) {
        case AN_IRECV_REQUEST:
            an_req_put(&irecv, e->request, (uint32_t)i);
            break;
        case AN_SEND:
        case AN_ISEND:
        case AN_RECV:
        case AN_IRECV:
        case AN_PROBE:
            if (e->peer == AN_NONE || e->peer >= (uint32_t)c->size)
                break;
            d->prev[i] = last[e->peer];
            last[e->peer] = e->time;
            d->req_enter[i] = an_call_enter(c, e);
            if (e->kind == AN_IRECV) {
                uint32_t r = an_req_get(&irecv, e->request);
                if (r != AN_NONE)
                    d->req_enter[i] = an_call_enter(c, &t->events[r]);
            }
            break;
        case AN_COLL_END: /* a synchronisation point with every member (both groups) */
            if (e->comm < t->n_comms && t->comms[e->comm].defined) {
                const an_comm *k = &t->comms[e->comm];
                for (uint32_t m = 0; m < k->n + (k->ranks_b ? k->n_b : 0); m++) {
                    uint32_t w = m < k->n ? k->ranks[m] : k->ranks_b[m - k->n];
                    if (w < (uint32_t)c->size)
                        last[w] = e->time;
                }
            }
            break;
        default:
            break;
        }
    }
    free(last);
    an_req_map_free(&irecv);
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

/* this rank's event of the message: its send (SENDING) or its receive */
static uint32_t find_event(const dstate *d, const req_head *h, int sending)
{
    struct ev_key k = {h->msg_id, h->comm, sending ? h->to : h->from, h->tag, 0};
    const struct ev_key *f = bsearch(&k, sending ? d->sends : d->recvs,
                                     sending ? d->n_sends : d->n_recvs, sizeof k, cmp_ev_key);
    return f ? f->event : AN_NONE;
}

static void charge(an_ctx *c, dstate *d, const req_head *h, const tm_entry *theirs)
{
    int ls = h->kind == 0;
    uint32_t ev = find_event(d, h, ls);
    if (ev == AN_NONE)
        return;
    const an_event *e = &c->t->events[ev];
    uint64_t a = d->prev[ev], b = ls ? an_call_enter(c, e) : d->req_enter[ev];
    double waited = time_map(c, d, a, b), sum = 0;
    for (size_t i = 0; i < d->n_touched; i++) { /* delay: own time beyond the peer's */
        uint32_t k = d->touched[i];
        tm_entry key = {d->hash[k], 0};
        const tm_entry *p = bsearch(&key, theirs, h->n, sizeof *theirs, cmp_entry);
        double dv = d->acc[k] - (p ? p->secs : 0);
        d->acc[k] = dv > 0 ? dv : 1e-300;
        sum += dv > 0 ? dv : 0;
    }
    if (sum + waited <= 0)
        return;
    double scale = h->wait / (sum + waited);
    if (scale > 1)
        scale = 1;
    an_metric leaf = ls ? M_DELAY_LATESENDER : M_DELAY_LATERECEIVER;
    for (size_t i = 0; i < d->n_touched; i++) {
        uint32_t k = d->touched[i];
        if (d->acc[k] <= 1e-300)
            continue;
        for (int m = leaf; m >= 0; m = an_metrics[m].parent)
            an_add(c, (an_metric)m, k, scale * d->acc[k]);
    }
}

int an_delay(an_ctx *c, char *err, size_t len)
{
    const an_trace *t = c->t;
    dstate d = {0};
    size_t n = t->n_cnodes + 1, ne = t->n_events + 1;
    d.acc = calloc(n, sizeof *d.acc);
    d.touched = calloc(n, sizeof *d.touched);
    d.hash = calloc(n, sizeof *d.hash);
    d.prev = calloc(ne, sizeof *d.prev);
    d.req_enter = calloc(ne, sizeof *d.req_enter);
    int ok = d.acc && d.touched && d.hash && d.prev && d.req_enter && prepare(c, &d) == 0;
    /* the requests: one per wait state, to the rank that caused it */
    int p = c->size;
    int *scount = calloc((size_t)p, sizeof *scount), *rcount = calloc((size_t)p, sizeof *rcount);
    int *sdispl = calloc((size_t)p, sizeof *sdispl), *rdispl = calloc((size_t)p, sizeof *rdispl);
    char *sbuf = NULL, *rbuf = NULL;
    size_t cap = 0, used = 0;
    ok = ok && scount && rcount && sdispl && rdispl;
    /* pass 1: sizes per destination; pass 2: fill in destination order */
    size_t *at = calloc((size_t)p + 1, sizeof *at);
    ok = ok && at;
    for (int pass = 0; ok && pass < 2; pass++) {
        if (pass == 1) {
            for (int r = 0; r < p; r++) {
                sdispl[r] = (int)cap;
                at[r] = cap;
                cap += (size_t)scount[r];
            }
            if (!(sbuf = malloc(cap + 1))) {
                ok = 0;
                break;
            }
        }
        for (size_t w = 0; w < c->n_waits; w++) {
            const an_wait_rec *wr = &c->waits[w];
            uint32_t cause = wr->kind == 0 ? wr->from : wr->to;
            if (cause >= (uint32_t)p || cause == (uint32_t)c->rank)
                continue;
            const an_event *e = &t->events[wr->event];
            uint64_t a, b;
            if (wr->kind == 0) {
                a = d.prev[wr->event];
                b = an_call_enter(c, e);
            } else {
                a = wr->probed ? e->time : d.prev[wr->event];
                b = an_call_enter(c, &t->events[wr->completion]);
            }
            time_map(c, &d, a, b);
            size_t bytes = sizeof(req_head) + d.n_touched * sizeof(tm_entry);
            if (pass == 0) {
                scount[cause] += (int)bytes;
                continue;
            }
            req_head h = {
                wr->msg_id, wr->comm, wr->from, wr->to, wr->tag, wr->kind, (uint32_t)d.n_touched,
                0,          wr->wait};
            memcpy(sbuf + at[cause], &h, sizeof h);
            tm_entry *te = (tm_entry *)(sbuf + at[cause] + sizeof h);
            for (size_t i = 0; i < d.n_touched; i++)
                te[i] = (tm_entry){d.hash[d.touched[i]], d.acc[d.touched[i]]};
            qsort(te, d.n_touched, sizeof *te, cmp_entry);
            at[cause] += bytes;
        }
    }
    int all_ok;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, c->comm);
    int rc = -1;
    if (!all_ok) {
        snprintf(err, len, "out of memory in the delay analysis");
        goto out;
    }
    PMPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, c->comm);
    for (int r = 0; r < p; r++) {
        rdispl[r] = (int)used;
        used += (size_t)rcount[r];
    }
    ok = (rbuf = malloc(used + 1)) != NULL;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, c->comm);
    if (!all_ok) {
        snprintf(err, len, "out of memory in the delay analysis");
        goto out;
    }
    PMPI_Alltoallv(sbuf, scount, sdispl, MPI_BYTE, rbuf, rcount, rdispl, MPI_BYTE, c->comm);
    for (size_t off = 0; off + sizeof(req_head) <= used;) {
        req_head h;
        memcpy(&h, rbuf + off, sizeof h);
        tm_entry *te = (tm_entry *)(rbuf + off + sizeof h);
        charge(c, &d, &h, te);
        off += sizeof h + h.n * sizeof(tm_entry);
    }
    rc = 0;
out:
    free(d.acc);
    free(d.touched);
    free(d.hash);
    free(d.prev);
    free(d.req_enter);
    free(d.sends);
    free(d.recvs);
    free(scount);
    free(rcount);
    free(sdispl);
    free(rdispl);
    free(sbuf);
    free(rbuf);
    free(at);
    return rc;
}
