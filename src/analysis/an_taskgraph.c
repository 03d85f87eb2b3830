/* SPDX-License-Identifier: BSD-3-Clause */
/* an_taskgraph.c: builds one rank's OpenMP task graph from the AN_TASK_* events of its thread
 * locations and finds its critical path per parallel region instance (docs/openmp.md "Task
 * graph"). Edges come from the dependence lists by OpenMP 5.x's rules among sibling tasks in
 * creation order, never from timing, so a predecessor that completed before its successor was
 * created still gives its edge. Everything is linear in tasks + edges: hash tables by key, no
 * fixed limits. */
#include "analysis/an_taskgraph.h"
#include "analysis/an_regions.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- an open-addressing hash table (a, b) -> uint32 value ---- */
typedef struct {
    uint64_t a, b;
    uint32_t v; /* AN_NONE: empty slot */
} slot;
typedef struct {
    slot *s;
    size_t cap, n; /* cap: a power of two */
} map;

static size_t hash2(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    return (size_t)(h ^ h >> 29);
}

static slot *map_find(map *m, uint64_t a, uint64_t b)
{
    size_t i = hash2(a, b) & (m->cap - 1);
    while (m->s[i].v != AN_NONE && !(m->s[i].a == a && m->s[i].b == b))
        i = (i + 1) & (m->cap - 1);
    return &m->s[i];
}

static int map_grow(map *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    slot *n = malloc(cap * sizeof *n), *old = m->s;
    if (!n)
        return -1;
    for (size_t i = 0; i < cap; i++)
        n[i].v = AN_NONE;
    size_t old_cap = m->cap;
    m->s = n;
    m->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].v != AN_NONE)
            *map_find(m, old[i].a, old[i].b) = old[i];
    free(old);
    return 0;
}

/* the value of (a, b); AN_NONE when absent */
static uint32_t map_get(map *m, uint64_t a, uint64_t b)
{
    return m->cap ? map_find(m, a, b)->v : AN_NONE;
}

static int map_put(map *m, uint64_t a, uint64_t b, uint32_t v)
{
    if (2 * (m->n + 1) > m->cap && map_grow(m))
        return -1;
    slot *s = map_find(m, a, b);
    m->n += s->v == AN_NONE;
    *s = (slot){a, b, v};
    return 0;
}

/* ---- the builder's state ---- */
typedef struct {
    uint32_t node, next;
} cell; /* a list of nodes: the members of a dependence group, a pending list, a join */

typedef struct {
    uint32_t prev, cur, cur_type; /* the last two groups on one address of one parent */
} dep_state;

typedef struct {
    uint32_t pending;   /* tasks created since the last join (a cell list) */
    uint32_t last_join; /* joins[] index (AN_NONE: none yet) */
    uint32_t seq;       /* barriers of this location in the team so far */
} order_state;

typedef struct {
    uint32_t node;    /* AN_NONE until a task after it needs it */
    uint32_t members; /* cell list of the tasks it waits for */
    uint32_t kind, team;
} join;

typedef struct {
    map ids;    /* (comm << 32 | creator, generation) -> node */
    map deps;   /* (parent key, address) -> dep_state */
    map orders; /* taskwait: (parent key, TASKWAIT); barrier: (team, location) -> order */
    map joins;  /* (team, barrier number) -> join */
    cell *cells;
    size_t n_cells, cap_cells;
    dep_state *ds;
    size_t n_ds, cap_ds;
    order_state *os;
    size_t n_os, cap_os;
    join *js;
    size_t n_js, cap_js;
} maps;
#define TASKWAIT UINT64_MAX /* the orders key's second half of a parent's taskwait state (a
                             * location's number for a barrier state) */

#define GROW(arr, n, cap)                                                                          \
    ((n) < (cap) ? 0 : grow_array((void **)&(arr), &(cap), sizeof *(arr)))

static int grow_array(void **arr, size_t *cap, size_t size)
{
    size_t c = *cap ? 2 * *cap : 64;
    void *n = realloc(*arr, c * size);
    if (!n)
        return -1;
    *arr = n;
    *cap = c;
    return 0;
}

