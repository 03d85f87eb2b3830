/* an_report_cube.c: collates every rank's severities on rank 0 and writes scout.cubex with
 * the project's Cube4 writer (src/cube): Scalasca's metric tree (an_metrics.c), the union of
 * the ranks' call paths, a location group per rank with a location per thread.
 * How values are stored (CubeLib's rule, CubeCalculationRoutines.cpp; docs/analysis.md):
 * along the call tree a value is the call path's own (EXCLUSIVE metrics); along the metric
 * tree a stored value is the metric's total, its sub-metrics included: Cube shows a
 * collapsed metric as its stored value and an expanded one as the stored value minus its
 * children's. So every pattern is written with its total (Late Sender with its wrong-order
 * part, mpi with every MPI class, a delay aggregate with its short- and long-term costs),
 * a count's parent without counts of its own (syncs, comms, bytes and their point-to-point
 * and collective parts) with the sum of its children, and every metric gets its data
 * members, an all-zero one too (CubeLib reads a metric without data as 0, not as the sum
 * of its children). The file appears complete or not at all (cube_writer_write writes it
 * beside its name, then renames it). */
#include "analysis/an_report.h"
#include "cube/cube.h"

#include <otf2/OTF2_Definitions.h>
#include <otf2/OTF2_GeneralDefinitions.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* every thread location's matrix as the report stores it: each metric's total (the analysis
 * adds a value to its metric and every metric above it), and for a metric without values of
 * its own (an_metrics[].sum) the sum of its children; children follow their parent in the
 * table, so a walk backwards completes every child before its parent takes it */
static void totals(an_ctx *c, double *own)
{
    size_t n = c->n_cnodes;
    memcpy(own, c->sev, c->n_locs * M_COUNT * n * sizeof *own);
    for (size_t l = 0; l < c->n_locs; l++) {
        double *o = own + l * M_COUNT * n;
        for (int m = M_COUNT - 1; m >= 0; m--) {
            int p = an_metrics[m].parent;
            if (p < 0 || !an_metrics[p].sum)
                continue;
            for (size_t k = 0; k < n; k++)
                o[(size_t)p * n + k] += o[(size_t)m * n + k];
        }
    }
}

/* a thread location of a rank as rank 0 learns it: its number in the process and its name */
typedef struct {
    uint32_t local;
    char name[64];
} loc_info;

typedef struct {
    an_trace g;      /* only its cnode table: the global call tree */
    uint32_t *order; /* DFS position of each global cnode */
    int *cube_id;    /* cube cnode id by global cnode */
    int *region_id;  /* cube region id by trace region */
} gtree;

static int add_dfs(cube_writer *w, gtree *gt, uint32_t **kids, uint32_t *nkids, uint32_t g,
                   int parent)
{
    int id = cube_writer_cnode(w, parent, gt->region_id[gt->g.cnodes[g].region]);
    if (id < 0)
        return -1;
    gt->cube_id[g] = id;
    for (uint32_t i = 0; i < nkids[g]; i++)
        if (add_dfs(w, gt, kids, nkids, kids[g][i], id) != 0)
            return -1;
    return 0;
}

/* Cube's names of OTF2 paradigms and region roles, as Score-P's profiles and Scalasca's
 * reports write them (Score-P's SCOREP_REGION_TYPE names, Scalasca's pearl toString(Role)) */
static const char *paradigm_name(int p)
{
    switch (p) {
    case OTF2_PARADIGM_USER:
        return "user";
    case OTF2_PARADIGM_COMPILER:
        return "compiler";
    case OTF2_PARADIGM_OPENMP:
        return "openmp";
    case OTF2_PARADIGM_MPI:
        return "mpi";
    case OTF2_PARADIGM_CUDA:
        return "cuda";
    case OTF2_PARADIGM_MEASUREMENT_SYSTEM:
        return "measurement";
    case OTF2_PARADIGM_PTHREAD:
        return "pthread";
    case OTF2_PARADIGM_SHMEM:
        return "shmem";
    case OTF2_PARADIGM_SAMPLING:
        return "sampling";
    default:
        return "unknown";
    }
}

