/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_split.c: the split of one level's family into groups of equal name path: by a hash
 * of the path, then checked against each group's rank 0 and split again on collisions. */
#include "systree/systree_build_int.h"

#include <stdlib.h>
#include <string.h>

systree_hash_fn systree_hash_hook;

static uint32_t default_hash(const char *path, size_t len, uint32_t seed)
{
    uint64_t h = 1469598103934665603ull ^ ((uint64_t)seed * 0x9e3779b97f4a7c15ull);
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)path[i]) * 1099511628211ull;
    return (uint32_t)(h ^ (h >> 31) ^ (h >> 62)) & 0x7fffffff;
}

static uint32_t hash_path(const char *path, size_t len, uint32_t seed)
{
    return (systree_hash_hook ? systree_hash_hook : default_hash)(path, len, seed) & 0x7fffffff;
}

/* ---- name paths and their splits ---- */

typedef struct path {
    char *s;
    size_t len, cap;
} path;

static int path_add(path *p, const char *s)
{
    size_t n = strlen(s) + 1;
    if (p->len + n + 1 > p->cap) {
        size_t cap = (p->len + n + 1) * 2;
        char *g = realloc(p->s, cap);
        if (g == NULL)
            return -1;
        p->s = g;
        p->cap = cap;
    }
    memcpy(p->s + p->len, s, n);
    p->len += n; /* the terminating NUL separates the parts */
    return 0;
}

/* Class and name of levels 0..d of world rank w, NUL-separated. */
static int path_of(const systree_build_cfg *cfg, uint64_t w, uint32_t d, path *p)
{
    systree_local l;
    p->len = 0;
    if (cfg->describe(cfg->arg, w, &l) != 0 || d >= l.nlevels)
        return -1;
    for (uint32_t i = 0; i <= d; i++)
        if (path_add(p, l.levels[i].klass) != 0 || path_add(p, l.levels[i].name) != 0)
            return -1;
    return 0;
}

typedef struct splitter {
    const systree_build_cfg *cfg;
    uint32_t d;
    path p;
    uint64_t resplits;
} splitter;

/* Per group of f (where active): whether its members' paths differ (coll), and per member
 * whether its path differs from its rank 0's (mism). */
static int check_groups(splitter *sp, systree_comm *f, const char *active, uint64_t *mism,
                        uint64_t *coll)
{
    size_t n = systree_comm_nlocal(f), ng = systree_comm_ngroups(f);
    systree_blob *in = calloc(ng ? ng : 1, sizeof *in), *out = calloc(ng ? ng : 1, sizeof *out);
    int rc = in && out ? 0 : -1;
    for (size_t m = 0; m < n && rc == 0; m++) {
        size_t g = systree_comm_group(f, m);
        if (systree_comm_rank(f, m) != 0 || (active && !active[g]))
            continue;
        rc = path_of(sp->cfg, systree_comm_world(f, m), sp->d, &sp->p);
        in[g].data = rc == 0 ? malloc(sp->p.len ? sp->p.len : 1) : NULL;
        rc = in[g].data ? 0 : -1;
        if (rc == 0)
            memcpy(in[g].data, sp->p.s, in[g].len = sp->p.len);
    }
    if (rc == 0)
        rc = systree_comm_bcast(f, active, in, out);
    for (size_t m = 0; m < n && rc == 0; m++) {
        size_t g = systree_comm_group(f, m);
        mism[m] = 0;
        if (active && !active[g])
            continue;
        rc = path_of(sp->cfg, systree_comm_world(f, m), sp->d, &sp->p);
        mism[m] = rc == 0 && (sp->p.len != out[g].len || memcmp(sp->p.s, out[g].data, sp->p.len));
    }
    if (rc == 0)
        rc = systree_comm_allreduce_max(f, active, mism, 1, coll);
    for (size_t g = 0; g < ng && in && out; g++) {
        free(in[g].data);
        free(out[g].data);
    }
    free(in);
    free(out);
    return rc;
}

/* Splits the colliding groups of *f again: members with the root's path stay together, the
 * others are split by a hash with a new seed. */
