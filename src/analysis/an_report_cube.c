/* SPDX-License-Identifier: BSD-3-Clause */
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
#include <stddef.h>
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
    uint32_t team; /* the master thread or an OpenMP thread (an_ctx's team_loc) */
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
 * reports write them (Score-P's SCOREP_REGION_TYPE names, Scalasca's pearl toString(Role):
 * "file io"; pearl 2.6 knows no "file io metadata" role, which it reads as unknown) */
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
                                        [OTF2_REGION_ROLE_FILE_IO] = "file io",
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

/* location l of rank r's values (its block of M_COUNT x call paths), as gathered */
#define LV(r, l, m, k)                                                                           \
    all_v[v_displ[r] +                                                                           \
          ((size_t)(l) * M_COUNT + (size_t)(m)) * (size_t)(cn_count[r] / 2) + (size_t)(k)]

/* the waiting that square's critical_path_imbalance leaves out of a location's time (Scalasca
 * 2.6's scout.spec lists these, the one-sided ones that scout.cubex lacks left out; each as
 * Cube reads it, its sub-metrics included: Late Sender with its wrong-order part, the fence
 * with Early Fence, OpenMP management with the fork, idle threads with limited parallelism).
 * Not the completion times (barrier, N x N, initialisation): scout.spec does not list them. */
static const an_metric spec_waits[] = {
    M_MPI_FINALIZE_WAIT,   M_MPI_RMA_WAIT_AT_CREATE, M_MPI_RMA_WAIT_AT_FREE,
    M_MPI_BARRIER_WAIT,    M_MPI_RMA_WAIT_AT_FENCE,  M_MPI_LATESENDER,
    M_MPI_LATERECEIVER,    M_MPI_EARLYREDUCE,        M_MPI_EARLYSCAN,
    M_MPI_LATEBROADCAST,   M_MPI_WAIT_NXN,           M_OMP_MANAGEMENT,
    M_OMP_EBARRIER_WAIT,   M_OMP_IBARRIER_WAIT,      M_OMP_LOCK_CONTENTION_CRITICAL,
    M_OMP_LOCK_CONTENTION_API, M_OMP_ORDERED,        M_OMP_IDLE_THREADS};

/* values per global call path made inclusive along the call tree: a call path's parent comes
 * before it in the global table (an_cnode_get adds a parent before its children) */
static void inclusive(double *v, const an_trace *g)
{
    for (size_t k = g->n_cnodes; k-- > 0;)
        if (g->cnodes[k].parent != AN_NONE)
            v[g->cnodes[k].parent] += v[k];
}

/* critical_path_imbalance as square derives it (Scalasca 2.6's scout.spec: a PREDERIVED_
 * EXCLUSIVE metric evaluated per call path and location, rowwise="false"; metric::fixed:: is
 * the value over all locations, (i) inclusive and (e) exclusive along the call tree): with
 * P(c) the critical path's time in c and below on all locations, T(c) their time less the
 * waiting above (spec_waits) in c and below, L the report's locations, a location whose own
 * path in c and below is not 0 gets its path in c itself x max(0, P(c) - T(c) / L) / P(c): the
 * path's excess over the average location's time without waiting, as a share of the path,
 * along the call tree inclusive, given out by each location's exclusive part of the path.
 * The share is at most 1 (T(c) < 0 cannot come from a report's own values; square would then
 * show a negative exclusive critical_path). A part of critical_path, which keeps its total
 * (its child in the metric tree: Cube shows critical_path's exclusive value as the path minus
 * it). */
