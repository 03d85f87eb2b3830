/* SPDX-License-Identifier: BSD-3-Clause */
/* profile.c: slow paths of the call-path profile: creating nodes, parameters, metrics,
 * and repairing the stack when leaves were lost. */
#include "profile/profile.h"
#include "profile/profile_threads.h"
#include "profile/throttle_pending.h"
#include "defs/defs.h"

#include <stdlib.h>
#include <string.h>

enum { BLOCK_SIZE = 64 * 1024 };

int scorep_profile_init(scorep_profile *p, uint32_t max_depth)
{
    memset(p, 0, sizeof *p);
    p->root.kind = PNODE_ROOT;
    p->root.min = UINT64_MAX;
    p->cur = &p->root;
    p->max_depth = max_depth ? max_depth : 1;
    return 0;
}

static void *node_alloc(scorep_profile *p, size_t size)
{
    if (p->block + size > p->block_end) {
        char *b = malloc(BLOCK_SIZE);
        if (!b) {
            p->out_of_memory = true;
            return NULL;
        }
        p->block = b;
        p->block_end = b + BLOCK_SIZE;
    }
    void *r = p->block;
    p->block += (size + 15) & ~(size_t)15;
    return r;
}

static uint32_t slot_of(const pnode *parent, uint64_t key, uint32_t cap)
{
    uint64_t h = ((uintptr_t)parent >> 4) * 0x9e3779b97f4a7c15ull ^ key * 0xc2b2ae3d27d4eb4full;
    return (uint32_t)(h >> 32) & (cap - 1);
}

static int grow_index(scorep_profile *p)
{
    uint32_t cap = p->cap ? p->cap * 2 : 256;
    pnode **s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (uint32_t i = 0; i < p->cap; i++) {
        pnode *n = p->slots[i];
        if (!n)
            continue;
        uint32_t j = slot_of(n->parent, n->key, cap);
        while (s[j])
            j = (j + 1) & (cap - 1);
        s[j] = n;
    }
    free(p->slots);
    p->slots = s;
    p->cap = cap;
    return 0;
}

pnode *scorep_profile_child_slow(scorep_profile *p, pnode *parent, uint64_t key, uint8_t kind,
                                 uint32_t id, int64_t value)
{
    if ((p->used + 1) * 2 > p->cap && grow_index(p) != 0)
        return NULL;
    uint32_t j = slot_of(parent, key, p->cap);
    for (; p->slots[j]; j = (j + 1) & (p->cap - 1)) {
        pnode *n = p->slots[j];
        if (n->parent == parent && n->key == key && n->kind == kind && n->id == id &&
            n->value == value)
            return n;
    }
    pnode *n = p->free_nodes;
    uint64_t *dense = NULL;
    if (n) { /* a node freed by the clustering of dynamic regions (profile_cluster.c) */
        p->free_nodes = n->next_sibling;
        dense = n->dense;
    } else if (!(n = node_alloc(p, sizeof *n))) {
        return NULL;
    }
    memset(n, 0, sizeof *n);
    n->dense = dense;
    n->parent = parent;
    n->key = key;
    n->kind = kind;
    n->id = id;
    n->value = value;
    n->min = UINT64_MAX;
    if (p->n_dense && (n->dense || (n->dense = node_alloc(p, 2 * p->n_dense * sizeof *n->dense))))
        memset(n->dense, 0, 2 * p->n_dense * sizeof *n->dense);
    n->next_sibling = parent->first_child;
    parent->first_child = n;
    p->slots[j] = n;
    p->used++;
    return n;
}

static void close_with_metrics(scorep_profile *p, pnode *n, uint64_t ts)
{
    scorep_profile_close_node(n, ts);
    if (n->dense)
        scorep_profile_dense_stop(p, n);
}

/* Parameter nodes sit on top of the region that set them; they end with it. */
static void pop_parameters(scorep_profile *p, uint64_t ts)
{
    while (p->cur->kind >= PNODE_PARAM_INT) {
        close_with_metrics(p, p->cur, ts);
        p->cur = p->cur->parent;
    }
}

/* scorep_profile_stamped's other cases (a new node, the depth limit, metric sources, the visit
 * that throttles): an enter at ts and a leave one tick later */