static uint32_t push_cell(maps *m, uint32_t head, uint32_t node)
{
    if (GROW(m->cells, m->n_cells, m->cap_cells))
        return AN_NONE - 1;
    m->cells[m->n_cells] = (cell){node, head};
    return (uint32_t)m->n_cells++;
}
#define CELL_OOM (AN_NONE - 1)

static uint32_t new_node(an_taskgraph *g, uint32_t kind, uint32_t team)
{
    if (GROW(g->nodes, g->n_nodes, g->cap_nodes))
        return AN_NONE;
    an_tg_node *v = &g->nodes[g->n_nodes];
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->region = v->cnode = v->loc = v->parent = v->mark = v->path_next = AN_NONE;
    v->team = team;
    return (uint32_t)g->n_nodes++;
}

static int add_edge(an_taskgraph *g, uint32_t from, uint32_t to, uint32_t kind)
{
    if (from == to)
        return 0;
    if (kind == AN_TG_DEP) { /* one edge per pair: a task may name two addresses of another */
        if (g->nodes[from].mark == to)
            return 0;
        g->nodes[from].mark = to;
    }
    if (GROW(g->edges, g->n_edges, g->cap_edges))
        return -1;
    g->edges[g->n_edges++] = (an_tg_edge){from, to, kind, 0};
    return 0;
}

/* the task (comm, creator, generation), created on first sight */
static uint32_t task_node(an_taskgraph *g, maps *m, const an_event *e)
{
    uint64_t a = (uint64_t)e->comm << 32 | e->peer;
    uint32_t v = map_get(&m->ids, a, e->request);
    if (v != AN_NONE)
        return v;
    if ((v = new_node(g, AN_TG_TASK, AN_NONE)) == AN_NONE || map_put(&m->ids, a, e->request, v))
        return AN_NONE;
    g->nodes[v].comm = e->comm;
    g->nodes[v].creator = e->peer;
    g->nodes[v].gen = e->request;
    g->n_tasks++;
    return v;
}

/* the order state of KEY (created empty) */
static uint32_t order_of(maps *m, uint64_t a, uint64_t b)
{
    uint32_t o = map_get(&m->orders, a, b);
    if (o != AN_NONE)
        return o;
    if (GROW(m->os, m->n_os, m->cap_os) || map_put(&m->orders, a, b, (uint32_t)m->n_os))
        return AN_NONE;
    m->os[m->n_os] = (order_state){AN_NONE, AN_NONE, 0};
    return (uint32_t)m->n_os++;
}

/* the join's node, made with its edges from the tasks it waits for when first needed */
static uint32_t join_node(an_taskgraph *g, maps *m, uint32_t j)
{
    if (m->js[j].node != AN_NONE)
        return m->js[j].node;
    uint32_t v = new_node(g, m->js[j].kind, m->js[j].team);
    if (v == AN_NONE)
        return AN_NONE;
    m->js[j].node = v;
    for (uint32_t c = m->js[j].members; c != AN_NONE; c = m->cells[c].next)
        if (add_edge(g, m->cells[c].node, v, AN_TG_SYNC))
            return AN_NONE;
    return v;
}

/* moves the pending tasks of order state O into join J (edges at once when J has its node) */
static int close_pending(an_taskgraph *g, maps *m, uint32_t o, uint32_t j)
{
    for (uint32_t c = m->os[o].pending; c != AN_NONE; c = m->cells[c].next) {
        uint32_t task = m->cells[c].node;
        if (m->js[j].node != AN_NONE) {
            if (add_edge(g, task, m->js[j].node, AN_TG_SYNC))
                return -1;
        } else {
            uint32_t h = push_cell(m, m->js[j].members, task);
            if (h == CELL_OOM)
                return -1;
            m->js[j].members = h;
        }
    }
    m->os[o].pending = AN_NONE;
    m->os[o].last_join = j;
    return 0;
}

static uint32_t new_join(maps *m, uint32_t kind, uint32_t team)
{
    if (GROW(m->js, m->n_js, m->cap_js))
        return AN_NONE;
    m->js[m->n_js] = (join){AN_NONE, AN_NONE, kind, team};
    return (uint32_t)m->n_js++;
}

