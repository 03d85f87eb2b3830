/* SPDX-License-Identifier: BSD-3-Clause */
/* an_net_sim.c: the analysis's communication (an_net.h) among simulated ranks in one process,
 * for unit tests of the replays and the delay analysis without mpirun: each rank runs on its
 * own thread with its own handle; a collective meets in memory (every member deposits its
 * arguments, each then copies what MPI's definition gives it, and none leaves before all have
 * read), a message is copied at its send into the receiver's queue and matched by source and
 * tag in the order sent (MPI's non-overtaking rule). One lock for the whole world: slow,
 * simple and deterministic (reductions sum in rank order, the same on every rank). A deadlock
 * in the code under test aborts the process with what every rank waits for, rather than hang a
 * test: at once when every rank that has not returned waits with nothing left to wake it, and
 * after AN_SIM_STALL_S seconds without progress anywhere otherwise (a rank that never returns;
 * long beyond any local step of the tests' small traces, even on a loaded machine). */
#include "analysis/an_net_sim.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define AN_SIM_STALL_S 60

typedef enum {
    C_ALLREDUCE,
    C_SCAN,
    C_BCAST,
    C_GATHER,
    C_GATHERV,
    C_SCATTER,
    C_SCATTERV,
    C_ALLTOALL,
    C_ALLTOALLV
} coll_kind;

static const char *const coll_name[] = {"allreduce", "scan",     "bcast",    "gather",   "gatherv",
                                        "scatter",   "scatterv", "alltoall", "alltoallv"};

/* one member's arguments of a collective (the pointers stay valid while the others read) */
typedef struct {
    coll_kind kind;
    const void *in;
    void *out;
    int cnt, root;
    an_type t;
    an_op op;
    const int *scnts, *sdispls, *rcnts, *rdispls; /* the v-variants (gatherv: rcnts) */
} slot;

typedef struct msg {
    struct msg *next;
    int src, tag;
    size_t len;
    unsigned char data[];
} msg;

typedef struct sim_world sim_world;

/* a group of simulated ranks (the world, or one made by sub): shared by its members' handles */
typedef struct group {
    sim_world *w;
    int n, refs;
    int *world_rank; /* per member */
    /* the collective in progress: members arrived, members done reading, and whether it is
     * complete (all arrived: no new arrival until all have left) */
    int arrived, departed, draining;
    unsigned long gen;
    slot *slots;
    msg **head, **tail; /* per member: the messages to it, oldest first */
    /* sub's rendezvous: the group being formed from this one under (tag, ranks) */
    struct pending *pending;
} group;

typedef struct pending {
    struct pending *next;
    int tag, cnt, joined;
    int *ranks;
    group *g;
} pending;

/* what a world rank does, for the deadlock message: runs, has returned, or waits in OP (a
 * collective or recv) on group G, for PEER (recv: its rank in G) and TAG */
typedef struct {
    enum { R_RUNS, R_WAITS, R_RETURNED } state;
    const char *op;
    const struct group *g;
    int peer, tag;
} rank_state;

struct sim_world {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned long epoch; /* changes whenever any state changes (stall detection) */
    int stall_s;         /* the seconds without progress that abort (an_net_sim_run_stall) */
    int n, live;         /* world ranks; those whose body has not returned */
    int blocked;         /* ranks waiting since the last change: they saw the state as it is */
    rank_state *st;      /* per world rank */
};

typedef struct {
    an_net base;
    group *g;
    int rank; /* in g */
} net_sim;

static group *g_of(const an_net *n)
{
    return ((const net_sim *)n)->g;
}

static int me_of(const an_net *n)
{
    return ((const net_sim *)n)->rank;
}

static void die(const char *what, const net_sim *h)
{
    fprintf(stderr, "scorep-rt analysis (simulated ranks): %s (rank %d of a group of %d)\n", what,
            h->rank, h->g->n);
    abort();
}

/* under the lock: every change wakes every waiter (each then looks at the state again) */
static void changed(sim_world *w)
{
    w->epoch++;
    w->blocked = 0;
    pthread_cond_broadcast(&w->cv);
}

