/* SPDX-License-Identifier: BSD-3-Clause */
/* profile_cube.c: writes profile.cubex for the whole job. Each process merges the call trees
 * of its locations (equal call paths become one node, ids mapped to the unified global
 * definitions); then either every process writes its locations' slice of every row at its
 * offset (write_parallel, several processes: docs/scale.md) or all send tree and values to
 * rank 0, which merges them and writes one Cube4 file with compressed rows (write_job). */
#include "config.h"
#include "core/location.h"
#include "base/log.h"
#include "base/settings.h"
#include "writers/profile_cube.h"
#include "writers/remap_spec.h"
#include "profile/profile_cluster.h"
#include "core/system_tree.h"
#include "base/timer.h"
#include "cube/cube.h"
#include "defs/hash_index.h"
#include "base/ser.h"
#include "writers/systree_job.h"
#include "defs/unify.h"
#include "ipc/ipc.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    int parent, first_child, last_child, next_sibling;
    uint8_t kind;
    uint32_t id;
    int64_t value;
    int cube_id;
} gnode;

/* the values of one call path on one location */
typedef struct {
    int gnode;
    uint32_t location;
    uint64_t visits;
    double sum, min, max;
    uint64_t bytes[4]; /* sent, received, put, get */
    uint64_t mig[2];   /* task_migration_loss (int64_t's bits), task_migration_win */
    uint32_t n_metrics;
    uint32_t *metric_ids;
    double *metric_sums;
} pvalue;

typedef struct {
    gnode *g;
    int n, cap;
    hash_index index; /* (parent, kind, id, value) -> node */
    pvalue *v;
    size_t nv, capv;
    /* the clustered dynamic region's node (profile_cluster.h) and its node here (-1: none);
     * set in this process's tree only (scorep_profile_write_cube) */
    const pnode *cluster_pnode;
    int cluster_g;
} merged;


/* the region's Cube paradigm: Score-P's name, "libwrap:GROUP" for a library wrapper's region
 * (Score-P's scorep-score counts those as type LIB) */
static const char *cube_paradigm(const scorep_region_def *r, char *buf, size_t size)
{
    if (r->paradigm == SCOREP_PARADIGM_LIBWRAP && r->group && *r->group) {
        snprintf(buf, size, "libwrap:%s", r->group);
        return buf;
    }
    return scorep_paradigm_name(r->paradigm);
}

unsigned scorep_remap_paradigm(const char *p)
{
    static const struct { const char *name; unsigned bit; } bits[] = {
        { "mpi", SCOREP_REMAP_MPI },         { "shmem", SCOREP_REMAP_SHMEM },
        { "openmp", SCOREP_REMAP_OPENMP },   { "pthread", SCOREP_REMAP_PTHREAD },
        { "io", SCOREP_REMAP_IO },           { "cuda", SCOREP_REMAP_CUDA }
    };
    if (strncmp(p, "libwrap:", 8) == 0)
        return SCOREP_REMAP_LIBWRAP;
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
        if (strcmp(p, bits[i].name) == 0)
            return bits[i].bit;
    return 0;
}

char *scorep_remap_spec_cut(unsigned paradigms, size_t *len)
{
    size_t n = 0;
    for (size_t i = 0; i < scorep_remap_n_lines; i++)
        if (scorep_remap_lines[i].mask == 0 || (scorep_remap_lines[i].mask & paradigms))
            n += strlen(scorep_remap_lines[i].text) + 1;
    char *buf = malloc(n + 1), *at = buf;
    if (!buf)
        return NULL;
    for (size_t i = 0; i < scorep_remap_n_lines; i++)
        if (scorep_remap_lines[i].mask == 0 || (scorep_remap_lines[i].mask & paradigms)) {
            size_t k = strlen(scorep_remap_lines[i].text);
            memcpy(at, scorep_remap_lines[i].text, k);
            at[k] = '\n';
            at += k + 1;
        }
    *at = '\0';
    *len = n;
    return buf;
}

/* the specification cut to the paradigms of the unified regions (a region defined but never
 * entered keeps its lines: the spec then hides its metrics itself, as before the cut) */
static char *run_remap_spec(const scorep_unified *u, size_t *len)
{
    unsigned paradigms = 0;
    for (uint32_t i = 0; i < u->n[U_REGION]; i++) {
        char pbuf[256];
        paradigms |= scorep_remap_paradigm(cube_paradigm(&u->regions[i], pbuf, sizeof pbuf));
    }
    return scorep_remap_spec_cut(paradigms, len);
}

static uint64_t gkey(int parent, uint8_t kind, uint32_t id, int64_t value)
{
    uint64_t h = (uint64_t)(parent + 1) * 0x9e3779b97f4a7c15ull;
    h ^= ((uint64_t)kind << 40 | id) * 0xc2b2ae3d27d4eb4full;
    return h ^ (uint64_t)value * 0x165667b19e3779f9ull;
}

static uint64_t gnode_hash(void *ctx, uint32_t id)
{
    const gnode *x = &((merged *)ctx)->g[id];
    return gkey(x->parent, x->kind, x->id, x->value);
}

typedef struct {
    const merged *m;
    gnode key;
} gnode_key;

static int gnode_key_equal(void *ctx, uint32_t id)
{
    const gnode_key *k = ctx;
    const gnode *x = &k->m->g[id];
    return x->parent == k->key.parent && x->kind == k->key.kind && x->id == k->key.id &&
           x->value == k->key.value;
}

static int gnode_get(merged *m, int parent, uint8_t kind, uint32_t id, int64_t value)
{
    if (hash_index_reserve(&m->index, (uint32_t)m->n, gnode_hash, m) != 0)
        return -1;
    gnode_key key = {m, {parent, -1, -1, -1, kind, id, value, -1}};
    uint32_t j, found = hash_index_find(&m->index, gkey(parent, kind, id, value), gnode_key_equal,
                                        &key, &j);
    if (found != UINT32_MAX)
        return (int)found;
    if (m->n == m->cap) {
        int c = m->cap ? m->cap * 2 : 1024;
        gnode *g = realloc(m->g, c * sizeof *g);
        if (!g)
            return -1;
        m->g = g;
        m->cap = c;
    }
    int n = m->n++;
    m->g[n] = (gnode){parent, -1, -1, -1, kind, id, value, -1};
    if (parent >= 0) {
        gnode *par = &m->g[parent];
        if (par->last_child >= 0)
            m->g[par->last_child].next_sibling = n;
        else
            par->first_child = n;
        par->last_child = n;
    }
    hash_index_set(&m->index, j, (uint32_t)n);
    return n;
}

static pvalue *value_new(merged *m)
{
    if (m->nv == m->capv) {
        size_t c = m->capv ? m->capv * 2 : 4096;
        pvalue *v = realloc(m->v, c * sizeof *v);
        if (!v)
            return NULL;
        m->v = v;
        m->capv = c;
    }
    pvalue *v = &m->v[m->nv++];
    memset(v, 0, sizeof *v);
    return v;
}

static void merged_free(merged *m)
{
    for (size_t i = 0; i < m->nv; i++) {
        free(m->v[i].metric_ids);
        free(m->v[i].metric_sums);
    }
    free(m->g);
    hash_index_free(&m->index);
    free(m->v);
}

/* ------------------------------------------------ this process's locations */
static int64_t global_value(const scorep_unified *u, const pnode *p)
{
    return p->kind == PNODE_PARAM_STRING ? (int64_t)u->map[U_STRING][p->value] : p->value;
}

static uint32_t global_id(const scorep_unified *u, const pnode *p)
{
    return p->kind == PNODE_REGION ? u->map[U_REGION][p->id] : u->map[U_PARAM][p->id];
}

/* ----------------------------------------------- metric sources (src/metrics) */
/* The inclusive sums of the metrics read at every enter and leave, as (metric, value)
 * pairs after the user metrics; set_values writes them like those. */
static void add_dense_values(pvalue *v, uint32_t i, const pnode *p, uint32_t n_dense,
                             const uint32_t *dense_ids, const scorep_unified *u)
{
    for (uint32_t k = 0; p->dense && k < n_dense; k++, i++) {
        v->metric_ids[i] = u->map[U_METRIC][dense_ids[k]];
        v->metric_sums[i] = (double)p->dense[n_dense + k];
    }
}