/* a new task V created under order state O: after O's last join, pending for the next */
static int order_task(an_taskgraph *g, maps *m, uint32_t o, uint32_t v)
{
    if (o == AN_NONE)
        return -1;
    uint32_t j = m->os[o].last_join;
    if (j != AN_NONE) {
        uint32_t jn = join_node(g, m, j);
        if (jn == AN_NONE || add_edge(g, jn, v, AN_TG_SYNC))
            return -1;
    }
    uint32_t h = push_cell(m, m->os[o].pending, v);
    if (h == CELL_OOM)
        return -1;
    m->os[o].pending = h;
    return 0;
}

/* One entry of task V's dependence list (OpenMP 5.2, 15.9.5 "Task dependences"): per
 * address, the groups of sibling tasks in creation order: out/inout alone; consecutive in,
 * consecutive mutexinoutset, consecutive inoutset each one group whose members do not depend
 * on one another. A new task depends on every member of the group before it; joining a group
 * of its own type, on the group before that group. The earlier groups are its ancestors
 * through those edges already (the transitive reduction, as libomp keeps it). */
static int add_dependence(an_taskgraph *g, maps *m, uint32_t v, uint64_t addr, uint32_t type)
{
    if (type == AN_DEP_OTHER || type > AN_DEP_INOUTSET)
        return 0;
    uint64_t pkey = g->nodes[v].pkey;
    uint32_t s = map_get(&m->deps, pkey, addr);
    if (s == AN_NONE) {
        if (GROW(m->ds, m->n_ds, m->cap_ds) || map_put(&m->deps, pkey, addr, (uint32_t)m->n_ds))
            return -1;
        s = (uint32_t)m->n_ds++;
        m->ds[s] = (dep_state){AN_NONE, AN_NONE, AN_DEP_OTHER};
    }
    dep_state *d = &m->ds[s];
    int set = type == AN_DEP_IN || type == AN_DEP_MUTEXINOUTSET || type == AN_DEP_INOUTSET;
    uint32_t from = set && d->cur != AN_NONE && d->cur_type == type ? d->prev : d->cur;
    for (uint32_t c = from; c != AN_NONE; c = m->cells[c].next)
        if (add_edge(g, m->cells[c].node, v, AN_TG_DEP))
            return -1;
    if (from == d->cur) { /* a new group */
        d->prev = d->cur;
        d->cur = AN_NONE;
        d->cur_type = type;
    }
    uint32_t h = push_cell(m, d->cur, v);
    if (h == CELL_OOM)
        return -1;
    m->ds[s].cur = h; /* d may have moved: cells only grew, ds did not */
    return 0;
}

static uint32_t cls_of(const an_trace *t, uint32_t region)
{
    return region < t->n_regions ? t->regions[region].cls : AN_RC_USER;
}

/* the team (parallel region instance, an_omp_map's number in the ENTER's .peer) of event I */
static uint32_t team_at(const an_trace *t, const an_event *ev, size_t i)
{
    uint32_t j = ev[i].kind == AN_ENTER ? (uint32_t)i : ev[i].enter;
    for (; j != AN_NONE; j = ev[j].enter)
        if (cls_of(t, ev[j].region) & AN_RF_OMP_PARALLEL)
            return ev[j].peer;
    return AN_NONE;
}

static int is_taskwait(const an_trace *t, uint32_t region)
{
    const char *n = region < t->n_regions ? t->regions[region].name : NULL;
    return n && (!strncmp(n, "!$omp taskwait", 14) || !strncmp(n, "!$omp taskgroup", 15));
}

static uint64_t implicit_key(uint32_t team, size_t loc)
{
    return 1ull << 63 | (uint64_t)team << 31 | (uint64_t)(loc & 0x7fffffff);
}

