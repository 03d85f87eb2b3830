/* profile_threads.c: grafting worker call trees under the fork's call path and suspending
 * a thread's call path while it runs a task (profile_threads.h). */
#include "profile/profile_threads.h"

#include <stddef.h>

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
    return scorep_profile_child_slow(p, parent, foreign->key, foreign->kind, foreign->id,
                                     foreign->value);
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
    save(p, saved, 0);
    p->cur = at;
    p->depth = depth;
    p->overflow = 0;
}

void scorep_profile_detach(scorep_profile *p, const scorep_profile_saved *saved, pnode *at,
                           uint64_t duration)
{
    for (pnode *n = at; n && n->kind != PNODE_ROOT; n = n->parent)
        n->sum += duration;
    restore(p, saved);
}

void scorep_profile_suspend(scorep_profile *p, pnode *base, uint32_t base_depth, uint64_t ts,
                            scorep_profile_saved *saved)
{
    save(p, saved, ts);
    p->cur = base;
    p->depth = base_depth;
    p->overflow = 0;
}

void scorep_profile_resume(scorep_profile *p, const scorep_profile_saved *saved, const pnode *base,
                           uint64_t ts)
{
    uint64_t away = ts > saved->ts ? ts - saved->ts : 0;
    for (pnode *n = saved->cur; n && n != base && n->kind != PNODE_ROOT; n = n->parent)
        n->enter_ts += away;
    restore(p, saved);
}
