/* systree_ser.c: serialisation of sequence records (messages between ranks, the broadcast
 * global tree, and its size): a string table, then the records in pre-order. */
#include "systree/systree_seq.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64 };

/* interned pointer -> id, in order of first use */
typedef struct strmap {
    const char **key;
    uint32_t *id;
    size_t cap, n;
    const char **order;
} strmap;

static size_t ptr_slot(const strmap *m, const char *s)
{
    size_t j = (size_t)(((uintptr_t)s >> 3) * 0x9e3779b97f4a7c15ull) & (m->cap - 1);
    while (m->key[j] && m->key[j] != s)
        j = (j + 1) & (m->cap - 1);
    return j;
}

static int strmap_grow(strmap *m)
{
    strmap g = {calloc(m->cap * 2, sizeof(char *)), calloc(m->cap * 2, sizeof(uint32_t)),
                m->cap * 2, m->n, realloc(m->order, m->cap * sizeof(char *))};
    if (g.key == NULL || g.id == NULL || g.order == NULL) {
        free(g.key);
        free(g.id);
        if (g.order)
            m->order = g.order;
        return -1;
    }
    for (size_t i = 0; i < m->n; i++) {
        size_t j = ptr_slot(&g, g.order[i]);
        g.key[j] = g.order[i];
        g.id[j] = (uint32_t)i;
    }
    free(m->key);
    free(m->id);
    *m = g;
    return 0;
}

static int strmap_add(strmap *m, const char *s)
{
    if (2 * (m->n + 1) > m->cap && strmap_grow(m) != 0)
        return -1;
    size_t j = ptr_slot(m, s);
    if (m->key[j] == NULL) {
        m->key[j] = s;
        m->id[j] = (uint32_t)m->n;
        m->order[m->n++] = s;
    }
    return 0;
}

static uint32_t strmap_id(const strmap *m, const char *s)
{
    return m->id[ptr_slot(m, s)];
}

static int collect(strmap *m, const systree_rec *r)
{
    int rc = strmap_add(m, r->klass);
    for (uint32_t i = 0; i < r->names.nruns && rc == 0; i++)
        rc = strmap_add(m, r->names.runs[i].prefix) | strmap_add(m, r->names.runs[i].suffix);
    for (uint32_t i = 0; i < r->children.n && rc == 0; i++)
        rc = collect(m, r->children.v[i]);
    return rc;
}

static void put_names(systree_buf *b, const strmap *m, const systree_names *n)
{
    systree_put_uv(b, n->nruns);
    if (n->nruns == 0)
        return;
    systree_put_uv(b, n->period);
    for (uint32_t i = 0; i < n->nruns; i++) {
        const systree_run *r = &n->runs[i];
        systree_put_u8(b, r->numbered);
        systree_put_uv(b, strmap_id(m, r->prefix));
        systree_put_uv(b, strmap_id(m, r->suffix));
        systree_put_uv(b, r->count);
        if (r->numbered) {
            systree_put_uv(b, r->base);
            systree_put_sv(b, r->stride);
            systree_put_u8(b, r->width);
        }
    }
}

static void put_rec(systree_buf *b, const strmap *m, const systree_rec *r)
{
    systree_put_u8(b, r->kind);
    systree_put_u8(b, r->type);
    systree_put_uv(b, strmap_id(m, r->klass));
    systree_put_uv(b, r->copies);
    put_names(b, m, &r->names);
    systree_put_uv(b, r->children.n);
    for (uint32_t i = 0; i < r->children.n; i++)
        put_rec(b, m, r->children.v[i]);
}