static int imbalance(double *all_v, const int *v_displ, const int *cn_count, uint32_t **map,
                     const uint32_t *all_cn, const int *cn_displ, const an_trace *g, int size,
                     const int *n_locs)
{
    size_t ng = g->n_cnodes, most = 0;
    for (int r = 0; r < size; r++)
        if ((size_t)(cn_count[r] / 2) > most)
            most = (size_t)(cn_count[r] / 2);
    double *path = calloc(2 * (ng + 1) + most + 1, sizeof *path);
    if (!path)
        return -1;
    double *avg = path + (ng + 1), *mine = path + 2 * (ng + 1);
    double nl = 0;
    for (int r = 0; r < size; r++)
        for (int l = 0; l < n_locs[r]; l++, nl++)
            for (int k = 0; k < cn_count[r] / 2; k++) {
                double t = LV(r, l, M_TIME, k);
                for (size_t w = 0; w < sizeof spec_waits / sizeof spec_waits[0]; w++)
                    t -= LV(r, l, spec_waits[w], k);
                path[map[r][k]] += LV(r, l, M_CRITICAL_PATH, k);
                avg[map[r][k]] += t;
            }
    inclusive(path, g);
    inclusive(avg, g);
    for (size_t c = 0; c < ng; c++)
        avg[c] = nl > 0 ? avg[c] / nl : 0;
    for (int r = 0; r < size; r++)
        for (int l = 0; l < n_locs[r]; l++) {
            /* the location's own path in each of its rank's call paths and below, along the
             * rank's call tree (its parents come first too; each maps onto one global path) */
            int n = cn_count[r] / 2;
            const uint32_t *cn = all_cn + cn_displ[r];
            for (int k = 0; k < n; k++)
                mine[k] = LV(r, l, M_CRITICAL_PATH, k);
            for (int k = n - 1; k >= 0; k--)
                if (cn[2 * k] != AN_NONE && cn[2 * k] < (uint32_t)k)
                    mine[cn[2 * k]] += mine[k];
            for (int k = 0; k < n; k++) {
                uint32_t c = map[r][k];
                double share = 0;
                if (mine[k] > 0 && path[c] > 0 && path[c] > avg[c])
                    share = (path[c] - avg[c]) / path[c];
                LV(r, l, M_CRITICAL_PATH_IMBALANCE, k) =
                    (share < 1 ? share : 1) * LV(r, l, M_CRITICAL_PATH, k);
            }
        }
    free(path);
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

/* what rank 0 writes scout.cubex from (the ranks' call paths, values and locations as
 * gathered, each rank's part at its displacement) and what it builds on the way */
typedef struct {
    const an_trace *t;
    const an_report_info *info;
    const uint32_t *all_cn; /* per rank: (parent, region) per call path */
    const int *cn_count, *cn_displ;
    double *all_v; /* per rank: its locations' matrices (made ready for the report here) */
    const int *v_displ;
    const int *n_locs;
    const loc_info *locs; /* every rank's, in rank order */
    int size;
    /* built */
    gtree gt;          /* the union of the ranks' call trees */
    size_t ng;         /* its call paths */
    uint32_t **map;    /* [rank][its cnode]: global cnode */
    uint32_t **kids, *nkids; /* children per global cnode */
    cube_writer *w;
    int mid[M_COUNT]; /* cube metric id (-1: internal) */
    int *loc;         /* cube location id, every rank's locations in rank order */
} report;

/* the global call tree: each rank's call paths mapped onto it, the children of each node */
static int call_tree(report *rp)
{
    if (!(rp->map = calloc((size_t)rp->size, sizeof *rp->map)))
        return -1;
    for (int r = 0; r < rp->size; r++) {
        int n = rp->cn_count[r] / 2;
        const uint32_t *cn = rp->all_cn + rp->cn_displ[r];
        if (!(rp->map[r] = malloc(((size_t)n + 1) * sizeof **rp->map)))
            return -1;
        for (int k = 0; k < n; k++) {
            uint32_t parent = cn[2 * k], region = cn[2 * k + 1];
            uint32_t gp = parent == AN_NONE ? AN_NONE : rp->map[r][parent];
            if ((rp->map[r][k] = an_cnode_get(&rp->gt.g, gp, region)) == AN_NONE)
                return -1;
        }
    }
    size_t ng = rp->ng = rp->gt.g.n_cnodes;
    rp->kids = calloc(ng + 1, sizeof *rp->kids);
    rp->nkids = calloc(ng + 1, sizeof *rp->nkids);
    rp->gt.cube_id = calloc(ng + 1, sizeof *rp->gt.cube_id);
    if (!rp->kids || !rp->nkids || !rp->gt.cube_id)
        return -1;
    for (size_t k = 0; k < ng; k++) {
        uint32_t p = rp->gt.g.cnodes[k].parent;
        if (p == AN_NONE)
            continue;
        uint32_t *n = realloc(rp->kids[p], (rp->nkids[p] + 1) * sizeof *n);
        if (!n)
            return -1;
        rp->kids[p] = n;
        rp->kids[p][rp->nkids[p]++] = (uint32_t)k;
    }
    return 0;
}

/* the metric tree, the regions and the call tree into the writer */
static int write_trees(report *rp)
{
    cube_writer *w = rp->w;
    for (int m = 0; m < M_COUNT; m++) {
        const an_metric_info *mi = &an_metrics[m];
        rp->mid[m] = -1;
        if (mi->internal)
            continue;
        rp->mid[m] = cube_writer_metric(w, mi->parent < 0 ? -1 : rp->mid[mi->parent], mi->uniq,
                                        mi->disp, mi->count ? CUBE_DTYPE_UINT64 : CUBE_DTYPE_DOUBLE,
                                        mi->unit, mi->descr, CUBE_EXCLUSIVE);
        if (rp->mid[m] < 0)
            return -1;
    }
    rp->gt.region_id = calloc(rp->t->n_regions + 1, sizeof *rp->gt.region_id);
    if (!rp->gt.region_id || write_regions(w, rp->t, &rp->gt.g, rp->gt.region_id) != 0)
        return -1;
    for (size_t k = 0; k < rp->ng; k++)
        if (rp->gt.g.cnodes[k].parent == AN_NONE &&
            add_dfs(w, &rp->gt, rp->kids, rp->nkids, (uint32_t)k, -1))
            return -1;
    return 0;
}

/* the values computed over all ranks (critical-path imbalance, performance impact), trace.stat
 * beside the report, the rounding residues removed */
static int finish_values(report *rp, const char *path)
{
    size_t nl = 0;
    for (int r = 0; r < rp->size; r++)
        nl += (size_t)rp->n_locs[r];
    uint8_t *team = malloc(nl + 1);
    if (!team)
        return -1;
    for (size_t l = 0; l < nl; l++)
        team[l] = rp->locs[l].team != 0;
    int rc = imbalance(rp->all_v, rp->v_displ, rp->cn_count, rp->map, rp->all_cn, rp->cn_displ,
                       &rp->gt.g, rp->size, rp->n_locs) != 0 ||
             an_impact(rp->all_v, rp->v_displ, rp->cn_count, rp->map, rp->ng, rp->size,
                       rp->n_locs, team) != 0;
    free(team);
    if (rc)
        return -1;
    if (rp->info->stat && an_stat_write(rp->info->stat, path, rp->map, rp->gt.cube_id) != 0)
        fprintf(stderr, "scorep-rt analysis: cannot write trace.stat beside %s\n", path);
    for (int r = 0; r < rp->size; r++)
        for (int l = 0; l < rp->n_locs[r]; l++)
            no_residue(rp->all_v + rp->v_displ[r] + (size_t)l * M_COUNT * (size_t)(rp->cn_count[r] / 2),
                       (size_t)(rp->cn_count[r] / 2));
    return 0;
}

/* a location group per rank, in it a location per thread: the master thread first, then the
 * others by their number in the process (Cube's "rank" of a location), named as in the trace */
static int write_locations(report *rp)
{
    int machine = cube_writer_stnode(rp->w, -1, "machine", "machine");
    size_t total_locs = 0;
    for (int r = 0; r < rp->size; r++)
        total_locs += (size_t)rp->n_locs[r];
    if (machine < 0 || !(rp->loc = calloc(total_locs + 1, sizeof *rp->loc)))
        return -1;
    for (int r = 0, at = 0; r < rp->size; r++) {
        char name[64];
        snprintf(name, sizeof name, "MPI Rank %d", r);
        int g = cube_writer_locgroup(rp->w, machine, name, r, "process");
        for (int l = 0; g >= 0 && l < rp->n_locs[r]; l++, at++) {
            const loc_info *li = &rp->locs[at];
            if ((rp->loc[at] = cube_writer_location(rp->w, g, li->name[0] ? li->name : "thread",
                                                    (int)li->local, "thread")) < 0)
                g = -1;
        }
        if (g < 0)
            return -1;
    }
    return 0;
}

/* every location's non-zero values: the master's (MPI, critical path, delays) and each
 * thread's own */
static void write_values(report *rp)
{
    for (int r = 0, at = 0; r < rp->size; at += rp->n_locs[r], r++) {
        int n = rp->cn_count[r] / 2;
        for (int l = 0; l < rp->n_locs[r]; l++) {
            const double *lv = rp->all_v + rp->v_displ[r] + (size_t)l * M_COUNT * (size_t)n;
            for (int m = 0; m < M_COUNT; m++)
                for (int k = 0; k < n; k++) {
                    double v = lv[(size_t)m * (size_t)n + (size_t)k];
                    if (v == 0 || rp->mid[m] < 0)
                        continue;
                    int cn = rp->gt.cube_id[rp->map[r][k]], lid = rp->loc[at + l];
                    if (an_metrics[m].count)
                        cube_writer_set_u64(rp->w, rp->mid[m], cn, lid,
                                            v > 0 ? (uint64_t)(v + 0.5) : 0);
                    else
                        cube_writer_set_double(rp->w, rp->mid[m], cn, lid, v);
                }
        }
    }
}

/* the report's attributes: mode, clock condition violations, reduction, POP efficiencies,
 * the critical path's pieces */
static void write_attrs(cube_writer *w, const an_report_info *info)
{
    static const struct {
        const char *name;
        size_t off;
    } pop[] = {
        {"POP parallel efficiency", offsetof(an_report_info, parallel_efficiency)},
        {"POP load balance", offsetof(an_report_info, load_balance)},
        {"POP communication efficiency", offsetof(an_report_info, comm_efficiency)},
        {"POP serialisation efficiency", offsetof(an_report_info, serialisation_efficiency)},
        {"POP transfer efficiency", offsetof(an_report_info, transfer_efficiency)},
        {"POP thread load balance", offsetof(an_report_info, thread_load_balance)},
        {"POP thread computation efficiency", offsetof(an_report_info, thread_comp_efficiency)},
        {"POP thread parallel efficiency", offsetof(an_report_info, thread_parallel_efficiency)},
        {"POP serial region share", offsetof(an_report_info, serial_share)},
    };
    char buf[64];
    cube_writer_attr(w, "CUBE_CT_AGGR", "SUM");
    cube_writer_attr(w, "scorep-rt analysis", info->mode);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)info->ccv);
    cube_writer_attr(w, "clock condition violations", buf);
    cube_writer_attr(w, "trace reduced", info->reduced ? "yes" : "no");
    for (size_t i = 0; i < sizeof pop / sizeof pop[0]; i++) {
        double v;
        memcpy(&v, (const char *)info + pop[i].off, sizeof v);
        snprintf(buf, sizeof buf, "%.4f", v);
        cube_writer_attr(w, pop[i].name, buf);
    }
    if (info->cp_segments) /* scorep-report marks them on the timeline */
        cube_writer_attr(w, "critical path segments", info->cp_segments);
}

