/* SPDX-License-Identifier: BSD-3-Clause */
/* test_taskgraph.c: the task graph (src/analysis/an_taskgraph.c) on synthetic AN_TASK_*
 * events: edges by OpenMP's dependence rules (the diamond, a predecessor completed before its
 * successor was created, inoutset and mutexinoutset groups), taskwait joins, parent -> child,
 * durations over switches, the critical path, slack, and 10^4 tasks. Expected values follow
 * from the rules of OpenMP 5.2 section 15.9.5, written out by hand per case. */
#include "analysis/an_regions.h"
#include "analysis/an_taskgraph.h"
#include "unit_check.h"

#include <stdlib.h>
#include <string.h>

enum { R_PAR, R_TASK_A, R_TASK_B, R_TASK_C, R_TASK_D, R_TASKWAIT, R_BARRIER, N_REGIONS };

static an_region regions[N_REGIONS] = {
    [R_PAR] = {"!$omp parallel @t.c:1", 0, 0, AN_RC_USER | AN_RF_OMP_PARALLEL, "t.c", 1, 1},
    [R_TASK_A] = {"!$omp task @t.c:10", 0, 0, AN_RC_USER, "t.c", 10, 10},
    [R_TASK_B] = {"!$omp task @t.c:20", 0, 0, AN_RC_USER, "t.c", 20, 20},
    [R_TASK_C] = {"!$omp task @t.c:30", 0, 0, AN_RC_USER, "t.c", 30, 30},
    [R_TASK_D] = {"!$omp task @t.c:40", 0, 0, AN_RC_USER, "t.c", 40, 40},
    [R_TASKWAIT] = {"!$omp taskwait @t.c:50", 0, 0, AN_RC_OMP_TASKWAIT, "t.c", 50, 50},
    [R_BARRIER] = {"!$omp implicit barrier @t.c:1", 0, 0, AN_RC_OMP_IBARRIER, "t.c", 1, 1},
};

/* a location's events under construction: the open ENTERs as a stack */
typedef struct {
    an_event *ev;
    size_t n, cap;
    uint32_t open[64];
    int depth;
} loc;

static an_event *add(loc *l, uint32_t kind, uint64_t time)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->ev = realloc(l->ev, l->cap * sizeof *l->ev);
        if (!l->ev)
            abort();
    }
    an_event *e = &l->ev[l->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->time = time;
    e->region = e->comm = e->peer = e->cnode = AN_NONE;
    e->enter = l->depth ? l->open[l->depth - 1] : AN_NONE;
    return e;
}

static void enter(loc *l, uint32_t region, uint64_t time, uint32_t team)
{
    an_event *e = add(l, AN_ENTER, time);
    e->region = region;
    e->cnode = region; /* a call path per region will do here */
    e->peer = team;
    l->open[l->depth++] = (uint32_t)(l->n - 1);
}

static void leave(loc *l, uint64_t time)
{
    an_event *e = add(l, AN_LEAVE, time);
    e->enter = l->open[--l->depth];
    e->region = l->ev[e->enter].region;
    e->cnode = l->ev[e->enter].cnode;
}

/* task (team 7, creator 0, generation GEN) */
static void task_ev(loc *l, uint32_t kind, uint64_t time, uint64_t gen, uint32_t region)
{
    an_event *e = add(l, kind, time);
    e->comm = 7;
    e->peer = 0;
    e->request = gen;
    if (kind == AN_TASK_CREATE)
        e->region = region;
}

static void depend(loc *l, uint64_t time, uint64_t gen, uint64_t addr, uint32_t type)
{
    an_event *e = add(l, AN_TASK_DEPEND, time);
    e->comm = 7;
    e->peer = 0;
    e->request = gen;
    e->msg_id = addr;
    e->tag = type;
}

/* the task runs on L from BEGIN to END (region entered and left, completed, switched back) */
static void run(loc *l, uint64_t gen, uint32_t region, uint64_t begin, uint64_t end)
{
    task_ev(l, AN_TASK_SWITCH, begin, gen, AN_NONE);
    enter(l, region, begin, 0);
    leave(l, end);
    task_ev(l, AN_TASK_COMPLETE, end, gen, AN_NONE);
    task_ev(l, AN_TASK_SWITCH, end, 0, AN_NONE);
}

