/* SPDX-License-Identifier: BSD-3-Clause */
/* an_pattern_lock.c: lock contention, as Scalasca 2.x defines it (Thread.pattern,
 * LockTracking, Pthread.pattern, OMP.pattern): an acquisition of a lock (ThreadAcquireLock with
 * acquisition order k) waited for the lock from the enter of the call that acquired it until
 * the lock's previous holder released it (the last ThreadReleaseLock of order k - 1; a
 * recursive holder's outermost release). That time, when positive, is the contention of the
 * acquiring thread, on its own location and at the call path of the acquiring call:
 *   pthread_mutex_lock / _trylock   pthread_lock_contention_mutex_lock
 *   pthread_cond_wait / _timedwait  pthread_lock_contention_conditional
 *   !$omp critical                  omp_lock_contention_critical
 *   omp_set_lock & co.              omp_lock_contention_api
 * Lock ids are per process and per paradigm: this rank's threads hold all acquisitions of its
 * locks, so nothing is communicated. One difference from Scalasca: the wait ends at the
 * acquisition at the latest (an OpenMP runtime reports a release after the lock is free, so
 * the release may carry a later timestamp than the next acquisition). */
#include "analysis/an_context.h"
#include "analysis/an_regions.h"
#include "base/grow.h"

#include <otf2/OTF2_GeneralDefinitions.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    uint64_t time;
    uint64_t enter; /* acquisitions: the enter of the acquiring call */
    uint32_t paradigm, lock, order;
    uint32_t release; /* 0 acquisition, 1 release */
    uint32_t loc, cnode, cls;
} lock_event;

typedef struct {
    lock_event *v;
    size_t n, cap;
} lock_events;

static int cmp_lock(const void *a, const void *b)
{
    const lock_event *x = a, *y = b;
    if (x->paradigm != y->paradigm)
        return x->paradigm < y->paradigm ? -1 : 1;
    if (x->lock != y->lock)
        return x->lock < y->lock ? -1 : 1;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->time < y->time ? -1 : x->time > y->time;
}

/* the lock events of one thread (location LOC) into LE */
static int collect(const an_trace *t, const an_event *ev, size_t n, size_t loc, lock_events *le)
{
    for (size_t i = 0; i < n; i++) {
        const an_event *e = &ev[i];
        if (e->kind != AN_LOCK_ACQUIRE && e->kind != AN_LOCK_RELEASE)
            continue;
        int acq = e->kind == AN_LOCK_ACQUIRE;
        /* an acquisition outside any measured call, or in a call without call path (a worker
         * outside its team), has no waiting to charge; its release still counts */
        if (acq && (e->enter == AN_NONE || e->cnode == AN_NONE))
            continue;
        if (scorep_grow((void **)&le->v, &le->cap, le->n + 1, sizeof *le->v) != 0)
            return -1;
        uint32_t region = acq ? ev[e->enter].region : AN_NONE;
        le->v[le->n++] = (lock_event){
            .time = e->time,
            .enter = acq ? ev[e->enter].time : 0,
            .paradigm = (uint32_t)e->bytes,
            .lock = (uint32_t)e->request,
            .order = e->tag,
            .release = !acq,
            .loc = (uint32_t)loc,
            .cnode = e->cnode,
            .cls = region < t->n_regions ? t->regions[region].cls & AN_RC_MASK : AN_RC_USER,
        };
    }
    return 0;
}

/* the pattern an acquisition in a call of class CLS belongs to; -1: none (ordered, ...) */
static int contention_metric(uint32_t paradigm, uint32_t cls)
{
    if (paradigm == OTF2_PARADIGM_PTHREAD)
        return cls == AN_RC_PTHREAD_MUTEX  ? M_PTHREAD_LOCK_CONTENTION_MUTEX_LOCK
               : cls == AN_RC_PTHREAD_COND ? M_PTHREAD_LOCK_CONTENTION_CONDITIONAL
                                           : -1;
    if (paradigm == OTF2_PARADIGM_OPENMP)
        return cls == AN_RC_OMP_CRITICAL ? M_OMP_LOCK_CONTENTION_CRITICAL
               : cls == AN_RC_OMP_LOCK   ? M_OMP_LOCK_CONTENTION_API
                                         : -1;
    return -1;
}

/* per lock, by acquisition order: each acquisition of order k against the last release of
 * order k - 1 */
static void contention(an_ctx *c, const lock_events *le)
{
    uint64_t prev_release = 0, cur_release = 0;
    int have_prev = 0;
    for (size_t i = 0; i < le->n; i++) {
        const lock_event *e = &le->v[i];
        if (i == 0 || e->paradigm != le->v[i - 1].paradigm || e->lock != le->v[i - 1].lock) {
            have_prev = 0;
            cur_release = 0;
        } else if (e->order != le->v[i - 1].order) {
            have_prev = e->order == le->v[i - 1].order + 1 && cur_release != 0;
            prev_release = cur_release;
            cur_release = 0;
        }
        if (e->release) {
            cur_release = e->time > cur_release ? e->time : cur_release;
            continue;
        }
        int m = contention_metric(e->paradigm, e->cls);
        uint64_t until = prev_release < e->time ? prev_release : e->time;
        if (m >= 0 && have_prev && until > e->enter) {
            an_add_loc(c, e->loc, (an_metric)m, e->cnode, an_sec(c, (int64_t)(until - e->enter)));
            an_stat_add(c, (an_metric)m, an_sec(c, (int64_t)(until - e->enter)), e->enter, e->time,
                        e->cnode, AN_NONE, AN_NONE);
        }
    }
}

int an_pattern_lock(an_ctx *c, char *err, size_t len)
{
    const an_trace *t = c->t;
    lock_events le = {0};
    int rc = collect(t, t->events, t->n_events, 0, &le);
    for (size_t w = 0; rc == 0 && w < t->n_threads; w++)
        rc = collect(t, t->threads[w].events, t->threads[w].n_events, 1 + w, &le);
    if (rc == 0) {
        qsort(le.v, le.n, sizeof *le.v, cmp_lock);
        contention(c, &le);
    } else {
        snprintf(err, len, "out of memory in the lock contention analysis");
    }
    free(le.v);
    return rc;
}
