/* SPDX-License-Identifier: BSD-3-Clause */
/* an_omp.c: OpenMP patterns of one rank's threads, as Scalasca defines them: the waiting time
 * in front of explicit and implicit barriers (omp_ebarrier_wait, omp_ibarrier_wait: each
 * member of a team waits from its enter until the last member entered the same barrier), the
 * CPU time of the threads that are idle while the master runs serially (omp_idle_threads) and
 * of those not in a team (omp_limited_parallelism), and the worker threads' time and visits,
 * each on the location of the thread it concerns (the waiting thread, the idle thread;
 * an_add_loc), and the team members' thread management (omp_management, omp_fork: from the
 * master's fork to their enter, from their leave to the join). A team is the master's parallel
 * region instance; a worker's implicit task belongs to the instance of the same region that
 * the master forked last before it. Nothing here communicates: the patterns are within one process. Their causes, short-term (Scalasca
 * 2.x's delay_ompbarrier, delay_ompidle): the late thread's extra work in a barrier's
 * synchronisation interval, on the late thread's location; the master's serial work times the
 * idle workers, on the master's. */
#include "analysis/an_context.h"
#include "analysis/an_regions.h"
#include "analysis/an_taskgraph.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t cls_of(const an_trace *t, uint32_t region)
{
    return region < t->n_regions ? t->regions[region].cls : AN_RC_USER;
}

/* the master's parallel region instances: index of the ENTER, in time order, and when each
 * began: the master's fork of the team (its ThreadFork before the ENTER) where the trace has
 * it, else the ENTER (a worker's implicit task can begin before the master's) */
typedef struct {
    uint32_t *enter;
    uint64_t *start;
    size_t n;
} instances;

static int master_instances(const an_trace *t, instances *in)
{
    in->n = 0;
    in->enter = NULL;
    in->start = NULL;
    size_t cap = 0;
    uint64_t fork = UINT64_MAX;
    for (size_t i = 0; i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        if (e->kind == AN_THREAD_FORK)
            fork = e->time;
        if (e->kind != AN_ENTER || !(cls_of(t, e->region) & AN_RF_OMP_PARALLEL))
            continue;
        if (in->n == cap) {
            cap = cap ? 2 * cap : 16;
            uint32_t *n = realloc(in->enter, cap * sizeof *n);
            if (n)
                in->enter = n;
            uint64_t *s = n ? realloc(in->start, cap * sizeof *s) : NULL;
            if (!s)
                return -1;
            in->start = s;
        }
        in->start[in->n] = fork <= e->time ? fork : e->time;
        in->enter[in->n++] = (uint32_t)i;
        fork = UINT64_MAX;
    }
    return 0;
}

static void instances_free(instances *in)
{
    free(in->enter);
    free(in->start);
}

/* the instance of REGION that began last at or before TIME (else the first after it): a
 * binary search over the instances (in time order), then the nearest one of REGION */
static uint32_t team_of(const an_trace *t, const instances *in, uint32_t region, uint64_t time)
{
    size_t lo = 0, hi = in->n; /* instances [0, lo) began at or before TIME */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (in->start[mid] <= time)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k-- > 0;)
        if (t->events[in->enter[k]].region == region)
            return (uint32_t)k;
    for (size_t k = lo; k < in->n; k++)
        if (t->events[in->enter[k]].region == region)
            return (uint32_t)k;
    return AN_NONE;
}

static int cmp_thread(const void *a, const void *b)
{
    const struct an_thread *x = a, *y = b;
    return x->local < y->local ? -1 : x->local > y->local;
}

/* ENTER events carry their team (master instance) in .peer for the patterns below; worker
 * events outside any parallel region keep cnode AN_NONE (not analysed). The threads in the
 * order of their location numbers: the report's locations, in situ and post-mortem alike. */
int an_omp_map(an_trace *t)
{
    instances in;
    if (t->n_threads > 1)
        qsort(t->threads, t->n_threads, sizeof *t->threads, cmp_thread);
    if (master_instances(t, &in))
        return -1;
    uint32_t program = an_program_cnode(t); /* a thread's own work hangs below it */
    for (size_t k = 0; k < in.n; k++)
        t->events[in.enter[k]].peer = (uint32_t)k;
    for (size_t w = 0; w < t->n_threads; w++) {
        an_event *ev = t->threads[w].events;
        for (size_t i = 0; i < t->threads[w].n_events; i++) {
            an_event *e = &ev[i];
            uint32_t parent = e->enter == AN_NONE ? AN_NONE : ev[e->enter].cnode;
            uint32_t team = e->enter == AN_NONE ? AN_NONE : ev[e->enter].peer;
            if (e->kind != AN_ENTER) {
                e->cnode = parent;
                /* MPI calls of a worker count in its time tree; their messages and collectives
                 * are not replayed (docs/analysis.md): counted for the summary */
                t->other_threads_events += AN_IS_MPI_EVENT(e->kind);
                continue;
            }
            if (e->enter == AN_NONE) { /* top level: the implicit task of a team */
                if (!(cls_of(t, e->region) & AN_RF_OMP_PARALLEL) ||
                    (team = team_of(t, &in, e->region, e->time)) == AN_NONE) {
                    /* a thread's own work outside any team (a pthread, MPI calls of a thread
                     * that is no OpenMP worker): a call path of its own below the program
                     * root, like the profile's */
                    e->peer = AN_NONE;
                    if ((e->cnode = an_cnode_get(t, program, e->region)) == AN_NONE) {
                        instances_free(&in);
                        return -1;
                    }
                    continue;
                }
                e->cnode = t->events[in.enter[team]].cnode;
            } else if (parent != AN_NONE) {
                if ((e->cnode = an_cnode_get(t, parent, e->region)) == AN_NONE) {
                    instances_free(&in);
                    return -1;
                }
            } else {
                e->cnode = AN_NONE;
            }
            e->peer = team;
        }
    }
    instances_free(&in);
    return 0;
}