static const char *role_name(int r)
{
    static const char *const names[] = {[OTF2_REGION_ROLE_UNKNOWN] = "unknown",
                                        [OTF2_REGION_ROLE_FUNCTION] = "function",
                                        [OTF2_REGION_ROLE_WRAPPER] = "wrapper",
                                        [OTF2_REGION_ROLE_LOOP] = "loop",
                                        [OTF2_REGION_ROLE_CODE] = "code",
                                        [OTF2_REGION_ROLE_PARALLEL] = "parallel",
                                        [OTF2_REGION_ROLE_SECTIONS] = "sections",
                                        [OTF2_REGION_ROLE_SECTION] = "section",
                                        [OTF2_REGION_ROLE_WORKSHARE] = "workshare",
                                        [OTF2_REGION_ROLE_SINGLE] = "single",
                                        [OTF2_REGION_ROLE_SINGLE_SBLOCK] = "single sblock",
                                        [OTF2_REGION_ROLE_MASTER] = "master",
                                        [OTF2_REGION_ROLE_CRITICAL] = "critical",
                                        [OTF2_REGION_ROLE_CRITICAL_SBLOCK] = "critical sblock",
                                        [OTF2_REGION_ROLE_ATOMIC] = "atomic",
                                        [OTF2_REGION_ROLE_BARRIER] = "barrier",
                                        [OTF2_REGION_ROLE_IMPLICIT_BARRIER] = "implicit barrier",
                                        [OTF2_REGION_ROLE_FLUSH] = "flush",
                                        [OTF2_REGION_ROLE_ORDERED] = "ordered",
                                        [OTF2_REGION_ROLE_ORDERED_SBLOCK] = "ordered sblock",
                                        [OTF2_REGION_ROLE_TASK] = "task",
                                        [OTF2_REGION_ROLE_TASK_CREATE] = "task create",
                                        [OTF2_REGION_ROLE_TASK_WAIT] = "taskwait",
                                        [OTF2_REGION_ROLE_COLL_ONE2ALL] = "one2all",
                                        [OTF2_REGION_ROLE_COLL_ALL2ONE] = "all2one",
                                        [OTF2_REGION_ROLE_COLL_ALL2ALL] = "all2all",
                                        [OTF2_REGION_ROLE_COLL_OTHER] = "other collective",
                                        [OTF2_REGION_ROLE_FILE_IO] = "file_io",
                                        [OTF2_REGION_ROLE_POINT2POINT] = "point2point",
                                        [OTF2_REGION_ROLE_RMA] = "rma",
                                        [OTF2_REGION_ROLE_DATA_TRANSFER] = "data transfer",
                                        [OTF2_REGION_ROLE_ARTIFICIAL] = "artificial",
                                        [OTF2_REGION_ROLE_THREAD_CREATE] = "thread create",
                                        [OTF2_REGION_ROLE_THREAD_WAIT] = "thread wait",
                                        [OTF2_REGION_ROLE_TASK_UNTIED] = "untied task",
                                        [OTF2_REGION_ROLE_ALLOCATE] = "allocate",
                                        [OTF2_REGION_ROLE_DEALLOCATE] = "deallocate",
                                        [OTF2_REGION_ROLE_REALLOCATE] = "reallocate"};
    return r >= 0 && (size_t)r < sizeof names / sizeof names[0] && names[r] ? names[r] : "unknown";
}

/* The regions of the report: every named region of the trace (unnamed ones are gaps in the
 * trace's region numbering, written only where a call path enters one), each with its
 * source file ("MPI" for an MPI region whose trace gives none: Score-P's MPI adapter and
 * Scalasca's region classification use that name) and lines (-1: unknown, as Score-P
 * writes them). ids: Cube region id by trace region. 0 or -1. */
