/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_build.c: the level driver of the construction: per level the members grouped by
 * name path, each group merged into its rank 0, which makes the level's node and joins the
 * next level's family; then the tree broadcast, positions passed down, places reported. */
#include "systree/systree_build_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- one process ---- */

int systree_local_record(const systree_local *l, systree_rec **out, systree_where *locs)
{
    systree_rec *p =
        systree_rec_new(SYSTREE_LOCGROUP, l->process_type, l->process_class, l->process_name);
    int rc = p ? 0 : -1;
    for (uint32_t i = 0; i < l->nlocations && rc == 0; i++) {
        const systree_loc_desc *d = &l->locations[i];
        systree_rec *loc = systree_rec_new(SYSTREE_LOCATION, d->type, d->klass, d->name);
        if (loc == NULL) {
            rc = -1;
            break;
        }
        systree_rec_seal(loc);
        rc = systree_list_merge_one(&p->children, loc, locs ? &locs[i] : NULL);
    }
    if (rc != 0) {
        systree_rec_free(p);
        return -1;
    }
    systree_rec_seal(p);
    *out = p;
    return 0;
}

void systree_local_positions(const systree_rec *process, systree_count at,
                             const systree_where *locs, uint32_t n, systree_count *out)
{
    at.k[process->kind]++;
    for (uint32_t i = 0; i < n; i++) {
        systree_count p = at;
        for (uint32_t j = 0; j < locs[i].target; j++) {
            systree_count s = systree_rec_size(process->children.v[j]);
            for (int k = 0; k < SYSTREE_NKINDS; k++)
                p.k[k] += process->children.v[j]->copies * s.k[k];
        }
        systree_count s = systree_rec_size(process->children.v[locs[i].target]);
        for (int k = 0; k < SYSTREE_NKINDS; k++)
            p.k[k] += locs[i].offset * s.k[k];
        out[i] = p;
    }
}

/* ---- levels ---- */

typedef struct level {
    systree_comm *groups;   /* members grouped by the path up to this level */
    size_t *in_of;          /* member of groups -> member of the family below */
    systree_mstate *st;     /* per member of groups */
    systree_count *node_at; /* per member of groups: position of the node it made (rank 0) */
    size_t *node_of;        /* member of the family above -> member of groups that made it */
} level;

/* Frees the merge states of n members (st itself too), fetching the blocks of the members
 * ahead: freeing millions of scattered blocks waits on memory like the rounds do. */
static void states_free(systree_mstate *st, size_t n)
{
    enum { AHEAD = 16 };
    for (size_t m = 0; st && m < n; m++) {
        if (m + AHEAD < n) {
            const systree_mstate *s = &st[m + AHEAD];
            __builtin_prefetch(s->info);
            __builtin_prefetch(s->kids);
            __builtin_prefetch(s->pos);
            __builtin_prefetch(s->list.v);
        }
        if (m + AHEAD / 2 < n) {
            const systree_mstate *s = &st[m + AHEAD / 2];
            for (uint32_t i = 0; i < s->nkids; i++)
                __builtin_prefetch(s->kids[i].map.e);
        }
        systree_mstate_free(&st[m]);
    }
    free(st);
}

static void level_free(level *lv)
{
    size_t n = lv->groups ? systree_comm_nlocal(lv->groups) : 0;
    states_free(lv->st, n);
    free(lv->in_of);
    free(lv->node_at);
    free(lv->node_of);
    systree_comm_free(lv->groups);
    memset(lv, 0, sizeof *lv);
}

/* Positions of the records of a list frozen in s, the first at `start`. */
static int first_positions(systree_mstate *s, systree_count start)
{
    s->pos = malloc((s->nrec ? s->nrec : 1) * sizeof *s->pos);
    if (s->pos == NULL)
        return -1;
    for (uint32_t j = 0; j < s->nrec; j++) {
        s->pos[j] = start;
        for (int k = 0; k < SYSTREE_NKINDS; k++)
            start.k[k] += s->info[j].copies * s->info[j].size.k[k];
    }
    return 0;
}

