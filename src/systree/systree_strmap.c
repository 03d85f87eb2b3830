/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_strmap.c: the string tables of the serialised forms (systree_strmap.h). */
#include "systree/systree_strmap.h"
#include "systree/systree_names.h"

#include <stdlib.h>
#include <string.h>

static size_t slot(const systree_strmap *m, const char *s)
{
    size_t j = (size_t)(((uintptr_t)s >> 3) * 0x9e3779b97f4a7c15ull) & (m->cap - 1);
    while (m->key[j] && m->key[j] != s)
        j = (j + 1) & (m->cap - 1);
    return j;
}

static int grow(systree_strmap *m)
{
    size_t cap = m->cap ? 2 * m->cap : 4 * SYSTREE_STRMAP_SMALL;
    if (m->cap == 0 && m->order == NULL) { /* leaving the small table */
        m->order = malloc(cap / 2 * sizeof(char *));
        if (m->order == NULL)
            return -1;
        memcpy(m->order, m->small, m->n * sizeof(char *));
    }
    systree_strmap g = {{0},
                        calloc(cap, sizeof(char *)),
                        calloc(cap, sizeof(uint32_t)),
                        cap,
                        m->n,
                        realloc(m->order, cap / 2 * sizeof(char *))};
    if (g.order)
        m->order = g.order;
    if (g.key == NULL || g.id == NULL || g.order == NULL) {
        free(g.key);
        free(g.id);
        return -1;
    }
    for (size_t i = 0; i < m->n; i++) {
        size_t j = slot(&g, g.order[i]);
        g.key[j] = g.order[i];
        g.id[j] = (uint32_t)i;
    }
    free(m->key);
    free(m->id);
    *m = g;
    return 0;
}

static int small_find(const systree_strmap *m, const char *s)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->small[i] == s)
            return (int)i;
    return -1;
}

int systree_strmap_add(systree_strmap *m, const char *s)
{
    if (m->cap == 0 && small_find(m, s) >= 0)
        return 0;
    if (m->cap == 0 && m->n < SYSTREE_STRMAP_SMALL) {
        m->small[m->n++] = s;
        return 0;
    }
    if (2 * (m->n + 1) > m->cap && grow(m) != 0)
        return -1;
    size_t j = slot(m, s);
    if (m->key[j] == NULL) {
        m->key[j] = s;
        m->id[j] = (uint32_t)m->n;
        m->order[m->n++] = s;
    }
    return 0;
}

uint32_t systree_strmap_id(const systree_strmap *m, const char *s)
{
    return m->cap ? m->id[slot(m, s)] : (uint32_t)small_find(m, s);
}

void systree_strmap_put(const systree_strmap *m, systree_buf *b)
{
    systree_put_uv(b, m->n);
    const char *const *order = m->cap ? m->order : m->small;
    for (size_t i = 0; i < m->n; i++) {
        size_t len = strlen(order[i]);
        systree_put_uv(b, len);
        systree_put(b, order[i], len);
    }
}

void systree_strmap_free(systree_strmap *m)
{
    free(m->key);
    free(m->id);
    free(m->order);
    memset(m, 0, sizeof *m);
}

int systree_strtab_get(systree_reader *r, systree_strtab *t)
{
    t->n = systree_get_uv(r);
    if (r->failed || t->n > (uint64_t)(r->end - r->p))
        return -1;
    t->s = malloc((t->n ? t->n : 1) * sizeof *t->s);
    if (t->s == NULL)
        return -1;
    for (uint64_t i = 0; i < t->n; i++) {
        uint64_t len = systree_get_uv(r);
        const char *p = len <= (uint64_t)(r->end - r->p) ? systree_get(r, len) : NULL;
        if (p == NULL || memchr(p, '\0', len) || (t->s[i] = systree_intern_n(p, len)) == NULL)
            return -1;
    }
    return 0;
}

const char *systree_strtab_ref(systree_reader *r, const systree_strtab *t)
{
    uint64_t id = systree_get_uv(r);
    if (id >= t->n) {
        r->failed = 1;
        return NULL;
    }
    return t->s[id];
}