/* appends to M (of LEN bytes, *AT used) what snprintf makes of FMT */
static void say(char *m, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void say(char *m, size_t len, size_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = *at < len ? vsnprintf(m + *at, len - *at, fmt, ap) : 0;
    va_end(ap);
    *at += k > 0 ? (size_t)k : 0;
}

/* a group as its members' world ranks, {3,1} (the first 8) */
static void say_group(char *m, size_t len, size_t *at, const group *g)
{
    for (int i = 0; i < g->n && i < 8; i++)
        say(m, len, at, "%s%d", i ? "," : "{", g->world_rank[i]);
    say(m, len, at, "%s}", g->n > 8 ? ",..." : "");
}

/* under the lock: aborts with what every world rank does (ranks are world ranks, groups
 * their members' world ranks); STALL_S 0: every rank that has not returned waits, and none
 * can wake another (a deadlock), else: nothing changed for STALL_S seconds */
static void stuck(const sim_world *w, int stall_s)
{
    char m[2048];
    size_t at = 0;
    if (stall_s)
        say(m, sizeof m, &at, "no progress for %d s:", stall_s);
    else
        say(m, sizeof m, &at, "a deadlock:");
    for (int r = 0; r < w->n; r++) {
        const rank_state *s = &w->st[r];
        say(m, sizeof m, &at, "%s rank %d ", r ? ";" : "", r);
        if (s->state != R_WAITS) {
            say(m, sizeof m, &at, "%s", s->state == R_RUNS ? "runs" : "has returned");
            continue;
        }
        say(m, sizeof m, &at, "waits in %s", s->op);
        if (s->peer >= 0)
            say(m, sizeof m, &at, " from rank %d with tag %d", s->g->world_rank[s->peer], s->tag);
        say(m, sizeof m, &at, " in group ");
        say_group(m, sizeof m, &at, s->g);
        if (s->peer < 0 && !s->g->draining)
            say(m, sizeof m, &at, " (%d of %d arrived)", s->g->arrived, s->g->n);
    }
    fprintf(stderr, "scorep-rt analysis (simulated ranks): %s\n", m);
    abort();
}

/* under the lock: waits for a change, in OP for PEER (recv: a rank of the group, else -1)
 * and TAG; aborts when this rank is the last to wait without anything to wake it (a
 * deadlock), or when nothing changed anywhere for the stall time */
static void await(sim_world *w, const net_sim *h, const char *op, int peer, int tag)
{
    rank_state *me = &w->st[h->g->world_rank[h->rank]];
    *me = (rank_state){R_WAITS, op, h->g, peer, tag};
    unsigned long e = w->epoch;
    if (++w->blocked == w->live)
        stuck(w, 0);
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += w->stall_s;
    while (w->epoch == e) {
        int rc = pthread_cond_timedwait(&w->cv, &w->mu, &dl);
        if (rc == ETIMEDOUT && w->epoch == e)
            stuck(w, w->stall_s);
    }
    me->state = R_RUNS;
}

/* ---- collectives ---- */

static size_t bytes(int cnt, an_type t)
{
    return cnt > 0 ? (size_t)cnt * an_type_size(t) : 0;
}

static void copy_at(void *out, size_t out_el, const void *in, size_t in_el, int cnt, an_type t)
{
    size_t s = an_type_size(t);
    if (cnt > 0)
        memcpy((char *)out + out_el * s, (const char *)in + in_el * s, (size_t)cnt * s);
}

#define FOLD(T)                                                                                    \
    do {                                                                                           \
        T *o = out;                                                                                \
        const T *x = in;                                                                           \
        for (int i = 0; i < cnt; i++)                                                              \
            o[i] = op == AN_OP_SUM ? (T)(o[i] + x[i])                                              \
                   : op == AN_OP_MIN ? (x[i] < o[i] ? x[i] : o[i])                                 \
                                     : (x[i] > o[i] ? x[i] : o[i]);                                \
    } while (0)

/* OUT = OUT op IN, element-wise */
static void fold(void *out, const void *in, int cnt, an_type t, an_op op)
{
    switch (t) {
    case AN_T_INT:
        FOLD(int);
        break;
    case AN_T_U32:
        FOLD(uint32_t);
        break;
    case AN_T_U64:
        FOLD(uint64_t);
        break;
    case AN_T_DOUBLE:
        FOLD(double);
        break;
    default:
        FOLD(unsigned char);
        break;
    }
}

/* members 0..last's contributions reduced in rank order into OUT */
static void reduce_upto(const group *g, int last, const slot *s)
{
    unsigned char *tmp = malloc(bytes(s->cnt, s->t) + 1);
    if (!tmp)
        abort(); /* a test's few bytes: no way to report it through the void interface */
    memcpy(tmp, g->slots[0].in, bytes(s->cnt, s->t));
    for (int r = 1; r <= last; r++)
        fold(tmp, g->slots[r].in, s->cnt, s->t, s->op);
    memcpy(s->out, tmp, bytes(s->cnt, s->t));
    free(tmp);
}

/* what member ME gets: MPI's definition of each collective */
static void perform(const group *g, int me)
{
    const slot *s = &g->slots[me], *root = &g->slots[s->root];
    int n = g->n;
    switch (s->kind) {
    case C_ALLREDUCE:
        reduce_upto(g, n - 1, s);
        break;
    case C_SCAN:
        reduce_upto(g, me, s);
        break;
    case C_BCAST:
        if (me != s->root)
            copy_at(s->out, 0, root->in, 0, s->cnt, s->t);
        break;
    case C_GATHER:
        for (int r = 0; me == s->root && r < n; r++)
            copy_at(s->out, (size_t)r * (size_t)s->cnt, g->slots[r].in, 0, s->cnt, s->t);
        break;
    case C_GATHERV:
        for (int r = 0; me == s->root && r < n; r++)
            copy_at(s->out, (size_t)s->rdispls[r], g->slots[r].in, 0, g->slots[r].cnt, s->t);
        break;
    case C_SCATTER:
        copy_at(s->out, 0, root->in, (size_t)me * (size_t)s->cnt, s->cnt, s->t);
        break;
    case C_SCATTERV:
        copy_at(s->out, 0, root->in, (size_t)root->sdispls[me], root->scnts[me], s->t);
        break;
    case C_ALLTOALL:
        for (int r = 0; r < n; r++)
            copy_at(s->out, (size_t)r * (size_t)s->cnt, g->slots[r].in, (size_t)me * (size_t)s->cnt,
                    s->cnt, s->t);
        break;
    case C_ALLTOALLV:
        for (int r = 0; r < n; r++)
            copy_at(s->out, (size_t)s->rdispls[r], g->slots[r].in, (size_t)g->slots[r].sdispls[me],
                    g->slots[r].scnts[me], s->t);
        break;
    }
}

/* the members must call the same collective with the same root and type (MPI: erroneous,
 * usually a hang or garbage); the receive sizes must hold what is sent (MPI: truncation) */
static const char *mismatch(const group *g, int me)
{
    const slot *s = &g->slots[me];
    for (int r = 0; r < g->n; r++) {
        const slot *o = &g->slots[r];
        if (o->kind != s->kind || o->t != s->t)
            return "members called different collectives";
        if (o->root != s->root)
            return "members named different roots";
        if ((s->kind == C_ALLREDUCE || s->kind == C_SCAN) && o->op != s->op)
            return "members named different reduction operations";
        if (s->kind == C_GATHERV && me == s->root && o->cnt != s->rcnts[r])
            return "gatherv: a member's count differs from the root's count for it";
        if (s->kind == C_ALLTOALLV && o->scnts[me] != s->rcnts[r])
            return "alltoallv: a send count differs from the receive count";
        if (s->kind == C_SCATTERV && r == s->root && o->scnts[me] != s->cnt)
            return "scatterv: the root's count differs from the member's";
    }
    return NULL;
}

static void coll(an_net *n, slot s)
{
    net_sim *h = (net_sim *)n;
    group *g = h->g;
    sim_world *w = g->w;
    if (s.root < 0 || s.root >= g->n)
        die("a collective's root is not a member", h);
    pthread_mutex_lock(&w->mu);
    while (g->draining) /* the previous collective's members are still reading */
        await(w, h, coll_name[s.kind], -1, 0);
    g->slots[h->rank] = s;
    if (++g->arrived == g->n) {
        g->draining = 1;
        changed(w);
    }
    while (!g->draining)
        await(w, h, coll_name[s.kind], -1, 0);
    const char *bad = mismatch(g, h->rank);
    pthread_mutex_unlock(&w->mu);
    if (bad)
        die(bad, h);
    perform(g, h->rank); /* the others' arguments stay put until every member has departed */
    pthread_mutex_lock(&w->mu);
    unsigned long gen = g->gen;
    if (++g->departed == g->n) {
        g->arrived = g->departed = g->draining = 0;
        g->gen++;
        changed(w);
    }
    while (g->gen == gen)
        await(w, h, coll_name[s.kind], -1, 0);
    pthread_mutex_unlock(&w->mu);
}

static int s_rank(const an_net *n)
{
    return me_of(n);
}

static int s_size(const an_net *n)
{
    return g_of(n)->n;
}

static void s_allreduce(an_net *n, const void *in, void *out, int cnt, an_type t, an_op op)
{
    coll(n, (slot){.kind = C_ALLREDUCE, .in = in, .out = out, .cnt = cnt, .t = t, .op = op});
}

static void s_scan(an_net *n, const void *in, void *out, int cnt, an_type t, an_op op)
{
    coll(n, (slot){.kind = C_SCAN, .in = in, .out = out, .cnt = cnt, .t = t, .op = op});
}

static void s_bcast(an_net *n, void *buf, int cnt, an_type t, int root)
{
    coll(n, (slot){.kind = C_BCAST, .in = buf, .out = buf, .cnt = cnt, .t = t, .root = root});
}

static void s_gather(an_net *n, const void *in, int cnt, void *out, an_type t, int root)
{
    coll(n, (slot){.kind = C_GATHER, .in = in, .out = out, .cnt = cnt, .t = t, .root = root});
}

static void s_gatherv(an_net *n, const void *in, int cnt, void *out, const int *cnts,
                      const int *displs, an_type t, int root)
{
    coll(n, (slot){.kind = C_GATHERV,
                   .in = in,
                   .out = out,
                   .cnt = cnt,
                   .t = t,
                   .root = root,
                   .rcnts = cnts,
                   .rdispls = displs});
}

static void s_scatter(an_net *n, const void *in, void *out, int cnt, an_type t, int root)
{
    coll(n, (slot){.kind = C_SCATTER, .in = in, .out = out, .cnt = cnt, .t = t, .root = root});
}

static void s_scatterv(an_net *n, const void *in, const int *cnts, const int *displs, void *out,
                       int cnt, an_type t, int root)
{
    coll(n, (slot){.kind = C_SCATTERV,
                   .in = in,
                   .out = out,
                   .cnt = cnt,
                   .t = t,
                   .root = root,
                   .scnts = cnts,
                   .sdispls = displs});
}

static void s_alltoall(an_net *n, const void *in, void *out, int cnt, an_type t)
{
    coll(n, (slot){.kind = C_ALLTOALL, .in = in, .out = out, .cnt = cnt, .t = t});
}

static void s_alltoallv(an_net *n, const void *in, const int *scnts, const int *sdispls, void *out,
                        const int *rcnts, const int *rdispls, an_type t)
{
    coll(n, (slot){.kind = C_ALLTOALLV,
                   .in = in,
                   .out = out,
                   .t = t,
                   .scnts = scnts,
                   .sdispls = sdispls,
                   .rcnts = rcnts,
                   .rdispls = rdispls});
}

/* ---- point to point ---- */

/* the send is copied at once (as an eager MPI send of a small message): BUF may change after
 * the call, which the interface's waitall also allows */
static int s_isend(an_net *n, const void *buf, int cnt, an_type t, int dest, int tag)
{
    net_sim *h = (net_sim *)n;
    group *g = h->g;
    if (dest < 0 || dest >= g->n)
        die("isend to a rank outside the group", h);
    size_t len = bytes(cnt, t);
    msg *m = malloc(sizeof *m + len);
    if (!m)
        return -1;
    *m = (msg){NULL, h->rank, tag, len};
    memcpy(m->data, buf, len);
    pthread_mutex_lock(&g->w->mu);
    if (g->tail[dest])
        g->tail[dest]->next = m;
    else
        g->head[dest] = m;
    g->tail[dest] = m;
    changed(g->w);
    pthread_mutex_unlock(&g->w->mu);
    return 0;
}

/* the oldest message from SRC with TAG: messages from one source with one tag are received in
 * the order they were sent (MPI's non-overtaking rule); others may pass them */
static void s_recv(an_net *n, void *buf, int cnt, an_type t, int src, int tag)
{
    net_sim *h = (net_sim *)n;
    group *g = h->g;
    if (src < 0 || src >= g->n)
        die("recv from a rank outside the group", h);
    pthread_mutex_lock(&g->w->mu);
    msg *m = NULL, *prev = NULL;
    for (;;) {
        prev = NULL;
        for (m = g->head[h->rank]; m && (m->src != src || m->tag != tag); m = m->next)
            prev = m;
        if (m)
            break;
        await(g->w, h, "recv", src, tag);
    }
    if (prev)
        prev->next = m->next;
    else
        g->head[h->rank] = m->next;
    if (g->tail[h->rank] == m)
        g->tail[h->rank] = prev;
    changed(g->w);
    pthread_mutex_unlock(&g->w->mu);
    if (m->len > bytes(cnt, t))
        die("a message longer than the receive buffer (MPI: truncation)", h);
    memcpy(buf, m->data, m->len);
    free(m);
}

static void s_waitall(an_net *n)
{
    (void)n; /* the sends were copied when they were made */
}

/* ---- groups ---- */

static group *group_new(sim_world *w, int n, const int *world_rank)
{
    group *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->w = w;
    g->n = n;
    g->world_rank = malloc((size_t)n * sizeof *g->world_rank);
    g->slots = calloc((size_t)n, sizeof *g->slots);
    g->head = calloc((size_t)n, sizeof *g->head);
    g->tail = calloc((size_t)n, sizeof *g->tail);
    if (!g->world_rank || !g->slots || !g->head || !g->tail) {
        free(g->world_rank), free(g->slots), free(g->head), free(g->tail), free(g);
        return NULL;
    }
    memcpy(g->world_rank, world_rank, (size_t)n * sizeof *world_rank);
    return g;
}

/* under the lock: drops a member's reference; the last frees the group */
static void group_unref(group *g)
{
    if (--g->refs > 0)
        return;
    for (int r = 0; r < g->n; r++)
        while (g->head[r]) {
            msg *m = g->head[r];
            g->head[r] = m->next;
            free(m);
        }
    free(g->world_rank), free(g->slots), free(g->head), free(g->tail), free(g);
}

static const an_net_ops ops;

static an_net *handle(group *g, int rank)
{
    net_sim *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->base.ops = &ops;
    h->g = g;
    h->rank = rank;
    return &h->base;
}

/* under the lock: the group being formed from G under TAG and RANKS, made by its first member
 * (NULL when out of memory) */
static pending *rendezvous(group *g, const int *ranks, int cnt, int tag)
{
    for (pending *p = g->pending; p; p = p->next)
        if (p->tag == tag && p->cnt == cnt && !memcmp(p->ranks, ranks, (size_t)cnt * sizeof *ranks))
            return p;
    pending *p = calloc(1, sizeof *p);
    int *wr = malloc((size_t)cnt * sizeof *wr);
    if (!p || !wr) {
        free(p), free(wr);
        return NULL;
    }
    for (int i = 0; i < cnt; i++)
        wr[i] = g->world_rank[ranks[i]];
    p->g = group_new(g->w, cnt, wr);
    p->ranks = malloc((size_t)cnt * sizeof *ranks);
    free(wr);
    if (!p->g || !p->ranks) {
        if (p->g)
            group_unref(p->g);
        free(p->ranks), free(p);
        return NULL;
    }
    memcpy(p->ranks, ranks, (size_t)cnt * sizeof *ranks);
    p->tag = tag;
    p->cnt = cnt;
    p->g->refs = cnt; /* one per member's handle */
    p->next = g->pending;
    g->pending = p;
    return p;
}

/* the members of RANKS (ranks of N's group) each get a handle of one new group, found by
 * (TAG, RANKS) among the groups being formed; the entry goes when all members have joined.
 * Does not wait for the others (MPI_Comm_create_group is collective over the new group only;
 * the group's first collective waits for them anyway). */
static an_net *s_sub(an_net *n, const int *ranks, int cnt, int tag)
{
    net_sim *h = (net_sim *)n;
    group *g = h->g;
    int me = -1;
    for (int i = 0; i < cnt; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->n)
            die("sub: a rank outside the group", h);
        if (ranks[i] == h->rank)
            me = i;
    }
    if (me < 0)
        die("sub called by a rank not in the new group", h);
    pthread_mutex_lock(&g->w->mu);
    pending *p = rendezvous(g, ranks, cnt, tag);
    an_net *s = NULL;
    if (p) {
        s = handle(p->g, me);
        if (!s) /* this member will not use the group: its reference goes */
            group_unref(p->g);
        if (++p->joined == cnt) {
            pending **q = &g->pending;
            while (*q != p)
                q = &(*q)->next;
            *q = p->next;
            free(p->ranks);
            free(p);
        }
        changed(g->w);
    }
    pthread_mutex_unlock(&g->w->mu);
    return s;
}

