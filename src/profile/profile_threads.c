/* SPDX-License-Identifier: BSD-3-Clause */
/* profile_threads.c: grafting worker call trees under the fork's call path and suspending
 * a thread's call path while it runs a task (profile_threads.h). */
#include "profile/profile_threads.h"
#include "profile/throttle_pending.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------ metric sources (src/metrics): counters follow
 * the time. A worker's counter increase in a team goes to `at` and its ancestors like its
 * time; the increase while a task ran is taken out of the calls it interrupted. */
static void dense_detach(const scorep_profile *p, pnode *at)
{
    for (uint32_t i = 0; at->dense && i < p->n_dense; i++) {
        uint64_t d = p->dense_values[i] - at->dense[i];
        for (pnode *n = at; n && n->kind != PNODE_ROOT; n = n->parent)
            if (n->dense)
                n->dense[p->n_dense + i] += d;
    }
}

/* Pushes the current values; a failed allocation only loses the correction. */
static void dense_suspend(scorep_profile *p)
{
    if (!p->n_dense)
        return;
    if (p->dense_sp == p->dense_cap) {
        uint32_t cap = p->dense_cap ? p->dense_cap * 2 : 8;
        uint64_t *s = realloc(p->dense_stack, (size_t)cap * p->n_dense * sizeof *s);
        if (!s)
            return;
        p->dense_stack = s;
        p->dense_cap = cap;
    }
    memcpy(p->dense_stack + (size_t)p->dense_sp++ * p->n_dense, p->dense_values,
           p->n_dense * sizeof *p->dense_values);
}

static void dense_resume(scorep_profile *p, pnode *from, const pnode *base)
{
    if (!p->n_dense || !p->dense_sp)
        return;
    const uint64_t *was = p->dense_stack + (size_t)--p->dense_sp * p->n_dense;
    for (pnode *n = from; n && n != base && n->kind != PNODE_ROOT; n = n->parent)
        for (uint32_t i = 0; n->dense && i < p->n_dense; i++)
            n->dense[i] += p->dense_values[i] - was[i];
}

pnode *scorep_profile_map_path(scorep_profile *p, const pnode *foreign, uint32_t *depth)
{
    if (!foreign || foreign->kind == PNODE_ROOT) {
        *depth = 0;
        return &p->root;
    }
    pnode *parent = scorep_profile_map_path(p, foreign->parent, depth);
    if (!parent)
        return NULL;
    *depth += foreign->kind == PNODE_REGION;
    pnode *n =
        scorep_profile_child_slow(p, parent, foreign->key, foreign->kind, foreign->id, foreign->value);
    if (n)
        n->mapped = 1;
    return n;
}

static void save(const scorep_profile *p, scorep_profile_saved *s, uint64_t ts)
{
    s->cur = p->cur;
    s->depth = p->depth;
    s->overflow = p->overflow;
    s->ts = ts;
}

static void restore(scorep_profile *p, const scorep_profile_saved *s)
{
    p->cur = s->cur;
    p->depth = s->depth;
    p->overflow = s->overflow;
}

void scorep_profile_attach(scorep_profile *p, pnode *at, uint32_t depth,
                           scorep_profile_saved *saved)
{
    scorep_throttle_settle();
    save(p, saved, 0);
    /* the entry's block, allocated at the first join this deep (an OpenMP callback of the
     * worker, not a signal handler; never freed: a checkpoint may be reading it) */
    scorep_profile_attach_block *b = &p->attach;
    uint32_t i = p->n_attach;
    for (; i >= SCOREP_PROFILE_ATTACH_BLOCK; i -= SCOREP_PROFILE_ATTACH_BLOCK) {
        if (!b->next) {
            scorep_profile_attach_block *nb = calloc(1, sizeof *nb);
            if (!nb)
                break;
            __atomic_store_n(&b->next, nb, __ATOMIC_RELEASE);
        }
        b = b->next;
    }
    if (i < SCOREP_PROFILE_ATTACH_BLOCK)
        b->e[i] = (scorep_profile_attached){at, saved->cur, saved->depth};
    __atomic_store_n(&p->n_attach, p->n_attach + 1, __ATOMIC_RELEASE);
    if (at->dense)
        scorep_profile_dense_start(p, at);
    p->cur = at;
    p->depth = depth;
    p->overflow = 0;
}

void scorep_profile_detach(scorep_profile *p, const scorep_profile_saved *saved, pnode *at,
                           uint64_t duration)
{
    scorep_throttle_settle();
    for (pnode *n = at; n && n->kind != PNODE_ROOT; n = n->parent)
        n->sum += duration;
    dense_detach(p, at);
    restore(p, saved);
    if (p->n_attach)
        p->n_attach--;
}

void scorep_profile_suspend(scorep_profile *p, pnode *base, uint32_t base_depth, uint64_t ts,
                            scorep_profile_saved *saved)
{
    scorep_throttle_settle();
    save(p, saved, ts);
    dense_suspend(p);
    p->cur = base;
    p->depth = base_depth;
    p->overflow = 0;
}

void scorep_profile_resume(scorep_profile *p, const scorep_profile_saved *saved, const pnode *base,
                           uint64_t ts)
{
    scorep_throttle_settle();
    uint64_t away = ts > saved->ts ? ts - saved->ts : 0;
    for (pnode *n = saved->cur; n && n != base && n->kind != PNODE_ROOT; n = n->parent)
        n->enter_ts += away;
    dense_resume(p, saved->cur, base);
    restore(p, saved);
}