/* one location's events (LOC: 0 master, 1 + w thread w) */
static int walk(an_taskgraph *g, maps *m, const an_trace *t, const an_event *ev, size_t n,
                size_t loc)
{
    uint32_t cur = AN_NONE, want_cnode = AN_NONE;
    uint64_t since = 0;
    for (size_t i = 0; i < n; i++) {
        const an_event *e = &ev[i];
        switch (e->kind) {
        case AN_TASK_CREATE: {
            uint32_t team = cur != AN_NONE ? g->nodes[cur].team : team_at(t, ev, i);
            uint32_t v = task_node(g, m, e);
            if (v == AN_NONE)
                return -1;
            an_tg_node *x = &g->nodes[v];
            x->team = team;
            x->create = e->time;
            x->parent = cur;
            if (e->region != AN_NONE)
                x->region = e->region;
            if (cur != AN_NONE) {
                x->pkey = cur;
                x->level = g->nodes[cur].level + 1;
                x->offset = g->nodes[cur].dur + (e->time - since);
                if (add_edge(g, cur, v, AN_TG_CHILD))
                    return -1;
            } else {
                x->pkey = implicit_key(team, loc);
            }
            uint64_t pkey = x->pkey;
            if (order_task(g, m, order_of(m, pkey, TASKWAIT), v) ||
                order_task(g, m, order_of(m, team, loc), v))
                return -1;
            break;
        }
        case AN_TASK_DEPEND: {
            uint32_t v = task_node(g, m, e);
            if (v == AN_NONE || add_dependence(g, m, v, e->msg_id, e->tag))
                return -1;
            break;
        }
        case AN_TASK_SWITCH:
        case AN_TASK_COMPLETE:
            if (cur != AN_NONE)
                g->nodes[cur].dur += e->time - since;
            cur = AN_NONE;
            if (e->kind == AN_TASK_COMPLETE) {
                uint32_t v = task_node(g, m, e);
                if (v == AN_NONE)
                    return -1;
                g->nodes[v].end = e->time;
            } else if (e->request != 0) {
                if ((cur = task_node(g, m, e)) == AN_NONE)
                    return -1;
                if (g->nodes[cur].loc == AN_NONE) {
                    g->nodes[cur].loc = (uint32_t)loc;
                    g->nodes[cur].start = e->time;
                    want_cnode = cur;
                }
            }
            since = e->time;
            break;
        case AN_ENTER:
            if (want_cnode != AN_NONE) { /* the task region, just after its first switch */
                g->nodes[want_cnode].cnode = e->cnode;
                if (g->nodes[want_cnode].region == AN_NONE)
                    g->nodes[want_cnode].region = e->region;
                want_cnode = AN_NONE;
            }
            break;
        case AN_LEAVE: {
            uint32_t region = e->enter != AN_NONE ? ev[e->enter].region : AN_NONE;
            uint32_t cls = cls_of(t, region) & AN_RC_MASK;
            if (is_taskwait(t, region)) {
                uint64_t pkey = cur != AN_NONE ? cur : implicit_key(team_at(t, ev, i), loc);
                uint32_t o = order_of(m, pkey, TASKWAIT), j;
                if (o == AN_NONE)
                    return -1;
                if (m->os[o].pending != AN_NONE &&
                    ((j = new_join(m, AN_TG_TASKWAIT, cur != AN_NONE ? g->nodes[cur].team
                                                                      : team_at(t, ev, i))) ==
                         AN_NONE ||
                     close_pending(g, m, o, j)))
                    return -1;
            } else if (cls == AN_RC_OMP_EBARRIER || cls == AN_RC_OMP_IBARRIER) {
                uint32_t team = team_at(t, ev, i);
                uint32_t o = order_of(m, team, loc), j;
                if (o == AN_NONE)
                    return -1;
                uint32_t seq = m->os[o].seq++;
                if ((j = map_get(&m->joins, team, seq)) == AN_NONE) {
                    if ((j = new_join(m, AN_TG_BARRIER, team)) == AN_NONE ||
                        map_put(&m->joins, team, seq, j))
                        return -1;
                }
                if (close_pending(g, m, o, j))
                    return -1;
            }
            break;
        }
        default:
            break;
        }
    }
    return 0;
}

/* the master's parallel region instances (ENTER .peer = instance) and the master events whose
 * time the task chain stands for on the critical path */