/* a barrier call of a team member (LOC: its location, 0 the master; EV: its events, FROM the
 * index of the event that began its synchronisation interval: the LEAVE of its previous
 * barrier in the team, else the ENTER of its parallel region; AT: the barrier's ENTER) */
typedef struct {
    uint32_t team, seq, cnode, cls;
    uint64_t enter, exit;
    size_t loc;
    const an_event *ev;
    uint32_t from, at;
    /* the team's first barrier: the fork's span before the thread's enter of the region (from
     * the master's ThreadFork; ticks, 0: none), which Scalasca's time maps put in the region's
     * first synchronisation interval on every thread (cb_fws_omp_fork; set_forks) */
    uint64_t fork_span;
} barrier_call;

typedef struct {
    barrier_call *b;
    size_t n, cap;
} barriers;

static int cmp_barrier(const void *a, const void *b)
{
    const barrier_call *x = a, *y = b;
    if (x->team != y->team)
        return x->team < y->team ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* the fork's span of each team's first barrier interval (barrier_call.fork_span): from the
 * team's fork (IN's start, the master's ThreadFork) to the thread's enter of the region */
static void set_forks(const instances *in, barriers *bs)
{
    for (size_t k = 0; k < bs->n; k++) {
        barrier_call *b = &bs->b[k];
        const an_event *f = &b->ev[b->from];
        b->fork_span = 0;
        if (f->kind == AN_ENTER && b->team < in->n && in->start[b->team] < f->time)
            b->fork_span = f->time - in->start[b->team];
    }
}

/* one thread (location LOC, 0 the master): time tree and visits (workers only, on their own
 * location), barrier calls numbered per team, and the exclusive time per call path outside
 * parallel regions (master: for the idle threads) */
static int walk(an_ctx *c, const an_event *ev, size_t n, size_t loc, barriers *bs, double *serial,
                uint32_t *team_size, int dry)
{
    int worker = loc != 0 && !dry; /* DRY: the barrier calls only, nothing added to c */
    const an_trace *t = c->t;
    uint32_t *seq = calloc(t->n_events + 1, sizeof *seq);      /* per team: barriers so far */
    uint32_t *last = malloc((t->n_events + 1) * sizeof *last); /* per team: its last LEAVE */
    double *excl = calloc(c->n_cnodes + 1, sizeof *excl);
    if (!seq || !excl || !last) {
        free(seq);
        free(last);
        free(excl);
        return -1;
    }
    memset(last, 0xff, (t->n_events + 1) * sizeof *last); /* AN_NONE */
    /* the LEAVE of each ENTER: a stack of open ENTERs gives it as the events go by */
    for (size_t i = 0; i < n; i++) {
        const an_event *e = &ev[i];
        if (e->kind == AN_ENTER && e->cnode != AN_NONE) {
            if (worker)
                an_add_loc(c, loc, M_VISITS, e->cnode, 1);
            if (e->enter == AN_NONE && loc != 0 && e->peer != AN_NONE)
                team_size[e->peer]++;
            continue;
        }
        if (e->kind != AN_LEAVE || e->enter == AN_NONE || ev[e->enter].cnode == AN_NONE)
            continue;
        const an_event *en = &ev[e->enter];
        double d = an_sec(c, (int64_t)(e->time - en->time));
        excl[en->cnode] += d;
        uint32_t parent = t->cnodes[en->cnode].parent;
        if (parent != AN_NONE && en->enter != AN_NONE)
            excl[parent] -= d;
        uint32_t cls = cls_of(t, en->region) & AN_RC_MASK;
        if ((cls == AN_RC_OMP_EBARRIER || cls == AN_RC_OMP_IBARRIER)) {
            /* its team: the nearest enclosing parallel region instance */
            uint32_t team = AN_NONE, region = AN_NONE;
            for (uint32_t j = en->enter; j != AN_NONE; j = ev[j].enter)
                if (cls_of(t, ev[j].region) & AN_RF_OMP_PARALLEL) {
                    team = ev[j].peer;
                    region = j;
                    break;
                }
            if (team == AN_NONE)
                continue;
            if (bs->n == bs->cap) {
                size_t cap = bs->cap ? 2 * bs->cap : 64;
                barrier_call *nb = realloc(bs->b, cap * sizeof *nb);
                if (!nb) {
                    free(seq);
                    free(last);
                    free(excl);
                    return -1;
                }
                bs->b = nb;
                bs->cap = cap;
            }
            uint32_t from = last[team] != AN_NONE ? last[team] : region;
            bs->b[bs->n++] = (barrier_call){team,    seq[team]++, en->cnode, cls,  en->time,
                                            e->time, loc,         ev,        from, e->enter, 0};
            last[team] = (uint32_t)i;
        }
    }
    for (size_t k = 0; k < c->n_cnodes; k++) {
        if (worker) {
            for (int m = an_time_metric(cls_of(t, t->cnodes[k].region)); m >= 0;
                 m = an_metrics[m].parent)
                an_add_loc(c, loc, (an_metric)m, (uint32_t)k, excl[k]);
        } else if (serial) {
            serial[k] = excl[k];
        }
    }
    free(seq);
    free(last);
    free(excl);
    return 0;
}

/* adds V to metric M and its ancestors in the metric tree (sev holds totals) at LOC */
static void add_up(an_ctx *c, size_t loc, an_metric m, uint32_t cnode, double v)
{
    for (int x = (int)m; x >= 0; x = an_metrics[x].parent)
        an_add_loc(c, loc, (an_metric)x, cnode, v);
}

/* the call path a thread is in after event I (AN_NONE outside any measured call) */
static uint32_t cnode_after(const an_event *ev, uint32_t i)
{
    const an_event *e = &ev[i];
    if (e->kind == AN_ENTER)
        return e->cnode;
    if (e->kind != AN_LEAVE)
        return e->cnode; /* an event inside a call: that call's path */
    uint32_t up = e->enter == AN_NONE ? AN_NONE : ev[e->enter].enter;
    return up == AN_NONE ? AN_NONE : ev[up].cnode;
}

/* a thread's time per call path (exclusive) in its synchronisation interval before barrier
 * call B, added into MAP; the call paths touched are appended to TOUCHED (N of them) */
static void interval_map(an_ctx *c, const barrier_call *b, double *map, uint32_t *touched,
                         size_t *n)
{
    uint32_t cur = cnode_after(b->ev, b->from);
    if (b->fork_span && cur != AN_NONE) { /* the fork, at the region (b->from its enter) */
        touched[(*n)++] = cur;
        map[cur] += an_sec(c, (int64_t)b->fork_span);
    }
    for (uint32_t i = b->from + 1; i <= b->at; i++) {
        double d = an_sec(c, (int64_t)(b->ev[i].time - b->ev[i - 1].time));
        if (cur != AN_NONE && d > 0) { /* a call path enters TOUCHED once, when it gets time */
            if (map[cur] == 0)
                touched[(*n)++] = cur;
            map[cur] += d;
        }
        cur = cnode_after(b->ev, i);
    }
}

/* the master's MPI wait states (c->waits) by their event: HEAD[event] the first, NEXT[w] the
 * next at the same event (AN_NONE: none), so that an interval finds its own in its length */
typedef struct {
    uint32_t *head, *next;
} wait_list;

static int wait_list_make(an_ctx *c, wait_list *wl)
{
    wl->head = malloc((c->t->n_events + 1) * sizeof *wl->head);
    wl->next = malloc((c->n_waits + 1) * sizeof *wl->next);
    if (!wl->head || !wl->next)
        return -1;
    memset(wl->head, 0xff, (c->t->n_events + 1) * sizeof *wl->head); /* AN_NONE */
    for (size_t w = c->n_waits; w-- > 0;) {
        uint32_t e = c->waits[w].event;
        wl->next[w] = e < c->t->n_events ? wl->head[e] : AN_NONE;
        if (e < c->t->n_events)
            wl->head[e] = (uint32_t)w;
    }
    return 0;
}

/* the master's MPI wait states in its synchronisation interval before barrier call B (none
 * for a worker: MPI is replayed on the master only): their waiting time is no delay
 * (Scalasca's PruneDelayTimemap takes the wait states out), so it leaves MAP; returns its sum,
 * and with SEED adds SCALE x each one's waiting time to SEED[w * STRIDE] */
static double master_waiting(an_ctx *c, const wait_list *wl, const barrier_call *b, double *map,
                             double *seed, size_t stride, double scale)
{
    double sum = 0;
    for (uint32_t i = b->from + 1, w = AN_NONE; b->loc == 0 && i < b->at; i++)
        for (w = wl->head[i]; w != AN_NONE; w = wl->next[w]) {
            const an_wait_rec *r = &c->waits[w];
            if (!(r->wait > 0))
                continue;
            sum += r->wait;
            if (map && r->cnode < c->n_cnodes)
                map[r->cnode] = map[r->cnode] > r->wait ? map[r->cnode] - r->wait : 0;
            if (seed)
                seed[(size_t)w * stride] += scale * r->wait;
        }
    return sum;
}

/* OpenMP barrier delay costs (Scalasca 2.x's delay_ompbarrier, short-term): the last thread L
 * into barrier instance [I, J) caused every other member k's wait w_k; its delay against k is
 * its time per call path in its synchronisation interval (since its previous barrier of the
 * team) beyond k's time on that call path in k's interval, its MPI waiting there left out
 * (W, the master's only); L's call paths get scale_k x delay, scale_k = min(1, w_k / (sum of
 * the delay + W)) (Scalasca does not limit it to 1; we do, as for MPI's collectives: no delay
 * costs more than the wait). With SEED (Scalasca's DELAY_OMP_BARRIER callback of
 * DELAY_OMPBARRIER_LONGTERM) nothing is charged: the master's MPI wait states in the interval
 * get (sum of scale_k) x their waiting time as costs for the MPI backward replay instead.
 * MAPS: two zeroed arrays of the call paths, TOUCHED two index lists as long. */
static void barrier_delay(an_ctx *c, const wait_list *wl, const barrier_call *b, size_t i, size_t j,
                          size_t late, double *maps[2], uint32_t *touched[2], double *seed,
                          size_t stride)
{
    size_t nl = 0;
    interval_map(c, &b[late], maps[0], touched[0], &nl);
    double own = master_waiting(c, wl, &b[late], maps[0], NULL, 0, 0), scales = 0;
    for (size_t k = i; k < j; k++) {
        double w = an_sec(
            c, (int64_t)((b[late].enter < b[k].exit ? b[late].enter : b[k].exit) - b[k].enter));
        if (k == late || w <= 0)
            continue;
        size_t nk = 0;
        interval_map(c, &b[k], maps[1], touched[1], &nk);
        double sum = own;
        for (size_t x = 0; x < nl; x++) {
            double d = maps[0][touched[0][x]] - maps[1][touched[0][x]];
            sum += d > 0 ? d : 0;
        }
        double scale = sum > 0 ? (w < sum ? w / sum : 1) : 0;
        scales += scale;
        for (size_t x = 0; !seed && scale > 0 && x < nl; x++) {
            uint32_t p = touched[0][x];
            double d = maps[0][p] - maps[1][p];
            if (d > 0)
                add_up(c, b[late].loc, M_DELAY_OMPBARRIER, p, scale * d);
        }
        for (size_t x = 0; x < nk; x++)
            maps[1][touched[1][x]] = 0;
    }
    if (seed && own > 0 && scales > 0)
        master_waiting(c, wl, &b[late], NULL, seed, stride, scales);
    for (size_t x = 0; x < nl; x++)
        maps[0][touched[0][x]] = 0;
}

/* adds SIGN x the time of a thread's call paths in [A, B) (ticks; its events EV, N of them)
 * to critical_path on location LOC */
static void cp_shift(an_ctx *c, size_t loc, const an_event *ev, size_t n, uint64_t a, uint64_t b,
                     double sign)
{
    size_t lo = 0, hi = n; /* the first event after A */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ev[mid].time <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo ? lo - 1 : 0; i + 1 < n && ev[i].time < b; i++) {
        uint64_t x = ev[i].time > a ? ev[i].time : a, y = ev[i + 1].time < b ? ev[i + 1].time : b;
        /* as an_critical_path.c credited it: a team's fork and join in its region */
        uint32_t k = an_forkjoin_cnode(c->t, ev, n, i);
        if (k == AN_NONE)
            k = cnode_after(ev, (uint32_t)i);
        if (y > x && k != AN_NONE)
            an_add_loc(c, loc, M_CRITICAL_PATH, k, sign * an_sec(c, (int64_t)(y - x)));
    }
}