static int write_regions(cube_writer *w, const an_trace *t, const an_trace *calls, int *ids)
{
    size_t n = t->n_regions;
    char *used = calloc(n + 1, 1);
    if (!used)
        return -1;
    for (size_t k = 0; k < calls->n_cnodes; k++)
        if (calls->cnodes[k].region < n)
            used[calls->cnodes[k].region] = 1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const an_region *r = &t->regions[i];
        ids[i] = -1;
        if (!(r->name && r->name[0]) && !used[i])
            continue;
        const char *name = r->name && r->name[0] ? r->name : "?";
        const char *file = r->file && r->file[0]              ? r->file
                           : r->paradigm == OTF2_PARADIGM_MPI ? "MPI"
                                                              : "";
        ids[i] =
            cube_writer_region(w, name, name, paradigm_name(r->paradigm), role_name(r->role), file,
                               r->begin > 0 ? r->begin : -1, r->end > 0 ? r->end : -1, "");
        if (ids[i] < 0)
            rc = -1;
    }
    free(used);
    return rc;
}

/* the master thread's values (the first location block of rank r) */
#define V(r, m, k) all_v[v_displ[r] + (size_t)(m) * (size_t)(cn_count[r] / 2) + (size_t)(k)]

/* critical_path_imbalance per call path: its time on the critical path beyond its average
 * time over the ranks without waiting (max(0, path - average)), given to the ranks in
 * proportion to their part of the path in that call path (as Scalasca distributes its
 * critical-path imbalance costs); a part of critical_path, which keeps its total (its child
 * in the metric tree: Cube shows critical_path's exclusive value as the path minus it) */
static int imbalance(double *all_v, const int *v_displ, const int *cn_count, uint32_t **map,
                     size_t ng, int size)
{
    double *path = calloc(ng + 1, sizeof *path), *avg = calloc(ng + 1, sizeof *avg);
    if (!path || !avg) {
        free(path);
        free(avg);
        return -1;
    }
    for (int r = 0; r < size; r++)
        for (int k = 0; k < cn_count[r] / 2; k++) {
            path[map[r][k]] += V(r, M_CRITICAL_PATH, k);
            avg[map[r][k]] += V(r, M_NONWAIT_TIME, k) / size;
        }
    for (int r = 0; r < size; r++)
        for (int k = 0; k < cn_count[r] / 2; k++) {
            uint32_t g = map[r][k];
            double mine = V(r, M_CRITICAL_PATH, k);
            if (mine <= 0 || path[g] <= avg[g])
                continue;
            V(r, M_CRITICAL_PATH_IMBALANCE, k) = mine / path[g] * (path[g] - avg[g]);
        }
    free(path);
    free(avg);
    return 0;
}

/* Cube computes an expanded metric as its stored value minus its children's, in document
 * order; the analysis summed parent and children separately, so that difference can come out
 * a few ulps below 0 where it is 0 (a delay aggregate minus its short- and long-term parts).
 * Such a parent is raised to where Cube's difference is not negative: values of rank r's
 * location l, children before their parents. */
static void no_residue(double *lv, size_t n)
{
    int first[M_COUNT], next[M_COUNT];
    for (int m = 0; m < M_COUNT; m++)
        first[m] = next[m] = -1;
    for (int m = M_COUNT - 1; m >= 0; m--) { /* children lists in document order */
        int p = an_metrics[m].parent;
        if (p >= 0 && !an_metrics[m].internal && !an_metrics[m].count) {
            next[m] = first[p];
            first[p] = m;
        }
    }
    for (int m = M_COUNT - 1; m >= 0; m--) {
        if (first[m] < 0)
            continue;
        for (size_t k = 0; k < n; k++) {
            double *v = &lv[(size_t)m * n + k];
            for (int tries = 0; tries < 8; tries++) {
                double x = *v;
                for (int c = first[m]; c >= 0; c = next[c])
                    x -= lv[(size_t)c * n + k];
                if (!(x < 0) || x < -1e-9 * fabs(*v))
                    break; /* not negative, or more than rounding: left as it is */
                *v = nextafter(*v - x, INFINITY);
            }
        }
    }
}