static int master_pass(an_taskgraph *g, const an_trace *t)
{
    const an_event *ev = t->events;
    size_t teams = 0;
    for (size_t i = 0; i < t->n_events; i++)
        if (ev[i].kind == AN_ENTER && (cls_of(t, ev[i].region) & AN_RF_OMP_PARALLEL) &&
            ev[i].peer != AN_NONE && ev[i].peer >= teams)
            teams = (size_t)ev[i].peer + 1;
    for (size_t v = 0; v < g->n_nodes; v++)
        if (g->nodes[v].team != AN_NONE && g->nodes[v].team >= teams)
            teams = (size_t)g->nodes[v].team + 1;
    g->n_teams = teams;
    g->teams = calloc(teams + 1, sizeof *g->teams);
    g->master_skip = calloc(t->n_events + 1, 1);
    unsigned char *has = calloc(teams + 1, 1);
    if (!g->teams || !g->master_skip || !has) {
        free(has);
        return -1;
    }
    for (size_t v = 0; v < g->n_nodes; v++)
        if (g->nodes[v].team != AN_NONE)
            has[g->nodes[v].team] = 1;
    int in_task = 0;
    for (size_t i = 0; i < t->n_events; i++) {
        const an_event *e = &ev[i];
        uint32_t cls = 0;
        if (e->kind == AN_ENTER || e->kind == AN_LEAVE) {
            const an_event *en = e->kind == AN_ENTER ? e : e->enter != AN_NONE ? &ev[e->enter] : e;
            cls = cls_of(t, en->region);
            if ((cls & AN_RF_OMP_PARALLEL) && en->peer < teams) {
                if (e->kind == AN_ENTER)
                    g->teams[en->peer].enter = e->time;
                else
                    g->teams[en->peer].leave = e->time;
            }
        }
        if (e->kind == AN_TASK_SWITCH || e->kind == AN_TASK_COMPLETE)
            in_task = e->kind == AN_TASK_SWITCH && e->request != 0;
        /* the call path after event i: in a wait for tasks of a team that has tasks */
        uint32_t k = e->kind == AN_LEAVE ? (e->enter != AN_NONE ? ev[e->enter].enter : AN_NONE)
                                         : (e->kind == AN_ENTER ? (uint32_t)i : e->enter);
        uint32_t kc = k != AN_NONE ? cls_of(t, ev[k].region) & AN_RC_MASK : 0;
        int waits = kc == AN_RC_OMP_EBARRIER || kc == AN_RC_OMP_IBARRIER ||
                    kc == AN_RC_OMP_TASKWAIT || kc == AN_RC_OMP_ORDERED;
        uint32_t team = waits ? team_at(t, ev, k) : AN_NONE;
        g->master_skip[i] = in_task || (team != AN_NONE && team < teams && has[team]);
    }
    for (size_t k = 0; k < teams; k++) /* instances are numbered in the order of their enter */
        g->teams[k].max_leave = k && g->teams[k - 1].max_leave > g->teams[k].leave
                                    ? g->teams[k - 1].max_leave
                                    : g->teams[k].leave;
    free(has);
    return 0;
}

int an_taskgraph_build(const an_trace *t, an_taskgraph *g)
{
    memset(g, 0, sizeof *g);
    maps *m = calloc(1, sizeof *m);
    int rc = m ? walk(g, m, t, t->events, t->n_events, 0) : -1;
    for (size_t w = 0; rc == 0 && w < t->n_threads; w++)
        rc = walk(g, m, t, t->threads[w].events, t->threads[w].n_events, 1 + w);
    if (rc == 0)
        rc = master_pass(g, t);
    if (m) {
        free(m->ids.s);
        free(m->deps.s);
        free(m->orders.s);
        free(m->joins.s);
        free(m->cells);
        free(m->ds);
        free(m->os);
        free(m->js);
        free(m);
    }
    if (rc)
        an_taskgraph_free(g);
    return rc;
}

void an_taskgraph_free(an_taskgraph *g)
{
    free(g->nodes);
    free(g->edges);
    free(g->teams);
    free(g->master_skip);
    memset(g, 0, sizeof *g);
}

/* ---- the critical path ---- */

/* the longest chain to the start of W through edge E from U */
static uint64_t through_edge(const an_tg_node *u, const an_tg_node *w, uint32_t kind)
{
    return u->est + (kind == AN_TG_CHILD ? (w->offset < u->dur ? w->offset : u->dur) : u->dur);
}

/* Longest chains in a topological order (Kahn's, by creation): est forward, tail backward;
 * per team the node that ends last ends its path, followed back along the edges that gave
 * each node its est. A task's part of the path is its whole time, or for a parent whose child
 * continues the path, its time before it created the child. */