/* the critical path through an OpenMP barrier (Scalasca's CriticalPath.pattern, backward
 * replay: at a barrier the path leaves the threads that waited for the one that did not; at
 * the fork, OMP_MGMT_FORK, it returns to the master): where the master thread is on the path
 * (c->cp_iv), the synchronisation interval of the late thread L before barrier instance
 * B[LATE] (since its previous barrier of the team, or since the master's fork of the team:
 * the time until L's start in it, when L was being woken, at L's implicit task; not before
 * *DONE, where the team's previous interval ended) is L's part of the path instead of the
 * master's. IN: the master's parallel region instances (a team's fork). */
static void barrier_path(an_ctx *c, const barrier_call *b, size_t late, const instances *in,
                         uint64_t *done)
{
    const barrier_call *l = &b[late];
    uint64_t start = l->ev[l->from].time, a = start, e = l->exit;
    int first = l->ev[l->from].kind == AN_ENTER; /* since the team's start */
    /* the fork (ThreadFork where the trace has it, not the master's enter of the region, which
     * comes later by the threads' creation: 0.8 ms in a first team; Scalasca's path returns to
     * the master at OMP_MGMT_FORK) */
    if (first && l->team < in->n && in->start[l->team] < a)
        a = in->start[l->team];
    if (a < *done)
        a = *done;
    if (e > *done)
        *done = e;
    if (l->loc == 0 || e <= a || an_taskgraph_covers(c->tg, l->team))
        return; /* with tasks, the task chain is the region's path (an_taskgraph_credit) */
    const struct an_thread *m = &c->t->threads[l->loc - 1];
    for (int i = 0; i + 1 < c->n_cp_iv; i += 2) {
        uint64_t x = c->cp_iv[i] > a ? c->cp_iv[i] : a;
        uint64_t y = c->cp_iv[i + 1] < e ? c->cp_iv[i + 1] : e;
        if (y <= x)
            continue;
        cp_shift(c, 0, c->t->events, c->t->n_events, x, y, -1);
        cp_shift(c, l->loc, m->events, m->n_events, x > start ? x : start, y, 1);
        if (first && x < start) /* from the fork to L's start: L's implicit task */
            an_add_loc(c, l->loc, M_CRITICAL_PATH, l->ev[l->from].cnode,
                       an_sec(c, (int64_t)((y < start ? y : start) - x)));
    }
}