static struct an_thread worker;

static void make_trace(an_trace *t, loc *master, loc *w)
{
    memset(t, 0, sizeof *t);
    t->regions = regions;
    t->n_regions = N_REGIONS;
    t->resolution = 1000; /* ticks are milliseconds */
    t->events = master->ev;
    t->n_events = master->n;
    t->master_local = 0;
    if (w) {
        memset(&worker, 0, sizeof worker);
        worker.events = w->ev;
        worker.n_events = w->n;
        worker.local = 1;
        t->threads = &worker;
        t->n_threads = 1;
    }
}

static uint32_t node_of(const an_taskgraph *g, uint64_t gen)
{
    for (size_t v = 0; v < g->n_nodes; v++)
        if (g->nodes[v].kind == AN_TG_TASK && g->nodes[v].gen == gen)
            return (uint32_t)v;
    return AN_NONE;
}

static int has_edge(const an_taskgraph *g, uint64_t a, uint64_t b, uint32_t kind)
{
    uint32_t x = node_of(g, a), y = node_of(g, b);
    for (size_t k = 0; k < g->n_edges; k++)
        if (g->edges[k].from == x && g->edges[k].to == y && g->edges[k].kind == kind)
            return 1;
    return 0;
}

static size_t count_edges(const an_taskgraph *g, uint32_t kind)
{
    size_t n = 0;
    for (size_t k = 0; k < g->n_edges; k++)
        n += g->edges[k].kind == kind;
    return n;
}

/* The diamond A(100) -> B(200), A -> C(50), B, C -> D(100) on two threads; with EARLY, A
 * completes before B, C and D are created (the edges must not depend on that). */