/* Only counters (accumulated integer metrics) have a meaningful sum per call path. */
static bool profiled_dense(const scorep_metric_def *d)
{
    return (d->recorder == SCOREP_MREC_STRICT || d->recorder == SCOREP_MREC_SYNC) && d->mode <= 3 &&
           d->type != SCOREP_METRIC_DOUBLE;
}

static int add_values(merged *m, int g, uint32_t loc, const pnode *p, const scorep_unified *u,
                      double res, uint32_t n_dense, const uint32_t *dense_ids)
{
    pvalue *v = value_new(m);
    if (!v)
        return -1;
    v->gnode = g;
    v->location = loc;
    v->visits = p->visits;
    v->sum = (double)p->sum / res;
    v->min = p->visits ? (double)p->min / res : 0;
    v->max = p->visits ? (double)p->max / res : 0;
    v->bytes[0] = p->bytes_sent;
    v->bytes[1] = p->bytes_received;
    v->bytes[2] = p->bytes_put;
    v->bytes[3] = p->bytes_get;
    v->mig[0] = (uint64_t)p->task_mig_loss;
    v->mig[1] = p->task_mig_win;
    for (const pmetric *x = p->metrics; x; x = x->next)
        v->n_metrics++;
    v->n_metrics += p->dense ? n_dense : 0;
    if (v->n_metrics) {
        v->metric_ids = malloc(v->n_metrics * sizeof *v->metric_ids);
        v->metric_sums = malloc(v->n_metrics * sizeof *v->metric_sums);
        if (!v->metric_ids || !v->metric_sums)
            return -1;
        uint32_t i = 0;
        for (const pmetric *x = p->metrics; x; x = x->next, i++) {
            v->metric_ids[i] = u->map[U_METRIC][x->metric];
            v->metric_sums[i] = x->sum;
        }
        add_dense_values(v, i, p, n_dense, dense_ids, u);
    }
    return 0;
}

/* Depth-first; children were prepended, so walk them reversed to keep first-call order. */
static int merge_subtree(merged *m, int gparent, const pnode *p, uint32_t loc,
                         const scorep_unified *u, double res, const scorep_profile *pr)
{
    int n = 0;
    for (const pnode *c = p->first_child; c; c = c->next_sibling)
        n++;
    const pnode **kids = malloc((n ? n : 1) * sizeof *kids);
    if (!kids)
        return -1;
    int i = n;
    for (const pnode *c = p->first_child; c; c = c->next_sibling)
        kids[--i] = c;
    int rc = 0;
    for (i = 0; i < n && rc == 0; i++) {
        const pnode *c = kids[i];
        int g = gnode_get(m, gparent, c->kind, global_id(u, c), global_value(u, c));
        if (c == m->cluster_pnode)
            m->cluster_g = g;
        rc = g < 0 || add_values(m, g, loc, c, u, res, pr->n_dense, pr->dense_ids) != 0
                 ? -1
                 : merge_subtree(m, g, c, loc, u, res, pr);
    }
    free(kids);
    return rc;
}

/* ---------------------------------------------------------- serialization */
static void pack_tree(const merged *m, ser_buf *b)
{
    ser_u32(b, (uint32_t)m->n);
    for (int i = 0; i < m->n; i++) {
        ser_u32(b, (uint32_t)m->g[i].parent);
        ser_u32(b, m->g[i].kind);
        ser_u32(b, m->g[i].id);
        ser_u64(b, (uint64_t)m->g[i].value);
    }
}

/* The clustering of this process: the clustered region's node, the iterations' clusters. */
static void pack_clusters(const merged *m, ser_buf *b)
{
    uint32_t n = m->cluster_g >= 0 ? scorep_profile_cluster_iterations() : 0;
    ser_u32(b, n ? (uint32_t)m->cluster_g : UINT32_MAX);
    ser_u32(b, n);
    for (uint32_t i = 0; i < n; i++)
        ser_u32(b, scorep_profile_cluster_of(i));
}

static void pack_process(const merged *m, ser_buf *b)
{
    pack_tree(m, b);
    ser_u64(b, m->nv);
    for (size_t i = 0; i < m->nv; i++) {
        const pvalue *v = &m->v[i];
        ser_u32(b, (uint32_t)v->gnode);
        ser_u32(b, v->location);
        ser_u64(b, v->visits);
        ser_f64(b, v->sum);
        ser_f64(b, v->min);
        ser_f64(b, v->max);
        ser_put(b, v->bytes, sizeof v->bytes);
        ser_put(b, v->mig, sizeof v->mig);
        ser_u32(b, v->n_metrics);
        for (uint32_t k = 0; k < v->n_metrics; k++) {
            ser_u32(b, v->metric_ids[k]);
            ser_f64(b, v->metric_sums[k]);
        }
    }
    pack_clusters(m, b);
}

/* the job-wide view at rank 0: one call tree, values under Cube location ids */
/* one process's clustering (profile_cluster.h): root = the clustered region's node (-1:
 * none), of[i] = the cluster number, later the cnode, of its iteration i */
typedef struct {
    int root;
    uint32_t n;
    uint32_t *of;
} rank_clusters;

typedef struct {
    merged m;
    rank_clusters *cl; /* per rank */
} job;

static int unpack_values(job *j, ser_reader *r, const int *gmap, uint32_t rank)
{
    uint64_t nv = ser_get_u64(r);
    for (uint64_t i = 0; i < nv && !r->failed; i++) {
        pvalue *v = value_new(&j->m);
        if (!v)
            return -1;
        v->gnode = gmap[ser_get_u32(r)];
        uint64_t ordinal = scorep_systree_location_ordinal(rank, ser_get_u32(r));
        if (ordinal == UINT64_MAX)
            return -1;
        v->location = (uint32_t)ordinal;
        v->visits = ser_get_u64(r);
        v->sum = ser_get_f64(r);
        v->min = ser_get_f64(r);
        v->max = ser_get_f64(r);
        const void *bytes = ser_get(r, sizeof v->bytes);
        if (bytes)
            memcpy(v->bytes, bytes, sizeof v->bytes);
        const void *mig = ser_get(r, sizeof v->mig);
        if (mig)
            memcpy(v->mig, mig, sizeof v->mig);
        v->n_metrics = ser_get_u32(r);
        if (v->n_metrics) {
            v->metric_ids = malloc(v->n_metrics * sizeof *v->metric_ids);
            v->metric_sums = malloc(v->n_metrics * sizeof *v->metric_sums);
            if (!v->metric_ids || !v->metric_sums)
                return -1;
            for (uint32_t k = 0; k < v->n_metrics; k++) {
                v->metric_ids[k] = ser_get_u32(r);
                v->metric_sums[k] = ser_get_f64(r);
            }
        }
    }
    return r->failed ? -1 : 0;
}

/* Reads a packed call tree (pack_tree's form) into m; gmap[i] = node of packed node i. */
static int unpack_tree(merged *m, ser_reader *r, int **gmap_out)
{
    uint32_t ng = ser_get_u32(r);
    int *gmap = r->failed ? NULL : malloc((ng ? ng : 1) * sizeof *gmap);
    if (!gmap)
        return -1;
    int rc = 0;
    for (uint32_t i = 0; i < ng && rc == 0 && !r->failed; i++) {
        uint32_t parent = ser_get_u32(r);
        uint8_t kind = (uint8_t)ser_get_u32(r);
        uint32_t id = ser_get_u32(r);
        int64_t value = (int64_t)ser_get_u64(r);
        /* parents precede children in a process's node order */
        int gp = parent == UINT32_MAX ? -1 : parent < i ? gmap[parent] : -2;
        gmap[i] = gp == -2 ? -1 : gnode_get(m, gp, kind, id, value);
        rc = gmap[i] < 0 ? -1 : 0;
    }
    if (rc != 0 || r->failed) {
        free(gmap);
        return -1;
    }
    *gmap_out = gmap;
    return 0;
}

static int unpack_clusters(rank_clusters *c, ser_reader *r, const int *gmap, uint32_t ng)
{
    uint32_t root = ser_get_u32(r), n = ser_get_u32(r);
    c->root = -1;
    if (r->failed || root == UINT32_MAX || n == 0)
        return r->failed ? -1 : 0;
    if (root >= ng || !(c->of = malloc(n * sizeof *c->of)))
        return -1;
    c->root = gmap[root];
    c->n = n;
    for (uint32_t i = 0; i < n; i++)
        c->of[i] = ser_get_u32(r);
    return r->failed ? -1 : 0;
}