/* each barrier instance (team, k-th barrier of each member): the members wait from their enter
 * until the last one entered (not beyond their own exit); the delay costs of those waits */
static int barrier_waits(an_ctx *c, barriers *bs, const instances *in)
{
    double *maps[2] = {calloc(c->n_cnodes + 1, sizeof(double)),
                       calloc(c->n_cnodes + 1, sizeof(double))};
    uint32_t *touched[2] = {malloc((c->n_cnodes + 1) * sizeof(uint32_t)),
                            malloc((c->n_cnodes + 1) * sizeof(uint32_t))};
    wait_list wl = {0};
    if (!maps[0] || !maps[1] || !touched[0] || !touched[1] || wait_list_make(c, &wl)) {
        for (int x = 0; x < 2; x++) {
            free(maps[x]);
            free(touched[x]);
        }
        free(wl.head);
        free(wl.next);
        return -1;
    }
    qsort(bs->b, bs->n, sizeof *bs->b, cmp_barrier);
    uint64_t done = 0; /* the critical path: where the team's last interval ended */
    for (size_t i = 0; i < bs->n;) {
        if (i == 0 || bs->b[i].team != bs->b[i - 1].team)
            done = 0;
        size_t j = i, late = i;
        uint64_t last = 0;
        for (; j < bs->n && bs->b[j].team == bs->b[i].team && bs->b[j].seq == bs->b[i].seq; j++)
            if (bs->b[j].enter > last) {
                last = bs->b[j].enter;
                late = j;
            }
        for (size_t k = i; k < j; k++) {
            const barrier_call *b = &bs->b[k];
            uint64_t until = last < b->exit ? last : b->exit;
            an_metric m = b->cls == AN_RC_OMP_EBARRIER ? M_OMP_EBARRIER_WAIT : M_OMP_IBARRIER_WAIT;
            double w = until > b->enter ? an_sec(c, (int64_t)(until - b->enter)) : 0;
            if (w > 0)
                an_add_loc(c, b->loc, m, b->cnode, w);
            an_stat_add(c, m, w, b->enter, b->exit, b->cnode, (uint32_t)b->team, (uint32_t)b->seq);
        }
        barrier_delay(c, &wl, bs->b, i, j, late, maps, touched, NULL, 0);
        barrier_path(c, bs->b, late, in, &done);
        i = j;
    }
    for (int x = 0; x < 2; x++) {
        free(maps[x]);
        free(touched[x]);
    }
    free(wl.head);
    free(wl.next);
    return 0;
}