void scorep_profile_stamped_slow(scorep_profile *p, uint32_t region, uint64_t ts)
{
    scorep_profile_enter(p, region, ts);
    scorep_profile_leave(p, region, ts + 1);
}

void scorep_profile_leave_mismatch(scorep_profile *p, uint32_t region, uint64_t ts)
{
    pop_parameters(p, ts);
    pnode *n = p->cur;
    while (n->kind != PNODE_ROOT && !(n->kind == PNODE_REGION && n->id == region))
        n = n->parent;
    if (n->kind == PNODE_ROOT)
        return; /* a leave without enter: ignore it */
    while (p->cur != n) {
        close_with_metrics(p, p->cur, ts);
        if (p->cur->kind == PNODE_REGION)
            p->depth--;
        p->cur = p->cur->parent;
    }
    close_with_metrics(p, n, ts);
    p->cur = n->parent;
    p->depth--;
}

void scorep_profile_settle_migrations(scorep_profile *p)
{
    if (p->mig_node && (p->mig_loss || p->mig_win)) {
        p->mig_node->task_mig_loss += p->mig_loss;
        p->mig_node->task_mig_win += p->mig_win;
    }
    p->mig_node = NULL;
    p->mig_loss = 0;
    p->mig_win = 0;
}

void scorep_profile_close_all(scorep_profile *p, uint64_t ts)
{
    scorep_throttle_settle(); /* a thread's end or finalize */
    for (;;) {
        /* inside a worker's implicit task (an end inside a parallel region): its calls
         * close, then it ends as at the team's end, the fork's call path above getting the
         * time since the outermost of them began (profile.h) */
        uint32_t k = p->n_attach;
        const scorep_profile_attached *a = k ? scorep_profile_attached_at(p, k - 1) : NULL;
        pnode *at = a ? a->at : NULL;
        uint64_t began = 0;
        while (p->cur->kind != PNODE_ROOT && p->cur != at) {
            began = p->cur->enter_ts;
            close_with_metrics(p, p->cur, ts);
            if (p->cur->kind == PNODE_REGION)
                p->depth--;
            p->cur = p->cur->parent;
        }
        if (!at || p->cur != at)
            break;
        scorep_profile_saved back = {a->back, a->back_depth, 0, 0};
        scorep_profile_detach(p, &back, at, began && ts > began ? ts - began : 0);
    }
    p->overflow = 0;
}

static uint64_t param_key(uint8_t kind, uint32_t param, int64_t value)
{
    uint64_t h = ((uint64_t)kind << 56) ^ ((uint64_t)param << 32) ^ 0x8000000000000000ull;
    return h ^ ((uint64_t)value * 0x9e3779b97f4a7c15ull);
}

void scorep_profile_parameter(scorep_profile *p, uint8_t kind, uint32_t param, int64_t value,
                              uint64_t ts)
{
    if (p->overflow)
        return;
    pnode *n =
        scorep_profile_child_slow(p, p->cur, param_key(kind, param, value), kind, param, value);
    if (!n)
        return;
    n->enter_ts = ts;
    if (n->dense)
        scorep_profile_dense_start(p, n);
    p->cur = n;
}

void (*scorep_profile_throttle_hook)(uint32_t region);
uint32_t scorep_profile_throttle_param = UINT32_MAX;

void scorep_profile_throttle_check(scorep_profile *p, pnode *n)
{
    if (p->throttle_calls && n->kind == PNODE_REGION && n->sum < p->throttle_sum &&
        scorep_profile_throttle_hook)
        scorep_profile_throttle_hook(n->id);
}

/* The region's node under the current call path, and its throttled-visits child, whose
 * parameter value is the first visit made without measurement. */
void scorep_profile_throttled_slow(scorep_profile *p, uint32_t region, uint64_t n)
{
    uint32_t param = __atomic_load_n(&scorep_profile_throttle_param, __ATOMIC_ACQUIRE);
    if (p->overflow || p->depth >= p->max_depth || param == UINT32_MAX)
        return; /* folded call paths count no visits, throttled or not */
    pnode *cur = p->cur;
    pnode *c = cur->last_hit;
    if (!c || c->key != region || c->kind != PNODE_REGION) {
        c = scorep_profile_child_slow(p, cur, region, PNODE_REGION, region, 0);
        if (!c)
            return;
        cur->last_hit = c;
    }
    if (!c->throttled) {
        int64_t from = (int64_t)c->visits + 1;
        pnode *t = scorep_profile_child_slow(p, c, param_key(PNODE_PARAM_UINT, param, from),
                                             PNODE_PARAM_UINT, param, from);
        if (!t)
            return;
        t->min = t->max = 0; /* never timed */
        c->throttled = t;
        c->min = 0; /* unmeasured visits count with no time (it is the caller's) */
    }
    c->visits += n;
    c->throttled->visits += n;
}

