/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_plain.c: the plain (single-node) method for comparison: each process's path of
 * nodes, merged node by node into world rank 0 by a binomial tree, with the memory of every
 * simulated tree accounted and limits that stop the run where it would not fit. */
#include "systree/systree_plain.h"
#include "systree/systree_build_int.h"
#include "systree/systree_strmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROOT_KIND = 255, INDEX_FROM = 8 };

/* Memory accounting: all trees (live) and the tree being worked on (*cur). */
typedef struct pctx {
    uint64_t live, peak;
    uint64_t *cur;
} pctx;

static void charge(pctx *c, int64_t bytes)
{
    if (c == NULL)
        return;
    c->live += (uint64_t)bytes;
    if (c->live > c->peak)
        c->peak = c->live;
    if (c->cur)
        *c->cur += (uint64_t)bytes;
}

static systree_pnode *pnode_new(pctx *c, uint8_t kind, uint8_t type, const char *klass,
                                const char *name)
{
    systree_pnode *n = calloc(1, sizeof *n);
    systree_run r;
    if (n == NULL || (name && systree_run_parse(&r, name) != 0)) {
        free(n);
        return NULL;
    }
    n->kind = kind;
    n->type = type;
    n->klass = klass ? systree_intern(klass) : NULL;
    if (name)
        n->name = (systree_pname){r.prefix, r.suffix, r.base, r.width, r.numbered};
    charge(c, sizeof *n);
    return n;
}

static void pnode_release(pctx *c, systree_pnode *n)
{
    charge(c, -(int64_t)(sizeof *n + n->cap * sizeof *n->child + n->icap * sizeof *n->index));
    free(n->child);
    free(n->index);
    free(n);
}

static void pnode_free(pctx *c, systree_pnode *n)
{
    if (n == NULL)
        return;
    for (uint32_t i = 0; i < n->n; i++)
        pnode_free(c, n->child[i]);
    pnode_release(c, n);
}

void systree_pnode_free(systree_pnode *n)
{
    pnode_free(NULL, n);
}

/* ---- children by (kind, class, name) ---- */

static uint64_t key_hash(const systree_pnode *n)
{
    uint64_t h = (uintptr_t)n->klass * 31 + (uintptr_t)n->name.prefix;
    h = (h ^ (uintptr_t)n->name.suffix) * 0x9e3779b97f4a7c15ull;
    h = (h ^ n->name.num ^ ((uint64_t)n->name.width << 56)) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 29) ^ n->kind;
}

static bool same_key(const systree_pnode *a, const systree_pnode *b)
{
    return a->kind == b->kind && a->klass == b->klass && a->name.prefix == b->name.prefix &&
           a->name.suffix == b->name.suffix && a->name.numbered == b->name.numbered &&
           a->name.num == b->name.num && a->name.width == b->name.width;
}

static void index_put(systree_pnode *p, uint32_t i)
{
    size_t j = key_hash(p->child[i]) & (p->icap - 1);
    while (p->index[j] != UINT32_MAX)
        j = (j + 1) & (p->icap - 1);
    p->index[j] = i;
}

static int index_build(pctx *c, systree_pnode *p, uint32_t icap)
{
    uint32_t *idx = malloc(icap * sizeof *idx);
    if (idx == NULL)
        return -1;
    charge(c, (int64_t)(icap - p->icap) * (int64_t)sizeof *idx);
    free(p->index);
    p->index = idx;
    p->icap = icap;
    memset(idx, 0xff, icap * sizeof *idx);
    for (uint32_t i = 0; i < p->n; i++)
        index_put(p, i);
    return 0;
}

static systree_pnode *find_child(const systree_pnode *p, const systree_pnode *x)
{
    if (p->n && same_key(p->child[p->n - 1], x))
        return p->child[p->n - 1];
    if (p->index == NULL) {
        for (uint32_t i = 0; i < p->n; i++)
            if (same_key(p->child[i], x))
                return p->child[i];
        return NULL;
    }
    for (size_t j = key_hash(x) & (p->icap - 1); p->index[j] != UINT32_MAX;
         j = (j + 1) & (p->icap - 1))
        if (same_key(p->child[p->index[j]], x))
            return p->child[p->index[j]];
    return NULL;
}