/* whether call path K is inside a parallel region */
int an_in_parallel(const an_trace *t, uint32_t k)
{
    for (; k < t->n_cnodes; k = t->cnodes[k].parent)
        if (cls_of(t, t->cnodes[k].region) & AN_RF_OMP_PARALLEL)
            return 1;
    return 0;
}

/* the master's MPI waiting time at call path K (the wait states found before this pass) */
static double mpi_waiting(const an_ctx *c, uint32_t k)
{
    /* Wait at Finalize too: a synchronisation point's wait in Scalasca (SynchpointHandler's
     * cb_pre_init_finalize), which its idleness delay leaves out */
    static const an_metric waits[] = {M_MPI_LATESENDER,    M_MPI_LATERECEIVER, M_MPI_BARRIER_WAIT,
                                      M_MPI_WAIT_NXN,      M_MPI_EARLYREDUCE,  M_MPI_EARLYSCAN,
                                      M_MPI_LATEBROADCAST, M_MPI_FINALIZE_WAIT};
    double w = 0;
    for (size_t i = 0; i < sizeof waits / sizeof waits[0]; i++)
        w += c->sev[(size_t)waits[i] * c->n_cnodes + k]; /* location 0: the master */
    return w;
}

/* the idle-thread patterns on the idle threads' own locations, as Scalasca's report has them
 * (Cube's remapper puts them there): while the master runs outside parallel regions, every
 * OpenMP worker of the rank is idle for the master's time on that call path; a worker that is
 * not in team K is idle for the team's parallel region (limited parallelism, on the region's
 * call path). OMP[w]: thread w ran in some team. Their cause (Scalasca 2.x's delay_ompidle,
 * short-term): the master's serial work, its time outside parallel regions without its MPI
 * wait states, x the number of idle OpenMP workers, on the master's location and call path. */
static int idle_threads(an_ctx *c, const instances *in, const double *serial, const uint8_t *omp)
{
    const an_trace *t = c->t;
    uint8_t *member = calloc(in->n + 1, 1);
    if (!member)
        return -1;
    size_t n_omp = 0;
    for (size_t w = 0; w < t->n_threads; w++)
        n_omp += omp[w] != 0;
    for (size_t k = 0; n_omp && k < c->n_cnodes; k++) {
        double work = serial[k] - mpi_waiting(c, (uint32_t)k);
        if (!an_in_parallel(t, (uint32_t)k) && work > 0)
            add_up(c, 0, M_DELAY_OMPIDLE, (uint32_t)k, (double)n_omp * work);
    }
    for (size_t w = 0; w < t->n_threads; w++) {
        if (!omp[w])
            continue;
        for (size_t k = 0; k < c->n_cnodes; k++)
            if (!an_in_parallel(t, (uint32_t)k) && serial[k] > 0)
                add_up(c, 1 + w, M_OMP_IDLE_THREADS, (uint32_t)k, serial[k]);
        memset(member, 0, in->n + 1);
        const struct an_thread *th = &t->threads[w];
        for (size_t i = 0; i < th->n_events; i++) {
            const an_event *e = &th->events[i];
            if (e->kind == AN_ENTER && e->enter == AN_NONE && e->cnode != AN_NONE &&
                e->peer < in->n)
                member[e->peer] = 1;
        }
        for (size_t k = 0; k < in->n; k++) {
            if (member[k])
                continue;
            const an_event *m = &t->events[in->enter[k]];
            double d = an_sec(c, (int64_t)(c->exit_of[in->enter[k]] - m->time));
            add_up(c, 1 + w, M_OMP_LIMITED_PARALLELISM, m->cnode, d);
        }
    }
    free(member);
    return 0;
}