void scorep_profile_metric(scorep_profile *p, uint32_t metric, double v)
{
    pnode *n = p->cur;
    pmetric *m = n->metrics;
    while (m && m->metric != metric)
        m = m->next;
    if (!m) {
        if ((m = p->free_metrics) != NULL)
            p->free_metrics = m->next;
        else if (!(m = node_alloc(p, sizeof *m)))
            return;
        m->metric = metric;
        m->count = 0;
        m->sum = 0;
        m->next = n->metrics;
        n->metrics = m;
    }
    m->count++;
    m->sum += v;
}

/* The id is cached: defining takes the definition table's lock, and a thread start or a
 * RECORDING_OFF/ON pair should not. Two threads may both define it first: same id. */
static uint32_t cached_region(uint32_t *cache, const char *name, const char *file,
                              scorep_paradigm paradigm)
{
    uint32_t id = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (id != SCOREP_INVALID_ID)
        return id;
    id = scorep_defs_region(name, name, file, 0, 0, paradigm, SCOREP_ROLE_ARTIFICIAL);
    __atomic_store_n(cache, id, __ATOMIC_RELEASE);
    return id;
}

uint32_t scorep_profile_threads_region(void)
{
    static uint32_t id = SCOREP_INVALID_ID;
    return cached_region(&id, "THREADS", "THREADS", SCOREP_PARADIGM_MEASUREMENT);
}

uint32_t scorep_profile_off_region(void)
{
    static uint32_t id = SCOREP_INVALID_ID;
    return cached_region(&id, "MEASUREMENT OFF", NULL, SCOREP_PARADIGM_USER);
}

/* ------------------------------------- merging subtrees (clustering, profile_cluster.c) */
static pnode *find_child(const scorep_profile *p, const pnode *parent, const pnode *like)
{
    if (!p->cap)
        return NULL;
    for (uint32_t j = slot_of(parent, like->key, p->cap); p->slots[j]; j = (j + 1) & (p->cap - 1)) {
        pnode *n = p->slots[j];
        if (n->parent == parent && n->key == like->key && n->kind == like->kind &&
            n->id == like->id && n->value == like->value)
            return n;
    }
    return NULL;
}

/* Removes n from the children index: linear probing, so the entries after it that would no
 * longer be found move back (no tombstones: the index stays as short as the tree). */
static void index_remove(scorep_profile *p, const pnode *n)
{
    uint32_t mask = p->cap - 1, i = slot_of(n->parent, n->key, p->cap);
    while (p->slots[i] != n)
        i = (i + 1) & mask;
    for (;;) {
        p->slots[i] = NULL;
        uint32_t j = i;
        for (;;) {
            j = (j + 1) & mask;
            if (!p->slots[j]) {
                p->used--;
                return;
            }
            uint32_t k = slot_of(p->slots[j]->parent, p->slots[j]->key, p->cap);
            if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
                continue; /* still reachable from its home slot */
            break;
        }
        p->slots[i] = p->slots[j];
        i = j;
    }
}

static void index_insert(scorep_profile *p, pnode *n)
{
    uint32_t j = slot_of(n->parent, n->key, p->cap);
    while (p->slots[j])
        j = (j + 1) & (p->cap - 1);
    p->slots[j] = n;
    p->used++;
}

/* n leaves its parent's children: no sibling may name it as the next one entered */
static void unlink_child(pnode *n)
{
    pnode **at = &n->parent->first_child;
    while (*at != n)
        at = &(*at)->next_sibling;
    *at = n->next_sibling;
    if (n->parent->last_hit == n)
        n->parent->last_hit = NULL;
    for (pnode *s = n->parent->first_child; s; s = s->next_sibling)
        if (s->next_hit == n)
            s->next_hit = NULL;
    n->next_hit = NULL;
}

