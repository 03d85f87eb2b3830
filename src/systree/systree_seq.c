/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_seq.c: sequence records: creation, shape equality, merging with copy counts and
 * name patterns, and the sizes and positions used to compute depth-first indices. */
#include "systree/systree_seq.h"

#include <stdlib.h>
#include <string.h>

systree_rec *systree_rec_new(systree_kind kind, uint8_t type, const char *klass, const char *name)
{
    systree_rec *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->kind = (uint8_t)kind;
    r->type = type;
    r->klass = systree_intern(klass);
    r->copies = 1;
    if (r->klass == NULL || systree_names_single(&r->names, name) != 0) {
        free(r);
        return NULL;
    }
    return r;
}

void systree_rec_free(systree_rec *r)
{
    if (r == NULL)
        return;
    systree_list_free(&r->children);
    systree_names_free(&r->names);
    free(r);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (uint8_t)*s++) * 1099511628211ull;
    return h;
}

void systree_rec_seal(systree_rec *r)
{
    uint64_t h = mix(mix(r->kind, r->type), str_hash(r->klass));
    h = mix(h, r->children.n);
    for (uint32_t i = 0; i < r->children.n; i++)
        h = mix(mix(h, r->children.v[i]->copies), r->children.v[i]->shape);
    r->shape = h;
}

bool systree_same_shape(const systree_rec *a, const systree_rec *b)
{
    if (a->shape != b->shape || a->kind != b->kind || a->type != b->type || a->klass != b->klass ||
        a->children.n != b->children.n)
        return false;
    for (uint32_t i = 0; i < a->children.n; i++) {
        const systree_rec *x = a->children.v[i], *y = b->children.v[i];
        if (x->copies != y->copies || !systree_same_shape(x, y))
            return false;
    }
    return true;
}

systree_count systree_rec_size(const systree_rec *r)
{
    systree_count c = {{0}};
    c.k[r->kind] = 1;
    for (uint32_t i = 0; i < r->children.n; i++) {
        systree_count s = systree_rec_size(r->children.v[i]);
        for (int k = 0; k < SYSTREE_NKINDS; k++)
            c.k[k] += r->children.v[i]->copies * s.k[k];
    }
    return c;
}

int systree_list_push(systree_list *l, systree_rec *r)
{
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 2;
        systree_rec **v = realloc(l->v, cap * sizeof *v);
        if (v == NULL)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = r;
    return 0;
}

void systree_list_free(systree_list *l)
{
    for (uint32_t i = 0; i < l->n; i++)
        systree_rec_free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

uint64_t systree_list_nodes(const systree_list *l)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < l->n; i++) {
        systree_count s = systree_rec_size(l->v[i]);
        n += l->v[i]->copies * (s.k[0] + s.k[1] + s.k[2]);
    }
    return n;
}

/* t gets u's instances after its own: nt and nu instances of this record on either side. */
static int merge_names(systree_rec *t, const systree_rec *u, uint64_t nt, uint64_t nu)
{
    if (systree_names_append(&t->names, nt, &u->names, nu) != 0)
        return -1;
    for (uint32_t i = 0; i < t->children.n; i++) {
        uint64_t c = t->children.v[i]->copies;
        if (merge_names(t->children.v[i], u->children.v[i], nt * c, nu * c) != 0)
            return -1;
    }
    return 0;
}

static int64_t find_shape(const systree_list *l, const systree_rec *r)
{
    for (uint32_t i = 0; i < l->n; i++)
        if (systree_same_shape(l->v[i], r))
            return i;
    return -1;
}

static int map_init(systree_map *m, uint32_t n)
{
    m->n = n;
    m->e = malloc((n ? n : 1) * sizeof *m->e);
    return m->e ? 0 : -1;
}

/* Moves or merges from->v[i] into `into`; returns the target, -1 on error. */
static int64_t merge_one(systree_list *into, systree_rec *u, uint64_t *offset)
{
    int64_t t = find_shape(into, u);
    if (t < 0) {
        *offset = 0;
        if (systree_list_push(into, u) != 0)
            return -1;
        return into->n - 1;
    }
    systree_rec *r = into->v[t];
    *offset = r->copies;
    if (merge_names(r, u, r->copies, u->copies) != 0)
        return -1;
    r->copies += u->copies;
    systree_rec_free(u);
    return t;
}

int systree_list_merge(systree_list *into, systree_list *from, systree_map *map)
{
    int rc = map ? map_init(map, from->n) : 0;
    uint32_t i = 0;
    for (; i < from->n && rc == 0; i++) {
        uint64_t offset;
        int64_t t = merge_one(into, from->v[i], &offset);
        if (t < 0) {
            rc = -1;
            break;
        }
        from->v[i] = NULL;
        if (map) {
            map->e[i] = (systree_where){(uint32_t)t, offset};
        }
    }
    for (; i < from->n; i++)
        systree_rec_free(from->v[i]);
    free(from->v);
    memset(from, 0, sizeof *from);
    return rc;
}

int systree_list_merge_one(systree_list *into, systree_rec *r, systree_where *where)
{
    uint64_t offset;
    int64_t t = merge_one(into, r, &offset);
    if (t < 0) {
        systree_rec_free(r);
        return -1;
    }
    if (where)
        *where = (systree_where){(uint32_t)t, offset};
    return 0;
}

void systree_map_free(systree_map *m)
{
    free(m->e);
    memset(m, 0, sizeof *m);
}

void systree_list_positions(const systree_list *l, systree_count start, systree_count *out)
{
    for (uint32_t i = 0; i < l->n; i++) {
        out[i] = start;
        systree_count s = systree_rec_size(l->v[i]);
        for (int k = 0; k < SYSTREE_NKINDS; k++)
            start.k[k] += l->v[i]->copies * s.k[k];
    }
}