static int add_child(pctx *c, systree_pnode *p, systree_pnode *x)
{
    if (p->n == p->cap) {
        uint32_t cap = p->cap ? 2 * p->cap : 1;
        systree_pnode **g = realloc(p->child, cap * sizeof *g);
        if (g == NULL)
            return -1;
        charge(c, (int64_t)(cap - p->cap) * (int64_t)sizeof *g);
        p->child = g;
        p->cap = cap;
    }
    p->child[p->n++] = x;
    if (p->n < INDEX_FROM)
        return 0;
    if (2 * p->n > p->icap)
        return index_build(c, p, p->icap ? 2 * p->icap : 32);
    index_put(p, p->n - 1);
    return 0;
}

/* Moves u's children into t: system-tree nodes of the same name are merged, the processes and
 * locations (one per process) appended. u itself is released. */
static int merge_into(pctx *c, systree_pnode *t, systree_pnode *u)
{
    int rc = 0;
    for (uint32_t i = 0; i < u->n; i++) {
        systree_pnode *x = u->child[i],
                      *y = rc == 0 && x->kind == SYSTREE_STNODE ? find_child(t, x) : NULL;
        if (rc != 0)
            pnode_free(c, x);
        else if (y)
            rc = merge_into(c, y, x);
        else
            rc = add_child(c, t, x);
    }
    u->n = 0;
    pnode_release(c, u);
    return rc;
}

/* ---- one process ---- */

static systree_pnode *local_tree(pctx *c, const systree_local *l, uint64_t world)
{
    systree_pnode *root = pnode_new(c, ROOT_KIND, 0, NULL, NULL), *at = root;
    for (uint32_t i = 0; at && i < l->nlevels; i++) {
        systree_pnode *x = pnode_new(c, SYSTREE_STNODE, 0, l->levels[i].klass, l->levels[i].name);
        at = x && add_child(c, at, x) == 0 ? x : (pnode_free(c, x), NULL);
    }
    systree_pnode *p =
        at ? pnode_new(c, SYSTREE_LOCGROUP, l->process_type, l->process_class, l->process_name)
           : NULL;
    if (p)
        p->origin = world;
    at = p && add_child(c, at, p) == 0 ? p : (pnode_free(c, p), NULL);
    for (uint32_t i = 0; at && i < l->nlocations; i++) {
        const systree_loc_desc *d = &l->locations[i];
        systree_pnode *x = pnode_new(c, SYSTREE_LOCATION, d->type, d->klass, d->name);
        if (x)
            x->origin = i;
        if (x == NULL || add_child(c, at, x) != 0) {
            pnode_free(c, x);
            at = NULL;
        }
    }
    if (at == NULL) {
        pnode_free(c, root);
        return NULL;
    }
    return root;
}

/* ---- serialised form ---- */

static int collect(systree_strmap *m, const systree_pnode *n)
{
    int rc = systree_strmap_add(m, n->klass);
    if (rc == 0 && !n->name.numbered)
        rc = systree_strmap_add(m, n->name.prefix);
    for (uint32_t i = 0; i < n->n && rc == 0; i++)
        rc = collect(m, n->child[i]);
    return rc;
}

static int render(const systree_pname *p, char *buf, size_t size)
{
    if (!p->numbered)
        return snprintf(buf, size, "%s", p->prefix);
    return snprintf(buf, size, "%s%0*llu%s", p->prefix, (int)p->width, (unsigned long long)p->num,
                    p->suffix);
}

static void put_node(systree_buf *b, const systree_strmap *m, const systree_pnode *n)
{
    char name[1024];
    systree_put_u8(b, n->kind);
    systree_put_u8(b, n->type);
    systree_put_uv(b, systree_strmap_id(m, n->klass));
    systree_put_u8(b, n->name.numbered);
    if (n->name.numbered) {
        int len = render(&n->name, name, sizeof name);
        len = len < (int)sizeof name ? len : (int)sizeof name - 1;
        systree_put_uv(b, (uint64_t)len);
        systree_put(b, name, (size_t)len);
    } else {
        systree_put_uv(b, systree_strmap_id(m, n->name.prefix));
    }
    if (n->kind != SYSTREE_STNODE)
        systree_put_uv(b, n->origin);
    systree_put_uv(b, n->n);
    for (uint32_t i = 0; i < n->n; i++)
        put_node(b, m, n->child[i]);
}