static int write_cube(const an_trace *t, const an_report_info *info, uint32_t *all_cn,
                      const int *cn_count, const int *cn_displ, double *all_v, const int *v_displ,
                      const int *n_locs, const loc_info *locs, int size, const char *path,
                      char *err, size_t len)
{
    gtree gt;
    memset(&gt, 0, sizeof gt);
    uint32_t **map = calloc((size_t)size, sizeof *map);
    int rc = map ? 0 : -1;
    for (int r = 0; rc == 0 && r < size; r++) {
        int n = cn_count[r] / 2;
        if (!(map[r] = malloc(((size_t)n + 1) * sizeof **map))) {
            rc = -1;
            break;
        }
        for (int k = 0; k < n; k++) {
            uint32_t parent = all_cn[cn_displ[r] + 2 * k], region = all_cn[cn_displ[r] + 2 * k + 1];
            uint32_t gp = parent == AN_NONE ? AN_NONE : map[r][parent];
            if ((map[r][k] = an_cnode_get(&gt.g, gp, region)) == AN_NONE) {
                rc = -1;
                break;
            }
        }
    }
    size_t ng = gt.g.n_cnodes;
    uint32_t **kids = calloc(ng + 1, sizeof *kids), *nkids = calloc(ng + 1, sizeof *nkids);
    gt.cube_id = calloc(ng + 1, sizeof *gt.cube_id);
    cube_writer *w = cube_writer_new();
    if (w)
        cube_writer_every_metric_data(w);
    if (rc || !kids || !nkids || !gt.cube_id || !w)
        rc = -1;
    for (size_t k = 0; rc == 0 && k < ng; k++) {
        uint32_t p = gt.g.cnodes[k].parent;
        if (p == AN_NONE)
            continue;
        uint32_t *n = realloc(kids[p], (nkids[p] + 1) * sizeof *n);
        if (!n) {
            rc = -1;
            break;
        }
        kids[p] = n;
        kids[p][nkids[p]++] = (uint32_t)k;
    }
    int mid[M_COUNT];
    for (int m = 0; rc == 0 && m < M_COUNT; m++) {
        const an_metric_info *mi = &an_metrics[m];
        mid[m] = -1;
        if (mi->internal)
            continue;
        mid[m] = cube_writer_metric(w, mi->parent < 0 ? -1 : mid[mi->parent], mi->uniq, mi->disp,
                                    mi->count ? CUBE_DTYPE_UINT64 : CUBE_DTYPE_DOUBLE, mi->unit,
                                    mi->descr, CUBE_EXCLUSIVE);
        if (mid[m] < 0)
            rc = -1;
    }
    gt.region_id = calloc(t->n_regions + 1, sizeof *gt.region_id);
    if (rc == 0 && (!gt.region_id || write_regions(w, t, &gt.g, gt.region_id) != 0))
        rc = -1;
    for (size_t k = 0; rc == 0 && k < ng; k++)
        if (gt.g.cnodes[k].parent == AN_NONE && add_dfs(w, &gt, kids, nkids, (uint32_t)k, -1))
            rc = -1;
    if (rc == 0 && (imbalance(all_v, v_displ, cn_count, map, ng, size) != 0 ||
                    an_impact(all_v, v_displ, cn_count, map, ng, size) != 0))
        rc = -1;
    if (rc == 0 && info->stat && an_stat_write(info->stat, path, map, gt.cube_id) != 0)
        fprintf(stderr, "scorep-rt analysis: cannot write trace.stat beside %s\n", path);
    for (int r = 0; rc == 0 && r < size; r++)
        for (int l = 0; l < n_locs[r]; l++)
            no_residue(all_v + v_displ[r] + (size_t)l * M_COUNT * (size_t)(cn_count[r] / 2),
                       (size_t)(cn_count[r] / 2));
    /* a location group per rank, in it a location per thread: the master thread first, then
     * the others by their number in the process (Cube's "rank" of a location), named as in the
     * trace; values of the master's (MPI, critical path, delays) and each thread's own */
    int machine = rc ? -1 : cube_writer_stnode(w, -1, "machine", "machine");
    size_t total_locs = 0;
    for (int r = 0; r < size; r++)
        total_locs += (size_t)n_locs[r];
    int *loc = calloc(total_locs + 1, sizeof *loc);
    if (machine < 0 || !loc)
        rc = -1;
    for (int r = 0, at = 0; rc == 0 && r < size; r++) {
        char name[64];
        snprintf(name, sizeof name, "MPI Rank %d", r);
        int g = cube_writer_locgroup(w, machine, name, r, "process");
        for (int l = 0; g >= 0 && l < n_locs[r]; l++, at++) {
            const loc_info *li = &locs[at];
            if ((loc[at] = cube_writer_location(w, g, li->name[0] ? li->name : "thread",
                                                (int)li->local, "thread")) < 0)
                g = -1;
        }
        if (g < 0)
            rc = -1;
    }
    for (int r = 0, at = 0; rc == 0 && r < size; at += n_locs[r], r++) {
        int n = cn_count[r] / 2;
        for (int l = 0; l < n_locs[r]; l++) {
            const double *lv = all_v + v_displ[r] + (size_t)l * M_COUNT * (size_t)n;
            for (int m = 0; m < M_COUNT; m++)
                for (int k = 0; k < n; k++) {
                    double v = lv[(size_t)m * (size_t)n + (size_t)k];
                    if (v == 0 || mid[m] < 0)
                        continue;
                    int cn = gt.cube_id[map[r][k]], lid = loc[at + l];
                    if (an_metrics[m].count)
                        cube_writer_set_u64(w, mid[m], cn, lid, v > 0 ? (uint64_t)(v + 0.5) : 0);
                    else
                        cube_writer_set_double(w, mid[m], cn, lid, v);
                }
        }
    }
    if (rc == 0 && an_imbalance_write(w, t, gt.g.cnodes, ng, gt.cube_id, mid, loc, all_v, v_displ,
                                      cn_count, n_locs, map, size) != 0)
        rc = -1;
    char buf[64];
    if (rc == 0) {
        cube_writer_attr(w, "CUBE_CT_AGGR", "SUM");
        cube_writer_attr(w, "scorep-rt analysis", info->mode);
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)info->ccv);
        cube_writer_attr(w, "clock condition violations", buf);
        cube_writer_attr(w, "trace reduced", info->reduced ? "yes" : "no");
        snprintf(buf, sizeof buf, "%.4f", info->parallel_efficiency);
        cube_writer_attr(w, "POP parallel efficiency", buf);
        snprintf(buf, sizeof buf, "%.4f", info->load_balance);
        cube_writer_attr(w, "POP load balance", buf);
        snprintf(buf, sizeof buf, "%.4f", info->comm_efficiency);
        cube_writer_attr(w, "POP communication efficiency", buf);
        snprintf(buf, sizeof buf, "%.4f", info->serialisation_efficiency);
        cube_writer_attr(w, "POP serialisation efficiency", buf);
        snprintf(buf, sizeof buf, "%.4f", info->transfer_efficiency);
        cube_writer_attr(w, "POP transfer efficiency", buf);
        snprintf(buf, sizeof buf, "%.4f", info->thread_load_balance);
        cube_writer_attr(w, "POP thread load balance", buf);
        snprintf(buf, sizeof buf, "%.4f", info->thread_comp_efficiency);
        cube_writer_attr(w, "POP thread computation efficiency", buf);
        snprintf(buf, sizeof buf, "%.4f", info->thread_parallel_efficiency);
        cube_writer_attr(w, "POP thread parallel efficiency", buf);
        snprintf(buf, sizeof buf, "%.4f", info->serial_share);
        cube_writer_attr(w, "POP serial region share", buf);
        if (info->cp_segments) /* scorep-report marks them on the timeline */
            cube_writer_attr(w, "critical path segments", info->cp_segments);
    }
    /* complete or not at all: cube_writer_write writes beside the file and renames */
    if (rc == 0 && cube_writer_write(w, path, true, err, len) != 0)
        rc = -2;
    if (rc == -1)
        snprintf(err, len, "out of memory writing the report");
    cube_writer_free(w);
    for (int r = 0; map && r < size; r++)
        free(map[r]);
    free(map);
    for (size_t k = 0; kids && k < ng; k++)
        free(kids[k]);
    free(kids);
    free(nkids);
    free(gt.cube_id);
    free(gt.region_id);
    free(loc);
    an_trace_free(&gt.g);
    return rc ? -1 : 0;
}