/* the master's fork and join of each team K (ThreadFork before the team's parallel region,
 * ThreadJoin after it, as Scalasca finds them: the nearest before the enter, after the
 * leave); UINT64_MAX where the trace has none */
static void fork_join_times(const an_trace *t, const instances *in, uint64_t *fork, uint64_t *join)
{
    uint64_t last_fork = UINT64_MAX;
    uint32_t left = AN_NONE; /* the team whose region the master left last, before its join */
    for (size_t k = 0; k < in->n; k++)
        fork[k] = join[k] = UINT64_MAX;
    for (size_t i = 0, k = 0; i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        if (e->kind == AN_THREAD_FORK) {
            last_fork = e->time;
        } else if (e->kind == AN_THREAD_JOIN && left != AN_NONE) {
            join[left] = e->time;
            left = AN_NONE;
        } else if (k < in->n && in->enter[k] == i) {
            fork[k++] = last_fork;
            last_fork = UINT64_MAX;
        } else if (e->kind == AN_LEAVE && e->enter != AN_NONE &&
                   (cls_of(t, t->events[e->enter].region) & AN_RF_OMP_PARALLEL) &&
                   t->events[e->enter].peer < in->n) {
            left = t->events[e->enter].peer;
        }
    }
}

/* a team member's management time at the team's call path K on LOC: FORK from the fork to
 * its enter, JOIN from its leave to the join (ticks; 0 when the trace has no such event) */
static void management_add(an_ctx *c, size_t loc, uint32_t k, uint64_t from, uint64_t to,
                           an_metric m)
{
    if (from == UINT64_MAX || to == UINT64_MAX || to <= from)
        return;
    add_up(c, loc, m, k, an_sec(c, (int64_t)(to - from)));
}

/* omp_management and omp_fork (Scalasca's OMP.pattern, OMP_MANAGEMENT and OMP_FORK): each
 * member of a team spends the time from the master's fork to its own enter of the parallel
 * region (omp_fork) and from its leave to the master's join in thread management, on the
 * region's call path and the member's location. The master's share lay in its caller's
 * exclusive time: it moves to the region (Scalasca's time counts it there, so its caller's
 * Computation shrinks), and out of the serial time that the idle threads count. */
static int management(an_ctx *c, const instances *in, double *serial)
{
    const an_trace *t = c->t;
    uint64_t *fork = malloc((in->n + 1) * sizeof *fork);
    uint64_t *join = malloc((in->n + 1) * sizeof *join);
    if (!fork || !join) {
        free(fork);
        free(join);
        return -1;
    }
    fork_join_times(t, in, fork, join);
    for (size_t k = 0; k < in->n; k++) {
        const an_event *m = &t->events[in->enter[k]];
        uint64_t exit = c->exit_of[in->enter[k]];
        double before = fork[k] < m->time ? an_sec(c, (int64_t)(m->time - fork[k])) : 0;
        double after =
            join[k] != UINT64_MAX && join[k] > exit ? an_sec(c, (int64_t)(join[k] - exit)) : 0;
        management_add(c, 0, m->cnode, fork[k], m->time, M_OMP_FORK);
        management_add(c, 0, m->cnode, exit, join[k], M_OMP_MANAGEMENT);
        uint32_t p = t->cnodes[m->cnode].parent;
        if (p == AN_NONE || m->enter == AN_NONE)
            continue;
        for (int x = an_time_metric(cls_of(t, t->cnodes[p].region)); x >= 0;
             x = an_metrics[x].parent)
            an_add_loc(c, 0, (an_metric)x, p, -(before + after));
        serial[p] -= before + after;
        /* the time without waiting (the performance impact's, an_analyze.c's from the time
         * before this move) moves with it: Scalasca's time maps, which give its local time
         * profile, have the fork and join in the region too (an_forkjoin_cnode) */
        an_add_loc(c, 0, M_NONWAIT_TIME, p, -(before + after));
        an_add_loc(c, 0, M_NONWAIT_TIME, m->cnode, before + after);
    }
    for (size_t w = 0; w < t->n_threads; w++) {
        const an_event *ev = t->threads[w].events;
        for (size_t i = 0; i < t->threads[w].n_events; i++) {
            const an_event *e = &ev[i],
                           *en = e->kind == AN_LEAVE && e->enter != AN_NONE ? &ev[e->enter] : e;
            if (en->enter != AN_NONE || en->cnode == AN_NONE || en->peer >= in->n ||
                !(cls_of(t, en->region) & AN_RF_OMP_PARALLEL))
                continue; /* not a worker's implicit task of a team */
            if (e->kind == AN_ENTER)
                management_add(c, 1 + w, en->cnode, fork[en->peer], e->time, M_OMP_FORK);
            else if (e->kind == AN_LEAVE)
                management_add(c, 1 + w, en->cnode, e->time, join[en->peer], M_OMP_MANAGEMENT);
        }
    }
    free(fork);
    free(join);
    return 0;
}

