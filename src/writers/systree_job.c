/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_job.c: glue between the measurement and src/systree: describes this process
 * (machine -> node -> process -> its locations), runs the construction, gathers the places
 * of all processes at rank 0 and translates the expanded nodes for the writers. */
#include "writers/systree_job.h"
#include "core/location.h"
#include "base/grow.h"
#include "base/log.h"
#include "base/settings.h"
#include "core/system_tree.h"
#include "ipc/ipc.h"
#include "systree/systree_build.h"
#include "systree/systree_plain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    int sequence; /* which method was used */
    systree_list global;
    systree_pnode *plain_root;
    /* rank 0: ordinal -> (rank, local) and back */
    uint32_t *group_rank;           /* per location-group ordinal */
    uint32_t *loc_rank, *loc_local; /* per location ordinal */
    uint64_t n_groups, n_locs, n_stnodes, n_gpu;
    uint64_t **ordinal_of; /* [rank][local] */
    uint32_t *n_of;        /* [rank]: its number of locations */
    uint32_t size;
    /* this process */
    uint64_t my_group, *my_locs;
    uint32_t my_n;
} st;

typedef struct {
    char process[64];
    systree_level_desc levels[2];
    systree_loc_desc *locs;
} describe_state;

static int describe(void *arg, uint64_t world, systree_local *out)
{
    describe_state *d = arg;
    (void)world; /* always this process: one member per process outside the simulator */
    uint32_t n = scorep_location_count(), i = 0;
    d->levels[0] = (systree_level_desc){"machine", scorep_machine_name()};
    d->levels[1] = (systree_level_desc){"node", scorep_node_name()};
    if (scorep_ipc_job_multi())
        snprintf(d->process, sizeof d->process, "MPI Rank %d",
                 scorep_job_rank() >= 0 ? scorep_job_rank() : scorep_ipc_get()->rank());
    else
        snprintf(d->process, sizeof d->process, "%s", scorep_process_name());
    for (scorep_location *l = scorep_location_first(); l && i < n; l = l->next, i++)
        d->locs[i] = l->gpu ? (systree_loc_desc){"accelerator", l->name, SYSTREE_LOCATION_GPU}
                            : (systree_loc_desc){"thread", l->name, SYSTREE_LOCATION_CPU_THREAD};
    *out =
        (systree_local){2, d->levels, "process", d->process, SYSTREE_LOCGROUP_PROCESS, i, d->locs};
    return 0;
}

static int keep_place(void *arg, const systree_place *p)
{
    (void)arg;
    st.my_group = p->process.k[SYSTREE_LOCGROUP];
    st.my_n = p->nlocations;
    st.my_locs = malloc((p->nlocations ? p->nlocations : 1) * sizeof *st.my_locs);
    if (!st.my_locs)
        return -1;
    for (uint32_t i = 0; i < p->nlocations; i++)
        st.my_locs[i] = p->locations[i].k[SYSTREE_LOCATION];
    return 0;
}

/* -------------------------------------------- places of all processes at rank 0 */
static int record_place(uint32_t r, uint64_t group, uint32_t n, const uint64_t *locs)
{
    if (group >= st.n_groups)
        return -1;
    st.group_rank[group] = r;
    st.n_of[r] = n;
    st.ordinal_of[r] = malloc((n ? n : 1) * sizeof(uint64_t));
    if (!st.ordinal_of[r])
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        if (locs[i] >= st.n_locs)
            return -1;
        st.loc_rank[locs[i]] = r;
        st.loc_local[locs[i]] = i;
        st.ordinal_of[r][i] = locs[i];
    }
    return 0;
}