int an_taskgraph_path(an_taskgraph *g)
{
    size_t n = g->n_nodes, ne = g->n_edges;
    uint32_t *outs = malloc((n + 1) * sizeof *outs), *ins = malloc((n + 1) * sizeof *ins);
    uint32_t *oe = malloc((ne + 1) * sizeof *oe), *ie = malloc((ne + 1) * sizeof *ie);
    uint32_t *order = malloc((n + 1) * sizeof *order), *via = malloc((n + 1) * sizeof *via);
    uint32_t *deg = calloc(n + 1, sizeof *deg), *end = malloc((g->n_teams + 1) * sizeof *end);
    int rc = outs && ins && oe && ie && order && via && deg && end ? 0 : -1;
    if (rc == 0) {
        /* CSR of the edges by source (oe) and by target (ie) */
        memset(outs, 0, (n + 1) * sizeof *outs);
        memset(ins, 0, (n + 1) * sizeof *ins);
        for (size_t e = 0; e < ne; e++) {
            outs[g->edges[e].from]++;
            ins[g->edges[e].to]++;
        }
        for (size_t v = 0, so = 0, si = 0; v <= n; v++) {
            uint32_t a = v < n ? outs[v] : 0, b = v < n ? ins[v] : 0;
            outs[v] = (uint32_t)so;
            ins[v] = (uint32_t)si;
            so += a;
            si += b;
        }
        for (size_t v = 0; v < n; v++)
            deg[v] = ins[v + 1] - ins[v];
        uint32_t *fo = calloc(n + 1, sizeof *fo), *fi = calloc(n + 1, sizeof *fi);
        if (!fo || !fi)
            rc = -1;
        for (size_t e = 0; rc == 0 && e < ne; e++) {
            uint32_t a = g->edges[e].from, b = g->edges[e].to;
            oe[outs[a] + fo[a]++] = (uint32_t)e;
            ie[ins[b] + fi[b]++] = (uint32_t)e;
        }
        free(fo);
        free(fi);
    }
    if (rc == 0) {
        size_t head = 0, tail = 0;
        for (size_t v = 0; v < n; v++)
            if (!deg[v])
                order[tail++] = (uint32_t)v;
        while (head < tail) {
            uint32_t v = order[head++];
            for (uint32_t k = outs[v]; k < outs[v + 1]; k++)
                if (--deg[g->edges[oe[k]].to] == 0)
                    order[tail++] = g->edges[oe[k]].to;
        }
        g->cycles = n - tail; /* left out: no path through them */
        for (size_t v = 0; v < n; v++) {
            an_tg_node *x = &g->nodes[v];
            x->est = x->tail = x->cp_time = x->slack = 0;
            x->path_next = AN_NONE;
            via[v] = AN_NONE;
        }
        for (size_t i = 0; i < tail; i++) { /* forward: est */
            uint32_t v = order[i];
            an_tg_node *x = &g->nodes[v];
            for (uint32_t k = ins[v]; k < ins[v + 1]; k++) {
                const an_tg_edge *e = &g->edges[ie[k]];
                uint64_t s = through_edge(&g->nodes[e->from], x, e->kind);
                if (via[v] == AN_NONE || s > x->est) {
                    x->est = s;
                    via[v] = ie[k];
                }
            }
        }
        for (size_t i = tail; i-- > 0;) { /* backward: tail */
            uint32_t v = order[i];
            an_tg_node *x = &g->nodes[v];
            x->tail = x->dur;
            for (uint32_t k = outs[v]; k < outs[v + 1]; k++) {
                const an_tg_edge *e = &g->edges[oe[k]];
                const an_tg_node *w = &g->nodes[e->to];
                uint64_t part = e->kind == AN_TG_CHILD ? (w->offset < x->dur ? w->offset : x->dur)
                                                       : x->dur;
                if (part + w->tail > x->tail)
                    x->tail = part + w->tail;
            }
        }
        for (size_t k = 0; k < g->n_teams; k++) {
            end[k] = AN_NONE;
            g->teams[k].length = 0;
            g->teams[k].first = AN_NONE;
        }
        for (size_t i = 0; i < tail; i++) { /* per team: the node that ends last */
            uint32_t v = order[i];
            const an_tg_node *x = &g->nodes[v];
            if (x->team >= g->n_teams)
                continue;
            if (end[x->team] == AN_NONE || x->est + x->dur > g->teams[x->team].length) {
                end[x->team] = v;
                g->teams[x->team].length = x->est + x->dur;
            }
        }
        for (size_t i = 0; i < tail; i++) {
            an_tg_node *x = &g->nodes[order[i]];
            uint64_t len = x->team < g->n_teams ? g->teams[x->team].length : x->est + x->tail;
            x->slack = len > x->est + x->tail ? len - (x->est + x->tail) : 0;
        }
        for (size_t k = 0; k < g->n_teams; k++) { /* back along via from the end */
            uint32_t v = end[k];
            if (v == AN_NONE)
                continue;
            g->nodes[v].cp_time = g->nodes[v].dur;
            g->teams[k].first = v;
            while (via[v] != AN_NONE) {
                an_tg_edge *e = &g->edges[via[v]];
                an_tg_node *u = &g->nodes[e->from];
                e->on_path = 1;
                u->cp_time += e->kind == AN_TG_CHILD
                                  ? (g->nodes[v].offset < u->dur ? g->nodes[v].offset : u->dur)
                                  : u->dur;
                u->path_next = g->teams[k].first;
                g->teams[k].first = e->from;
                v = e->from;
            }
        }
    }
    free(outs);
    free(ins);
    free(oe);
    free(ie);
    free(order);
    free(via);
    free(deg);
    free(end);
    return rc;
}

