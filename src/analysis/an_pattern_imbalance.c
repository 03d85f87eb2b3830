/* SPDX-License-Identifier: BSD-3-Clause */
/* an_pattern_imbalance.c: Scalasca 2.6's computational load imbalance tree (imbalance >
 * imbalance_above > imbalance_above_single, imbalance_below > imbalance_below_bypass >
 * imbalance_below_singularity). square derives it when it remaps scout's report, not by its
 * specification's CubePL but in CubeLib's remapper (cube_remap2, remap2_calls.cpp); computed
 * here the same way on rank 0 over the global call tree, from every location's Computation
 * (comp, the call path's own time) and visits, and written straight into the report. */
#include "analysis/an_report.h"
#include "cube/cube.h"

#include <stdlib.h>
#include <string.h>

/* the remapper's is_omp_parallel: the call path or one above it is an OpenMP parallel region */
static int in_parallel(const an_trace *t, const an_cnode *gc, uint32_t g)
{
    static const char pre[] = "!$omp parallel @";
    for (; g != AN_NONE; g = gc[g].parent) {
        const char *n = t->regions[gc[g].region].name;
        if (n && !strncmp(n, pre, sizeof pre - 1))
            return 1;
    }
    return 0;
}

typedef struct {
    const double *all_v;
    const int *v_displ, *cn_count, *n_locs;
    uint32_t **map;
    int size;
    size_t ng, nl; /* global call paths, locations */
} imb_in;

/* location L of rank R's value of metric M at each global call path into OUT[g] */
static void loc_values(const imb_in *in, int r, int l, an_metric m, double *out)
{
    size_t n = (size_t)in->cn_count[r] / 2;
    const double *lv = in->all_v + in->v_displ[r] + (size_t)l * M_COUNT * n + (size_t)m * n;
    memset(out, 0, in->ng * sizeof *out);
    for (size_t k = 0; k < n; k++)
        out[in->map[r][k]] += lv[k];
}

/* VAL[(loc * 6 + j) * ng + g]: the six metrics per location and global call path */
static int compute(const imb_in *in, const an_trace *t, const an_cnode *gc, int omp, double *val)
{
    size_t ng = in->ng;
    double *avg = calloc(3 * ng + 1, sizeof *avg), *comp = avg + ng, *vis = comp + ng;
    unsigned *visitors = calloc(ng + 1, sizeof *visitors);
    unsigned char *par = calloc(ng + 1, 1);
    if (!avg || !visitors || !par) {
        free(avg);
        free(visitors);
        free(par);
        return -1;
    }
    for (size_t g = 0; g < ng; g++)
        par[g] = (unsigned char)in_parallel(t, gc, (uint32_t)g);
    for (int r = 0; r < in->size; r++)
        for (int l = 0; l < in->n_locs[r]; l++) {
            loc_values(in, r, l, M_COMP, comp);
            loc_values(in, r, l, M_VISITS, vis);
            for (size_t g = 0; g < ng; g++) {
                avg[g] += comp[g];
                visitors[g] += vis[g] > 0;
            }
        }
    for (size_t g = 0; g < ng; g++)
        avg[g] /= par[g] ? (double)in->nl : (double)in->size;
    size_t at = 0;
    for (int r = 0; r < in->size; r++)
        for (int l = 0; l < in->n_locs[r]; l++, at++) {
            loc_values(in, r, l, M_COMP, comp);
            loc_values(in, r, l, M_VISITS, vis);
            double *v = val + at * 6 * ng;
            for (size_t g = 0; g < ng; g++) {
                /* the differences: the master threads, and the workers in parallel regions of
                 * a program with OpenMP */
                if ((l != 0 && !omp) || (l != 0 && !par[g]))
                    continue;
                double d = comp[g] - avg[g];
                v[0 * ng + g] = d > 0 ? d : -d;
                v[(d > 0 ? 1 : 3) * ng + g] = d > 0 ? d : -d;
                /* call paths not every location visits (with OpenMP: in parallel regions) */
                if (avg[g] == 0 || visitors[g] == in->nl || (omp && !par[g]))
                    continue;
                if (vis[g] == 0)
                    v[4 * ng + g] = avg[g];
                if (visitors[g] == 1 && vis[g] == 0)
                    v[5 * ng + g] = avg[g];
                else if (visitors[g] == 1) /* at most its overload: rounding aside, equal */
                    v[2 * ng + g] = avg[g] * (double)(in->nl - 1) < v[1 * ng + g]
                                        ? avg[g] * (double)(in->nl - 1)
                                        : v[1 * ng + g];
            }
        }
    free(avg);
    free(visitors);
    free(par);
    return 0;
}

int an_imbalance_write(cube_writer *w, const an_trace *t, const an_cnode *gc, size_t ng,
                       const int *cube_id, const int *mid, const int *loc, const double *all_v,
                       const int *v_displ, const int *cn_count, const int *n_locs,
                       uint32_t **map, int size)
{
    imb_in in = {all_v, v_displ, cn_count, n_locs, map, size, ng, 0};
    for (int r = 0; r < size; r++)
        in.nl += (size_t)n_locs[r];
    if (in.nl < 2) /* one location: no imbalance (the remapper's VOID) */
        return 0;
    double *val = calloc(in.nl * 6 * ng + 1, sizeof *val);
    if (!val || compute(&in, t, gc, in.nl > (size_t)size, val) != 0) {
        free(val);
        return -1;
    }
    static const an_metric m[6] = {M_IMBALANCE,       M_IMBALANCE_ABOVE,
                                   M_IMBALANCE_ABOVE_SINGLE, M_IMBALANCE_BELOW,
                                   M_IMBALANCE_BELOW_BYPASS, M_IMBALANCE_BELOW_SINGULARITY};
    int rc = 0;
    for (size_t at = 0; rc == 0 && at < in.nl; at++)
        for (int j = 0; j < 6; j++)
            for (size_t g = 0; g < ng; g++) {
                double v = val[(at * 6 + (size_t)j) * ng + g];
                if (v != 0 && cube_writer_set_double(w, mid[m[j]], cube_id[g], loc[at], v) != 0)
                    rc = -1;
            }
    free(val);
    return rc;
}