/* Rank 0 of a group: its merged list becomes the children of the node of level d. */
static systree_rec *make_node(const systree_build_cfg *cfg, uint32_t d, uint64_t w,
                              systree_mstate *s)
{
    systree_local l;
    if (cfg->describe(cfg->arg, w, &l) != 0 || d >= l.nlevels || systree_mstate_freeze(s) != 0)
        return NULL;
    systree_rec *node = systree_rec_new(SYSTREE_STNODE, 0, l.levels[d].klass, l.levels[d].name);
    if (node == NULL)
        return NULL;
    node->children = s->list;
    memset(&s->list, 0, sizeof s->list);
    systree_rec_seal(node);
    return node;
}

/* Group roots make their nodes (made[m] per member of `in`) and get the family above. */
static int make_nodes(level *lv, const systree_build_cfg *cfg, uint32_t d, systree_comm *in,
                      systree_rec **made, systree_comm **above)
{
    size_t n = systree_comm_nlocal(in), ng = systree_comm_nlocal(lv->groups);
    int64_t *color = malloc((n ? n : 1) * sizeof *color);
    size_t *g_of = malloc((n ? n : 1) * sizeof *g_of);
    int rc = color && g_of ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++)
        color[i] = SYSTREE_UNDEFINED;
    for (size_t m = 0; m < ng && rc == 0; m++) {
        size_t i = lv->in_of[m];
        g_of[i] = m;
        if (systree_comm_rank(lv->groups, m) != 0)
            continue;
        color[i] = 0;
        made[i] = make_node(cfg, d, systree_comm_world(lv->groups, m), &lv->st[m]);
        rc = made[i] ? 0 : -1;
    }
    if (rc == 0)
        rc = systree_comm_split(in, color, NULL, above);
    size_t na = rc == 0 ? systree_comm_nlocal(*above) : 0;
    lv->node_of = rc == 0 ? malloc((na ? na : 1) * sizeof *lv->node_of) : NULL;
    rc = rc == 0 && lv->node_of ? 0 : -1;
    for (size_t j = 0; j < na && rc == 0; j++)
        lv->node_of[j] = g_of[systree_comm_parent(*above, j)];
    free(color);
    free(g_of);
    return rc;
}

/* One level up: *contrib (one record per member of in) becomes that of the family above. */
static int level_up(level *lv, const systree_build_cfg *cfg, uint32_t d, systree_comm *in,
                    systree_rec ***contrib, systree_comm **above, uint64_t *resplits)
{
    size_t n = systree_comm_nlocal(in);
    int rc = systree_split_by_path(cfg, d, in, &lv->groups, &lv->in_of, resplits);
    size_t ng = rc == 0 ? systree_comm_nlocal(lv->groups) : 0;
    lv->st = rc == 0 ? calloc(ng ? ng : 1, sizeof *lv->st) : NULL;
    lv->node_at = rc == 0 ? calloc(ng ? ng : 1, sizeof *lv->node_at) : NULL;
    systree_rec **made = calloc(n ? n : 1, sizeof *made);
    rc = rc == 0 && lv->st && lv->node_at && made ? 0 : -1;
    for (size_t m = 0; m < ng && rc == 0; m++) {
        rc = systree_list_push(&lv->st[m].list, (*contrib)[lv->in_of[m]]);
        if (rc == 0)
            (*contrib)[lv->in_of[m]] = NULL;
    }
    if (rc == 0)
        rc = systree_merge_family(lv->groups, lv->st);
    if (rc == 0)
        rc = make_nodes(lv, cfg, d, in, made, above);
    size_t na = rc == 0 ? systree_comm_nlocal(*above) : 0;
    systree_rec **next = rc == 0 ? malloc((na ? na : 1) * sizeof *next) : NULL;
    rc = rc == 0 && next ? 0 : -1;
    for (size_t j = 0; j < na && rc == 0; j++) {
        size_t i = systree_comm_parent(*above, j);
        next[j] = made[i];
        made[i] = NULL;
    }
    for (size_t i = 0; made && i < n; i++)
        systree_rec_free(made[i]);
    free(made);
    for (size_t i = 0; i < n; i++)
        systree_rec_free((*contrib)[i]);
    free(*contrib);
    *contrib = next;
    return rc;
}

/* ---- the whole construction ---- */

