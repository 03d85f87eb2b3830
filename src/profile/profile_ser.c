/* SPDX-License-Identifier: BSD-3-Clause */
/* profile_ser.c: a location's call tree as bytes and back, for the rank-local pieces that a
 * dying process leaves (rescue, checkpoints) and that scorep-recover reads back. */
#include "profile/profile.h"
#include "profile/profile_ser.h"

#include <stdbool.h>
#include <stdlib.h>

/* A checkpoint reads a tree that its thread may change meanwhile: a bound on the nodes
 * keeps a walk finite whatever it meets. */
enum { MAX_NODES = 1 << 24 };

/* the calls open on the current path, which a checkpoint writes as if they ended then */
typedef struct {
    const pnode **open;
    uint32_t n_open;
    /* the fork's call path above a worker's open implicit task (profile.h): the time in the
     * team, without a visit, as the team's end adds it */
    const pnode **mapped;
    uint64_t *mapped_add;
    uint32_t n_mapped;
    uint64_t close_ts;
    /* the location's migration counts not yet on a call path (profile.h): a checkpoint
     * inside a parallel region writes them on that region's node, as its end will add them */
    const pnode *mig_node;
    int64_t mig_loss;
    uint64_t mig_win;
} pack_ctx;

static bool is_open(const pack_ctx *c, const pnode *n)
{
    for (uint32_t i = 0; i < c->n_open; i++)
        if (c->open[i] == n)
            return true;
    return false;
}

static int pack_node(const pack_ctx *c, const pnode *n, ser_buf *b, uint32_t *budget,
                     uint32_t depth)
{
    if (*budget == 0 || depth > 100000)
        return -1;
    (*budget)--;
    uint64_t visits = n->visits, sum = n->sum, min = n->min, max = n->max;
    if (c->close_ts && is_open(c, n) && c->close_ts > n->enter_ts) {
        uint64_t d = c->close_ts - n->enter_ts;
        visits++;
        sum += d;
        min = d < min ? d : min;
        max = d > max ? d : max;
    }
    for (uint32_t i = 0; i < c->n_mapped; i++)
        if (c->mapped[i] == n)
            sum += c->mapped_add[i];
    ser_u32(b, n->kind);
    ser_u32(b, n->id);
    ser_u64(b, n->key);
    ser_u64(b, (uint64_t)n->value);
    ser_u64(b, visits);
    ser_u64(b, sum);
    ser_u64(b, min);
    ser_u64(b, max);
    ser_u64(b, n->bytes_sent);
    ser_u64(b, n->bytes_received);
    ser_u64(b, n->bytes_put);
    ser_u64(b, n->bytes_get);
    /* piece version 5: Score-P's task migration counts of a parallel region's node (a
     * recovered profile lacked task_migration_loss / _win) */
    int64_t mig_loss = n->task_mig_loss;
    uint64_t mig_win = n->task_mig_win;
    if (n == c->mig_node) {
        mig_loss += c->mig_loss;
        mig_win += c->mig_win;
    }
    ser_u64(b, (uint64_t)mig_loss);
    ser_u64(b, mig_win);
    uint32_t k = 0;
    for (const pmetric *m = n->metrics; m && k < 4096; m = m->next)
        k++;
    ser_u32(b, k);
    const pmetric *m = n->metrics;
    for (uint32_t i = 0; i < k && m; i++, m = m->next) {
        ser_u32(b, m->metric);
        ser_u64(b, m->count);
        ser_f64(b, m->sum);
    }
    /* children last to first: restored by prepending, they keep their order */
    uint32_t nc = 0;
    for (const pnode *c = n->first_child; c && nc < MAX_NODES; c = c->next_sibling)
        nc++;
    const pnode **kids = malloc((nc ? nc : 1) * sizeof *kids);
    if (!kids)
        return -1;
    uint32_t i = 0;
    for (const pnode *c = n->first_child; c && i < nc; c = c->next_sibling)
        kids[i++] = c;
    ser_u32(b, i);
    int rc = 0;
    while (i > 0 && rc == 0)
        rc = pack_node(c, kids[--i], b, budget, depth + 1);
    free(kids);
    return rc;
}

/* The open calls: of a worker's innermost implicit task up to where it attached, then its
 * call path before it (close_all's order), into c's arrays up to cap_open and cap_mapped
 * entries (none: counted only); c->n_open and c->n_mapped: how many there are. Bounded by
 * MAX_NODES, as the tree may change meanwhile (a checkpoint). */