static void s_free(an_net *n)
{
    net_sim *h = (net_sim *)n;
    sim_world *w = h->g->w;
    pthread_mutex_lock(&w->mu);
    group_unref(h->g);
    pthread_mutex_unlock(&w->mu);
    free(h);
}

static const an_net_ops ops = {s_rank,      s_size,    s_allreduce, s_scan,     s_bcast,
                               s_gather,    s_gatherv, s_scatter,   s_scatterv, s_alltoall,
                               s_alltoallv, s_isend,   s_recv,      s_waitall,  s_sub,
                               s_free};

/* ---- running simulated ranks ---- */

typedef struct {
    an_net *net;
    int rank;
    an_sim_body body;
    void *arg;
    sim_world *w;
} runner;

static void *run_one(void *p)
{
    runner *r = p;
    r->body(r->net, r->rank, r->arg);
    /* the ranks still waiting may have waited for this one to call something */
    pthread_mutex_lock(&r->w->mu);
    r->w->st[r->rank].state = R_RETURNED;
    if (--r->w->live && r->w->blocked == r->w->live)
        stuck(r->w, 0);
    pthread_mutex_unlock(&r->w->mu);
    return NULL;
}

int an_net_sim_run(int n, an_sim_body body, void *arg)
{
    return an_net_sim_run_stall(n, body, arg, AN_SIM_STALL_S);
}