static void diamond(int early)
{
    loc m = {0}, w = {0};
    enter(&m, R_PAR, 0, 0);
    enter(&w, R_PAR, 0, 0);
    uint64_t x = 0x1000, y = 0x2000, z = 0x3000;
    task_ev(&m, AN_TASK_CREATE, 1, 1, R_TASK_A);
    depend(&m, 1, 1, x, AN_DEP_OUT);
    uint64_t at = 2;
    if (early) { /* A runs on the master before the others exist */
        run(&m, 1, R_TASK_A, 2, 102);
        at = 103;
    }
    task_ev(&m, AN_TASK_CREATE, at, 2, R_TASK_B);
    depend(&m, at, 2, x, AN_DEP_IN);
    depend(&m, at, 2, y, AN_DEP_OUT);
    task_ev(&m, AN_TASK_CREATE, at + 1, 3, R_TASK_C);
    depend(&m, at + 1, 3, x, AN_DEP_IN);
    depend(&m, at + 1, 3, z, AN_DEP_OUT);
    task_ev(&m, AN_TASK_CREATE, at + 2, 4, R_TASK_D);
    depend(&m, at + 2, 4, y, AN_DEP_IN);
    depend(&m, at + 2, 4, z, AN_DEP_IN);
    if (!early)
        run(&w, 1, R_TASK_A, 3, 103);
    run(&w, 2, R_TASK_B, 104, 304);
    run(&m, 3, R_TASK_C, 105, 155);
    run(&m, 4, R_TASK_D, 305, 405);
    enter(&m, R_BARRIER, 406, 0);
    enter(&w, R_BARRIER, 305, 0);
    leave(&m, 407);
    leave(&w, 407);
    leave(&m, 408);
    leave(&w, 408);
    an_trace t;
    make_trace(&t, &m, &w);
    an_taskgraph g;
    CHECK(an_taskgraph_build(&t, &g) == 0 && an_taskgraph_path(&g) == 0, "diamond builds");
    CHECK(g.n_tasks == 4 && g.n_nodes == 4, "diamond(%d): 4 tasks, no joins: %llu, %zu", early,
          (unsigned long long)g.n_tasks, g.n_nodes);
    CHECK(g.n_edges == 4 && has_edge(&g, 1, 2, AN_TG_DEP) && has_edge(&g, 1, 3, AN_TG_DEP) &&
              has_edge(&g, 2, 4, AN_TG_DEP) && has_edge(&g, 3, 4, AN_TG_DEP),
          "diamond(%d): edges A->B A->C B->D C->D only (%zu edges)", early, g.n_edges);
    static const uint64_t dur[5] = {0, 100, 200, 50, 100}, cp[5] = {0, 100, 200, 0, 100},
                          slack[5] = {0, 0, 0, 150, 0};
    for (uint64_t k = 1; k <= 4; k++) {
        const an_tg_node *n = &g.nodes[node_of(&g, k)];
        CHECK(n->dur == dur[k], "diamond(%d): task %llu lasts %llu, not %llu", early,
              (unsigned long long)k, (unsigned long long)n->dur, (unsigned long long)dur[k]);
        CHECK(n->cp_time == cp[k], "diamond(%d): task %llu on the path %llu, not %llu", early,
              (unsigned long long)k, (unsigned long long)n->cp_time, (unsigned long long)cp[k]);
        CHECK(n->slack == slack[k], "diamond(%d): task %llu slack %llu, not %llu", early,
              (unsigned long long)k, (unsigned long long)n->slack, (unsigned long long)slack[k]);
        CHECK(n->cnode == R_TASK_A + k - 1 && n->region == R_TASK_A + k - 1,
              "diamond(%d): task %llu's region and call path", early, (unsigned long long)k);
    }
    CHECK(g.nodes[node_of(&g, 2)].loc == 1 && g.nodes[node_of(&g, 3)].loc == 0,
          "diamond(%d): B ran on the worker, C on the master", early);
    CHECK(g.n_teams == 1 && g.teams[0].length == 400 && g.teams[0].enter == 0 &&
              g.teams[0].leave == 408,
          "diamond(%d): one team, path 400 ms", early);
    /* the master's time in C, D and in its barrier is the task chain's */
    int skip_c = 0, skip_par = 0;
    for (size_t i = 0; i < m.n; i++) {
        if (m.ev[i].kind == AN_ENTER && m.ev[i].region == R_TASK_C)
            skip_c = g.master_skip[i];
        if (m.ev[i].kind == AN_TASK_CREATE && m.ev[i].request == 2)
            skip_par = g.master_skip[i];
    }
    CHECK(skip_c && !skip_par, "diamond(%d): the master's task time skipped, not its own",
          early);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    CHECK(an_taskgraph_dot(&g, &t, 3, 1e-3, 0, &buf, &len, &cap) == 0 && buf &&
              strstr(buf, "label=\"!$omp task @t.c:20\" duration=0.200000000 thread=1 rank=3") &&
              strstr(buf, "\"r3.t0\" -> \"r3.t1\" [ color=red penwidth=3]") &&
              strstr(buf, "\"r3.t0\" -> \"r3.t2\" []") &&
              strstr(buf, "critical_path=0.000000000 share=0.6250 task=\"0.3\""),
          "diamond(%d): DOT text: %s", early, buf ? buf : "(none)");
    free(buf);
    an_taskgraph_free(&g);
    free(m.ev);
    free(w.ev);
}

/* per address x: T1 out, T2 inoutset, T3 inoutset, T4 in, T5 in, T6 out, M7 mutexinoutset,
 * M8 mutexinoutset, T9 inoutset, T10 in: each set type is a group whose members do not
 * depend on one another; every task depends on the group before its own */
static void groups(void)
{
    loc m = {0};
    enter(&m, R_PAR, 0, 0);
    static const uint32_t type[11] = {
        0,         AN_DEP_OUT, AN_DEP_INOUTSET,       AN_DEP_INOUTSET,       AN_DEP_IN, AN_DEP_IN,
        AN_DEP_OUT, AN_DEP_MUTEXINOUTSET, AN_DEP_MUTEXINOUTSET, AN_DEP_INOUTSET, AN_DEP_IN};
    for (uint64_t k = 1; k <= 10; k++) {
        task_ev(&m, AN_TASK_CREATE, k, k, R_TASK_A);
        depend(&m, k, k, 0x42, type[k]);
    }
    leave(&m, 20);
    an_trace t;
    make_trace(&t, &m, NULL);
    an_taskgraph g;
    CHECK(an_taskgraph_build(&t, &g) == 0 && an_taskgraph_path(&g) == 0, "groups build");
    static const int want[][2] = {{1, 2}, {1, 3}, {2, 4}, {3, 4}, {2, 5}, {3, 5}, {4, 6},
                                  {5, 6}, {6, 7}, {6, 8}, {7, 9}, {8, 9}, {9, 10}};
    size_t nw = sizeof want / sizeof want[0];
    for (size_t i = 0; i < nw; i++)
        CHECK(has_edge(&g, (uint64_t)want[i][0], (uint64_t)want[i][1], AN_TG_DEP),
              "groups: edge %d -> %d", want[i][0], want[i][1]);
    CHECK(g.n_edges == nw, "groups: %zu edges, not %zu", g.n_edges, nw);
    an_taskgraph_free(&g);
    free(m.ev);
}

