/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_ser.c: serialisation of sequence records (messages between ranks, the broadcast
 * global tree, and its size): a string table, then the records in pre-order. */
#include "systree/systree_seq.h"
#include "systree/systree_strmap.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64 };

static int collect(systree_strmap *m, const systree_rec *r)
{
    int rc = systree_strmap_add(m, r->klass);
    for (uint32_t i = 0; i < r->names.nruns && rc == 0; i++)
        rc = systree_strmap_add(m, r->names.runs[i].prefix) |
             systree_strmap_add(m, r->names.runs[i].suffix);
    for (uint32_t i = 0; i < r->children.n && rc == 0; i++)
        rc = collect(m, r->children.v[i]);
    return rc;
}

static void put_names(systree_buf *b, const systree_strmap *m, const systree_names *n)
{
    systree_put_uv(b, n->nruns);
    if (n->nruns == 0)
        return;
    systree_put_uv(b, n->period);
    for (uint32_t i = 0; i < n->nruns; i++) {
        const systree_run *r = &n->runs[i];
        systree_put_u8(b, (uint8_t)(r->numbered | (r->reps > 1) << 1)); /* blocks? */
        systree_put_uv(b, systree_strmap_id(m, r->prefix));
        systree_put_uv(b, systree_strmap_id(m, r->suffix));
        systree_put_uv(b, r->count);
        if (r->numbered) {
            systree_put_uv(b, r->base);
            systree_put_sv(b, r->stride);
            systree_put_u8(b, r->width);
        }
        if (r->reps > 1) {
            systree_put_uv(b, r->reps);
            systree_put_sv(b, r->outer);
        }
    }
}

static void put_rec(systree_buf *b, const systree_strmap *m, const systree_rec *r)
{
    systree_put_u8(b, r->kind);
    systree_put_u8(b, r->type);
    systree_put_uv(b, systree_strmap_id(m, r->klass));
    systree_put_uv(b, r->copies);
    put_names(b, m, &r->names);
    systree_put_uv(b, r->children.n);
    for (uint32_t i = 0; i < r->children.n; i++)
        put_rec(b, m, r->children.v[i]);
}

int systree_list_pack(const systree_list *l, systree_buf *b)
{
    systree_strmap m = {0};
    int rc = 0;
    for (uint32_t i = 0; i < l->n && rc == 0; i++)
        rc = collect(&m, l->v[i]);
    if (rc == 0) {
        systree_strmap_put(&m, b);
        systree_put_uv(b, l->n);
        for (uint32_t i = 0; i < l->n; i++)
            put_rec(b, &m, l->v[i]);
        rc = b->failed ? -1 : 0;
    }
    systree_strmap_free(&m);
    return rc;
}

/* ---- reading ---- */

static const char *get_str(systree_reader *r, const systree_strtab *t)
{
    return systree_strtab_ref(r, t);
}

static int get_run(systree_reader *r, const systree_strtab *t, systree_run *run)
{
    memset(run, 0, sizeof *run);
    uint8_t flags = systree_get_u8(r);
    run->numbered = flags & 1;
    run->prefix = get_str(r, t);
    run->suffix = get_str(r, t);
    run->count = systree_get_uv(r);
    run->reps = 1;
    if (run->numbered) {
        run->base = systree_get_uv(r);
        run->stride = systree_get_sv(r);
        run->width = systree_get_u8(r);
    }
    if (flags & 2) {
        run->reps = systree_get_uv(r);
        run->outer = systree_get_sv(r);
    }
    if (flags > 3 || (run->reps > 1 && !run->numbered))
        return -1;
    if (run->count == 0 || run->reps == 0 || run->count > UINT64_MAX / run->reps)
        return -1;
    return r->failed ? -1 : 0;
}

static int get_names(systree_reader *r, const systree_strtab *t, systree_names *n)
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
        total += systree_run_len(&n->runs[n->nruns]);
    }
    return total == n->period ? 0 : -1;
}

static systree_rec *get_rec(systree_reader *r, const systree_strtab *t, int depth)
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

int systree_list_unpack(systree_reader *r, systree_list *out)
{
    systree_strtab t = {0};
    memset(out, 0, sizeof *out);
    int rc = systree_strtab_get(r, &t);
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
