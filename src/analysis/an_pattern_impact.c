/* SPDX-License-Identifier: BSD-3-Clause */
/* an_pattern_impact.c: Scalasca 2.6's performance-impact tree (scout's CriticalPath.pattern:
 * CRITICAL_PATH_ACTIVITIES, CRITICAL_IMBALANCE_IMPACT, INTER_PARTITION_IMBALANCE,
 * NON_CRITICAL_PATH_ACTIVITIES; square derives intra_partition_imbalance and the sums
 * performance_impact, performance_impact_criticalpath), computed on rank 0 over the global
 * call tree from each location's critical-path profile and time without waiting, as scout does
 * after its backward replay (Boehme's thesis, p. 83-84, as the pattern file cites it). The
 * locations are each rank's master thread and its OpenMP threads (scout.hyb runs the pattern
 * on every thread: "in hybrid MPI+OpenMP SPMD applications, master and worker threads are also
 * considered as different partitions", INTER_PARTITION_IMBALANCE's description); other
 * threads (helper pthreads) take no part (docs/analysis.md). */
#include "analysis/an_report.h"

#include <stdlib.h>

/* the values of location l of rank r (its block of M_COUNT x call paths), as an_report_cube.c
 * gathers them */
#define V(r, l, m, k)                                                                            \
    all_v[v_displ[r] +                                                                           \
          ((size_t)(l) * M_COUNT + (size_t)(m)) * (size_t)(cn_count[r] / 2) + (size_t)(k)]

typedef struct {
    double *path;  /* [g] the whole critical path's time in global call path g (all locations) */
    double *lt;    /* [g] one location's time without waiting */
    double *costs; /* [g] critical-path imbalance costs, summed over the locations */
    double *phr;   /* [g] headroom, summed over the locations */
    double *hr;    /* [g] one location's headroom */
    double len;    /* the critical path's length */
} impact_work;

/* location l of rank r's time without waiting per global call path into w->lt; returns its
 * sum */
static double local_times(impact_work *w, double *all_v, const int *v_displ, const int *cn_count,
                          uint32_t **map, size_t ng, int r, int l)
{
    double sum = 0;
    for (size_t g = 0; g < ng; g++)
        w->lt[g] = 0;
    for (int k = 0; k < cn_count[r] / 2; k++) {
        w->lt[map[r][k]] += V(r, l, M_NONWAIT_TIME, k);
        sum += V(r, l, M_NONWAIT_TIME, k);
    }
    return sum;
}

/* a location's part of the global imbalance costs and headroom (CRITICAL_IMBALANCE_IMPACT:
 * the path's excess over the location's own time, scaled to its waiting; INTER_PARTITION_
 * IMBALANCE: the path's time in call paths the location does not execute, scaled likewise) */
static double excess_of(const impact_work *w, size_t g)
{
    /* below the clock's noise the excess is 0: a call path that the rank executes as long as
     * the path does (in situ and post-mortem differ by about 1e-7 of the times) would
     * otherwise take all the rank's waiting through a scale of the noise's size */
    double x = w->path[g] - w->lt[g];
    return x > 1e-6 * (1 + w->path[g]) ? x : 0;
}

static void loc_costs(impact_work *w, size_t ng, double lplen)
{
    double excess = 0, lp = 0, hrlen = 0;
    for (size_t g = 0; g < ng; g++) {
        excess += excess_of(w, g);
        w->hr[g] = w->path[g];
        if (w->lt[g] > 0) {
            lp += w->lt[g] + (w->hr[g] - (w->lt[g] < w->hr[g] ? w->lt[g] : w->hr[g]));
            w->hr[g] = 0;
        }
        hrlen += w->hr[g];
    }
    /* a location with no excess has no call path to charge its waiting to: it adds nothing
     * (Scalasca 2.6 divides by the 0 here, and the NaN, summed over all locations, erases
     * every call path's costs: docs/analysis.md "where a location has no excess") */
    double scale = excess > 0 ? (w->len - lplen) / excess : 0;
    double hrf = hrlen > 0 ? (w->len - lp) / hrlen : 0;
    for (size_t g = 0; g < ng; g++) {
        w->costs[g] += excess_of(w, g) * scale;
        w->phr[g] += w->hr[g] * hrf;
    }
}