typedef struct job {
    const systree_build_cfg *cfg;
    systree_comm *world;
    uint32_t depth;
    level *lv;              /* lv[d] for the levels d = 0 (machine) .. depth - 1 */
    systree_comm *top;      /* the makers of the top nodes (world when depth is 0) */
    systree_mstate *topst;  /* per member of top */
    systree_count *proc_at; /* per member of world: position of its process */
    uint64_t resplits;
} job;

/* Every process's record; checks that all have the same depth. */
static int local_records(job *j, systree_rec ***contrib)
{
    size_t n = systree_comm_nlocal(j->world), ng = systree_comm_ngroups(j->world);
    uint64_t *depth = malloc((n ? n : 1) * 2 * sizeof *depth);
    uint64_t *max = malloc((ng ? ng : 1) * 2 * sizeof *max);
    *contrib = calloc(n ? n : 1, sizeof **contrib);
    int rc = depth && max && *contrib ? 0 : -1;
    for (size_t m = 0; m < n && rc == 0; m++) {
        systree_local l;
        rc = j->cfg->describe(j->cfg->arg, systree_comm_world(j->world, m), &l);
        if (rc == 0)
            rc = systree_local_record(&l, &(*contrib)[m], NULL);
        depth[2 * m] = l.nlevels;
        depth[2 * m + 1] = ~(uint64_t)l.nlevels;
    }
    if (rc == 0)
        rc = systree_comm_allreduce_max(j->world, NULL, depth, 2, max);
    for (size_t g = 0; g < ng && rc == 0; g++)
        rc = max[2 * g] == ~max[2 * g + 1] && max[2 * g] < 256 ? 0 : -1; /* all equal */
    j->depth = rc == 0 && ng ? (uint32_t)max[0] : 0;
    free(depth);
    free(max);
    return rc;
}

/* Level by level up to the top family, whose lists are then merged into its rank 0. */
static int climb(job *j, systree_rec **contrib)
{
    systree_comm *in = j->world;
    int rc = 0;
    for (uint32_t d = j->depth; d-- > 0 && rc == 0;) {
        systree_comm *above = NULL;
        rc = level_up(&j->lv[d], j->cfg, d, in, &contrib, &above, &j->resplits);
        if (in != j->world)
            systree_comm_free(in);
        in = above;
    }
    j->top = in;
    size_t n = rc == 0 ? systree_comm_nlocal(in) : 0;
    j->topst = calloc(n ? n : 1, sizeof *j->topst);
    rc = rc == 0 && j->topst ? 0 : -1;
    for (size_t m = 0; m < n && rc == 0; m++) {
        rc = systree_list_push(&j->topst[m].list, contrib[m]);
        if (rc == 0)
            contrib[m] = NULL;
    }
    for (size_t m = 0; contrib && m < n; m++)
        systree_rec_free(contrib[m]);
    free(contrib);
    return rc == 0 ? systree_merge_family(j->top, j->topst) : -1;
}

/* The global list from the top root (world rank 0) to every process. */
static int share(job *j, systree_list *global)
{
    size_t ng = systree_comm_ngroups(j->world);
    systree_blob *in = calloc(ng ? ng : 1, sizeof *in), *out = calloc(ng ? ng : 1, sizeof *out);
    int rc = in && out ? 0 : -1;
    for (size_t m = 0; m < systree_comm_nlocal(j->top) && rc == 0; m++) {
        if (systree_comm_rank(j->top, m) != 0)
            continue;
        systree_buf b = {0};
        rc = systree_list_pack(&j->topst[m].list, &b);
        in[0] = (systree_blob){b.data, b.len};
    }
    if (rc == 0)
        rc = systree_comm_bcast(j->world, NULL, in, out);
    memset(global, 0, sizeof *global);
    if (rc == 0 && ng) { /* the same bytes for every group: read once */
        systree_reader rd;
        systree_reader_init(&rd, out[0].data, out[0].len);
        rc = systree_list_unpack(&rd, global);
    }
    for (size_t g = 0; g < ng && in && out; g++) {
        free(in[g].data);
        free(out[g].data);
    }
    free(in);
    free(out);
    return rc;
}

/* Where the member own position of member m of level d (or of the top, d == -1) goes. */
static void hand_down(job *j, int d, size_t m, systree_count own)
{
    size_t i = d < 0 ? m : j->lv[d].in_of[m];
    if (d + 1 < (int)j->depth)
        j->lv[d + 1].node_at[j->lv[d + 1].node_of[i]] = own;
    else
        j->proc_at[i] = own;
}