/* the implicit task creates T1, T2, waits for them, creates T3: T1, T2 -> join -> T3; T3
 * creates T4 after 30 ms of its 50: T3 -> T4 with offset 30; T4 runs 100 ms, suspended
 * once (two pieces of 40 and 60) */
static void joins_and_children(void)
{
    loc m = {0}, w = {0};
    enter(&m, R_PAR, 0, 0);
    enter(&w, R_PAR, 0, 0);
    task_ev(&m, AN_TASK_CREATE, 1, 1, R_TASK_A);
    task_ev(&m, AN_TASK_CREATE, 2, 2, R_TASK_B);
    enter(&m, R_TASKWAIT, 3, 0);
    run(&m, 1, R_TASK_A, 4, 14);
    leave(&m, 30);
    run(&w, 2, R_TASK_B, 5, 25);
    task_ev(&m, AN_TASK_CREATE, 31, 3, R_TASK_C);
    task_ev(&m, AN_TASK_SWITCH, 40, 3, AN_NONE); /* T3 on the master: 30 ms, then T4 */
    enter(&m, R_TASK_C, 40, 0);
    task_ev(&m, AN_TASK_CREATE, 70, 4, R_TASK_D);
    leave(&m, 90);
    task_ev(&m, AN_TASK_COMPLETE, 90, 3, AN_NONE);
    task_ev(&m, AN_TASK_SWITCH, 90, 0, AN_NONE);
    task_ev(&w, AN_TASK_SWITCH, 100, 4, AN_NONE); /* T4: 40 ms, suspended, 60 ms */
    enter(&w, R_TASK_D, 100, 0);
    task_ev(&w, AN_TASK_SWITCH, 140, 0, AN_NONE);
    task_ev(&w, AN_TASK_SWITCH, 150, 4, AN_NONE);
    leave(&w, 210);
    task_ev(&w, AN_TASK_COMPLETE, 210, 4, AN_NONE);
    task_ev(&w, AN_TASK_SWITCH, 210, 0, AN_NONE);
    leave(&m, 220);
    leave(&w, 220);
    an_trace t;
    make_trace(&t, &m, &w);
    an_taskgraph g;
    CHECK(an_taskgraph_build(&t, &g) == 0 && an_taskgraph_path(&g) == 0, "joins build");
    CHECK(g.n_tasks == 4 && g.n_nodes == 5, "joins: 4 tasks and a join: %zu nodes", g.n_nodes);
    uint32_t j = AN_NONE;
    for (size_t v = 0; v < g.n_nodes; v++)
        if (g.nodes[v].kind == AN_TG_TASKWAIT)
            j = (uint32_t)v;
    int in1 = 0, in2 = 0, out3 = 0;
    for (size_t k = 0; j != AN_NONE && k < g.n_edges; k++) {
        const an_tg_edge *e = &g.edges[k];
        in1 += e->to == j && e->from == node_of(&g, 1) && e->kind == AN_TG_SYNC;
        in2 += e->to == j && e->from == node_of(&g, 2) && e->kind == AN_TG_SYNC;
        out3 += e->from == j && e->to == node_of(&g, 3) && e->kind == AN_TG_SYNC;
    }

    CHECK(in1 == 1 && in2 == 1 && out3 == 1, "joins: T1, T2 -> taskwait -> T3");
    CHECK(has_edge(&g, 3, 4, AN_TG_CHILD) && count_edges(&g, AN_TG_CHILD) == 1 &&
              count_edges(&g, AN_TG_DEP) == 0 && g.n_edges == 4,
          "joins: T3 -> T4 the only child edge, 4 edges in all (%zu)", g.n_edges);
    const an_tg_node *t3 = &g.nodes[node_of(&g, 3)], *t4 = &g.nodes[node_of(&g, 4)];
    CHECK(t3->dur == 50 && t4->dur == 100 && t4->offset == 30,
          "joins: durations 50, 100 over switches, offset 30: %llu %llu %llu",
          (unsigned long long)t3->dur, (unsigned long long)t4->dur,
          (unsigned long long)t4->offset);
    /* path: T2 (20) -> join -> T3 (its 30 before creating T4) -> T4 (100) = 150 */
    CHECK(g.teams[0].length == 150 && g.nodes[node_of(&g, 2)].cp_time == 20 &&
              g.nodes[node_of(&g, 1)].cp_time == 0 && t3->cp_time == 30 && t4->cp_time == 100,
          "joins: path T2 30 T3 T4, length %llu", (unsigned long long)g.teams[0].length);
    CHECK(g.nodes[node_of(&g, 1)].slack == 10, "joins: T1's slack 10 ms, not %llu",
          (unsigned long long)g.nodes[node_of(&g, 1)].slack);
    an_taskgraph_free(&g);
    free(m.ev);
    free(w.ev);
}

