/* SPDX-License-Identifier: BSD-3-Clause */
/* an_pattern_stat.c: Scalasca's pattern statistics, EXPDIR/trace.stat beside scout.cubex
 * (scout's Statistics.pattern): per wait-state pattern the number of instances with waiting
 * time, their mean, median, minimum, maximum, sum, variance and quartiles, and its most severe
 * instances (at most 5, on distinct call paths: cnode id as in scout.cubex, enter and exit in
 * seconds since the trace's start, waiting time, rank). The patterns record their instances
 * on each rank (an_stat_add); rank 0 gathers them (an_stat_gather) and writes the file while
 * it writes scout.cubex, where the cnode ids are known (an_stat_write). */
#include "analysis/an_report.h"

#include "base/grow.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the patterns as trace.stat lists them, in its order */
static const an_metric stat_patterns[] = {M_MPI_LATESENDER,
                                          M_MPI_LATESENDER_WO,
                                          M_MPI_LATERECEIVER,
                                          M_MPI_WAIT_NXN,
                                          M_MPI_BARRIER_WAIT,
                                          M_MPI_EARLYREDUCE,
                                          M_MPI_EARLYSCAN,
                                          M_MPI_LATEBROADCAST,
                                          M_MPI_BARRIER_COMPLETION,
                                          M_MPI_NXN_COMPLETION,
                                          M_OMP_EBARRIER_WAIT,
                                          M_OMP_IBARRIER_WAIT,
                                          M_OMP_LOCK_CONTENTION_API,
                                          M_OMP_LOCK_CONTENTION_CRITICAL,
                                          M_PTHREAD_LOCK_CONTENTION_MUTEX_LOCK,
                                          M_PTHREAD_LOCK_CONTENTION_CONDITIONAL};
#define N_PATTERNS (sizeof stat_patterns / sizeof stat_patterns[0])
#define TOP 5 /* Scalasca's TOP_SEVERE_INSTANCES */

void an_stat_add(an_ctx *c, an_metric m, double idle, uint64_t enter, uint64_t exit, uint32_t cnode,
                 uint32_t group, uint32_t inst)
{
    if (c->stat_oom || cnode == AN_NONE)
        return;
    if (scorep_grow((void **)&c->stat, &c->cap_stat, c->n_stat + 1, sizeof *c->stat) != 0) {
        c->stat_oom = 1; /* the statistics lack instances; the analysis goes on */
        return;
    }
    c->stat[c->n_stat++] = (an_stat_rec){.metric = (uint32_t)m,
                                         .rank = (uint32_t)c->rank,
                                         .cnode = cnode,
                                         .group = group,
                                         .inst = inst,
                                         .idle = idle,
                                         .enter = enter,
                                         .exit = exit};
}

/* the trace's start: its global offset (post-mortem the trace's, in situ each process's
 * part of it: the minimum over the ranks), else its earliest event */
static uint64_t trace_start(an_ctx *c)
{
    const an_trace *t = c->t;
    uint64_t first = t->n_events ? t->events[0].time : UINT64_MAX, all = 0;
    for (size_t w = 0; w < t->n_threads; w++)
        if (t->threads[w].n_events && t->threads[w].events[0].time < first)
            first = t->threads[w].events[0].time;
    if (t->global_offset)
        first = t->global_offset;
    an_net_allreduce(c->net, &first, &all, 1, AN_T_U64, AN_OP_MIN);
    return all;
}