static int gather_places(void)
{
    uint64_t *mine = malloc((2 + st.my_n) * sizeof *mine);
    if (!mine)
        return -1; /* allocation of a few words: other ranks cannot be kept from waiting */
    mine[0] = st.my_group;
    mine[1] = st.my_n;
    memcpy(mine + 2, st.my_locs, st.my_n * sizeof *mine);
    unsigned char *all;
    size_t *offsets, *lengths;
    int rc = scorep_ipc_gather_blobs(mine, (2 + st.my_n) * sizeof *mine, &all, &offsets, &lengths);
    int size = scorep_ipc_get()->size();
    for (int r = 0; all && rc == 0 && r < size; r++) {
        const uint64_t *p = (const uint64_t *)(all + offsets[r]);
        rc = lengths[r] < 2 * sizeof *p ? -1
                                        : record_place((uint32_t)r, p[0], (uint32_t)p[1], p + 2);
    }
    free(mine);
    free(all);
    free(offsets);
    free(lengths);
    return rc;
}

static int alloc_maps(uint64_t groups, uint64_t locs, uint32_t size)
{
    st.n_groups = groups;
    st.n_locs = locs;
    st.size = size;
    st.group_rank = calloc(groups ? groups : 1, sizeof *st.group_rank);
    st.loc_rank = calloc(locs ? locs : 1, sizeof *st.loc_rank);
    st.loc_local = calloc(locs ? locs : 1, sizeof *st.loc_local);
    st.ordinal_of = calloc(size, sizeof *st.ordinal_of);
    st.n_of = calloc(size, sizeof *st.n_of);
    return st.group_rank && st.loc_rank && st.loc_local && st.ordinal_of && st.n_of ? 0 : -1;
}

/* counts the nodes of each kind of the sequence tree, and in c[SYSTREE_NKINDS] the GPU
 * streams */
static int count_kinds(void *arg, const systree_node *n)
{
    uint64_t *c = arg;
    c[n->kind]++;
    if (n->kind == SYSTREE_LOCATION && n->type == SYSTREE_LOCATION_GPU)
        c[SYSTREE_NKINDS]++;
    return 0;
}

static void keep_counts(const uint64_t *c)
{
    st.n_stnodes = c[SYSTREE_STNODE];
    st.n_gpu = c[SYSTREE_NKINDS];
}

/* plain trees carry their origin: remember every location's ordinal */
static int plain_places(void *arg, const systree_node *n)
{
    uint32_t *cur_rank = arg;
    if (n->kind == SYSTREE_LOCGROUP) {
        *cur_rank = (uint32_t)n->origin;
        st.group_rank[n->ordinal] = *cur_rank;
    } else if (n->kind == SYSTREE_LOCATION) {
        st.loc_rank[n->ordinal] = *cur_rank;
        st.loc_local[n->ordinal] = (uint32_t)n->origin;
    }
    return 0;
}

static int plain_index(void)
{
    uint64_t c[SYSTREE_NKINDS + 1] = {0};
    if (systree_plain_walk(st.plain_root, count_kinds, c) != 0 ||
        alloc_maps(c[SYSTREE_LOCGROUP], c[SYSTREE_LOCATION], (uint32_t)scorep_ipc_get()->size()))
        return -1;
    keep_counts(c);
    uint32_t cur = 0;
    if (systree_plain_walk(st.plain_root, plain_places, &cur) != 0)
        return -1;
    uint32_t *per_rank = calloc(st.size, sizeof *per_rank); /* (rank, local) -> ordinal */
    if (!per_rank)
        return -1;
    for (uint64_t o = 0; o < st.n_locs; o++)
        if (st.loc_local[o] + 1 > per_rank[st.loc_rank[o]])
            per_rank[st.loc_rank[o]] = st.loc_local[o] + 1;
    int rc = 0;
    for (uint32_t r = 0; r < st.size && rc == 0; r++) {
        st.n_of[r] = per_rank[r];
        rc = (st.ordinal_of[r] = calloc(per_rank[r] + 1, sizeof(uint64_t))) ? 0 : -1;
    }
    for (uint64_t o = 0; o < st.n_locs && rc == 0; o++)
        st.ordinal_of[st.loc_rank[o]][st.loc_local[o]] = o;
    free(per_rank);
    return rc;
}