int systree_plain_pack(const systree_pnode *root, systree_buf *b)
{
    systree_strmap m = {0};
    int rc = 0;
    for (uint32_t i = 0; i < root->n && rc == 0; i++)
        rc = collect(&m, root->child[i]);
    if (rc == 0) {
        systree_strmap_put(&m, b);
        systree_put_uv(b, root->n);
        for (uint32_t i = 0; i < root->n; i++)
            put_node(b, &m, root->child[i]);
        rc = b->failed ? -1 : 0;
    }
    systree_strmap_free(&m);
    return rc;
}

static int get_name(systree_reader *r, const systree_strtab *t, systree_pnode *n)
{
    n->name.numbered = systree_get_u8(r) != 0;
    if (!n->name.numbered) {
        n->name.prefix = systree_strtab_ref(r, t);
        n->name.suffix = systree_intern("");
        return r->failed ? -1 : 0;
    }
    uint64_t len = systree_get_uv(r);
    const char *p = len < 1024 ? systree_get(r, len) : NULL;
    char name[1024];
    systree_run run;
    if (p == NULL)
        return -1;
    memcpy(name, p, len);
    name[len] = '\0';
    if (systree_run_parse(&run, name) != 0)
        return -1;
    n->name = (systree_pname){run.prefix, run.suffix, run.base, run.width, run.numbered};
    return 0;
}

static systree_pnode *get_node(pctx *c, systree_reader *r, const systree_strtab *t, int depth)
{
    uint8_t kind = systree_get_u8(r), type = systree_get_u8(r);
    systree_pnode *n = depth < 64 ? pnode_new(c, kind, type, NULL, NULL) : NULL;
    if (n == NULL)
        return NULL;
    n->klass = systree_strtab_ref(r, t);
    int named = get_name(r, t, n) == 0;
    if (named && kind != SYSTREE_STNODE)
        n->origin = systree_get_uv(r);
    uint64_t nc = named ? systree_get_uv(r) : 0;
    int rc = r->failed || kind >= SYSTREE_NKINDS || nc > (uint64_t)(r->end - r->p) ? -1 : 0;
    for (uint64_t i = 0; i < nc && rc == 0; i++) {
        systree_pnode *x = get_node(c, r, t, depth + 1);
        rc = x && add_child(c, n, x) == 0 ? 0 : (pnode_free(c, x), -1);
    }
    if (rc != 0) {
        pnode_free(c, n);
        return NULL;
    }
    return n;
}

static systree_pnode *unpack(pctx *c, const void *data, size_t len)
{
    systree_reader r;
    systree_strtab t = {0};
    systree_reader_init(&r, data, len);
    systree_pnode *root = pnode_new(c, ROOT_KIND, 0, NULL, NULL);
    int rc = root && systree_strtab_get(&r, &t) == 0 ? 0 : -1;
    uint64_t n = rc == 0 ? systree_get_uv(&r) : 0;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        systree_pnode *x = get_node(c, &r, &t, 0);
        rc = x && add_child(c, root, x) == 0 ? 0 : (pnode_free(c, x), -1);
    }
    free(t.s);
    if (rc != 0 || r.failed) {
        pnode_free(c, root);
        return NULL;
    }
    return root;
}

/* ---- expansion ---- */

typedef struct pwalk {
    systree_visit_fn fn;
    void *arg;
    systree_count pos;
    char name[1024];
} pwalk;

static int pvisit(pwalk *w, const systree_pnode *n, const systree_node *parent)
{
    render(&n->name, w->name, sizeof w->name);
    systree_node node = {
        .index = w->pos.k[0] + w->pos.k[1] + w->pos.k[2],
        .ordinal = w->pos.k[n->kind],
        .parent = parent ? parent->index : UINT64_MAX,
        .parent_ordinal = parent ? parent->ordinal : UINT64_MAX,
        .depth = parent ? parent->depth + 1 : 0,
        .kind = n->kind,
        .type = n->type,
        .klass = n->klass,
        .name = w->name,
        .origin = n->kind == SYSTREE_STNODE ? UINT64_MAX : n->origin,
    };
    w->pos.k[n->kind]++;
    int rc = w->fn(w->arg, &node);
    for (uint32_t i = 0; i < n->n && rc == 0; i++)
        rc = pvisit(w, n->child[i], &node);
    return rc;
}

int systree_plain_walk(const systree_pnode *root, systree_visit_fn fn, void *arg)
{
    pwalk w = {.fn = fn, .arg = arg};
    int rc = 0;
    for (uint32_t i = 0; i < root->n && rc == 0; i++)
        rc = pvisit(&w, root->child[i], NULL);
    return rc;
}

