/* SPDX-License-Identifier: BSD-3-Clause */
/* an_taskgraph_run.c: the task graph in the analysis pass (an_taskgraph.c builds it): its
 * critical path credited to critical_path where the run's critical path crosses a parallel
 * region with tasks (an_critical_path.c's credit), and EXPDIR/taskgraph.dot, all ranks'
 * graphs gathered by rank 0 (docs/openmp.md "Task graph"). */
#include "analysis/an_context.h"
#include "analysis/an_taskgraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int an_taskgraph_pass(an_ctx *c, char *err, size_t len)
{
    an_taskgraph *g = calloc(1, sizeof *g);
    if (!g || an_taskgraph_build(c->t, g) || an_taskgraph_path(g)) {
        if (g)
            an_taskgraph_free(g);
        free(g);
        snprintf(err, len, "out of memory building the task graph");
        return -1;
    }
    c->tg = g;
    return 0;
}

void an_taskgraph_done(an_ctx *c)
{
    if (c->tg)
        an_taskgraph_free(c->tg);
    free(c->tg);
    c->tg = NULL;
}

/* The run's critical path covers [FROM, TO] of this rank's master: of each parallel region
 * instance with tasks, the part inside it (as a fraction of the instance) of its task chain
 * goes to the tasks on that chain, each on the call path of its task region on the location
 * where it ran; the master's own time in those tasks and in its waits for them is left out
 * (an_taskgraph's master_skip). */
void an_taskgraph_credit(an_ctx *c, uint64_t from, uint64_t to)
{
    const an_taskgraph *g = c->tg;
    if (!g || !g->n_tasks || to <= from)
        return;
    /* instances in the order of their enter: the last one entered before TO, back to where
     * no earlier one (nested ones included) is left after FROM */
    size_t lo = 0, hi = g->n_teams;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->teams[mid].enter < to)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k-- > 0 && g->teams[k].max_leave > from;) {
        const an_tg_team *tm = &g->teams[k];
        if (tm->first == AN_NONE || tm->leave <= from || tm->leave <= tm->enter)
            continue;
        uint64_t a = tm->enter > from ? tm->enter : from, b = tm->leave < to ? tm->leave : to;
        double f = (double)(b - a) / (double)(tm->leave - tm->enter);
        for (uint32_t v = tm->first; v != AN_NONE; v = g->nodes[v].path_next) {
            const an_tg_node *x = &g->nodes[v];
            if (x->kind == AN_TG_TASK && x->cp_time)
                an_add_loc(c, x->loc, M_CRITICAL_PATH, x->cnode, an_sec(c, (int64_t)x->cp_time) * f);
        }
    }
}

/* the experiment directory of the report path CUBEX: what precedes its last '/' */
static void dir_of(const char *cubex, char *out, size_t len)
{
    const char *slash = strrchr(cubex, '/');
    if (!slash)
        snprintf(out, len, ".");
    else
        snprintf(out, len, "%.*s", (int)(slash - cubex), cubex);
}

static size_t max_nodes(void)
{
    const char *s = getenv("SCOREP_TASKGRAPH_MAX_NODES");
    char *end = NULL;
    unsigned long long v = s && *s ? strtoull(s, &end, 10) : 0;
    return end && *end == '\0' && s != end ? (size_t)v : AN_TASKGRAPH_MAX_NODES_DEFAULT;
}

/* Collective: rank 0 writes taskgraph.dot beside CUBEX when any rank has tasks. */
int an_taskgraph_write(an_ctx *c, const char *cubex, const char *mode, char *err, size_t len)
{
    uint64_t mine = c->tg ? c->tg->n_tasks : 0, total = 0;
    an_net_allreduce(c->net, &mine, &total, 1, AN_T_U64, AN_OP_SUM);
    if (!total)
        return 0;
    size_t limit = max_nodes();
    int merge = total > limit;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int ok = !c->tg || an_taskgraph_dot(c->tg, c->t, (uint32_t)c->rank, c->tick, merge, &buf, &n,
                                        &cap) == 0;
    /* the fragments' sizes fit an int: above that the graph merges long before */
    int my_n = (int)n, *cnt = NULL, *off = NULL;
    if (c->rank == 0) { /* before the gathers, so that every rank learns of a failure */
        cnt = calloc((size_t)c->size, sizeof *cnt);
        off = calloc((size_t)c->size, sizeof *off);
        ok = ok && cnt && off;
    }
    int all_ok;
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    if (!all_ok) {
        free(buf);
        free(cnt);
        free(off);
        snprintf(err, len, "out of memory writing the task graph");
        return -1;
    }
    char *all = NULL;
    an_net_gather(c->net, &my_n, 1, cnt, AN_T_INT, 0);
    size_t sum = 0;
    if (c->rank == 0) {
        for (int r = 0; r < c->size; r++) {
            off[r] = (int)sum;
            sum += (size_t)cnt[r];
        }
        all = malloc(sum + 1);
    }
    an_net_gatherv(c->net, buf, my_n, all, cnt, off, AN_T_BYTE, 0);
    int rc = 0;
    if (c->rank == 0) {
        char dir[4096], path[4200];
        dir_of(cubex, dir, sizeof dir);
        snprintf(path, sizeof path, "%s/taskgraph.dot", dir);
        FILE *f = all ? fopen(path, "w") : NULL;
        if (!f) {
            snprintf(err, len, "cannot write %s", path);
            rc = -1;
        } else {
            fprintf(f,
                    "// taskgraph.dot: the OpenMP task graph of the run, written by the analysis "
                    "(%s; docs/openmp.md \"Task graph\").\n"
                    "// One node per task instance: label = its region (with file:line), "
                    "duration and slack in seconds, thread, rank;\n"
                    "// edges: dependences (solid), parent -> child (dashed), taskwait/barrier "
                    "joins (dotted, through point nodes).\n"
                    "// The critical path of each parallel region's tasks is red.\n",
                    mode ? mode : "post-mortem");
            if (merge)
                fprintf(f,
                        "// merged: %llu tasks are more than %zu (SCOREP_TASKGRAPH_MAX_NODES): "
                        "one node per region and nesting level (merged = its tasks, duration = "
                        "their sum, slack = the least), one edge per pair of such nodes.\n",
                        (unsigned long long)total, limit);
            fprintf(f, "digraph taskgraph {\n");
            fwrite(all, 1, sum, f);
            fprintf(f, "}\n");
            if (fclose(f)) {
                snprintf(err, len, "cannot write %s", path);
                rc = -1;
            }
        }
    }
    free(buf);
    free(all);
    free(cnt);
    free(off);
    an_net_bcast(c->net, &rc, 1, AN_T_INT, 0);
    if (rc && c->rank != 0)
        snprintf(err, len, "rank 0 could not write the task graph");
    return rc;
}