/* ---- DOT ---- */

static int emit(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(*buf ? *buf + *len : NULL, *buf ? *cap - *len : 0, fmt, ap);
        va_end(ap);
        if (k < 0)
            return -1;
        if (*buf && *len + (size_t)k < *cap) {
            *len += (size_t)k;
            return 0;
        }
        size_t c = *cap ? 2 * *cap : 4096;
        while (c < *len + (size_t)k + 1)
            c *= 2;
        char *nb = realloc(*buf, c);
        if (!nb)
            return -1;
        *buf = nb;
        *cap = c;
    }
}

/* the region's name for a label, quotes and backslashes escaped */
static void label_of(const an_trace *t, const an_tg_node *x, char *out, size_t len)
{
    const char *name = x->kind == AN_TG_TASKWAIT  ? "taskwait"
                       : x->kind == AN_TG_BARRIER ? "barrier"
                       : x->region < t->n_regions && t->regions[x->region].name
                           ? t->regions[x->region].name
                           : "task";
    size_t k = 0;
    for (; *name && k + 2 < len; name++) {
        if (*name == '"' || *name == '\\')
            out[k++] = '\\';
        out[k++] = *name;
    }
    out[k] = '\0';
}

static uint32_t thread_of(const an_trace *t, uint32_t loc)
{
    if (loc == 0)
        return t->master_local;
    return loc - 1 < t->n_threads ? t->threads[loc - 1].local : AN_NONE;
}

/* the longest chain through the task over its team's path: 1 on the path, less elsewhere */
static double share(const an_taskgraph *g, const an_tg_node *x)
{
    uint64_t len = x->team < g->n_teams ? g->teams[x->team].length : 0;
    return len ? (double)(x->est + x->tail) / (double)len : 0;
}

static const char *const edge_style[] = {"", " style=dashed kind=create",
                                         " style=dotted kind=sync"};

static int dot_plain(const an_taskgraph *g, const an_trace *t, uint32_t rank, double tick,
                     char **buf, size_t *len, size_t *cap)
{
    char label[512];
    for (size_t v = 0; v < g->n_nodes; v++) {
        const an_tg_node *x = &g->nodes[v];
        label_of(t, x, label, sizeof label);
        const char *hl = x->cp_time ? " color=red penwidth=3" : "";
        int rc;
        if (x->kind == AN_TG_TASK)
            rc = emit(buf, len, cap,
                      "  \"r%u.t%zu\" [label=\"%s\" duration=%.9f thread=%d rank=%u slack=%.9f "
                      "critical_path=%.9f share=%.4f task=\"%u.%llu\"%s];\n",
                      rank, v, label, (double)x->dur * tick, (int)thread_of(t, x->loc), rank,
                      (double)x->slack * tick, (double)x->cp_time * tick, share(g, x),
                      x->creator, (unsigned long long)x->gen, hl);
        else
            rc = emit(buf, len, cap, "  \"r%u.t%zu\" [label=\"%s\" shape=point rank=%u%s];\n",
                      rank, v, label, rank, hl);
        if (rc)
            return -1;
    }
    for (size_t k = 0; k < g->n_edges; k++) {
        const an_tg_edge *e = &g->edges[k];
        if (emit(buf, len, cap, "  \"r%u.t%u\" -> \"r%u.t%u\" [%s%s];\n", rank, e->from, rank,
                 e->to, edge_style[e->kind], e->on_path ? " color=red penwidth=3" : ""))
            return -1;
    }
    return 0;
}