static int unpack_process(job *j, int rank, const unsigned char *p, size_t len)
{
    ser_reader r = {p, p + len, 0};
    int *gmap = NULL;
    int rc = unpack_tree(&j->m, &r, &gmap);
    if (rc == 0)
        rc = unpack_values(j, &r, gmap, (uint32_t)rank);
    if (rc == 0)
        rc = unpack_clusters(&j->cl[rank], &r, gmap, (uint32_t)j->m.n);
    free(gmap);
    return rc || r.failed ? -1 : 0;
}

/* Every process sends its packed profile to rank 0. */
static int gather_job(job *j, const ser_buf *mine)
{
    unsigned char *all;
    size_t *offsets, *lengths;
    int rc =
        scorep_ipc_gather_blobs(mine->data, mine->failed ? 0 : mine->len, &all, &offsets, &lengths);
    int size = scorep_ipc_get()->size();
    if (all && rc == 0 && !(j->cl = calloc(size, sizeof *j->cl)))
        rc = -1;
    for (int r = 0; all && rc == 0 && r < size; r++)
        rc = lengths[r] == 0 ? -1 : unpack_process(j, r, all + offsets[r], lengths[r]);
    free(all);
    free(offsets);
    free(lengths);
    return rc;
}

/* ------------------------------------------------ clusters (profile_cluster.h) */
/* The cnode of each cluster k (1..n) under the clustered region's node g: its children
 * "instance=k". *out[k] (k < *n_out); the caller frees it. */
static int cluster_cnodes(const merged *m, int g, const int *cube_id, const scorep_unified *u,
                          int **out, uint32_t *n_out)
{
    uint32_t n = 1;
    for (int c = m->g[g].first_child; c >= 0; c = m->g[c].next_sibling)
        n++;
    int *k = calloc(n, sizeof *k);
    if (!k)
        return -1;
    for (int c = m->g[g].first_child; c >= 0; c = m->g[c].next_sibling) {
        const gnode *x = &m->g[c];
        if (x->kind == PNODE_PARAM_INT && x->value > 0 && (uint64_t)x->value < n &&
            strcmp(u->params[x->id].name, "instance") == 0)
            k[x->value] = cube_id[c];
    }
    *out = k;
    *n_out = n;
    return 0;
}

/* cl->of[i]: cluster number -> cnode; cl->root: node -> cnode */
static int clusters_to_cnodes(rank_clusters *cl, const merged *m, const int *cube_id,
                              const scorep_unified *u)
{
    int *k;
    uint32_t n;
    if (cl->root < 0)
        return 0;
    if (cluster_cnodes(m, cl->root, cube_id, u, &k, &n) != 0)
        return -1;
    for (uint32_t i = 0; i < cl->n; i++)
        cl->of[i] = cl->of[i] < n ? (uint32_t)k[cl->of[i]] : 0;
    cl->root = cube_id[cl->root];
    free(k);
    return 0;
}

/* Score-P's clustering attributes (scorep_cluster_write_cube4): "CLUSTERING" OFF or ON; then
 * the clustered region's cnode, the number of processes, of iterations (the most of any
 * process), and per iteration i (from 0) "CLUSTER MAPPING i": for every rank the cnode of
 * the iteration's cluster, 0 where the rank had no such iteration. cl: cnodes already. */
/* global attributes added by the caller (scorep-recover: which ranks ended how) */
enum { MAX_EXTRA_ATTRS = 4096 };
static char *extra_keys[MAX_EXTRA_ATTRS], *extra_values[MAX_EXTRA_ATTRS];
static int n_extra;

int scorep_profile_cube_add_attr(const char *key, const char *value)
{
    if (n_extra == MAX_EXTRA_ATTRS || !(extra_keys[n_extra] = strdup(key)))
        return -1;
    if (!(extra_values[n_extra] = strdup(value))) {
        free(extra_keys[n_extra]);
        return -1;
    }
    n_extra++;
    return 0;
}

static int extra_attrs(cube_writer *w)
{
    int rc = 0;
    for (int i = 0; i < n_extra; i++)
        rc |= cube_writer_attr(w, extra_keys[i], extra_values[i]);
    return rc;
}

static int cluster_attrs(cube_writer *w, int nranks, const rank_clusters *cl)
{
    if (extra_attrs(w) != 0)
        return -1;
    int root = -1;
    uint32_t n = 0;
    for (int r = 0; r < nranks; r++) {
        if (root < 0 && cl[r].root >= 0)
            root = cl[r].root;
        n = cl[r].n > n ? cl[r].n : n;
    }
    if (root < 0)
        return cube_writer_attr(w, "CLUSTERING", "OFF");
    char num[32], key[48];
    int rc = cube_writer_attr(w, "CLUSTERING", "ON");
    snprintf(num, sizeof num, "%d", root);
    rc |= cube_writer_attr(w, "CLUSTER ROOT CNODE ID", num);
    snprintf(num, sizeof num, "%d", nranks);
    rc |= cube_writer_attr(w, "CLUSTER PROCESS NUM", num);
    snprintf(num, sizeof num, "%" PRIu32, n);
    rc |= cube_writer_attr(w, "CLUSTER ITERATION COUNT", num);
    char *line = malloc((size_t)nranks * 12 + 1);
    if (!line)
        return -1;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        size_t len = 0;
        for (int r = 0; r < nranks; r++)
            len += (size_t)sprintf(line + len, "%s%" PRIu32, r ? "," : "",
                                   i < cl[r].n ? cl[r].of[i] : 0);
        snprintf(key, sizeof key, "CLUSTER MAPPING %" PRIu32, i);
        rc |= cube_writer_attr(w, key, line);
    }
    free(line);
    return rc ? -1 : 0;
}

static void clusters_free(rank_clusters *cl, int nranks)
{
    for (int r = 0; cl && r < nranks; r++)
        free(cl[r].of);
    free(cl);
}

/* ---------------------------------------------------------------- writing */
/* Parameter nodes are written as Score-P writes them: a cnode of a region named "name=value"
 * (paradigm user, role unknown), one region per distinct (parameter, value). Readers that
 * know nothing of Cube's cnode parameters (CubeLib's tools, Cube's GUI) then show the value
 * in the call path, and call paths compare one to one with Score-P's. */
typedef struct {
    uint8_t kind;
    uint32_t id;
    int64_t value;
    int region;
} param_region;

typedef struct {
    param_region *e;
    uint32_t n, cap;
    hash_index index;
    const param_region *key; /* the entry being looked up */
} param_regions;

static uint64_t param_key(const param_region *p)
{
    return gkey(-1, p->kind, p->id, p->value);
}

static uint64_t param_hash(void *ctx, uint32_t id)
{
    return param_key(&((param_regions *)ctx)->e[id]);
}

static int param_equal(void *ctx, uint32_t id)
{
    const param_regions *t = ctx;
    const param_region *a = &t->e[id], *b = t->key;
    return a->kind == b->kind && a->id == b->id && a->value == b->value;
}

static int param_region_define(cube_writer *w, const gnode *x, const scorep_unified *u)
{
    const char *pname = u->params[x->id].name;
    char num[32], *name;
    const char *value = num;
    if (x->kind == PNODE_PARAM_STRING)
        value = u->strings[x->value];
    else if (x->kind == PNODE_PARAM_UINT)
        snprintf(num, sizeof num, "%" PRIu64, (uint64_t)x->value);
    else
        snprintf(num, sizeof num, "%" PRId64, x->value);
    size_t len = strlen(pname) + 1 + strlen(value) + 1;
    if (!(name = malloc(len)))
        return -1;
    snprintf(name, len, "%s=%s", pname, value);
    int region = cube_writer_region(w, name, name, "user", "unknown", "", -1, -1, "");
    free(name);
    return region;
}

static int param_region_of(param_regions *t, cube_writer *w, const gnode *x,
                           const scorep_unified *u)
{
    param_region key = {x->kind, x->id, x->value, -1};
    uint32_t slot;
    t->key = &key;
    if (hash_index_reserve(&t->index, t->n, param_hash, t) != 0)
        return -1;
    uint32_t id = hash_index_find(&t->index, param_key(&key), param_equal, t, &slot);
    if (id != UINT32_MAX)
        return t->e[id].region;
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 16;
        param_region *e = realloc(t->e, cap * sizeof *e);
        if (!e)
            return -1;
        t->e = e;
        t->cap = cap;
    }
    if ((key.region = param_region_define(w, x, u)) < 0)
        return -1;
    t->e[t->n] = key;
    hash_index_set(&t->index, slot, t->n++);
    return key.region;
}