int an_stat_gather(an_ctx *c, an_stat_all *out)
{
    memset(out, 0, sizeof *out);
    out->start = trace_start(c);
    out->tick = c->tick;
    /* MPI's counts are int: a rank's instances, and all of them on rank 0, under 2 GiB */
    int oom = c->stat_oom || c->n_stat > (size_t)INT_MAX / sizeof *c->stat, any_oom = 0;
    int mine = oom ? 0 : (int)(c->n_stat * sizeof *c->stat);
    int *counts = c->rank == 0 ? calloc((size_t)c->size, sizeof *counts) : NULL;
    int *displ = c->rank == 0 ? calloc((size_t)c->size, sizeof *displ) : NULL;
    if (c->rank == 0 && (!counts || !displ))
        oom = 1;
    an_net_allreduce(c->net, &oom, &any_oom, 1, AN_T_INT, AN_OP_MAX);
    an_net_gather(c->net, &mine, 1, counts, AN_T_INT, 0);
    size_t total = 0;
    for (int r = 0; c->rank == 0 && counts && displ && r < c->size; r++) {
        displ[r] = (int)total;
        total += (size_t)counts[r];
    }
    if (c->rank == 0 && !any_oom && (total > (size_t)INT_MAX || !(out->rec = malloc(total + 1))))
        any_oom = 1;
    an_net_bcast(c->net, &any_oom, 1, AN_T_INT, 0);
    int rc = 0;
    if (any_oom) {
        rc = -1; /* no trace.stat; scout.cubex is still written */
        if (c->rank == 0)
            fprintf(stderr, "scorep-rt analysis: the wait-state instances do not fit in memory "
                            "(or exceed 2 GiB): no trace.stat\n");
    } else {
        an_net_gatherv(c->net, c->stat, mine, out->rec, counts, displ, AN_T_BYTE, 0);
        out->n = total / sizeof *out->rec;
    }
    free(counts);
    free(displ);
    if (rc) {
        free(out->rec);
        out->rec = NULL;
    }
    return rc;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* quantile P of the N sorted values V (linear interpolation between the closest ranks) */
static double quantile(const double *v, size_t n, double p)
{
    double h = p * (double)(n - 1);
    size_t i = (size_t)h;
    return i + 1 < n ? v[i] + (h - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* the patterns whose instances are collective calls (Scalasca's stat_collective) */
static int collective(an_metric m)
{
    return m == M_MPI_WAIT_NXN || m == M_MPI_BARRIER_WAIT || m == M_MPI_EARLYSCAN ||
           m == M_MPI_LATEBROADCAST || m == M_MPI_BARRIER_COMPLETION || m == M_MPI_NXN_COMPLETION ||
           m == M_OMP_EBARRIER_WAIT || m == M_OMP_IBARRIER_WAIT;
}

static int omp_team(uint32_t m)
{
    return m == M_OMP_EBARRIER_WAIT || m == M_OMP_IBARRIER_WAIT;
}

/* records of one collective instance: the same communicator (or OpenMP team) and instance
 * number; an OpenMP team's instance is its process's own */
static int same_instance(const an_stat_rec *x, const an_stat_rec *y)
{
    return x->group == y->group && x->inst == y->inst &&
           (!omp_team(x->metric) || x->rank == y->rank);
}

static int by_instance(const void *a, const void *b)
{
    const an_stat_rec *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->inst != y->inst)
        return x->inst < y->inst ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* a collective pattern's instances: one per collective call, as Scalasca's reduction over
 * its members makes it (the members' waiting summed, the earliest enter, the latest exit, the
 * rank that waited longest; the call path of the lowest rank's member) */
static size_t merge_collective(an_stat_rec *v, size_t n)
{
    qsort(v, n, sizeof *v, by_instance);
    size_t k = 0;
    for (size_t i = 0, j; i < n; i = j) {
        an_stat_rec s = v[i];
        double most = v[i].idle;
        for (j = i + 1; j < n && same_instance(&v[i], &v[j]); j++) {
            s.idle += v[j].idle;
            s.enter = v[j].enter < s.enter ? v[j].enter : s.enter;
            s.exit = v[j].exit > s.exit ? v[j].exit : s.exit;
            if (v[j].idle > most) {
                most = v[j].idle;
                s.rank = v[j].rank;
            }
        }
        v[k++] = s;
    }
    return k;
}

typedef struct {
    double idle, enter, exit;
    int cnode;
    uint32_t rank;
} top_inst;

static int by_idle_desc(const void *a, const void *b)
{
    double x = ((const top_inst *)a)->idle, y = ((const top_inst *)b)->idle;
    return (x < y) - (x > y);
}

/* the most severe instances on distinct call paths (Scalasca's stat_collector keeps each
 * call path's most severe one and the TOP most severe of those) into top; returns how many */
static size_t most_severe(top_inst *v, size_t n, top_inst *top)
{
    qsort(v, n, sizeof *v, by_idle_desc);
    size_t k = 0;
    for (size_t i = 0; i < n && k < TOP && v[i].idle > 0; i++) {
        size_t j = 0;
        while (j < k && top[j].cnode != v[i].cnode)
            j++;
        if (j == k)
            top[k++] = v[i];
    }
    return k;
}

/* one pattern's line and its instances; V: its records (reordered) */
static int write_pattern(FILE *f, const an_stat_all *a, an_metric m, an_stat_rec *v, size_t n,
                         uint32_t **map, const int *cube_id)
{
    double *val = malloc((n + 1) * sizeof *val);
    top_inst *inst = malloc((n + 1) * sizeof *inst);
    if (!val || !inst) {
        free(val);
        free(inst);
        return -1;
    }
    size_t nv = 0;
    double sum = 0, sq = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].idle > 0) {
            val[nv++] = v[i].idle;
            sum += v[i].idle;
            sq += v[i].idle * v[i].idle;
        }
    for (size_t i = 0; i < n; i++) /* before merging: a merged record's rank is another's */
        v[i].cnode = (uint32_t)cube_id[map[v[i].rank][v[i].cnode]];
    if (collective(m))
        n = merge_collective(v, n);
    for (size_t i = 0; i < n; i++)
        inst[i] = (top_inst){v[i].idle, (double)(int64_t)(v[i].enter - a->start) * a->tick,
                             (double)(int64_t)(v[i].exit - a->start) * a->tick, (int)v[i].cnode,
                             v[i].rank};
    if (nv > 0) {
        qsort(val, nv, sizeof *val, by_value);
        double mean = sum / (double)nv, var = sq / (double)nv - mean * mean;
        fprintf(f, "%-26s %9.0f %1.7f %1.7f %1.10f %1.10f %1.10f", an_metrics[m].uniq, (double)nv,
                mean, quantile(val, nv, 0.5), val[0], val[nv - 1], sum);
        if (nv >= 2)
            fprintf(f, " %1.10f", var > 0 ? var : 0);
        if (nv >= 5)
            fprintf(f, " %1.10f %1.10f", quantile(val, nv, 0.25), quantile(val, nv, 0.75));
        top_inst top[TOP];
        size_t k = most_severe(inst, n, top);
        if (k > 0)
            fprintf(f, "\n");
        for (size_t i = 0; i < k; i++)
            fprintf(f, "- cnode %d enter: %1.10f exit: %1.10f duration: %1.10f rank: %u\n",
                    top[i].cnode, top[i].enter, top[i].exit, top[i].idle, top[i].rank);
        fprintf(f, "\n");
    }
    free(val);
    free(inst);
    return 0;
}

static int by_metric(const void *a, const void *b)
{
    uint32_t x = ((const an_stat_rec *)a)->metric, y = ((const an_stat_rec *)b)->metric;
    return (x > y) - (x < y);
}

int an_stat_write(an_stat_all *a, const char *cubex, uint32_t **map, const int *cube_id)
{
    char path[4096];
    const char *slash = strrchr(cubex, '/');
    int dir = slash ? (int)(slash - cubex) : 1;
    snprintf(path, sizeof path, "%.*s/trace.stat", dir, slash ? cubex : ".");
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "PatternName               Count      Mean    Median      Minimum      Maximum      "
               "Sum     Variance    Quartil25    Quartil75\n");
    qsort(a->rec, a->n, sizeof *a->rec, by_metric);
    int rc = 0;
    for (size_t p = 0; rc == 0 && p < N_PATTERNS; p++) {
        size_t i = 0, j;
        while (i < a->n && a->rec[i].metric != (uint32_t)stat_patterns[p])
            i++;
        for (j = i; j < a->n && a->rec[j].metric == (uint32_t)stat_patterns[p]; j++)
            ;
        rc = write_pattern(f, a, stat_patterns[p], a->rec + i, j - i, map, cube_id);
    }
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}