static void add_node_values(scorep_profile *p, pnode *dst, const pnode *src)
{
    dst->visits += src->visits;
    dst->sum += src->sum;
    dst->min = src->min < dst->min ? src->min : dst->min;
    dst->max = src->max > dst->max ? src->max : dst->max;
    dst->bytes_sent += src->bytes_sent;
    dst->bytes_received += src->bytes_received;
    dst->bytes_put += src->bytes_put;
    dst->bytes_get += src->bytes_get;
    dst->task_mig_loss += src->task_mig_loss;
    dst->task_mig_win += src->task_mig_win;
    for (uint32_t k = 0; dst->dense && src->dense && k < p->n_dense; k++)
        dst->dense[p->n_dense + k] += src->dense[p->n_dense + k];
    for (pmetric *m = src->metrics, *next; m; m = next) {
        next = m->next;
        pmetric *d = dst->metrics;
        while (d && d->metric != m->metric)
            d = d->next;
        if (d) { /* the record is reused */
            d->count += m->count;
            d->sum += m->sum;
            m->next = p->free_metrics;
            p->free_metrics = m;
        } else {
            m->next = dst->metrics;
            dst->metrics = m;
        }
    }
}

int scorep_profile_merge_into(scorep_profile *p, pnode *dst, pnode *src)
{
    add_node_values(p, dst, src);
    src->metrics = NULL;
    pnode *c;
    while ((c = src->first_child) != NULL) {
        pnode *d = find_child(p, dst, c);
        if (d) { /* the recursion unlinks c from src and frees it */
            if (src->throttled == c && !dst->throttled)
                dst->throttled = d;
            scorep_profile_merge_into(p, d, c);
        } else { /* a call path new to dst: the subtree moves (its index key changes) */
            src->first_child = c->next_sibling;
            index_remove(p, c);
            c->next_hit = NULL; /* its siblings stay behind */
            c->parent = dst;
            c->next_sibling = dst->first_child;
            dst->first_child = c;
            index_insert(p, c);
            if (src->throttled == c && !dst->throttled)
                dst->throttled = c;
        }
    }
    if (src->parent) {
        index_remove(p, src);
        unlink_child(src);
    }
    src->next_sibling = p->free_nodes;
    p->free_nodes = src;
    return 0;
}

/* c moves from the root to below prog (or merges into prog's equal child); prog takes its
 * inclusive values, as Score-P's change_root_node does (time and counters, no visit). */
static void adopt_root(scorep_profile *p, pnode *prog, pnode *c)
{
    prog->sum += c->sum;
    for (uint32_t k = 0; prog->dense && c->dense && k < p->n_dense; k++)
        prog->dense[p->n_dense + k] += c->dense[p->n_dense + k];
    pnode *same = find_child(p, prog, c);
    if (same) {
        scorep_profile_merge_into(p, same, c);
        return;
    }
    index_remove(p, c);
    unlink_child(c);
    c->parent = prog;
    c->next_sibling = prog->first_child;
    prog->first_child = c;
    index_insert(p, c);
}

int scorep_profile_adopt_roots(scorep_profile *p, uint32_t region)
{
    if (region == SCOREP_INVALID_ID || p->cur != &p->root)
        return region == SCOREP_INVALID_ID ? 0 : -1; /* still open: not closed yet */
    pnode *prog = NULL;
    bool others = false;
    for (pnode *c = p->root.first_child; c; c = c->next_sibling) {
        if (c->kind == PNODE_REGION && c->id == region)
            prog = c;
        else
            others = true;
    }
    if (!others)
        return 0;
    if (!prog && !(prog = scorep_profile_child_slow(p, &p->root, region, PNODE_REGION, region, 0)))
        return -1;
    pnode *c = p->root.first_child;
    while (c) {
        pnode *next = c->next_sibling;
        if (c != prog)
            adopt_root(p, prog, c);
        c = next;
    }
    return 0;
}

void scorep_profile_set_value(scorep_profile *p, pnode *n, int64_t value)
{
    index_remove(p, n);
    n->value = value;
    n->key = param_key(n->kind, n->id, value);
    index_insert(p, n);
}