static int define_cnode(cube_writer *w, const merged *m, int g, int parent_cube,
                        const scorep_unified *u, param_regions *params)
{
    const gnode *x = &m->g[g];
    int region = x->kind == PNODE_REGION ? (int)x->id : param_region_of(params, w, x, u);
    return region < 0 ? -1 : cube_writer_cnode(w, parent_cube, region);
}

/* seq[0 .. m->n): the nodes in pre-order, as Score-P numbers its cnodes; every process
 * computes the same order from the same tree. Iterative: call paths may be deep. */
static int preorder(const merged *m, int *seq)
{
    int *stack = malloc((m->n + 1) * sizeof *stack), top = 0, k = 0;
    if (!stack)
        return -1;
    for (int r = m->n - 1; r >= 0; r--)
        if (m->g[r].parent < 0)
            stack[top++] = r;
    while (top > 0) {
        int g = stack[--top];
        seq[k++] = g;
        int first = top;
        for (int c = m->g[g].first_child; c >= 0; c = m->g[c].next_sibling)
            stack[top++] = c;
        for (int a = first, b = top - 1; a < b; a++, b--) {
            int t = stack[a];
            stack[a] = stack[b];
            stack[b] = t;
        }
    }
    free(stack);
    return k == m->n ? 0 : -1;
}

static int define_cnodes(cube_writer *w, merged *m, const scorep_unified *u)
{
    int *seq = malloc((m->n + 1) * sizeof *seq), rc = seq ? preorder(m, seq) : -1;
    param_regions params = {0};
    for (int k = 0; rc == 0 && k < m->n; k++) {
        int g = seq[k];
        int pc = m->g[g].parent >= 0 ? m->g[m->g[g].parent].cube_id : -1;
        if ((m->g[g].cube_id = define_cnode(w, m, g, pc, u, &params)) < 0)
            rc = -1;
    }
    free(seq);
    free(params.e);
    hash_index_free(&params.index);
    return rc;
}

enum {
    M_VISITS, M_TIME, M_MIN, M_MAX, M_MIG_LOSS, M_MIG_WIN, M_SENT, M_RECEIVED, M_PUT, M_GET,
    M_FIXED
};

/* cube_writer_metric, remembering kind and type under the new id (the plan needs them) */
typedef struct {
    cube_metric_kind kind;
    cube_dtype dtype;
} metric_info;

static int add_metric(cube_writer *w, metric_info *kinds, const char *uniq, const char *disp,
                      cube_dtype dtype, const char *uom, const char *descr, cube_metric_kind kind)
{
    int id = cube_writer_metric(w, -1, uniq, disp, dtype, uom, descr, kind);
    if (id >= 0)
        kinds[id] = (metric_info){kind, dtype};
    return id;
}

/* Transfers of the GPU adapters (CUDA's memcpys, OpenMP target transfers: regions of role
 * RMA, on no MPI window) count bytes_put and bytes_get too. */
static int any_rma_region(const scorep_unified *u)
{
    for (uint32_t i = 0; i < u->n[U_REGION]; i++)
        if (u->regions[i].role == SCOREP_ROLE_RMA)
            return 1;
    return 0;
}

/* An explicit OpenMP task was created somewhere: its region ("!$omp task @f.c:L", "!$omp task
 * untied @...") is defined at the first creation (omp_tasks.c). Score-P writes its task
 * migration metrics exactly then (scorep_profile_cube4_writer.c: has_tasks, any explicit task
 * on any rank), whether a task migrated or not. */
static int any_task_region(const scorep_unified *u)
{
    for (uint32_t i = 0; i < u->n[U_REGION]; i++) {
        const char *n = u->regions[i].name;
        if (u->regions[i].paradigm == SCOREP_PARADIGM_OPENMP && n &&
            strncmp(n, "!$omp task", 10) == 0 && (n[10] == ' ' || n[10] == '\0'))
            return 1;
    }
    return 0;
}

/* kinds: room for M_FIXED + u->n[U_METRIC] */
static void define_metrics(cube_writer *w, int *mid, const scorep_unified *u, int mpi,
                           metric_info *kinds)
{
    mid[M_VISITS] = add_metric(w, kinds, "visits", "Visits", CUBE_DTYPE_UINT64, "occ",
                               "Number of visits", CUBE_EXCLUSIVE);
    mid[M_TIME] = add_metric(w, kinds, "time", "Time", CUBE_DTYPE_DOUBLE, "sec",
                             "Total CPU allocation time", CUBE_INCLUSIVE);
    mid[M_MIN] = add_metric(w, kinds, "min_time", "Minimum Inclusive Time", CUBE_DTYPE_MINDOUBLE,
                            "sec", "Minimum inclusive CPU allocation time", CUBE_EXCLUSIVE);
    mid[M_MAX] = add_metric(w, kinds, "max_time", "Maximum Inclusive Time", CUBE_DTYPE_MAXDOUBLE,
                            "sec", "Maximum inclusive CPU allocation time", CUBE_EXCLUSIVE);
    /* as Score-P's SCOREP_Profile_Tasking.c defines them (at the profile's initialisation,
     * before any adapter's metric): no unit, exclusive, loss signed */
    static const char *const mig[2] = {"task_migration_loss", "task_migration_win"};
    static const char *const mig_descr[2] = {"Number of task that migrated away.",
                                             "Number of tasks that migrated to this location."};
    int tasks = any_task_region(u);
    for (int k = 0; k < 2; k++)
        mid[M_MIG_LOSS + k] = tasks ? add_metric(w, kinds, mig[k], mig[k],
                                                 k == 0 ? CUBE_DTYPE_INT64 : CUBE_DTYPE_UINT64, "",
                                                 mig_descr[k], CUBE_EXCLUSIVE)
                                    : -1;
    static const char *const bytes[4] = {"bytes_sent", "bytes_received", "bytes_put", "bytes_get"};
    static const char *const descr[4] = {"Number of bytes sent", "Number of bytes received",
                                         "Number of bytes sent in one-sided operations",
                                         "Number of bytes received in one-sided operations"};
    for (int k = 0; k < 4; k++)
        mid[M_SENT + k] = (k < 2 ? mpi : u->n[U_WIN] > 0 || any_rma_region(u))
                              ? add_metric(w, kinds, bytes[k], bytes[k], CUBE_DTYPE_UINT64, "bytes",
                                           descr[k], CUBE_EXCLUSIVE)
                              : -1;
    for (uint32_t i = 0; i < u->n[U_METRIC]; i++) {
        const scorep_metric_def *d = &u->metrics[i];
        cube_dtype t = d->type == SCOREP_METRIC_INT64    ? CUBE_DTYPE_INT64
                       : d->type == SCOREP_METRIC_UINT64 ? CUBE_DTYPE_UINT64
                                                         : CUBE_DTYPE_DOUBLE;
        if (d->recorder == SCOREP_MREC_USER)
            mid[M_FIXED + i] =
                add_metric(w, kinds, d->name, d->name, t, d->unit,
                           d->description ? d->description : "user metric", CUBE_EXCLUSIVE);
        else if (d->recorder == SCOREP_MREC_MAX) /* a maximum per call path (memory) */
            mid[M_FIXED + i] = add_metric(w, kinds, d->name, d->name, CUBE_DTYPE_MAXDOUBLE,
                                          d->unit, d->description, CUBE_EXCLUSIVE);
        else /* counters read at every enter/leave: inclusive sums like time */
            mid[M_FIXED + i] = profiled_dense(d)
                                   ? add_metric(w, kinds, d->name, d->name, t, d->unit,
                                                d->description, CUBE_INCLUSIVE)
                                   : -1;
    }
}

/* Cube's names of the system tree's entities, as Score-P's Cube writer gives them: a
 * system-tree node shows "class name" ("CUDA Device 0"); a location group's rank is its
 * global id (a process: its MPI rank; an accelerator group: its id after the processes,
 * as in the OTF2 trace), a location's its index in the group. */
static const char *location_type(const scorep_st_node *n)
{
    return n->gpu ? "accelerator stream" : "thread";
}

static const char *locgroup_type(const scorep_st_node *n)
{
    return n->kind == SCOREP_ST_ACCEL ? "accelerator" : "process";
}