/* the file, complete or not at all (cube_writer_write writes it beside its name, then
 * renames it). 0, or -2 with ERR */
static int write_file(cube_writer *w, const char *path, char *err, size_t len)
{
    return cube_writer_write(w, path, true, err, len) != 0 ? -2 : 0;
}

static void report_free(report *rp)
{
    cube_writer_free(rp->w);
    for (int r = 0; rp->map && r < rp->size; r++)
        free(rp->map[r]);
    free(rp->map);
    for (size_t k = 0; rp->kids && k < rp->ng; k++)
        free(rp->kids[k]);
    free(rp->kids);
    free(rp->nkids);
    free(rp->gt.cube_id);
    free(rp->gt.region_id);
    free(rp->loc);
    an_trace_free(&rp->gt.g);
}

/* rank 0: scout.cubex from what the ranks sent (RP's inputs set). 0, or -1 with ERR */
static int write_cube(report *rp, const char *path, char *err, size_t len)
{
    int rc = call_tree(rp);
    if (rc == 0 && !(rp->w = cube_writer_new()))
        rc = -1;
    if (rc == 0) {
        cube_writer_every_metric_data(rp->w);
        rc = write_trees(rp);
    }
    if (rc == 0)
        rc = finish_values(rp, path);
    if (rc == 0)
        rc = write_locations(rp);
    if (rc == 0) {
        write_values(rp);
        rc = an_imbalance_write(rp->w, rp->t, rp->gt.g.cnodes, rp->ng, rp->gt.cube_id, rp->mid,
                                rp->loc, rp->all_v, rp->v_displ, rp->cn_count, rp->n_locs,
                                rp->map, rp->size) != 0
                 ? -1
                 : 0;
    }
    if (rc == 0) {
        write_attrs(rp->w, rp->info);
        rc = write_file(rp->w, path, err, len);
    }
    if (rc == -1)
        snprintf(err, len, "out of memory writing the report");
    report_free(rp);
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
    for (size_t l = 0; l < c->n_locs; l++)
        li[l].team = l == 0 || (c->team_loc && c->team_loc[l]);
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
        report rp = {.t = t,
                     .info = info,
                     .all_cn = all_cn,
                     .cn_count = cn_count,
                     .cn_displ = cn_displ,
                     .all_v = all_v,
                     .v_displ = v_displ,
                     .n_locs = n_locs,
                     .locs = all_l,
                     .size = size};
        rc = write_cube(&rp, path, err, len);
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