static int descend(job *j)
{
    size_t nw = systree_comm_nlocal(j->world), nt = systree_comm_nlocal(j->top);
    j->proc_at = calloc(nw ? nw : 1, sizeof *j->proc_at);
    int rc = j->proc_at ? 0 : -1;
    for (size_t m = 0; m < nt && rc == 0; m++)
        if (systree_comm_rank(j->top, m) == 0)
            rc = systree_mstate_freeze(&j->topst[m]) ||
                 first_positions(&j->topst[m], (systree_count){{0}});
    if (rc == 0)
        rc = systree_pass_down(j->top, j->topst);
    for (size_t m = 0; m < nt && rc == 0; m++)
        hand_down(j, -1, m, j->topst[m].pos[0]);
    if (rc == 0) { /* done with: freed now, so that the levels below reuse the memory */
        states_free(j->topst, nt);
        j->topst = NULL;
    }
    for (uint32_t d = 0; d < j->depth && rc == 0; d++) {
        level *lv = &j->lv[d];
        size_t ng = systree_comm_nlocal(lv->groups);
        for (size_t m = 0; m < ng && rc == 0; m++) {
            systree_count start = lv->node_at[m];
            start.k[SYSTREE_STNODE]++;
            if (systree_comm_rank(lv->groups, m) == 0)
                rc = first_positions(&lv->st[m], start);
        }
        if (rc == 0)
            rc = systree_pass_down(lv->groups, lv->st);
        for (size_t m = 0; m < ng && rc == 0; m++)
            hand_down(j, (int)d, m, lv->st[m].pos[0]);
        if (rc == 0) {
            states_free(lv->st, ng);
            lv->st = NULL;
        }
    }
    return rc;
}

static int report_one(job *j, size_t m)
{
    systree_local l;
    systree_rec *p = NULL;
    uint64_t w = systree_comm_world(j->world, m);
    if (j->cfg->describe(j->cfg->arg, w, &l) != 0)
        return -1;
    size_t n = l.nlocations ? l.nlocations : 1;
    systree_where *locs = malloc(n * sizeof *locs);
    systree_count *at = malloc(n * sizeof *at);
    int rc = locs && at ? systree_local_record(&l, &p, locs) : -1;
    if (rc == 0) {
        systree_local_positions(p, j->proc_at[m], locs, l.nlocations, at);
        systree_place place = {w, j->proc_at[m], l.nlocations, at};
        rc = j->cfg->place(j->cfg->arg, &place);
    }
    systree_rec_free(p);
    free(locs);
    free(at);
    return rc;
}

static void job_free(job *j)
{
    for (uint32_t d = 0; j->lv && d < j->depth; d++)
        level_free(&j->lv[d]);
    free(j->lv);
    size_t nt = j->top ? systree_comm_nlocal(j->top) : 0;
    states_free(j->topst, nt);
    if (j->top != j->world)
        systree_comm_free(j->top);
    free(j->proc_at);
}

int systree_build(systree_comm *world, const systree_build_cfg *cfg, systree_list *global,
                  systree_build_info *info)
{
    job j = {.cfg = cfg, .world = world};
    systree_rec **contrib = NULL;
    memset(global, 0, sizeof *global);
    int rc = local_records(&j, &contrib);
    j.lv = rc == 0 ? calloc(j.depth ? j.depth : 1, sizeof *j.lv) : NULL;
    if (rc == 0 && j.lv) {
        rc = climb(&j, contrib);
    } else {
        for (size_t m = 0; contrib && m < systree_comm_nlocal(world); m++)
            systree_rec_free(contrib[m]);
        free(contrib);
        rc = -1;
    }
    if (rc == 0)
        rc = share(&j, global);
    if (rc == 0)
        rc = descend(&j);
    for (size_t m = 0; rc == 0 && cfg->place && m < systree_comm_nlocal(world); m++)
        rc = report_one(&j, m);
    if (info) {
        info->levels = j.depth;
        info->resplits = j.resplits;
    }
    job_free(&j);
    if (rc != 0)
        systree_list_free(global);
    return rc;
}