int scorep_systree_prepare(void)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    describe_state d = {.locs = calloc(scorep_location_count() + 1, sizeof(systree_loc_desc))};
    systree_comm *world = ipc->systree_world ? ipc->systree_world() : systree_comm_sim_world(1);
    uint64_t failed = !d.locs || !world;
    memset(&st.global, 0, sizeof st.global);
    st.sequence = scorep_cfg.system_tree_sequence;
    if (!failed && st.sequence) {
        systree_build_cfg cfg = {describe, keep_place, &d};
        failed = systree_build(world, &cfg, &st.global, NULL) != 0;
        if (!failed && ipc->rank() == 0) {
            uint64_t c[SYSTREE_NKINDS + 1] = {0};
            failed = systree_walk(&st.global, count_kinds, c) != 0 ||
                     alloc_maps(c[SYSTREE_LOCGROUP], c[SYSTREE_LOCATION], (uint32_t)ipc->size());
            keep_counts(c);
        }
        if (gather_places() != 0)
            failed = 1;
    } else if (!failed) {
        systree_plain_cfg cfg = {describe, &d, 0, 0};
        systree_plain_result res = {0};
        failed = systree_plain_build(world, &cfg, &res) != 0;
        st.plain_root = res.root;
        if (!failed && ipc->rank() == 0)
            failed = !st.plain_root || systree_plain_group(st.plain_root) != 0 || plain_index();
    }
    if (world)
        systree_comm_free(world);
    free(d.locs);
    ipc->allreduce_max_u64(&failed);
    if (failed && ipc->rank() == 0)
        scorep_warn("building the system tree failed");
    return failed ? -1 : 0;
}

/* ---------------------------------------- the walk the writers see (systree_job.h) */
/* A GPU stream of the node being walked, held until the node's processes are done: its
 * device node and accelerator group come after them (Cube's grammar: a node's location
 * groups before its child nodes). */
typedef struct {
    char *name;
    uint32_t rank, local, device, context, dev_rank, group_rank, seq;
    uint64_t ordinal, process;
} pending_gpu;

typedef struct {
    scorep_st_visit fn;
    void *arg;
    uint64_t doc[3]; /* next Cube id: system-tree node, location group, location */
    uint64_t devices, accels; /* numbered so far (global ids after the tree's own) */
    struct {
        uint64_t ordinal, doc;
    } * open; /* the open system-tree nodes, outermost first */
    uint32_t depth;
    size_t cap_open;
    /* the process being walked */
    uint64_t process, process_doc, node, node_doc;
    uint32_t cpu_in_process;
    char *process_name;
    /* the GPU streams of the node being walked, and the names of their processes */
    pending_gpu *gpu;
    uint32_t n_gpu;
    size_t cap_gpu;
    struct {
        char *name;
        uint64_t ordinal;
    } * procs; /* the processes of the pending streams (pending_gpu.process indexes it) */
    uint32_t n_procs;
    size_t cap_procs;
} walk_state;

/* CUDA[device:context:...] -> device, context; OMPT[device:0:0] (the target-offload
 * adapter) the same with OMPT_DEVICE set in device (an OpenMP device of its own, numbered as
 * libomptarget does); other names: UINT32_MAX for both */
#define OMPT_DEVICE 0x80000000u
static void gpu_ids(const char *name, uint32_t *device, uint32_t *context)
{
    unsigned d, c;
    char colon;
    if (sscanf(name, "CUDA[%u:%u%c", &d, &c, &colon) == 3 && colon == ':') {
        *device = d;
        *context = c;
    } else if (sscanf(name, "OMPT[%u:%u%c", &d, &c, &colon) == 3 && colon == ':' &&
               d < OMPT_DEVICE) {
        *device = d | OMPT_DEVICE;
        *context = c;
    } else {
        *device = *context = UINT32_MAX;
    }
}

static int emit(walk_state *w, scorep_st_node *out)
{
    return w->fn(w->arg, out);
}