/* ---- the merge over all ranks ---- */

typedef struct pmember {
    systree_pnode *tree;
    uint64_t bytes, ranks;
} pmember;

typedef struct prun {
    systree_comm *world;
    const systree_plain_cfg *cfg;
    pmember *mem;
    pctx c;
    systree_msg *send, *recv;
    systree_plain_result *res;
} prun;

static int ensure_tree(prun *p, size_t m)
{
    systree_local l;
    pmember *x = &p->mem[m];
    if (x->tree)
        return 0;
    p->c.cur = &x->bytes;
    x->ranks = 1;
    if (p->cfg->describe(p->cfg->arg, systree_comm_world(p->world, m), &l) != 0)
        return -1;
    x->tree = local_tree(&p->c, &l, systree_comm_world(p->world, m));
    return x->tree ? 0 : -1;
}

static int send_tree(prun *p, size_t m, size_t *nsend, uint64_t d)
{
    systree_buf b = {0};
    int rc = ensure_tree(p, m);
    if (rc == 0)
        rc = systree_plain_pack(p->mem[m].tree, &b);
    p->c.cur = &p->mem[m].bytes;
    pnode_free(&p->c, p->mem[m].tree);
    p->mem[m].tree = NULL;
    p->send[(*nsend)++] = (systree_msg){m, systree_comm_rank(p->world, m) - (int)d, b.data, b.len};
    return rc;
}

/* Merges a received tree; 1 when a limit is passed. */
static int take_tree(prun *p, const systree_msg *msg, uint64_t d, unsigned round)
{
    pmember *x = &p->mem[msg->member];
    int r = systree_comm_rank(p->world, msg->member),
        size = systree_comm_size(p->world, msg->member);
    uint64_t got = 0, kid = (uint64_t)size - (uint64_t)r - d;
    p->c.cur = &got;
    systree_pnode *u = unpack(&p->c, msg->data, msg->len);
    if (u == NULL)
        return -1;
    p->c.cur = &x->bytes;
    x->bytes += got;
    x->ranks += kid < d ? kid : d;
    if (merge_into(&p->c, x->tree, u) != 0)
        return -1;
    const systree_plain_cfg *cfg = p->cfg;
    if ((!cfg->rank_limit || x->bytes <= cfg->rank_limit) &&
        (!cfg->mem_limit || p->c.live <= cfg->mem_limit))
        return 0;
    p->res->stopped = 1;
    p->res->stop_round = round;
    p->res->stop_ranks = x->ranks;
    p->res->stop_bytes = x->bytes;
    return 1;
}

static int plain_round(prun *p, unsigned k)
{
    uint64_t d = 1ull << k;
    size_t nsend = 0, nrecv = 0, n = systree_comm_nlocal(p->world);
    int rc = 0;
    for (size_t m = 0; m < n && rc == 0; m++) {
        int r = systree_comm_rank(p->world, m), size = systree_comm_size(p->world, m);
        if (((uint64_t)r & (2 * d - 1)) == d)
            rc = send_tree(p, m, &nsend, d);
        else if (((uint64_t)r & (2 * d - 1)) == 0 && (uint64_t)r + d < (uint64_t)size)
            p->recv[nrecv++] = (systree_msg){m, r + (int)d, NULL, 0};
    }
    if (rc == 0)
        rc = systree_comm_exchange(p->world, p->send, nsend, p->recv, nrecv); /* takes them */
    else
        for (size_t i = 0; i < nsend; i++)
            free(p->send[i].data);
    for (size_t i = 0; i < nrecv && rc == 0; i++) {
        rc = ensure_tree(p, p->recv[i].member);
        if (rc == 0)
            rc = take_tree(p, &p->recv[i], d, k + 1);
    }
    for (size_t i = 0; i < nrecv; i++)
        free(p->recv[i].data);
    return rc;
}