static int locgroup_rank(const scorep_st_node *n)
{
    return n->kind == SCOREP_ST_ACCEL ? (int)n->ordinal : (int)n->rank;
}

#define CREATOR_ATTR "Creating location group"

/* Cube ids follow definition order, which is the document order of the walk
 * (writers/systree_job.c); col[location ordinal] = the location's Cube id (its column). */
typedef struct {
    cube_writer *w;
    uint32_t *col;
    uint64_t n_col;
} define_ctx;

static int define_st_node(void *arg, const scorep_st_node *n)
{
    define_ctx *d = arg;
    cube_writer *w = d->w;
    int parent = n->parent_doc == UINT64_MAX ? -1 : (int)n->parent_doc;
    int id = -1;
    char display[160];
    switch (n->kind) {
    case SCOREP_ST_NODE:
        id = cube_writer_stnode(w, parent, n->name, n->klass);
        break;
    case SCOREP_ST_DEVICE:
        snprintf(display, sizeof display, "%s %s", n->klass, n->name);
        id = cube_writer_stnode(w, parent, display, n->klass);
        break;
    case SCOREP_ST_PROCESS:
    case SCOREP_ST_ACCEL:
        id = cube_writer_locgroup(w, parent, n->name, locgroup_rank(n), locgroup_type(n));
        if (id >= 0 && n->creator && cube_writer_locgroup_attr(w, id, CREATOR_ATTR, n->creator))
            id = -1;
        break;
    case SCOREP_ST_LOCATION:
        id = cube_writer_location(w, parent, n->name, (int)n->in_group, location_type(n));
        if (n->ordinal >= d->n_col)
            return -1;
        d->col[n->ordinal] = (uint32_t)n->doc;
        break;
    }
    return id >= 0 && (uint64_t)id == n->doc ? 0 : -1;
}

/* col: for each location ordinal its Cube id (malloc'ed, the caller frees it) */
static int define_system(cube_writer *w, uint32_t **col)
{
    define_ctx d = {w, NULL, scorep_systree_location_total()};
    *col = d.col = malloc((d.n_col + 1) * sizeof *d.col);
    return d.col ? scorep_systree_walk(define_st_node, &d) : -1;
}

/* One value of (metric, call path, location): an integer, or a double when is_double. */
typedef void (*value_fn)(void *ctx, int metric, int cnode, int location, bool is_double, double d,
                         uint64_t v);

/* Every value of m's call paths (Cube ids cube_id[gnode]) on its locations (column
 * col[location], or the location itself where col is NULL). */
static void each_value(const merged *m, const int *cube_id, const uint32_t *col, const int *mid,
                       const scorep_unified *u, value_fn put, void *ctx)
{
    for (size_t i = 0; i < m->nv; i++) {
        const pvalue *v = &m->v[i];
        int c = cube_id[v->gnode], l = col ? (int)col[v->location] : (int)v->location;
        put(ctx, mid[M_VISITS], c, l, false, 0, v->visits);
        put(ctx, mid[M_TIME], c, l, true, v->sum, 0);
        if (v->visits) {
            put(ctx, mid[M_MIN], c, l, true, v->min, 0);
            put(ctx, mid[M_MAX], c, l, true, v->max, 0);
        }
        for (int k = 0; k < 2; k++)
            if (mid[M_MIG_LOSS + k] >= 0 && v->mig[k])
                put(ctx, mid[M_MIG_LOSS + k], c, l, false, 0, v->mig[k]);
        for (int k = 0; k < 4; k++)
            if (mid[M_SENT + k] >= 0 && v->bytes[k])
                put(ctx, mid[M_SENT + k], c, l, false, 0, v->bytes[k]);
        for (uint32_t k = 0; k < v->n_metrics; k++) {
            uint32_t id = v->metric_ids[k];
            if (mid[M_FIXED + id] < 0)
                continue;
            scorep_metric_type t = u->metrics[id].type;
            double s = v->metric_sums[k];
            if (t == SCOREP_METRIC_DOUBLE)
                put(ctx, mid[M_FIXED + id], c, l, true, s, 0);
            else
                put(ctx, mid[M_FIXED + id], c, l, false, 0,
                    t == SCOREP_METRIC_INT64 ? (uint64_t)(int64_t)s : (uint64_t)s);
        }
    }
}

static void put_in_writer(void *ctx, int metric, int cnode, int location, bool is_double, double d,
                          uint64_t v)
{
    if (is_double)
        cube_writer_set_double(ctx, metric, cnode, location, d);
    else
        cube_writer_set_u64(ctx, metric, cnode, location, v);
}

static int set_values(cube_writer *w, const merged *m, const uint32_t *col, const int *mid,
                      const scorep_unified *u)
{
    int *cube_id = malloc((m->n + 1) * sizeof *cube_id);
    if (!cube_id)
        return -1;
    for (int g = 0; g < m->n; g++)
        cube_id[g] = m->g[g].cube_id;
    each_value(m, cube_id, col, mid, u, put_in_writer, w);
    free(cube_id);
    return 0;
}

/* Whether the tree is empty. Every location's tree has the program region at its root
 * (profile.h, scorep_profile_adopt_roots), so that an uninstrumented program under
 * scorep-run has a profile: the run's time as the root's. */
static bool nothing_entered(const merged *m, const scorep_unified *u)
{
    (void)u;
    return m->n == 0;
}

static int write_job_clusters(cube_writer *w, job *j, const scorep_unified *u)
{
    int nranks = scorep_ipc_get()->size(), rc = 0;
    int *cube_id = malloc((j->m.n + 1) * sizeof *cube_id);
    if (!cube_id)
        return -1;
    for (int g = 0; g < j->m.n; g++)
        cube_id[g] = j->m.g[g].cube_id;
    for (int r = 0; r < nranks && rc == 0; r++)
        rc = clusters_to_cnodes(&j->cl[r], &j->m, cube_id, u);
    free(cube_id);
    return rc == 0 ? cluster_attrs(w, nranks, j->cl) : -1;
}

static int write_job(job *j, const scorep_unified *u, const char *path)
{
    if (nothing_entered(&j->m, u)) { /* e.g. an uninstrumented program under scorep-run */
        scorep_verbose("nothing was recorded: no profile written");
        return -1;
    }
    cube_writer *w = cube_writer_new();
    int *mid = malloc((M_FIXED + u->n[U_METRIC]) * sizeof *mid);
    metric_info *kinds = malloc((M_FIXED + u->n[U_METRIC]) * sizeof *kinds);
    char err[512] = "out of memory", *spec = NULL;
    size_t spec_len = 0;
    int rc = w && mid && kinds ? 0 : -1;
    if (rc == 0) {
        cube_writer_attr(w, "Creator", "scorep-rt " PACKAGE_VERSION);
        cube_writer_attr(w, "CUBE_CT_AGGR", "SUM");
        /* Cube's remapper (square -s) reads it there, as from Score-P 5+'s profiles */
        if ((spec = run_remap_spec(u, &spec_len)) != NULL)
            cube_writer_misc_data(w, "remapping.spec", spec, spec_len);
        else
            rc = -1;
        define_metrics(w, mid, u, scorep_ipc_job_multi(), kinds);
        for (uint32_t i = 0; i < u->n[U_REGION] && rc == 0; i++) {
            const scorep_region_def *r = &u->regions[i];
            char pbuf[256];
            /* Cube's "unknown line" is -1 (Score-P writes it so); the definitions say 0 */
            rc = cube_writer_region(w, r->name, r->mangled, cube_paradigm(r, pbuf, sizeof pbuf),
                                    scorep_role_name(r->role), r->file ? r->file : "",
                                    r->begin_line > 0 ? r->begin_line : -1,
                                    r->end_line > 0 ? r->end_line : -1, "") < 0;
        }
    }
    uint32_t *col = NULL;
    if (rc == 0 && define_system(w, &col) == 0 && define_cnodes(w, &j->m, u) == 0 &&
        set_values(w, &j->m, col, mid, u) == 0 && write_job_clusters(w, j, u) == 0) {
        rc = cube_writer_write(w, path, true, err, sizeof err);
    } else {
        rc = -1;
    }
    if (rc != 0)
        scorep_warn("cannot write the profile '%s': %s", path, err);
    cube_writer_free(w);
    free(spec);
    free(col);
    free(mid);
    free(kinds);
    return rc;
}