int an_net_sim_run_stall(int n, an_sim_body body, void *arg, int stall_s)
{
    if (n < 1 || stall_s < 1)
        return -1;
    sim_world *w = calloc(1, sizeof *w);
    int *ids = malloc((size_t)n * sizeof *ids);
    runner *rs = calloc((size_t)n, sizeof *rs);
    pthread_t *th = calloc((size_t)n, sizeof *th);
    rank_state *st = calloc((size_t)n, sizeof *st);
    if (!w || !ids || !rs || !th || !st) {
        free(w), free(ids), free(rs), free(th), free(st);
        return -1;
    }
    *w = (sim_world){.stall_s = stall_s, .n = n, .live = n, .st = st};
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    for (int i = 0; i < n; i++)
        ids[i] = i;
    group *g = group_new(w, n, ids);
    int rc = g ? 0 : -1;
    if (g)
        g->refs = 1; /* this function's, until the threads are joined; one more per handle */
    for (int i = 0; rc == 0 && i < n; i++) {
        rs[i] = (runner){handle(g, i), i, body, arg, w};
        rc = rs[i].net ? 0 : -1;
        g->refs += rc == 0;
    }
    int started = 0;
    for (; rc == 0 && started < n; started++)
        if (pthread_create(&th[started], NULL, run_one, &rs[started]) != 0) {
            /* the started ranks would wait for this one in their first collective */
            fprintf(stderr, "scorep-rt analysis (simulated ranks): cannot start rank %d\n",
                    started);
            abort();
        }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < n; i++)
        if (rs[i].net)
            s_free(rs[i].net);
    if (g) {
        pthread_mutex_lock(&w->mu);
        group_unref(g);
        pthread_mutex_unlock(&w->mu);
    }
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w), free(ids), free(rs), free(th), free(st);
    return rc;
}