static void open_calls(const scorep_profile *p, pack_ctx *c, uint32_t cap_open, uint32_t cap_mapped)
{
    c->n_open = c->n_mapped = 0;
    uint32_t k = __atomic_load_n(&p->n_attach, __ATOMIC_ACQUIRE); /* not yet passed */
    if (k && !scorep_profile_attached_at(p, k - 1))
        k = 0; /* an entry without memory: the calls of the innermost task only */
    const pnode *n = c->close_ts ? p->cur : NULL;
    uint32_t steps = 0;
    while (n && n != &p->root && steps < MAX_NODES) {
        const scorep_profile_attached *a = k ? scorep_profile_attached_at(p, k - 1) : NULL;
        const pnode *at = a ? a->at : NULL;
        uint64_t began = 0;
        for (; n && n != &p->root && n != at && steps < MAX_NODES; n = n->parent, steps++) {
            began = n->enter_ts;
            if (c->n_open < cap_open)
                c->open[c->n_open] = n;
            c->n_open++;
        }
        if (!at || n != at)
            break;
        uint64_t d = began && c->close_ts > began ? c->close_ts - began : 0;
        for (const pnode *m = at; m && m != &p->root && steps < MAX_NODES; m = m->parent, steps++) {
            if (c->n_mapped < cap_mapped) {
                c->mapped[c->n_mapped] = m;
                c->mapped_add[c->n_mapped] = d;
            }
            c->n_mapped++;
        }
        n = a->back;
        k--;
    }
}

int scorep_profile_pack(const scorep_profile *p, uint64_t close_ts, ser_buf *b)
{
    pack_ctx c = {.close_ts = close_ts,
                  .mig_node = p->mig_node,
                  .mig_loss = p->mig_loss,
                  .mig_win = p->mig_win};
    /* counted, then kept in arrays of that size: any call depth and nesting of teams (until
     * session 25: 4096 open and 1024 mapped nodes on the stack). This runs on the thread
     * that writes the piece (the rescue thread, or the one that ends the measurement), never
     * in a signal handler; pack_node allocates as well. The tree may have changed between
     * the walks: the arrays hold what fits, the rest is counted and left out. */
    open_calls(p, &c, 0, 0);
    uint32_t cap_open = c.n_open, cap_mapped = c.n_mapped;
    c.open = malloc((cap_open ? cap_open : 1) * sizeof *c.open);
    c.mapped = malloc((cap_mapped ? cap_mapped : 1) * sizeof *c.mapped);
    c.mapped_add = malloc((cap_mapped ? cap_mapped : 1) * sizeof *c.mapped_add);
    int rc = -1;
    if (c.open && c.mapped && c.mapped_add) {
        open_calls(p, &c, cap_open, cap_mapped);
        c.n_open = c.n_open < cap_open ? c.n_open : cap_open;
        c.n_mapped = c.n_mapped < cap_mapped ? c.n_mapped : cap_mapped;
        uint32_t budget = MAX_NODES;
        rc = pack_node(&c, &p->root, b, &budget, 0) == 0 && !b->failed ? 0 : -1;
    }
    free(c.open);
    free(c.mapped);
    free(c.mapped_add);
    return rc;
}

static int unpack_values(pnode *n, ser_reader *r, scorep_profile *p)
{
    n->visits = ser_get_u64(r);
    n->sum = ser_get_u64(r);
    n->min = ser_get_u64(r);
    n->max = ser_get_u64(r);
    n->bytes_sent = ser_get_u64(r);
    n->bytes_received = ser_get_u64(r);
    n->bytes_put = ser_get_u64(r);
    n->bytes_get = ser_get_u64(r);
    n->task_mig_loss = (int64_t)ser_get_u64(r);
    n->task_mig_win = ser_get_u64(r);
    uint32_t k = ser_get_u32(r);
    pnode *was = p->cur;
    p->cur = n;
    for (uint32_t i = 0; i < k && !r->failed; i++) {
        uint32_t metric = ser_get_u32(r);
        uint64_t count = ser_get_u64(r);
        double sum = ser_get_f64(r);
        scorep_profile_metric(p, metric, 0);
        for (pmetric *m = n->metrics; m; m = m->next)
            if (m->metric == metric) {
                m->count = count;
                m->sum = sum;
            }
    }
    p->cur = was;
    return r->failed ? -1 : 0;
}

static int unpack_children(scorep_profile *p, pnode *parent, ser_reader *r, uint32_t depth)
{
    uint32_t nc = ser_get_u32(r);
    for (uint32_t i = 0; i < nc && !r->failed; i++) {
        uint8_t kind = (uint8_t)ser_get_u32(r);
        uint32_t id = ser_get_u32(r);
        uint64_t key = ser_get_u64(r);
        int64_t value = (int64_t)ser_get_u64(r);
        if (r->failed || kind == PNODE_ROOT || depth > 100000)
            return -1;
        pnode *n = scorep_profile_child_slow(p, parent, key, kind, id, value);
        if (!n || unpack_values(n, r, p) != 0 || unpack_children(p, n, r, depth + 1) != 0)
            return -1;
    }
    return r->failed ? -1 : 0;
}

int scorep_profile_unpack(scorep_profile *p, ser_reader *r)
{
    uint32_t kind = ser_get_u32(r);
    (void)ser_get_u32(r);
    (void)ser_get_u64(r);
    (void)ser_get_u64(r);
    if (r->failed || kind != PNODE_ROOT)
        return -1;
    return unpack_values(&p->root, r, p) == 0 ? unpack_children(p, &p->root, r, 0) : -1;
}