/* ------------------------------------------------ writing in parallel (docs/scale.md) */
/* No process gathers values: the call trees (definitions, independent of the number of
 * processes) are merged up a binomial tree and broadcast, every process numbers the
 * merged tree the same way, and writes its locations' slice of every row at its offset in
 * the file (src/cube's cube_plan); rank 0 writes the frame and anchor.xml, streaming the
 * system tree. Memory per process beyond its own profile: the merged call tree and one
 * metric's rows of its own locations. */
enum { TAG_TREE_LEN = 1901, TAG_TREE = 1902 };

static int send_blob(const scorep_ipc *ipc, const ser_buf *b, int dest)
{
    uint64_t len = b->failed ? UINT64_MAX : b->len;
    if (ipc->send(&len, sizeof len, dest, TAG_TREE_LEN) != 0)
        return -1;
    return len == UINT64_MAX ? -1 : ipc->send(b->data, len, dest, TAG_TREE);
}

/* Merges the call tree of rank `from` into m. A sender that failed sends UINT64_MAX. */
static int merge_from(const scorep_ipc *ipc, merged *m, int from)
{
    uint64_t len = 0;
    if (ipc->recv(&len, sizeof len, from, TAG_TREE_LEN) != 0 || len == UINT64_MAX)
        return -1;
    unsigned char *data = malloc(len ? len : 1);
    if (!data) /* the message must still be taken off the wire */
        return -1;
    int rc = ipc->recv(data, len, from, TAG_TREE);
    ser_reader r = {data, data + len, 0};
    int *gmap = NULL;
    if (rc == 0)
        rc = unpack_tree(m, &r, &gmap);
    free(gmap);
    free(data);
    return rc;
}

/* SCOREP_TEST_PROFILE_TREE_ALLOC_FAIL=RANK: test only (test_profile_parallel.sh), not in the
 * documented variables: RANK cannot allocate the broadcast call tree, as if memory ran out */
static bool test_fail_tree_alloc(int rank)
{
    const char *v = getenv("SCOREP_TEST_PROFILE_TREE_ALLOC_FAIL");
    return v && *v && atoi(v) == rank;
}

/* The union of all processes' call trees on every process (binomial reduction to rank 0,
 * then a broadcast): a process that fails passes the failure on instead of hanging its
 * partners. *tree holds the nodes of the job's tree (no values). */
static int union_tree(const merged *local, bool local_failed, merged *tree)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    int rank = ipc->rank(), size = ipc->size(), rc = 0;
    ser_buf b = {0};
    pack_tree(local, &b);
    ser_reader r = {b.data, b.data + b.len, 0};
    int *gmap = NULL;
    rc = local_failed || b.failed || unpack_tree(tree, &r, &gmap) != 0 ? -1 : 0;
    free(gmap);
    ser_free(&b);
    for (int d = 1; d < size; d <<= 1) {
        if (rank & d) {
            ser_buf out = {0};
            if (rc == 0)
                pack_tree(tree, &out);
            else
                out.failed = 1;
            rc = send_blob(ipc, &out, rank - d) != 0 ? -1 : rc;
            ser_free(&out);
            break;
        }
        if (rank + d < size && merge_from(ipc, tree, rank + d) != 0)
            rc = -1;
    }
    /* the merged tree from rank 0 to all */
    ser_buf all = {0};
    if (rank == 0)
        pack_tree(tree, &all);
    uint64_t len = rank == 0 && rc == 0 && !all.failed ? all.len : UINT64_MAX;
    if (ipc->bcast(&len, sizeof len, 0) != 0 || len == UINT64_MAX) {
        ser_free(&all);
        return -1;
    }
    if (rank != 0) {
        all.data = test_fail_tree_alloc(rank) ? NULL : malloc(len ? len : 1);
        all.len = len;
    }
    /* every rank learns whether every rank can take the broadcast: one that could not
     * allocate would otherwise take part with another size (MPI: truncation or a hang) */
    uint64_t failed = rank != 0 && !all.data;
    if (ipc->allreduce_max_u64(&failed) != 0 || failed) {
        ser_free(&all);
        return -1;
    }
    unsigned char dummy;
    rc = ipc->bcast(all.data ? all.data : &dummy, len, 0) != 0 ? -1 : 0;
    if (rank != 0 && rc == 0) {
        merged_free(tree);
        memset(tree, 0, sizeof *tree);
        ser_reader ra = {all.data, all.data + len, 0};
        rc = unpack_tree(tree, &ra, &gmap);
        free(gmap);
    }
    ser_free(&all);
    /* the same verdict everywhere: the writing that follows is collective */
    failed = rc != 0;
    if (ipc->allreduce_max_u64(&failed) != 0 || failed)
        rc = -1;
    return rc;
}

/* The raw 64-bit form cube_writer_set_u64/_double store for a metric of type t. */
static uint64_t raw_value(cube_dtype t, bool is_double, double d, uint64_t v)
{
    bool integral = t == CUBE_DTYPE_UINT64 || t == CUBE_DTYPE_INT64;
    if (!is_double) {
        if (integral)
            return v;
        d = (double)v;
    } else if (t == CUBE_DTYPE_UINT64) {
        return d >= 0.0 && d < 18446744073709551616.0 ? (uint64_t)llround(d) : 0;
    } else if (t == CUBE_DTYPE_INT64) {
        return d >= -9223372036854775808.0 && d < 9223372036854775808.0
                   ? (uint64_t)(int64_t)llround(d)
                   : 0;
    }
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

/* One metric's rows of this process's locations: rows[cnode * nloc + local location]. */
typedef struct {
    int metric;
    cube_dtype dtype;
    uint64_t *rows;
    uint32_t nloc;
} slice_rows;

static void put_in_slice(void *ctx, int metric, int cnode, int location, bool is_double, double d,
                         uint64_t v)
{
    slice_rows *s = ctx;
    if (metric == s->metric && location >= 0 && (uint32_t)location < s->nloc)
        s->rows[(size_t)cnode * s->nloc + (uint32_t)location] =
            raw_value(s->dtype, is_double, d, v);
}

static uint32_t local_location_count(void)
{
    uint32_t nloc = 0;
    for (scorep_location *l = scorep_location_first(); l; l = l->next)
        nloc++;
    return nloc;
}

static int note_column(void *arg, const scorep_st_node *n)
{
    uint32_t *col = arg;
    if (n->kind == SCOREP_ST_LOCATION)
        col[n->ordinal] = (uint32_t)n->doc;
    return 0;
}

/* rank 0: the columns of every rank's locations, rank after rank (send, counts and
 * displacements for scatterv). 0 or -1. */
static int all_columns(uint64_t **send, size_t **counts, size_t **displs)
{
    uint32_t size = (uint32_t)scorep_ipc_get()->size();
    uint64_t total = scorep_systree_location_total();
    uint32_t *col = malloc((total + 1) * sizeof *col);
    *send = malloc((total + 1) * sizeof **send);
    *counts = malloc(size * sizeof **counts);
    *displs = malloc(size * sizeof **displs);
    if (!col || !*send || !*counts || !*displs || scorep_systree_walk(note_column, col) != 0) {
        free(col);
        return -1;
    }
    uint64_t k = 0;
    int rc = 0;
    for (uint32_t r = 0; r < size && rc == 0; r++) {
        uint32_t n = scorep_systree_location_count(r);
        (*displs)[r] = k * sizeof **send;
        (*counts)[r] = n * sizeof **send;
        for (uint32_t i = 0; i < n && rc == 0; i++) {
            uint64_t o = scorep_systree_location_ordinal(r, i);
            rc = o < total && k < total ? 0 : -1;
            if (rc == 0)
                (*send)[k++] = col[o];
        }
    }
    free(col);
    return rc;
}

/* The Cube column of each of this process's locations (collective). Without GPU streams
 * they are its locations' ordinals in the sequence tree; with them the walk's document
 * order differs from the ordinals (streams sit in their device's subtree, after the
 * processes of the node), so rank 0 walks the tree and sends each process its columns. */
static int local_columns(uint64_t *cols, uint32_t nloc)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    int rank = ipc->rank(), rc = cols ? 0 : -1;
    uint64_t gpu = rank == 0 && scorep_systree_has_gpu();
    ipc->bcast(&gpu, sizeof gpu, 0);
    for (uint32_t i = 0; cols && i < nloc; i++)
        if ((cols[i] = scorep_systree_my_location_ordinal(i)) == UINT64_MAX)
            rc = -1;
    if (!gpu)
        return rc;
    uint64_t *send = NULL;
    size_t *counts = NULL, *displs = NULL;
    /* the scatter only where every process can take part */
    uint64_t failed = !cols || (rank == 0 && all_columns(&send, &counts, &displs) != 0);
    ipc->allreduce_max_u64(&failed);
    if (!failed && ipc->scatterv(send, counts, displs, cols, nloc * sizeof *cols, 0) != 0)
        rc = -1;
    free(send);
    free(counts);
    free(displs);
    return failed ? -1 : rc;
}