/* location l of rank r's values: activities on and off the path, its share of the imbalance
 * costs and of the headroom in proportion to its part of the path in each call path */
static void loc_values(const impact_work *w, double *all_v, const int *v_displ,
                       const int *cn_count, uint32_t **map, int r, int l)
{
    for (int k = 0; k < cn_count[r] / 2; k++) {
        uint32_t g = map[r][k];
        double lt = V(r, l, M_NONWAIT_TIME, k), lc = V(r, l, M_CRITICAL_PATH, k), p = w->path[g];
        double act = p > 0 ? (p < lt ? p : lt) : 0, non = lt - p > 0 ? lt - p : 0;
        double cii = 0, inter = 0;
        if (lc > 0 && p > 0) {
            cii = lc / p * w->costs[g];
            inter = lc / p * w->phr[g];
        }
        cii = cii > 0 ? cii : 0;
        /* a part of the imbalance impact, never more: Cube stores a metric with its
         * sub-metrics, so an inter part above cii (clock noise: cii is 0 where the excess is
         * below the noise, the headroom need not be) would read as a negative exclusive cii */
        inter = inter > 0 ? (inter < cii ? inter : cii) : 0;
        V(r, l, M_CRITICAL_PATH_ACTIVITIES, k) = act;
        V(r, l, M_CRITICAL_IMBALANCE_IMPACT, k) = cii;
        V(r, l, M_INTER_PARTITION_IMBALANCE, k) = inter;
        /* square: intra = the imbalance impact less the inter-partition part */
        V(r, l, M_INTRA_PARTITION_IMBALANCE, k) = cii - inter > 0 ? cii - inter : 0;
        V(r, l, M_NON_CRITICAL_PATH_ACTIVITIES, k) = non;
        V(r, l, M_PERFORMANCE_IMPACT_CRITICALPATH, k) = act + cii;
        V(r, l, M_PERFORMANCE_IMPACT, k) = act + cii + non;
    }
}

int an_impact(double *all_v, const int *v_displ, const int *cn_count, uint32_t **map, size_t ng,
              int size, const int *n_locs, const uint8_t *team)
{
    impact_work w = {0};
    double *mem = calloc(5 * (ng + 1), sizeof *mem);
    if (!mem)
        return -1;
    w.path = mem;
    w.lt = mem + (ng + 1);
    w.costs = mem + 2 * (ng + 1);
    w.phr = mem + 3 * (ng + 1);
    w.hr = mem + 4 * (ng + 1);
    /* the path crosses to an OpenMP thread where it held up a barrier (an_omp.c) */
    for (int r = 0; r < size; r++)
        for (int l = 0; l < n_locs[r]; l++)
            for (int k = 0; k < cn_count[r] / 2; k++)
                w.path[map[r][k]] += V(r, l, M_CRITICAL_PATH, k);
    for (size_t g = 0; g < ng; g++)
        w.len += w.path[g];
    for (int r = 0, at = 0; r < size; at += n_locs[r], r++)
        for (int l = 0; l < n_locs[r]; l++)
            if (l == 0 || team[at + l])
                loc_costs(&w, ng, local_times(&w, all_v, v_displ, cn_count, map, ng, r, l));
    for (int r = 0, at = 0; r < size; at += n_locs[r], r++)
        for (int l = 0; l < n_locs[r]; l++)
            if (l == 0 || team[at + l])
                loc_values(&w, all_v, v_displ, cn_count, map, r, l);
    free(mem);
    return 0;
}