static int by_device_group_seq(const void *a, const void *b)
{
    const pending_gpu *x = a, *y = b;
    if (x->dev_rank != y->dev_rank)
        return x->dev_rank < y->dev_rank ? -1 : 1;
    if (x->group_rank != y->group_rank)
        return x->group_rank < y->group_rank ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The node's devices (in the order of their first stream), in each the accelerator groups
 * (order of their first stream), in each its streams (walk order). */
static int flush_gpus(walk_state *w)
{
    pending_gpu *g = w->gpu;
    uint32_t n = w->n_gpu;
    for (uint32_t i = 0; i < n; i++) { /* first appearances: a node has few devices */
        uint32_t j = 0;
        while (j < i && g[j].device != g[i].device)
            j++;
        g[i].dev_rank = j < i ? g[j].dev_rank : i;
        for (j = 0; j < i && !(g[j].process == g[i].process && g[j].device == g[i].device &&
                               g[j].context == g[i].context);)
            j++;
        g[i].group_rank = j < i ? g[j].group_rank : i;
    }
    if (n > 1) /* none: g is NULL, which qsort must not get */
        qsort(g, n, sizeof *g, by_device_group_seq);
    int rc = 0;
    uint64_t dev = 0, dev_doc = 0, grp = 0, grp_doc = 0;
    uint32_t in_group = 0;
    int omp = 0;
    char dname[32], gname[48];
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        if (i == 0 || g[i].dev_rank != g[i - 1].dev_rank) {
            dev = st.n_stnodes + w->devices++;
            dev_doc = w->doc[0]++;
            omp = g[i].device != UINT32_MAX && (g[i].device & OMPT_DEVICE);
            if (g[i].device == UINT32_MAX)
                snprintf(dname, sizeof dname, "unknown");
            else
                snprintf(dname, sizeof dname, "%u", g[i].device & ~OMPT_DEVICE);
            scorep_st_node d = {SCOREP_ST_DEVICE, dev, w->node, dev_doc, w->node_doc,
                                omp ? "OpenMP Target Device" : "CUDA Device", dname, 0, 0, 0, 0,
                                NULL, 0};
            rc = emit(w, &d);
        }
        if (rc == 0 && (i == 0 || g[i].group_rank != g[i - 1].group_rank)) {
            grp = st.n_groups + w->accels++;
            grp_doc = w->doc[1]++;
            in_group = 0;
            if (g[i].context == UINT32_MAX)
                snprintf(gname, sizeof gname, "CUDA Context unknown");
            else
                snprintf(gname, sizeof gname, "%s Context %u", omp ? "OpenMP Target" : "CUDA",
                         g[i].context);
            scorep_st_node a = {SCOREP_ST_ACCEL, grp, dev, grp_doc, dev_doc,
                                "", gname, g[i].rank, 0, 0, 0,
                                w->procs[g[i].process].name, w->procs[g[i].process].ordinal};
            rc = emit(w, &a);
        }
        if (rc == 0) {
            scorep_st_node l = {SCOREP_ST_LOCATION, g[i].ordinal, grp, w->doc[2]++, grp_doc,
                                "", g[i].name, g[i].rank, g[i].local, in_group++, 1, NULL, 0};
            rc = emit(w, &l);
        }
    }
    for (uint32_t i = 0; i < n; i++)
        free(g[i].name);
    for (uint32_t p = 0; p < w->n_procs; p++)
        free(w->procs[p].name);
    w->n_gpu = w->n_procs = 0;
    return rc;
}

static int defer_gpu(walk_state *w, const systree_node *n, uint32_t rank, uint32_t local)
{
    if (w->n_procs == 0 || w->procs[w->n_procs - 1].ordinal != w->process) {
        if (scorep_grow((void **)&w->procs, &w->cap_procs, (size_t)w->n_procs + 1,
                        sizeof *w->procs) != 0 ||
            !(w->procs[w->n_procs].name = strdup(w->process_name ? w->process_name : "")))
            return -1;
        w->procs[w->n_procs++].ordinal = w->process;
    }
    if (scorep_grow((void **)&w->gpu, &w->cap_gpu, (size_t)w->n_gpu + 1, sizeof *w->gpu) != 0)
        return -1;
    pending_gpu *g = &w->gpu[w->n_gpu];
    *g = (pending_gpu){strdup(n->name), rank, local, 0, 0, 0, 0, w->n_gpu, n->ordinal,
                       w->n_procs - 1};
    if (!g->name)
        return -1;
    gpu_ids(n->name, &g->device, &g->context);
    w->n_gpu++;
    return 0;
}