/* Writes this process's slices of every row (cols: its locations' columns); locations
 * whose columns follow each other go in one piece. */
static int write_slices(const cube_plan *plan, int fd, const merged *local, const int *cube_id,
                        int n_cnodes, const int *mid, const metric_info *info, int n_metrics,
                        const scorep_unified *u, const uint64_t *ord, uint32_t nloc)
{
    slice_rows s = {0, CUBE_DTYPE_UINT64, calloc((size_t)n_cnodes * nloc + 1, sizeof(uint64_t)),
                    nloc};
    int rc = s.rows ? 0 : -1;
    for (int k = 0; rc == 0 && k < n_metrics; k++) {
        s.metric = k;
        s.dtype = info[k].dtype;
        memset(s.rows, 0, (size_t)n_cnodes * nloc * sizeof *s.rows);
        each_value(local, cube_id, NULL, mid, u, put_in_slice, &s);
        for (int c = 0; rc == 0 && c < n_cnodes; c++)
            for (uint32_t a = 0, b; rc == 0 && a < nloc; a = b) {
                for (b = a + 1; b < nloc && ord[b] == ord[b - 1] + 1;)
                    b++;
                rc = cube_plan_write_slice(plan, fd, k, c, ord[a], b - a,
                                           s.rows + (size_t)c * nloc + a);
            }
    }
    free(s.rows);
    return rc;
}

/* rank 0: the system tree straight from the sequence definitions into anchor.xml */
static int stream_st_node(void *arg, const scorep_st_node *n)
{
    cube_system_sink *s = arg;
    int64_t parent = n->parent_doc == UINT64_MAX ? -1 : (int64_t)n->parent_doc, id = -1;
    char display[160];
    switch (n->kind) {
    case SCOREP_ST_NODE:
        id = cube_sink_stnode(s, parent, n->name, n->klass);
        break;
    case SCOREP_ST_DEVICE:
        snprintf(display, sizeof display, "%s %s", n->klass, n->name);
        id = cube_sink_stnode(s, parent, display, n->klass);
        break;
    case SCOREP_ST_PROCESS:
    case SCOREP_ST_ACCEL:
        id = cube_sink_locgroup(s, parent, n->name, locgroup_rank(n), locgroup_type(n));
        if (id >= 0 && n->creator && cube_sink_locgroup_attr(s, CREATOR_ATTR, n->creator) != 0)
            id = -1;
        break;
    case SCOREP_ST_LOCATION:
        id = cube_sink_location(s, parent, n->name, (int)n->in_group, location_type(n));
        break;
    }
    return id >= 0 && (uint64_t)id == n->doc ? 0 : -1;
}

static int stream_system(void *arg, cube_system_sink *s)
{
    (void)arg;
    return scorep_systree_walk(stream_st_node, s);
}

/* rank 0: everything but the values, with the call tree numbered as plan's */
static int write_anchor(cube_writer *w, merged *tree, const cube_plan *plan,
                        const scorep_unified *u, uint64_t n_locations, const char *path)
{
    char err[512] = "out of memory";
    int rc = 0;
    for (uint32_t i = 0; i < u->n[U_REGION] && rc == 0; i++) {
        const scorep_region_def *r = &u->regions[i];
        char pbuf[256];
        rc = cube_writer_region(w, r->name, r->mangled, cube_paradigm(r, pbuf, sizeof pbuf),
                                scorep_role_name(r->role), r->file ? r->file : "",
                                r->begin_line > 0 ? r->begin_line : -1,
                                r->end_line > 0 ? r->end_line : -1, "") < 0;
    }
    if (rc == 0 && (define_cnodes(w, tree, u) != 0 ||
                    cube_writer_system_stream(w, n_locations, stream_system, NULL) != 0))
        rc = -1;
    if (rc == 0 && scorep_systree_has_gpu())
        cube_writer_system_accelerators(w);
    if (rc == 0)
        rc = cube_writer_write_anchor(w, plan, path, err, sizeof err);
    if (rc != 0)
        scorep_warn("cannot write the profile '%s': %s", path, err);
    return rc;
}

/* The Cube ids of the merged tree's nodes (pre-order) and each id's parent. 0 or -1. */
static int number_tree(const merged *tree, int *cube_id, int *cparent)
{
    int *seq = malloc((tree->n + 1) * sizeof *seq);
    int rc = seq && preorder(tree, seq) == 0 ? 0 : -1;
    for (int k = 0; rc == 0 && k < tree->n; k++)
        cube_id[seq[k]] = k;
    for (int k = 0; rc == 0 && k < tree->n; k++) {
        int par = tree->g[seq[k]].parent;
        cparent[k] = par < 0 ? -1 : cube_id[par];
    }
    free(seq);
    return rc;
}

/* The rows in use: bit metric * n_cnodes + cnode. */
typedef struct {
    uint64_t *bits;
    int n_cnodes;
    const metric_info *info;
} rows_used;

static void mark_used(void *ctx, int metric, int cnode, int location, bool is_double, double d,
                      uint64_t v)
{
    (void)location;
    rows_used *r = ctx;
    uint64_t bit = (uint64_t)metric * (uint64_t)r->n_cnodes + (uint64_t)cnode;
    if (raw_value(r->info[metric].dtype, is_double, d, v) != 0)
        r->bits[bit / 64] |= 1ULL << (bit % 64);
}

/* Collective: bit metric * n_cnodes + cnode set where a value of any process is not 0
 * (ids: Cube's), so that the file, like the gathering writer's, has no all-zero rows.
 * NULL where it could not be computed: then the plan takes every row. */
static uint64_t *rows_in_use(const merged *local, const int *local_id, int n_cnodes, bool ok,
                             const int *mid, const metric_info *info, int n_metrics,
                             const scorep_unified *u)
{
    size_t words = ((size_t)n_metrics * (size_t)n_cnodes + 63) / 64;
    rows_used r = {ok ? calloc(words + 1, sizeof(uint64_t)) : NULL, n_cnodes, info};
    if (r.bits)
        each_value(local, local_id, NULL, mid, u, mark_used, &r);
    if (scorep_ipc_allreduce_or(r.bits, words) != 0) {
        free(r.bits);
        return NULL;
    }
    return r.bits;
}

/* Every process: the plan of the file from the numbered tree, the metrics and the rows
 * in use (NULL: all). */
static cube_plan *make_plan(const int *cparent, int n_cnodes, const metric_info *info,
                            int n_metrics, uint64_t n_locations, const uint64_t *used)
{
    int *mparent = malloc((n_metrics + 1) * sizeof *mparent);
    cube_metric_kind *kind = malloc((n_metrics + 1) * sizeof *kind);
    cube_plan *plan = NULL;
    if (mparent && kind) {
        for (int k = 0; k < n_metrics; k++) {
            mparent[k] = -1;
            kind[k] = info[k].kind;
        }
        cube_plan_desc d = {n_metrics, mparent, kind, n_cnodes, cparent, n_locations, used};
        plan = cube_plan_new(&d);
    }
    free(mparent);
    free(kind);
    return plan;
}

/* Collective. The file is created empty by rank 0 before anyone writes into it. */
static int open_shared(const char *path, int rank, const cube_plan *plan)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    int fd = -1;
    uint64_t ok = 1;
    if (rank == 0) {
        fd = plan ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
        ok = fd >= 0 && cube_plan_write_frame(plan, fd) == 0;
        if (!ok)
            scorep_warn("cannot write the profile '%s': %s", path, strerror(errno));
    }
    if (ipc->bcast(&ok, sizeof ok, 0) != 0 || !ok) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return rank == 0 ? fd : open(path, O_WRONLY);
}

/* Every process translates its iterations' clusters to cnodes (local_id: its nodes' cnodes;
 * NULL when it failed) and sends them to rank 0, which writes the attributes into w
 * (collective). */
