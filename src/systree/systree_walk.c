/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_walk.c: expansion of sequence records into single nodes: a streaming depth-first
 * traversal for the writers, and random access by depth-first index. */
#include "systree/systree_seq.h"

#include <stdlib.h>
#include <string.h>

enum { NAME_MAX_LEN = 1024 };

typedef struct class_count {
    const char *klass;
    uint64_t n;
} class_count;

typedef struct walker {
    systree_visit_fn fn;
    void *arg;
    systree_count pos; /* nodes visited so far, by kind */
    class_count *cls;  /* nodes visited so far, by class (numbers of fallback names) */
    size_t ncls;
    char name[NAME_MAX_LEN];
} walker;

/* The counter of r's class (created on first use); NULL when out of memory. */
static uint64_t *class_counter(walker *w, const char *klass)
{
    for (size_t i = 0; i < w->ncls; i++)
        if (w->cls[i].klass == klass)
            return &w->cls[i].n;
    class_count *c = realloc(w->cls, (w->ncls + 1) * sizeof *c);
    if (c == NULL)
        return NULL;
    w->cls = c;
    w->cls[w->ncls] = (class_count){klass, 0};
    return &w->cls[w->ncls++].n;
}

static uint64_t sum(systree_count c)
{
    return c.k[0] + c.k[1] + c.k[2];
}

static int visit_list(walker *w, const systree_list *l, uint64_t parent_k,
                      const systree_node *parent);

/* Copy c of r below the parent instance parent_k. */
static int visit_copy(walker *w, const systree_rec *r, uint64_t k, const systree_node *parent)
{
    uint64_t *cn = class_counter(w, r->klass);
    if (cn == NULL)
        return -1;
    systree_names_render(&r->names, k, r->klass, *cn, w->name, sizeof w->name);
    systree_node node = {
        .index = sum(w->pos),
        .ordinal = w->pos.k[r->kind],
        .parent = parent ? parent->index : UINT64_MAX,
        .parent_ordinal = parent ? parent->ordinal : UINT64_MAX,
        .depth = parent ? parent->depth + 1 : 0,
        .kind = r->kind,
        .type = r->type,
        .klass = r->klass,
        .name = w->name,
        .origin = UINT64_MAX,
    };
    w->pos.k[r->kind]++;
    (*cn)++;
    int rc = w->fn(w->arg, &node);
    return rc ? rc : visit_list(w, &r->children, k, &node);
}

static int visit_list(walker *w, const systree_list *l, uint64_t parent_k,
                      const systree_node *parent)
{
    for (uint32_t i = 0; i < l->n; i++) {
        const systree_rec *r = l->v[i];
        for (uint64_t c = 0; c < r->copies; c++) {
            int rc = visit_copy(w, r, parent_k * r->copies + c, parent);
            if (rc)
                return rc;
        }
    }
    return 0;
}

int systree_walk(const systree_list *top, systree_visit_fn fn, void *arg)
{
    walker w = {.fn = fn, .arg = arg};
    int rc = visit_list(&w, top, 0, NULL);
    free(w.cls);
    return rc;
}

/* ---- random access ---- */

static uint64_t class_nodes(const systree_rec *r, const char *klass)
{
    uint64_t n = r->klass == klass;
    for (uint32_t i = 0; i < r->children.n; i++)
        n += r->children.v[i]->copies * class_nodes(r->children.v[i], klass);
    return n;
}

/* Nodes of class klass before index (the ancestors included): the number of a fallback name. */
static uint64_t class_before(const systree_list *l, uint64_t index, const char *klass)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < l->n; i++) {
        const systree_rec *r = l->v[i];
        uint64_t tot = sum(systree_rec_size(r)), span = tot * r->copies;
        if (index >= span) {
            index -= span;
            n += r->copies * class_nodes(r, klass);
            continue;
        }
        n += (index / tot) * class_nodes(r, klass);
        index %= tot;
        if (index == 0)
            return n;
        return n + (r->klass == klass) + class_before(&r->children, index - 1, klass);
    }
    return n;
}

int systree_node_at(const systree_list *top, uint64_t index, systree_node *out, char *buf,
                    size_t size)
{
    const systree_list *l = top;
    systree_count pos = {{0}};
    systree_node node = {.parent = UINT64_MAX, .parent_ordinal = UINT64_MAX, .origin = UINT64_MAX};
    uint64_t k = 0, left = index;
    for (uint32_t i = 0; i < l->n; i++) {
        const systree_rec *r = l->v[i];
        systree_count s = systree_rec_size(r);
        uint64_t tot = sum(s);
        if (left >= tot * r->copies) {
            left -= tot * r->copies;
            for (int j = 0; j < SYSTREE_NKINDS; j++)
                pos.k[j] += r->copies * s.k[j];
            continue;
        }
        uint64_t c = left / tot;
        for (int j = 0; j < SYSTREE_NKINDS; j++)
            pos.k[j] += c * s.k[j];
        k = k * r->copies + c;
        left %= tot;
        node.index = index - left;
        node.ordinal = pos.k[r->kind];
        node.kind = r->kind;
        node.type = r->type;
        node.klass = r->klass;
        if (left == 0) {
            uint64_t cn = r->names.nruns ? 0 : class_before(top, index, r->klass);
            systree_names_render(&r->names, k, r->klass, cn, buf, size);
            node.name = buf;
            *out = node;
            return 0;
        }
        node.parent = node.index; /* descend: this instance is the parent */
        node.parent_ordinal = node.ordinal;
        node.depth++;
        pos.k[r->kind]++;
        left--;
        l = &r->children;
        i = (uint32_t)-1; /* restart the loop over the children */
    }
    return -1;
}