/* merged: a node per (kind and region, nesting level), an edge per pair of them */
static int dot_merged(const an_taskgraph *g, const an_trace *t, uint32_t rank, double tick,
                      char **buf, size_t *len, size_t *cap)
{
    map groups = {0}, pairs = {0};
    uint32_t *group = malloc((g->n_nodes + 1) * sizeof *group), n_groups = 0;
    typedef struct {
        uint32_t first, count;
        uint64_t dur, cp, min_slack;
    } gstat;
    gstat *gs = malloc((g->n_nodes + 1) * sizeof *gs);
    int rc = group && gs ? 0 : -1;
    for (size_t v = 0; rc == 0 && v < g->n_nodes; v++) {
        const an_tg_node *x = &g->nodes[v];
        uint64_t a = (uint64_t)x->kind << 32 | x->region;
        uint32_t k = map_get(&groups, a, x->level);
        if (k == AN_NONE) {
            k = n_groups++;
            gs[k] = (gstat){(uint32_t)v, 0, 0, 0, UINT64_MAX};
            rc = map_put(&groups, a, x->level, k);
        }
        group[v] = k;
        gs[k].count++;
        gs[k].dur += x->dur;
        gs[k].cp += x->cp_time;
        if (x->slack < gs[k].min_slack)
            gs[k].min_slack = x->slack;
    }
    char label[512];
    for (uint32_t k = 0; rc == 0 && k < n_groups; k++) {
        const an_tg_node *x = &g->nodes[gs[k].first];
        label_of(t, x, label, sizeof label);
        rc = emit(buf, len, cap,
                  "  \"r%u.g%u\" [label=\"%s\" merged=%u level=%u duration=%.9f thread=\"*\" "
                  "rank=%u slack=%.9f critical_path=%.9f%s%s];\n",
                  rank, k, label, gs[k].count, x->level, (double)gs[k].dur * tick, rank,
                  (double)gs[k].min_slack * tick, (double)gs[k].cp * tick,
                  x->kind == AN_TG_TASK ? "" : " shape=box",
                  gs[k].cp ? " color=red penwidth=3" : "");
    }
    for (size_t k = 0; rc == 0 && k < g->n_edges; k++) {
        const an_tg_edge *e = &g->edges[k];
        uint32_t a = group[e->from], b = group[e->to];
        uint64_t key = (uint64_t)a << 32 | b;
        uint32_t seen = map_get(&pairs, key, e->kind);
        if (seen != AN_NONE) {
            if (e->on_path && !g->edges[seen].on_path)
                rc = map_put(&pairs, key, e->kind, (uint32_t)k);
            continue;
        }
        rc = map_put(&pairs, key, e->kind, (uint32_t)k);
    }
    for (size_t i = 0; rc == 0 && i < pairs.cap; i++) {
        if (pairs.s[i].v == AN_NONE)
            continue;
        const an_tg_edge *e = &g->edges[pairs.s[i].v];
        rc = emit(buf, len, cap, "  \"r%u.g%u\" -> \"r%u.g%u\" [%s%s];\n", rank, group[e->from],
                  rank, group[e->to], edge_style[e->kind],
                  e->on_path ? " color=red penwidth=3" : "");
    }
    free(groups.s);
    free(pairs.s);
    free(group);
    free(gs);
    return rc;
}

int an_taskgraph_dot(const an_taskgraph *g, const an_trace *t, uint32_t rank, double tick,
                     int merge, char **buf, size_t *len, size_t *cap)
{
    return merge ? dot_merged(g, t, rank, tick, buf, len, cap)
                 : dot_plain(g, t, rank, tick, buf, len, cap);
}