size_t an_omp_workers(const an_trace *t)
{
    size_t n = 0;
    for (size_t w = 0; w < t->n_threads; w++) {
        const struct an_thread *th = &t->threads[w];
        size_t i = 0;
        while (i < th->n_events &&
               !(th->events[i].kind == AN_ENTER && th->events[i].enter == AN_NONE &&
                 th->events[i].cnode != AN_NONE && th->events[i].peer != AN_NONE))
            i++;
        n += i < th->n_events;
    }
    return n;
}

/* the barrier calls of all the rank's threads, nothing added to c (an_delay.c needs them before
 * an_omp runs); sorted by instance */
static int barrier_calls(an_ctx *c, barriers *bs)
{
    const an_trace *t = c->t;
    uint32_t *team_size = calloc(t->n_events + 1, sizeof *team_size);
    instances in = {0};
    int rc = !team_size || walk(c, t->events, t->n_events, 0, bs, NULL, team_size, 1);
    for (size_t w = 0; !rc && w < t->n_threads; w++)
        rc = walk(c, t->threads[w].events, t->threads[w].n_events, 1 + w, bs, NULL, team_size, 1);
    if (!rc && !(rc = master_instances(t, &in)))
        set_forks(&in, bs);
    instances_free(&in);
    free(team_size);
    if (!rc && bs->n)
        qsort(bs->b, bs->n, sizeof *bs->b, cmp_barrier);
    return rc ? -1 : 0;
}

int an_omp_barrier_seeds(an_ctx *c, double *cost, size_t stride)
{
    barriers bs = {0};
    double *maps[2] = {calloc(c->n_cnodes + 1, sizeof(double)),
                       calloc(c->n_cnodes + 1, sizeof(double))};
    uint32_t *touched[2] = {malloc((c->n_cnodes + 1) * sizeof(uint32_t)),
                            malloc((c->n_cnodes + 1) * sizeof(uint32_t))};
    wait_list wl = {0};
    int rc = maps[0] && maps[1] && touched[0] && touched[1] ? 0 : -1;
    if (rc == 0 && c->n_waits && c->t->n_threads)
        rc = wait_list_make(c, &wl) || barrier_calls(c, &bs) ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < bs.n;) {
        size_t j = i, late = i;
        for (; j < bs.n && bs.b[j].team == bs.b[i].team && bs.b[j].seq == bs.b[i].seq; j++)
            if (bs.b[j].enter > bs.b[late].enter)
                late = j;
        if (bs.b[late].loc == 0) /* only the master's MPI wait states propagate */
            barrier_delay(c, &wl, bs.b, i, j, late, maps, touched, cost, stride);
        i = j;
    }
    for (int x = 0; x < 2; x++) {
        free(maps[x]);
        free(touched[x]);
    }
    free(bs.b);
    free(wl.head);
    free(wl.next);
    return rc;
}

static int cmp_bwait(const void *a, const void *b)
{
    uint64_t x = ((const an_omp_bwait *)a)->begin, y = ((const an_omp_bwait *)b)->begin;
    return x < y ? -1 : x > y;
}

int an_omp_master_bwaits(an_ctx *c, an_omp_bwait **out, size_t *n)
{
    barriers bs = {0};
    *out = NULL;
    *n = 0;
    if (!c->t->n_threads)
        return 0;
    if (barrier_calls(c, &bs))
        return -1;
    an_omp_bwait *bw = malloc((bs.n + 1) * sizeof *bw);
    for (size_t i = 0; bw && i < bs.n;) {
        size_t j = i, late = i, master = AN_NONE;
        for (; j < bs.n && bs.b[j].team == bs.b[i].team && bs.b[j].seq == bs.b[i].seq; j++) {
            if (bs.b[j].enter > bs.b[late].enter)
                late = j;
            if (bs.b[j].loc == 0)
                master = j;
        }
        if (master != AN_NONE && late != master) {
            const barrier_call *m = &bs.b[master], *l = &bs.b[late];
            /* the master waits from its enter until the last thread entered (an_omp's
             * barrier_waits, the same rule), not beyond its own exit */
            uint64_t until = l->enter < m->exit ? l->enter : m->exit;
            if (until > m->enter)
                bw[(*n)++] = (an_omp_bwait){m->enter, until,   m->cnode,    l->loc,
                                            l->ev,    m->ev,   l->from,     l->at,
                                            m->from,  m->at,   l->fork_span, m->fork_span};
        }
        i = j;
    }
    free(bs.b);
    if (!bw)
        return -1;
    qsort(bw, *n, sizeof *bw, cmp_bwait);
    *out = bw;
    return 0;
}

