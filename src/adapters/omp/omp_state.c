/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_state.c: per-thread state of the OpenMP adapter (frames, the stack of the adapter's own
 * regions) and the pool of team and task objects. A thread's state is touched by that thread
 * only, except by a team's master while the thread idles after the team (omp_parallel.c). */
#include "adapters/omp/omp_adapter.h"
#include "base/grow.h"
#include "runtime/runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static __thread omp_thread *tls_thread __attribute__((tls_model("initial-exec")));

omp_thread *omp_thread_get(void)
{
    omp_thread *t = tls_thread;
    if (__builtin_expect(t != NULL, 1))
        return scorep_measurement_on() ? t : NULL;
    scorep_location *l = scorep_location_get();
    if (!l || !(t = calloc(1, sizeof *t)))
        return NULL;
    t->loc = l;
    tls_thread = t;
    return t;
}

/* ------------------------------------------------------------------- frames */
omp_frame *omp_frame_push(omp_thread *t, omp_frame_kind kind)
{
    if (scorep_grow((void **)&t->frames, &t->cap_frames, (size_t)t->n_frames + 1,
                    sizeof *t->frames) != 0)
        return NULL;
    omp_frame *f = &t->frames[t->n_frames++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->n_regions = t->n_regions;
    return f;
}

void omp_frame_pop(omp_thread *t)
{
    if (t->n_frames)
        t->n_frames--;
}

omp_frame *omp_frame_top(omp_thread *t)
{
    return t->n_frames ? &t->frames[t->n_frames - 1] : NULL;
}

omp_frame *omp_frame_implicit(omp_thread *t)
{
    for (uint32_t i = t->n_frames; i-- > 0;)
        if (t->frames[i].kind == FRAME_IMPLICIT)
            return &t->frames[i];
    return NULL;
}

/* ----------------------------------------------------------- region stack */
uint64_t omp_enter(omp_thread *t, uint32_t region, uint8_t tag, uint64_t raw)
{
    if (region == SCOREP_INVALID_ID ||
        scorep_grow((void **)&t->regions, &t->cap_regions, (size_t)t->n_regions + 1,
                    sizeof *t->regions) != 0)
        return 0;
    t->regions[t->n_regions++] = (omp_open_region){region, tag};
    return scorep_event_enter_at(t->loc, region, raw);
}

uint64_t omp_leave(omp_thread *t, uint64_t raw)
{
    if (!t->n_regions)
        return 0;
    uint32_t region = t->regions[--t->n_regions].region;
    return scorep_event_leave_at(t->loc, region, raw);
}

void omp_leave_to(omp_thread *t, uint32_t height, uint64_t raw)
{
    while (t->n_regions > height)
        omp_leave(t, raw);
}

uint8_t omp_top_tag(const omp_thread *t)
{
    return t->n_regions ? t->regions[t->n_regions - 1].tag : TAG_NONE;
}

void omp_end_open_single(omp_thread *t, uint64_t raw)
{
    if (omp_top_tag(t) != TAG_SINGLE_EXECUTOR)
        return;
    omp_leave(t, raw); /* sblock */
    omp_leave(t, raw); /* single */
}

/* ------------------------------------------------------------- held locks */
void omp_held_push(omp_thread *t, omp_lock *lock, uint32_t order)
{
    if (scorep_grow((void **)&t->held, &t->cap_held, (size_t)t->n_held + 1, sizeof *t->held) == 0)
        t->held[t->n_held++] = (omp_held){lock, order};
}

uint32_t omp_held_pop(omp_thread *t, omp_lock *lock)
{
    for (uint32_t i = t->n_held; i-- > 0;) {
        if (t->held[i].lock != lock)
            continue;
        uint32_t order = t->held[i].order;
        t->held[i] = t->held[--t->n_held]; /* the others' order does not matter */
        return order;
    }
    return UINT32_MAX;
}

/* -------------------------------------------------------------------- pool */
/* Teams are usually freed by a worker and allocated by the encountering thread, so blocks
 * wander between threads: each thread keeps up to CACHE_MAX and trades BATCH at a time with
 * a global list under a lock (once per BATCH parallel regions or tasks at most). */
struct omp_block {
    omp_block *next;
    char payload[56];
};
_Static_assert(sizeof(omp_team) <= sizeof(omp_block) && sizeof(omp_task) <= sizeof(omp_block),
               "pool blocks must hold teams and tasks");

enum { BATCH = 32, CACHE_MAX = 2 * BATCH };
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static omp_block *pool_global;

static void refill(omp_thread *t)
{
    pthread_mutex_lock(&pool_lock);
    while (pool_global && t->n_free < BATCH) {
        omp_block *b = pool_global;
        pool_global = b->next;
        b->next = t->free_blocks;
        t->free_blocks = b;
        t->n_free++;
    }
    pthread_mutex_unlock(&pool_lock);
    if (t->n_free)
        return;
    omp_block *fresh = malloc(BATCH * sizeof *fresh); /* never freed: blocks are recycled */
    for (uint32_t i = 0; fresh && i < BATCH; i++) {
        fresh[i].next = t->free_blocks;
        t->free_blocks = &fresh[i];
        t->n_free++;
    }
}

void *omp_pool_get(omp_thread *t)
{
    if (!t->free_blocks)
        refill(t);
    omp_block *b = t->free_blocks;
    if (!b)
        return NULL;
    t->free_blocks = b->next;
    t->n_free--;
    return b;
}

void omp_pool_put(omp_thread *t, void *p)
{
    omp_block *b = p;
    b->next = t->free_blocks;
    t->free_blocks = b;
    if (++t->n_free <= CACHE_MAX)
        return;
    pthread_mutex_lock(&pool_lock);
    while (t->n_free > BATCH) {
        b = t->free_blocks;
        t->free_blocks = b->next;
        t->n_free--;
        b->next = pool_global;
        pool_global = b;
    }
    pthread_mutex_unlock(&pool_lock);
}