int systree_list_pack(const systree_list *l, systree_buf *b)
{
    strmap m = {calloc(64, sizeof(char *)), calloc(64, sizeof(uint32_t)), 64, 0,
                malloc(32 * sizeof(char *))};
    int rc = m.key && m.id && m.order ? 0 : -1;
    for (uint32_t i = 0; i < l->n && rc == 0; i++)
        rc = collect(&m, l->v[i]);
    if (rc == 0) {
        systree_put_uv(b, m.n);
        for (size_t i = 0; i < m.n; i++) {
            size_t len = strlen(m.order[i]);
            systree_put_uv(b, len);
            systree_put(b, m.order[i], len);
        }
        systree_put_uv(b, l->n);
        for (uint32_t i = 0; i < l->n; i++)
            put_rec(b, &m, l->v[i]);
        rc = b->failed ? -1 : 0;
    }
    free(m.key);
    free(m.id);
    free(m.order);
    return rc;
}

/* ---- reading ---- */

typedef struct strtab {
    const char **s;
    uint64_t n;
} strtab;

static const char *get_str(systree_reader *r, const strtab *t)
{
    uint64_t id = systree_get_uv(r);
    if (id >= t->n) {
        r->failed = 1;
        return NULL;
    }
    return t->s[id];
}

static int get_run(systree_reader *r, const strtab *t, systree_run *run)
{
    memset(run, 0, sizeof *run);
    run->numbered = systree_get_u8(r) != 0;
    run->prefix = get_str(r, t);
    run->suffix = get_str(r, t);
    run->count = systree_get_uv(r);
    if (run->numbered) {
        run->base = systree_get_uv(r);
        run->stride = systree_get_sv(r);
        run->width = systree_get_u8(r);
    }
    return r->failed || run->count == 0 ? -1 : 0;
}

static int get_names(systree_reader *r, const strtab *t, systree_names *n)
{
    uint64_t nruns = systree_get_uv(r);
    if (nruns == 0)
        return r->failed ? -1 : 0;
    n->period = systree_get_uv(r);
    if (r->failed || nruns > (uint64_t)(r->end - r->p) || nruns > UINT32_MAX)
        return -1;
    n->runs = malloc(nruns * sizeof *n->runs);
    if (n->runs == NULL)
        return -1;
    uint64_t total = 0;
    for (n->nruns = 0; n->nruns < nruns; n->nruns++) {
        if (get_run(r, t, &n->runs[n->nruns]) != 0)
            return -1;
        total += n->runs[n->nruns].count;
    }
    return total == n->period ? 0 : -1;
}

static systree_rec *get_rec(systree_reader *r, const strtab *t, int depth)
{
    systree_rec *rec = calloc(1, sizeof *rec);
    if (rec == NULL || depth > MAX_DEPTH) {
        free(rec);
        return NULL;
    }
    rec->kind = systree_get_u8(r);
    rec->type = systree_get_u8(r);
    rec->klass = get_str(r, t);
    rec->copies = systree_get_uv(r);
    int rc = rec->kind < SYSTREE_NKINDS && rec->copies ? get_names(r, t, &rec->names) : -1;
    uint64_t n = rc == 0 ? systree_get_uv(r) : 0;
    if (r->failed || n > (uint64_t)(r->end - r->p))
        rc = -1;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        systree_rec *c = get_rec(r, t, depth + 1);
        if (c == NULL || systree_list_push(&rec->children, c) != 0) {
            systree_rec_free(c);
            rc = -1;
        }
    }
    if (rc != 0 || r->failed) {
        systree_rec_free(rec);
        return NULL;
    }
    systree_rec_seal(rec);
    return rec;
}

static int get_strings(systree_reader *r, strtab *t)
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

int systree_list_unpack(systree_reader *r, systree_list *out)
{
    strtab t = {0};
    memset(out, 0, sizeof *out);
    int rc = get_strings(r, &t);
    uint64_t n = rc == 0 ? systree_get_uv(r) : 0;
    if (r->failed || n > (uint64_t)(r->end - r->p))
        rc = -1;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        systree_rec *c = get_rec(r, &t, 0);
        if (c == NULL || systree_list_push(out, c) != 0) {
            systree_rec_free(c);
            rc = -1;
        }
    }
    free(t.s);
    if (rc != 0 || r->failed) {
        systree_list_free(out);
        return -1;
    }
    return 0;
}
