/* systree_job.c: glue between the measurement and src/systree: describes this process
 * (machine -> node -> process -> its locations), runs the construction, gathers the places
 * of all processes at rank 0 and translates the expanded nodes for the writers. */
#include "defs/systree_job.h"
#include "core/location.h"
#include "base/log.h"
#include "base/settings.h"
#include "core/system_tree.h"
#include "ipc/ipc.h"
#include "systree/systree_build.h"
#include "systree/systree_plain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct systree_comm *(*world_factory)(void);

static struct {
    int sequence; /* which method was used */
    systree_list global;
    systree_pnode *plain_root;
    /* rank 0: ordinal -> (rank, local) and back */
    uint32_t *group_rank;           /* per location-group ordinal */
    uint32_t *loc_rank, *loc_local; /* per location ordinal */
    uint64_t n_groups, n_locs;
    uint64_t **ordinal_of; /* [rank][local] */
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

void scorep_systree_set_world(struct systree_comm *(*factory)(void))
{
    world_factory = factory;
}

static int describe(void *arg, uint64_t world, systree_local *out)
{
    describe_state *d = arg;
    (void)world; /* always this process: one member per process outside the simulator */
    uint32_t n = scorep_location_count(), i = 0;
    d->levels[0] = (systree_level_desc){"machine", scorep_machine_name()};
    d->levels[1] = (systree_level_desc){"node", scorep_node_name()};
    if (scorep_ipc_get() != &scorep_ipc_single)
        snprintf(d->process, sizeof d->process, "MPI Rank %d", scorep_ipc_get()->rank());
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
    return st.group_rank && st.loc_rank && st.loc_local && st.ordinal_of ? 0 : -1;
}

/* counts the nodes of each kind of the sequence tree */
static int count_kinds(void *arg, const systree_node *n)
{
    uint64_t *c = arg;
    c[n->kind]++;
    return 0;
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
    uint64_t c[SYSTREE_NKINDS] = {0};
    if (systree_plain_walk(st.plain_root, count_kinds, c) != 0 ||
        alloc_maps(c[SYSTREE_LOCGROUP], c[SYSTREE_LOCATION], (uint32_t)scorep_ipc_get()->size()))
        return -1;
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
    for (uint32_t r = 0; r < st.size && rc == 0; r++)
        rc = (st.ordinal_of[r] = calloc(per_rank[r] + 1, sizeof(uint64_t))) ? 0 : -1;
    for (uint64_t o = 0; o < st.n_locs && rc == 0; o++)
        st.ordinal_of[st.loc_rank[o]][st.loc_local[o]] = o;
    free(per_rank);
    return rc;
}

int scorep_systree_prepare(void)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    describe_state d = {.locs = calloc(scorep_location_count() + 1, sizeof(systree_loc_desc))};
    systree_comm *world = world_factory ? world_factory() : systree_comm_sim_world(1);
    uint64_t failed = !d.locs || !world;
    memset(&st.global, 0, sizeof st.global);
    st.sequence = scorep_cfg.system_tree_sequence;
    if (!failed && st.sequence) {
        systree_build_cfg cfg = {describe, keep_place, &d};
        failed = systree_build(world, &cfg, &st.global, NULL) != 0;
        if (!failed && ipc->rank() == 0) {
            uint64_t c[SYSTREE_NKINDS] = {0};
            failed = systree_walk(&st.global, count_kinds, c) != 0 ||
                     alloc_maps(c[SYSTREE_LOCGROUP], c[SYSTREE_LOCATION], (uint32_t)ipc->size());
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

typedef struct {
    scorep_st_visit fn;
    void *arg;
} walk_state;

static int translate(void *arg, const systree_node *n)
{
    walk_state *w = arg;
    scorep_st_node out = {
        SCOREP_ST_NODE, n->ordinal, n->parent_ordinal, n->klass, n->name, 0, 0, 0};
    if (n->kind == SYSTREE_LOCGROUP) {
        out.kind = SCOREP_ST_PROCESS;
        out.rank = st.group_rank[n->ordinal];
    } else if (n->kind == SYSTREE_LOCATION) {
        out.kind = SCOREP_ST_LOCATION;
        out.rank = st.loc_rank[n->ordinal];
        out.local = st.loc_local[n->ordinal];
        out.gpu = n->type == SYSTREE_LOCATION_GPU;
    }
    return w->fn(w->arg, &out);
}

int scorep_systree_walk(scorep_st_visit fn, void *arg)
{
    walk_state w = {fn, arg};
    if (st.sequence)
        return systree_walk(&st.global, translate, &w);
    return st.plain_root ? systree_plain_walk(st.plain_root, translate, &w) : -1;
}

uint64_t scorep_systree_location_ordinal(uint32_t rank, uint32_t local)
{
    if (!st.ordinal_of || rank >= st.size || !st.ordinal_of[rank])
        return UINT64_MAX;
    return st.ordinal_of[rank][local];
}

void scorep_systree_release(void)
{
    systree_list_free(&st.global);
    if (st.plain_root)
        systree_pnode_free(st.plain_root);
    for (uint32_t r = 0; st.ordinal_of && r < st.size; r++)
        free(st.ordinal_of[r]);
    free(st.ordinal_of);
    free(st.group_rank);
    free(st.loc_rank);
    free(st.loc_local);
    free(st.my_locs);
    memset(&st, 0, sizeof st);
}