int an_report_cube(an_ctx *c, const an_report_info *info, const char *path, char *err, size_t len)
{
    an_trace *t = c->t;
    size_t n = c->n_cnodes;
    double *own = malloc((c->n_locs * M_COUNT * n + 1) * sizeof *own);
    uint32_t *cn = malloc((2 * n + 1) * sizeof *cn);
    loc_info *li = calloc(c->n_locs, sizeof *li);
    int ok = own && cn && li, all_ok;
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    if (!all_ok) {
        free(own);
        free(cn);
        free(li);
        snprintf(err, len, "out of memory collating the report");
        return -1;
    }
    totals(c, own);
    for (size_t k = 0; k < n; k++) {
        cn[2 * k] = t->cnodes[k].parent;
        cn[2 * k + 1] = t->cnodes[k].region;
    }
    li[0].local = t->master_local;
    snprintf(li[0].name, sizeof li[0].name, "%s",
             t->master_name[0] ? t->master_name : "Master thread");
    for (size_t l = 1; l < c->n_locs; l++) {
        li[l].local = t->threads[l - 1].local;
        memcpy(li[l].name, t->threads[l - 1].name, sizeof li[l].name);
        li[l].name[sizeof li[l].name - 1] = 0;
    }
    int size = c->size, mine = (int)(2 * n), vmine = (int)(c->n_locs * M_COUNT * n);
    int nl = (int)c->n_locs, lmine = nl * (int)sizeof(loc_info);
    int *cn_count = NULL, *cn_displ = NULL, *v_count = NULL, *v_displ = NULL, *n_locs = NULL,
        *l_count = NULL, *l_displ = NULL;
    uint32_t *all_cn = NULL;
    double *all_v = NULL;
    loc_info *all_l = NULL;
    int rc = 0;
    if (c->rank == 0) {
        cn_count = calloc((size_t)size, sizeof *cn_count);
        cn_displ = calloc((size_t)size, sizeof *cn_displ);
        v_count = calloc((size_t)size, sizeof *v_count);
        v_displ = calloc((size_t)size, sizeof *v_displ);
        n_locs = calloc((size_t)size, sizeof *n_locs);
        l_count = calloc((size_t)size, sizeof *l_count);
        l_displ = calloc((size_t)size, sizeof *l_displ);
    }
    an_net_gather(c->net, &mine, 1, cn_count, AN_T_INT, 0);
    an_net_gather(c->net, &vmine, 1, v_count, AN_T_INT, 0);
    an_net_gather(c->net, &nl, 1, n_locs, AN_T_INT, 0);
    if (c->rank == 0) {
        size_t tc = 0, tv = 0, tl = 0;
        for (int r = 0; r < size; r++) {
            cn_displ[r] = (int)tc;
            v_displ[r] = (int)tv;
            l_displ[r] = (int)tl;
            l_count[r] = n_locs[r] * (int)sizeof(loc_info);
            tc += (size_t)cn_count[r];
            tv += (size_t)v_count[r];
            tl += (size_t)l_count[r];
        }
        all_cn = malloc((tc + 1) * sizeof *all_cn);
        all_v = malloc((tv + 1) * sizeof *all_v);
        all_l = malloc(tl + sizeof *all_l);
    }
    an_net_gatherv(c->net, cn, mine, all_cn, cn_count, cn_displ, AN_T_U32, 0);
    an_net_gatherv(c->net, own, vmine, all_v, v_count, v_displ, AN_T_DOUBLE, 0);
    an_net_gatherv(c->net, li, lmine, all_l, l_count, l_displ, AN_T_BYTE, 0);
    if (c->rank == 0 && (!all_cn || !all_v || !all_l)) {
        snprintf(err, len, "out of memory collating the report");
        rc = -1;
    } else if (c->rank == 0) {
        rc = write_cube(t, info, all_cn, cn_count, cn_displ, all_v, v_displ, n_locs, all_l, size,
                        path, err, len);
    }
    an_net_bcast(c->net, &rc, 1, AN_T_INT, 0);
    if (rc != 0 && c->rank != 0)
        snprintf(err, len, "rank 0 could not write the report");
    free(own);
    free(cn);
    free(li);
    free(n_locs);
    free(l_count);
    free(l_displ);
    free(all_l);
    free(cn_count);
    free(cn_displ);
    free(v_count);
    free(v_displ);
    free(all_cn);
    free(all_v);
    return rc;
}