int an_omp_bwait_costs(an_ctx *c, const an_omp_bwait *bw, size_t n, const double *cost,
                       size_t stride, const an_metric *leaf, size_t kinds)
{
    double *maps[2] = {calloc(c->n_cnodes + 1, sizeof(double)),
                       calloc(c->n_cnodes + 1, sizeof(double))};
    uint32_t *touched[2] = {malloc((c->n_cnodes + 1) * sizeof(uint32_t)),
                            malloc((c->n_cnodes + 1) * sizeof(uint32_t))};
    wait_list wl = {0};
    int rc = maps[0] && maps[1] && touched[0] && touched[1] && !wait_list_make(c, &wl) ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        int any = 0;
        for (size_t k = 0; k < kinds; k++)
            any |= cost[i * stride + k] > 0;
        if (!any)
            continue;
        const an_omp_bwait *w = &bw[i];
        barrier_call l = {0}, m = {0};
        l.loc = w->late_loc;
        l.ev = w->late_ev;
        l.from = w->late_from;
        l.at = w->late_at;
        l.fork_span = w->late_fork_span;
        m.loc = 0;
        m.ev = w->master_ev;
        m.from = w->master_from;
        m.at = w->master_at;
        m.fork_span = w->master_fork_span;
        size_t nl = 0, nm = 0;
        interval_map(c, &l, maps[0], touched[0], &nl);
        interval_map(c, &m, maps[1], touched[1], &nm);
        /* the master's MPI wait states in its interval are no time of its own (Scalasca's
         * myTmap is pruned); a worker, the late thread here, has none (MPI is replayed on
         * the master only), so its own waiting in the denominator is 0 */
        master_waiting(c, &wl, &m, maps[1], NULL, 0, 0);
        double sum = 0;
        for (size_t x = 0; x < nl; x++) {
            double d = maps[0][touched[0][x]] - maps[1][touched[0][x]];
            sum += d > 0 ? d : 0;
        }
        for (size_t x = 0; sum > 0 && x < nl; x++) {
            uint32_t p = touched[0][x];
            double d = maps[0][p] - maps[1][p];
            for (size_t k = 0; d > 0 && k < kinds; k++)
                if (cost[i * stride + k] > 0)
                    add_up(c, l.loc, leaf[k], p, cost[i * stride + k] / sum * d);
        }
        for (size_t x = 0; x < nl; x++)
            maps[0][touched[0][x]] = 0;
        for (size_t x = 0; x < nm; x++)
            maps[1][touched[1][x]] = 0;
    }
    for (int x = 0; x < 2; x++) {
        free(maps[x]);
        free(touched[x]);
    }
    free(wl.head);
    free(wl.next);
    return rc;
}

/* time without waiting (M_NONWAIT_TIME, the critical path's performance impact) of the OpenMP
 * threads, as Scalasca's CriticalPath.pattern takes each location's time profile less its
 * wait states at synchronisation points (SynchpointHandler: MPI's and OpenMP barriers'):
 * the master's (the MPI passes' value, an_analyze.c) less its barrier waits; a worker's, its
 * time less its barrier waits and the idle time the report gives it (omp_idle_threads and
 * omp_limited_parallelism: time it spent in no team, Cube's remapper's share, not in its
 * events). Each OpenMP thread's location is marked in c->team_loc. */
static int team_nonwait(an_ctx *c, const uint8_t *omp)
{
    size_t n = c->n_cnodes;
    if (!(c->team_loc = calloc(c->n_locs + 1, 1)))
        return -1;
    for (size_t l = 0; l < c->n_locs; l++) {
        if (l > 0 && !omp[l - 1])
            continue;
        c->team_loc[l] = 1;
        double *s = c->sev + l * M_COUNT * n;
        for (size_t k = 0; k < n; k++) {
            double v = l ? s[(size_t)M_TIME * n + k] - s[(size_t)M_OMP_IDLE_THREADS * n + k] -
                               s[(size_t)M_OMP_LIMITED_PARALLELISM * n + k]
                         : s[(size_t)M_NONWAIT_TIME * n + k];
            v -= s[(size_t)M_OMP_EBARRIER_WAIT * n + k] + s[(size_t)M_OMP_IBARRIER_WAIT * n + k];
            s[(size_t)M_NONWAIT_TIME * n + k] = v > 0 ? v : 0;
        }
    }
    return 0;
}

int an_omp(an_ctx *c, char *err, size_t len)
{
    an_trace *t = c->t;
    instances in = {0};
    barriers bs = {0};
    double *serial = calloc(c->n_cnodes + 1, sizeof *serial);
    uint32_t *team_size = NULL;
    uint8_t *omp = calloc(t->n_threads + 1, 1);
    int rc = -1;
    if (!serial || !omp || master_instances(t, &in))
        goto out;
    if (!(team_size = calloc(in.n + 1, sizeof *team_size)))
        goto out;
    if (walk(c, t->events, t->n_events, 0, &bs, serial, team_size, 0))
        goto out;
    for (size_t w = 0; w < t->n_threads; w++) {
        size_t before = bs.n;
        uint32_t teams_before = 0, teams_after = 0;
        for (size_t k = 0; k < in.n; k++)
            teams_before += team_size[k];
        if (walk(c, t->threads[w].events, t->threads[w].n_events, 1 + w, &bs, NULL, team_size, 0))
            goto out;
        for (size_t k = 0; k < in.n; k++)
            teams_after += team_size[k];
        omp[w] = teams_after > teams_before || bs.n > before; /* an OpenMP thread */
    }
    set_forks(&in, &bs);
    if (barrier_waits(c, &bs, &in))
        goto out;
    if (in.n && management(c, &in, serial))
        goto out;
    if (in.n && idle_threads(c, &in, serial, omp))
        goto out;
    if (team_nonwait(c, omp))
        goto out;
    rc = 0;
out:
    if (rc)
        snprintf(err, len, "out of memory in the OpenMP analysis");
    free(serial);
    free(team_size);
    free(omp);
    instances_free(&in);
    free(bs.b);
    return rc;
}