static int open_node(walk_state *w, const systree_node *n, uint64_t *parent_doc)
{
    while (w->depth > 0 && w->open[w->depth - 1].ordinal != n->parent_ordinal)
        w->depth--;
    *parent_doc = w->depth > 0 ? w->open[w->depth - 1].doc : UINT64_MAX;
    if (scorep_grow((void **)&w->open, &w->cap_open, (size_t)w->depth + 1, sizeof *w->open) != 0)
        return -1;
    w->open[w->depth].ordinal = n->ordinal;
    w->open[w->depth++].doc = w->doc[0];
    return 0;
}

static int translate(void *arg, const systree_node *n)
{
    walk_state *w = arg;
    scorep_st_node out = {SCOREP_ST_NODE, n->ordinal, n->parent_ordinal, 0, UINT64_MAX,
                          n->klass, n->name, 0, 0, 0, 0, NULL, 0};
    if (n->kind == SYSTREE_STNODE) {
        if (flush_gpus(w) != 0 || open_node(w, n, &out.parent_doc) != 0)
            return -1;
        out.doc = w->doc[0]++;
        w->node = n->ordinal;
        w->node_doc = out.doc;
    } else if (n->kind == SYSTREE_LOCGROUP) {
        out.kind = SCOREP_ST_PROCESS;
        out.rank = st.group_rank[n->ordinal];
        out.doc = w->doc[1]++;
        out.parent_doc = w->node_doc;
        w->process = n->ordinal;
        w->process_doc = out.doc;
        w->cpu_in_process = 0;
        free(w->process_name);
        if (!(w->process_name = strdup(n->name)))
            return -1;
    } else {
        out.kind = SCOREP_ST_LOCATION;
        out.rank = st.loc_rank[n->ordinal];
        out.local = st.loc_local[n->ordinal];
        out.gpu = n->type == SYSTREE_LOCATION_GPU;
        if (out.gpu)
            return defer_gpu(w, n, out.rank, out.local);
        out.doc = w->doc[2]++;
        out.parent_doc = w->process_doc;
        out.in_group = w->cpu_in_process++;
    }
    return emit(w, &out);
}

int scorep_systree_walk(scorep_st_visit fn, void *arg)
{
    walk_state w = {.fn = fn, .arg = arg};
    int rc = st.sequence  ? systree_walk(&st.global, translate, &w)
             : st.plain_root ? systree_plain_walk(st.plain_root, translate, &w)
                             : -1;
    if (rc == 0)
        rc = flush_gpus(&w);
    for (uint32_t i = 0; i < w.n_gpu; i++)
        free(w.gpu[i].name);
    for (uint32_t p = 0; p < w.n_procs; p++)
        free(w.procs[p].name);
    free(w.gpu);
    free(w.procs);
    free(w.open);
    free(w.process_name);
    return rc;
}

int scorep_systree_has_gpu(void)
{
    return st.n_gpu > 0;
}

uint64_t scorep_systree_location_ordinal(uint32_t rank, uint32_t local)
{
    if (!st.ordinal_of || rank >= st.size || !st.ordinal_of[rank])
        return UINT64_MAX;
    return st.ordinal_of[rank][local];
}

uint32_t scorep_systree_location_count(uint32_t rank)
{
    return st.n_of && rank < st.size ? st.n_of[rank] : 0;
}

uint64_t scorep_systree_my_location_ordinal(uint32_t local)
{
    return st.sequence && st.my_locs && local < st.my_n ? st.my_locs[local] : UINT64_MAX;
}

uint64_t scorep_systree_location_total(void)
{
    return st.n_locs;
}

void scorep_systree_release(void)
{
    systree_list_free(&st.global);
    if (st.plain_root)
        systree_pnode_free(st.plain_root);
    for (uint32_t r = 0; st.ordinal_of && r < st.size; r++)
        free(st.ordinal_of[r]);
    free(st.ordinal_of);
    free(st.n_of);
    free(st.group_rank);
    free(st.loc_rank);
    free(st.loc_local);
    free(st.my_locs);
    memset(&st, 0, sizeof st);
}