static int resplit(splitter *sp, systree_comm **f, size_t **of, char **active, const uint64_t *mism,
                   const uint64_t *coll, uint32_t seed)
{
    size_t n = systree_comm_nlocal(*f);
    int64_t *color = malloc((n ? n : 1) * sizeof *color);
    int rc = color ? 0 : -1;
    for (size_t m = 0; m < n && rc == 0; m++) {
        size_t g = systree_comm_group(*f, m);
        color[m] = coll[g] ? 0 : SYSTREE_KEEP;
        if (coll[g] && mism[m]) {
            rc = path_of(sp->cfg, systree_comm_world(*f, m), sp->d, &sp->p);
            color[m] = 1 + hash_path(sp->p.s, sp->p.len, seed) % 0x7ffffffe;
        }
    }
    systree_comm *g2 = NULL;
    if (rc == 0)
        rc = systree_comm_split(*f, color, NULL, &g2);
    free(color);
    size_t n2 = rc == 0 ? systree_comm_nlocal(g2) : 0, ng2 = rc == 0 ? systree_comm_ngroups(g2) : 0;
    size_t *of2 = rc == 0 ? malloc((n2 ? n2 : 1) * sizeof *of2) : NULL;
    char *act2 = rc == 0 ? calloc(ng2 ? ng2 : 1, 1) : NULL;
    rc = rc == 0 && of2 && act2 ? 0 : -1;
    for (size_t m = 0; m < n2 && rc == 0; m++) {
        size_t p = systree_comm_parent(g2, m);
        of2[m] = (*of)[p];
        act2[systree_comm_group(g2, m)] = coll[systree_comm_group(*f, p)] != 0;
    }
    if (rc != 0) {
        systree_comm_free(g2);
        free(of2);
        free(act2);
        return -1;
    }
    sp->resplits++;
    systree_comm_free(*f);
    free(*of);
    free(*active);
    *f = g2;
    *of = of2;
    *active = act2;
    return 0;
}

/* Rounds of collision checks until every group holds one path. */
static int settle(splitter *sp, systree_comm **f, size_t **of)
{
    char *active = NULL;
    int rc = 0;
    for (uint32_t seed = 1; rc == 0; seed++) {
        size_t n = systree_comm_nlocal(*f), ng = systree_comm_ngroups(*f);
        uint64_t *mism = malloc((n ? n : 1) * sizeof *mism);
        uint64_t *coll = calloc(ng ? ng : 1, sizeof *coll);
        rc = mism && coll ? check_groups(sp, *f, active, mism, coll) : -1;
        int any = 0;
        for (size_t g = 0; g < ng && rc == 0; g++)
            any |= (!active || active[g]) && coll[g];
        if (rc == 0 && any)
            rc = resplit(sp, f, of, &active, mism, coll, seed);
        free(mism);
        free(coll);
        if (!any)
            break;
    }
    free(active);
    return rc;
}

/* The family of level d: the members of `in` grouped by their name path up to level d;
 * (*of)[m] is the member of `in` behind member m. */
static int split_by_path(splitter *sp, systree_comm *in, systree_comm **out, size_t **of)
{
    size_t n = systree_comm_nlocal(in);
    int64_t *color = malloc((n ? n : 1) * sizeof *color);
    int rc = color ? 0 : -1;
    for (size_t m = 0; m < n && rc == 0; m++) {
        rc = path_of(sp->cfg, systree_comm_world(in, m), sp->d, &sp->p);
        color[m] = hash_path(sp->p.s, sp->p.len, 0);
    }
    *out = NULL;
    if (rc == 0)
        rc = systree_comm_split(in, color, NULL, out);
    free(color);
    size_t nf = rc == 0 ? systree_comm_nlocal(*out) : 0;
    *of = rc == 0 ? malloc((nf ? nf : 1) * sizeof **of) : NULL;
    rc = rc == 0 && *of ? 0 : -1;
    for (size_t m = 0; m < nf && rc == 0; m++)
        (*of)[m] = systree_comm_parent(*out, m);
    if (rc == 0)
        rc = settle(sp, out, of);
    if (rc != 0) {
        systree_comm_free(*out);
        free(*of);
        *out = NULL;
        *of = NULL;
    }
    return rc;
}

int systree_split_by_path(const systree_build_cfg *cfg, uint32_t d, systree_comm *in,
                          systree_comm **out, size_t **of, uint64_t *resplits)
{
    splitter sp = {cfg, d, {0}, 0};
    int rc = split_by_path(&sp, in, out, of);
    free(sp.p.s);
    *resplits += sp.resplits;
    return rc;
}