/* N tasks each out on one address: a chain of N - 1 edges, the path all of them; then N
 * tasks in after one out: N edges, the path the longest of them */
static void many(size_t n)
{
    loc m = {0};
    enter(&m, R_PAR, 0, 0);
    uint64_t at = 1;
    for (uint64_t k = 1; k <= n; k++) {
        task_ev(&m, AN_TASK_CREATE, at, k, R_TASK_A);
        depend(&m, at, k, 0x10, AN_DEP_INOUT);
        run(&m, k, R_TASK_A, at, at + 2);
        at += 3;
    }
    for (uint64_t k = n + 1; k <= 2 * n + 1; k++) {
        task_ev(&m, AN_TASK_CREATE, at, k, R_TASK_B);
        depend(&m, at, k, 0x20, k == n + 1 ? AN_DEP_OUT : AN_DEP_IN);
        run(&m, k, R_TASK_B, at, at + (k == 2 * n ? 5 : 1));
        at += 6;
    }
    leave(&m, at);
    an_trace t;
    make_trace(&t, &m, NULL);
    an_taskgraph g;
    CHECK(an_taskgraph_build(&t, &g) == 0 && an_taskgraph_path(&g) == 0, "many build");
    CHECK(g.n_tasks == 2 * n + 1 && g.n_edges == (n - 1) + n, "many: %llu tasks, %zu edges",
          (unsigned long long)g.n_tasks, g.n_edges);
    CHECK(g.teams[0].length == 2 * n, "many: path %llu, not %zu",
          (unsigned long long)g.teams[0].length, 2 * n);
    size_t on = 0;
    for (uint32_t v = g.teams[0].first; v != AN_NONE; v = g.nodes[v].path_next)
        on++;
    CHECK(on == n, "many: %zu tasks on the path, not %zu", on, n);
    /* merged: one node per region (A: the chain, B: the fan), the chain's edges one self
     * edge A->A, the fan's B->B: two edges */
    char *buf = NULL;
    size_t len = 0, cap = 0, nodes = 0, edges = 0;
    CHECK(an_taskgraph_dot(&g, &t, 0, 1e-3, 1, &buf, &len, &cap) == 0 && buf, "many: merged DOT");
    for (const char *p = buf; p && (p = strstr(p, "merged=")) != NULL; p++)
        nodes++;
    for (const char *p = buf; p && (p = strstr(p, " -> ")) != NULL; p++)
        edges++;
    char want[160];
    snprintf(want, sizeof want, "label=\"!$omp task @t.c:10\" merged=%zu level=0 duration=%.9f", n,
             2.0 * (double)n * 1e-3);
    CHECK(nodes == 2 && edges == 2 && strstr(buf, want), "many: merged into 2 nodes, 2 edges: %s",
          buf ? buf : "(none)");
    free(buf);
    an_taskgraph_free(&g);
    free(m.ev);
}

int main(void)
{
    diamond(0);
    diamond(1);
    groups();
    joins_and_children();
    many(10000);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    return failures != 0;
}
