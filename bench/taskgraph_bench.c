/* SPDX-License-Identifier: BSD-3-Clause */
/* taskgraph_bench.c: time and peak memory of the analysis's task graph (src/analysis/
 * an_taskgraph.c) for N tasks: a synthetic rank (a master and one worker) whose master
 * creates N tasks in a wavefront of width 1000 (task i: inout on its column, in on the column
 * to its left; about 2 edges per task) that run alternately on the two threads. Prints
 * "N events edges build_s path_s dot_s event_MiB peak_MiB" (CPU seconds; peak: the process's
 * maximum RSS, the events included; DOT merged). */
#include "analysis/an_regions.h"
#include "analysis/an_taskgraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* the process's CPU time: the machine that runs the benchmarks is shared */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    an_event *ev;
    size_t n, cap;
} loc;

static an_event *add(loc *l, uint32_t kind, uint64_t time, uint64_t gen)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        if (!(l->ev = realloc(l->ev, l->cap * sizeof *l->ev))) {
            fprintf(stderr, "taskgraph_bench: out of memory\n");
            exit(1);
        }
    }
    an_event *e = &l->ev[l->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->time = time;
    e->region = e->cnode = AN_NONE;
    e->enter = 0; /* inside the parallel region, the location's first event */
    e->comm = 1;
    e->request = gen;
    return e;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000, width = 1000;
    an_region regions[2] = {
        {"!$omp parallel @bench.c:1", 0, 0, AN_RC_USER | AN_RF_OMP_PARALLEL, "bench.c", 1, 1},
        {"!$omp task @bench.c:2", 0, 0, AN_RC_USER, "bench.c", 2, 2}};
    loc l[2] = {{0}, {0}};
    for (int k = 0; k < 2; k++) {
        an_event *e = add(&l[k], AN_ENTER, 0, 0);
        e->region = 0;
        e->cnode = 0;
        e->peer = 0;
        e->enter = AN_NONE;
    }
    uint64_t at = 1;
    for (uint64_t i = 1; i <= n; i++, at += 4) {
        uint64_t col = (i - 1) % width;
        add(&l[0], AN_TASK_CREATE, at, i)->region = 1;
        an_event *d = add(&l[0], AN_TASK_DEPEND, at, i);
        d->msg_id = 0x1000 + 8 * col;
        d->tag = AN_DEP_INOUT;
        if (col) {
            d = add(&l[0], AN_TASK_DEPEND, at, i);
            d->msg_id = 0x1000 + 8 * (col - 1);
            d->tag = AN_DEP_IN;
        }
        loc *r = &l[i & 1];
        add(r, AN_TASK_SWITCH, at + 1, i);
        an_event *en = add(r, AN_ENTER, at + 1, 0);
        en->region = 1;
        en->cnode = 1;
        an_event *lv = add(r, AN_LEAVE, at + 3, 0);
        lv->enter = (uint32_t)(r->n - 2);
        lv->region = 1;
        add(r, AN_TASK_COMPLETE, at + 3, i);
        add(r, AN_TASK_SWITCH, at + 3, 0);
    }
    an_trace t;
    memset(&t, 0, sizeof t);
    t.regions = regions;
    t.n_regions = 2;
    t.resolution = 1000000000;
    t.events = l[0].ev;
    t.n_events = l[0].n;
    struct an_thread w = {l[1].ev, l[1].n, l[1].cap, 1, "OMP thread 1"};
    t.threads = &w;
    t.n_threads = 1;
    an_taskgraph g;
    double t0 = now();
    if (an_taskgraph_build(&t, &g)) {
        fprintf(stderr, "taskgraph_bench: out of memory building\n");
        return 1;
    }
    double t1 = now();
    if (an_taskgraph_path(&g)) {
        fprintf(stderr, "taskgraph_bench: out of memory on the path\n");
        return 1;
    }
    double t2 = now();
    char *buf = NULL;
    size_t len = 0, cap = 0;
    if (an_taskgraph_dot(&g, &t, 0, 1e-9, 1, &buf, &len, &cap)) {
        fprintf(stderr, "taskgraph_bench: out of memory writing DOT\n");
        return 1;
    }
    double t3 = now();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double ev_mib = (double)(l[0].n + l[1].n) * sizeof(an_event) / 1048576.0;
    printf("%zu %zu %zu %.3f %.3f %.3f %.1f %.1f\n", n, l[0].n + l[1].n, g.n_edges, t1 - t0,
           t2 - t1, t3 - t2, ev_mib, (double)ru.ru_maxrss / 1024.0);
    an_taskgraph_free(&g);
    free(buf);
    free(l[0].ev);
    free(l[1].ev);
    return 0;
}