int systree_plain_build(systree_comm *world, const systree_plain_cfg *cfg,
                        systree_plain_result *res)
{
    size_t n = systree_comm_nlocal(world);
    prun p = {world, cfg, calloc(n ? n : 1, sizeof *p.mem), {0}, NULL, NULL, res};
    p.send = malloc((n ? n : 1) * sizeof *p.send);
    p.recv = malloc((n ? n : 1) * sizeof *p.recv);
    memset(res, 0, sizeof *res);
    int rc = p.mem && p.send && p.recv ? 0 : -1;
    unsigned rounds = systree_ceil_log2(systree_max_group(world));
    for (unsigned k = 0; k < rounds && rc == 0; k++)
        rc = plain_round(&p, k);
    for (size_t m = 0; m < n && rc == 0; m++)
        if (systree_comm_rank(world, m) == 0)
            rc = ensure_tree(&p, m); /* a world of one rank */
    for (size_t m = 0; m < n && p.mem; m++) {
        if (rc == 0 && systree_comm_rank(world, m) == 0) {
            res->root = p.mem[m].tree;
            res->root_bytes = p.mem[m].bytes;
            continue;
        }
        p.c.cur = NULL;
        pnode_free(&p.c, p.mem[m].tree);
    }
    res->peak_bytes = p.c.peak;
    free(p.mem);
    free(p.send);
    free(p.recv);
    return rc < 0 ? -1 : 0;
}

/* ---- siblings of one shape together ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

/* Group number of each child (by shape, numbered in order of first appearance). */
static int number_groups(const uint64_t *shape, uint32_t n, uint32_t *group, uint32_t *ngroups)
{
    uint32_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    uint32_t *slot = malloc(cap * sizeof *slot); /* child index of each group's first */
    if (slot == NULL)
        return -1;
    memset(slot, 0xff, cap * sizeof *slot);
    *ngroups = 0;
    for (uint32_t i = 0; i < n; i++) {
        size_t j = shape[i] & (cap - 1);
        while (slot[j] != UINT32_MAX && shape[slot[j]] != shape[i])
            j = (j + 1) & (cap - 1);
        if (slot[j] == UINT32_MAX) {
            slot[j] = i;
            group[i] = (*ngroups)++;
        } else {
            group[i] = group[slot[j]];
        }
    }
    free(slot);
    return 0;
}

/* Stable reorder of n's children by group; shape[] follows. */
static int reorder(systree_pnode *n, uint64_t *shape)
{
    uint32_t *group = malloc((n->n ? n->n : 1) * sizeof *group), ng = 0;
    uint32_t *first = NULL;
    systree_pnode **child = malloc((n->n ? n->n : 1) * sizeof *child);
    uint64_t *sh = malloc((n->n ? n->n : 1) * sizeof *sh);
    int rc = group && child && sh ? number_groups(shape, n->n, group, &ng) : -1;
    first = rc == 0 ? calloc(ng + 1, sizeof *first) : NULL;
    rc = rc == 0 && first ? 0 : -1;
    for (uint32_t i = 0; i < n->n && rc == 0; i++)
        first[group[i] + 1]++;
    for (uint32_t g = 0; g < ng && rc == 0; g++)
        first[g + 1] += first[g];
    for (uint32_t i = 0; i < n->n && rc == 0; i++) {
        uint32_t at = first[group[i]]++;
        child[at] = n->child[i];
        sh[at] = shape[i];
    }
    if (rc == 0 && n->n) {
        memcpy(n->child, child, n->n * sizeof *child);
        memcpy(shape, sh, n->n * sizeof *sh);
    }
    free(group);
    free(first);
    free(child);
    free(sh);
    return rc;
}

/* Groups the subtree of n; *shape gets the hash of its shape (kind, type, class and the
 * runs of equal children), as the sequence definitions compare them. */
static int group_node(systree_pnode *n, uint64_t *shape)
{
    uint64_t *sh = malloc((n->n ? n->n : 1) * sizeof *sh);
    int rc = sh ? 0 : -1;
    for (uint32_t i = 0; i < n->n && rc == 0; i++)
        rc = group_node(n->child[i], &sh[i]);
    if (rc == 0)
        rc = reorder(n, sh);
    uint64_t h = mix(mix(n->kind, n->type), (uintptr_t)n->klass);
    for (uint32_t i = 0, run = 1; i < n->n && rc == 0; i++, run++)
        if (i + 1 == n->n || sh[i + 1] != sh[i]) {
            h = mix(mix(h, sh[i]), run);
            run = 0;
        }
    free(sh);
    free(n->index); /* positions changed; no more lookups by name */
    n->index = NULL;
    n->icap = 0;
    *shape = h;
    return rc;
}

int systree_plain_group(systree_pnode *root)
{
    uint64_t shape;
    return group_node(root, &shape);
}