static int gather_clusters(cube_writer *w, const merged *local, const int *local_id,
                           const scorep_unified *u)
{
    rank_clusters mine = {-1, 0, NULL};
    int rc = 0;
    if (local_id && local->cluster_g >= 0 && (mine.n = scorep_profile_cluster_iterations()) > 0) {
        if (!(mine.of = malloc(mine.n * sizeof *mine.of)))
            rc = -1;
        for (uint32_t i = 0; rc == 0 && i < mine.n; i++)
            mine.of[i] = scorep_profile_cluster_of(i);
        mine.root = local->cluster_g;
        if (rc == 0)
            rc = clusters_to_cnodes(&mine, local, local_id, u);
    }
    ser_buf b = {0};
    ser_u32(&b, rc == 0 && mine.root >= 0 ? (uint32_t)mine.root : UINT32_MAX);
    ser_u32(&b, rc == 0 && mine.root >= 0 ? mine.n : 0);
    for (uint32_t i = 0; rc == 0 && mine.root >= 0 && i < mine.n; i++)
        ser_u32(&b, mine.of[i]);
    free(mine.of);
    unsigned char *all = NULL;
    size_t *offsets = NULL, *lengths = NULL;
    int grc = scorep_ipc_gather_blobs(b.data, b.failed ? 0 : b.len, &all, &offsets, &lengths);
    ser_free(&b);
    int nranks = scorep_ipc_get()->size();
    rank_clusters *cl = all ? calloc(nranks, sizeof *cl) : NULL;
    for (int r = 0; cl && grc == 0 && r < nranks; r++) {
        ser_reader rd = {all + offsets[r], all + offsets[r] + lengths[r], 0};
        uint32_t root = ser_get_u32(&rd), n = ser_get_u32(&rd);
        cl[r].root = root == UINT32_MAX ? -1 : (int)root;
        if (!rd.failed && root != UINT32_MAX && n && (cl[r].of = malloc(n * sizeof *cl[r].of))) {
            cl[r].n = n;
            for (uint32_t i = 0; i < n; i++)
                cl[r].of[i] = ser_get_u32(&rd);
        }
        grc = rd.failed ? -1 : grc;
    }
    if (cl && grc == 0 && cluster_attrs(w, nranks, cl) != 0)
        grc = -1;
    clusters_free(cl, nranks);
    free(all);
    free(offsets);
    free(lengths);
    return rc || grc ? -1 : 0;
}

static int write_parallel(const merged *local, bool local_failed, const scorep_unified *u,
                          const char *path)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    int rank = ipc->rank();
    merged tree = {0};
    if (union_tree(local, local_failed, &tree) != 0) {
        if (rank == 0)
            scorep_warn("cannot collect the profile's call tree: no profile written");
        merged_free(&tree);
        return -1; /* on every rank: the broadcast told them */
    }
    if (nothing_entered(&tree, u)) { /* the same tree everywhere: all return here */
        if (rank == 0)
            scorep_verbose("nothing was recorded: no profile written");
        merged_free(&tree);
        return -1;
    }
    uint64_t n_locations = scorep_systree_location_total();
    ipc->bcast(&n_locations, sizeof n_locations, 0);
    cube_writer *w = cube_writer_new();
    int n_ids = M_FIXED + (int)u->n[U_METRIC];
    int *mid = malloc(n_ids * sizeof *mid), *cube_id = malloc((tree.n + 1) * sizeof *cube_id);
    int *local_id = malloc((local->n + 1) * sizeof *local_id);
    metric_info *info = malloc(n_ids * sizeof *info);
    int rc = w && mid && cube_id && local_id && info ? 0 : -1, n_metrics = 0;
    char *spec = NULL;
    size_t spec_len = 0;
    if (rc == 0) {
        cube_writer_attr(w, "Creator", "scorep-rt " PACKAGE_VERSION);
        cube_writer_attr(w, "CUBE_CT_AGGR", "SUM");
        /* Cube's remapper (square -s) reads it there, as from Score-P 5+'s profiles */
        if ((spec = run_remap_spec(u, &spec_len)) != NULL)
            cube_writer_misc_data(w, "remapping.spec", spec, spec_len);
        else
            rc = -1;
        define_metrics(w, mid, u, scorep_ipc_job_multi(), info);
        for (int k = 0; k < n_ids; k++)
            n_metrics = mid[k] >= n_metrics ? mid[k] + 1 : n_metrics;
    }
    int *cparent = malloc((tree.n + 1) * sizeof *cparent);
    if (rc == 0 && (!cparent || number_tree(&tree, cube_id, cparent) != 0))
        rc = -1;
    /* this process's call paths in the merged tree: parents come first in local order */
    for (int g = 0; g < local->n && rc == 0; g++) {
        const gnode *x = &local->g[g];
        int t =
            gnode_get(&tree, x->parent < 0 ? -1 : local_id[x->parent], x->kind, x->id, x->value);
        rc = t < 0 || t >= (int)(tree.n) ? -1 : 0;
        local_id[g] = rc == 0 ? t : -1;
    }
    for (int g = 0; g < local->n && rc == 0; g++)
        local_id[g] = cube_id[local_id[g]];
    if (gather_clusters(w, local, rc == 0 ? local_id : NULL, u) != 0)
        rc = -1;
    /* every process takes part, also one that failed above (its part: NULL) */
    uint64_t *used = rows_in_use(local, local_id, tree.n, rc == 0, mid, info, n_metrics, u);
    cube_plan *plan =
        rc == 0 ? make_plan(cparent, tree.n, info, n_metrics, n_locations, used) : NULL;
    free(used);
    free(cparent);
    uint32_t nloc = local_location_count();
    uint64_t *cols = malloc((nloc + 1) * sizeof *cols);
    if (local_columns(cols, nloc) != 0) /* collective: every process takes part */
        rc = -1;
    int fd = open_shared(path, rank, plan);
    rc = fd < 0 ? -1 : rc;
    if (rc == 0 && plan)
        rc = write_slices(plan, fd, local, local_id, tree.n, mid, info, n_metrics, u, cols, nloc);
    free(cols);
    if (fd >= 0 && close(fd) != 0)
        rc = -1;
    if (rank == 0 && rc == 0)
        rc = write_anchor(w, &tree, plan, u, n_locations, path);
    uint64_t failed = rc != 0 || !plan;
    ipc->allreduce_max_u64(&failed);
    if (failed && rank == 0 && fd >= 0)
        remove(path); /* no half-written profile */
    cube_plan_free(plan);
    cube_writer_free(w);
    free(spec);
    merged_free(&tree);
    free(mid);
    free(cube_id);
    free(local_id);
    free(info);
    return failed ? -1 : 0;
}

static bool use_parallel(void)
{
    if (scorep_cfg.profiling_cube_writer == SCOREP_CUBE_WRITER_GATHER ||
        !scorep_cfg.system_tree_sequence) /* the plain system tree gives no own ordinals */
        return false;
    return scorep_cfg.profiling_cube_writer == SCOREP_CUBE_WRITER_PARALLEL ||
           scorep_ipc_get()->size() > 1;
}

int scorep_profile_write_cube(const scorep_writer_ctx *w)
{
    const char *path = w->profile_path;
    const scorep_unified *u = w->unified;
    const scorep_ipc *ipc = scorep_ipc_get();
    int rank = ipc->rank();
    double res = (double)scorep_timer_resolution();
    merged local = {.cluster_pnode = scorep_profile_cluster_finish(), .cluster_g = -1};
    uint32_t i = 0;
    int rc = 0;
    for (scorep_location *l = scorep_location_first(); l && rc == 0; l = l->next)
        rc = merge_subtree(&local, -1, &l->profile.root, i++, u, res, &l->profile);
    if (use_parallel()) { /* a failure here reaches the others in the reduction */
        int prc = write_parallel(&local, rc != 0, u, path);
        merged_free(&local);
        return prc;
    }
    ser_buf mine = {0};
    if (rc == 0)
        pack_process(&local, &mine);
    merged_free(&local);
    job j = {0};
    rc = gather_job(&j, &mine);
    ser_free(&mine);
    if (rank == 0)
        rc = rc == 0 ? write_job(&j, u, path) : (scorep_warn("cannot collect the profile"), -1);
    if (rank == 0) {
        merged_free(&j.m);
        clusters_free(j.cl, ipc->size());
    }
    uint64_t failed = rc != 0;
    ipc->bcast(&failed, sizeof failed, 0);
    return failed ? -1 : 0;
}
