/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_parallel.c: OMPT callbacks of threads, parallel regions, implicit tasks and barriers:
 * ThreadFork/Join on the encountering thread, ThreadTeamBegin/End and the parallel region
 * on every member, whose profile continues under the call path of the fork. */
#include "adapters/omp/omp_adapter.h"
#include "runtime/runtime.h"
#include "sampling/sampling.h"
#include "substrates/substrates_core.h"

#include <libunwind.h>
#include <stdio.h>

void omp_cb_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
    /* a worker's location is activated for substrate plugins at each team it joins */
    if (type == ompt_thread_worker)
        scorep_substrates_omp_worker_next(true);
    omp_thread *t = omp_thread_get();
    if (type == ompt_thread_worker)
        scorep_substrates_omp_worker_next(false);
    thread_data->ptr = t;
    if (t && type == ompt_thread_worker) /* Score-P's name of OpenMP worker locations */
        snprintf(t->loc->name, sizeof t->loc->name, "OMP thread %u", t->loc->id);
}

/* ----------------------------------------------------------------- parallel */
static void team_release(omp_thread *t, omp_team *team)
{
    if (__atomic_sub_fetch(&team->refs, 1, __ATOMIC_ACQ_REL) == 0)
        omp_pool_put(t, team);
}

void omp_cb_parallel_begin(ompt_data_t *encountering_task, const ompt_frame_t *frame,
                           ompt_data_t *parallel_data, unsigned int requested, int flags,
                           const void *codeptr)
{
    static uint32_t instances;
    (void)encountering_task;
    (void)frame;
    (void)flags;
    parallel_data->ptr = NULL;
    omp_thread *t = omp_thread_get();
    omp_team *team = t ? omp_pool_get(t) : NULL;
    if (!team)
        return;
    uint64_t raw = scorep_timer_ticks();
    team->instance = __atomic_add_fetch(&instances, 1, __ATOMIC_RELAXED);
    team->region = omp_region(OMP_R_PARALLEL, codeptr);
    team->codeptr = codeptr;
    team->master = t->loc;
    /* with SCOREP_ENABLE_UNWINDING the parallel region's frames (main/compute) are inserted
     * at the fork, so that the workers' trees hang below them as the master's region does */
    if (t->loc->unwind && scorep_location_recording(t->loc))
        team->fork_node = scorep_unwind_fork(t->loc, team->region);
    else
        team->fork_node = t->loc->profiling ? scorep_event_current_node(t->loc) : NULL;
    team->join_ts = 0;
    team->members = NULL;
    team->refs = 1; /* the encountering thread's, until parallel end */
    parallel_data->ptr = team;
    scorep_event_thread_fork(t->loc, requested, team->instance, raw);
}

void omp_cb_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task, int flags,
                         const void *codeptr)
{
    (void)encountering_task;
    (void)flags;
    (void)codeptr;
    omp_team *team = parallel_data->ptr;
    omp_thread *t = omp_thread_get();
    if (!team || !t)
        return;
    scorep_event_thread_join(t->loc, scorep_timer_ticks());
    parallel_data->ptr = NULL;
    team_release(t, team);
}

/* ----------------------------------------------------------- implicit tasks */
/* A worker's tree continues under the fork's call path: map it (cached per thread, as the
 * same parallel region is usually forked from the same place). */
static void attach(omp_thread *t, omp_frame *f, const omp_team *team)
{
    scorep_profile *p = &t->loc->profile;
    if (t->map_from != team->fork_node || !t->map_to) {
        t->map_to = scorep_profile_map_path(p, team->fork_node, &t->map_depth);
        t->map_from = team->fork_node;
    }
    if (!t->map_to)
        return;
    scorep_profile_attach(p, t->map_to, t->map_depth, &f->saved);
    f->attached = true;
    f->at = t->map_to;
}

/* A worker joins the team's list (before it can reach the closing barrier, so before the
 * master reads the list). */
static void join_members(omp_thread *t, omp_team *team)
{
    __atomic_add_fetch(&team->refs, 1, __ATOMIC_RELAXED);
    t->worker_frame = t->n_frames - 1;
    omp_thread *head = __atomic_load_n(&team->members, __ATOMIC_RELAXED);
    do
        t->next_member = head;
    while (!__atomic_compare_exchange_n(&team->members, &head, t, true, __ATOMIC_RELEASE,
                                        __ATOMIC_RELAXED));
}

static void implicit_task_begin(omp_thread *t, omp_team *team, unsigned int actual,
                                unsigned int index)
{
    omp_frame *f = omp_frame_push(t, FRAME_IMPLICIT);
    if (!f)
        return;
    uint64_t raw = scorep_timer_ticks();
    f->team = team;
    f->index = index;
    if (index != 0)
        join_members(t, team);
    scorep_location *l = t->loc;
    if (index != 0 && l->profiling && team->fork_node)
        attach(t, f, team);
    /* as Score-P: a worker's activate_cpu_location (parent, fork sequence) before its team
     * begin; the master stays active */
    if (__builtin_expect(l->substrates_on, 0) && index != 0)
        scorep_substrates_omp_team_begin(l, team->master, team->instance);
    scorep_event_thread_team_begin(l, team->instance, index, actual, raw);
    omp_enter(t, team->region, TAG_NONE, raw);
    f->par_enter_ts = l->last_ts;
    f->par_node = l->profiling && !l->profile.overflow ? l->profile.cur : NULL;
    f->par_depth = l->profile.depth;
    /* where the migration counts go at this implicit task's end (or at a checkpoint, or an
     * end of the program, meanwhile: profile.h) */
    l->profile.mig_node = f->par_node;
}

/* Ends the implicit task of frame f, the top of t's frames, at raw. */
static void implicit_task_end(omp_thread *t, omp_frame *f, uint64_t raw)
{
    omp_team *team = f->team;
    omp_leave_to(t, f->n_regions + 1, raw);
    uint64_t left = omp_leave(t, raw);
    scorep_event_thread_team_end(t->loc, team->instance, raw);
    /* and its deactivate_cpu_location after its team end (on the master when it writes an
     * idle worker's end) */
    if (__builtin_expect(t->loc->substrates_on, 0) && f->index != 0)
        scorep_substrates_omp_team_end(t->loc, team->master);
    /* the migration counts of the tasks of this implicit task's time, on the parallel
     * region's call path, as Score-P triggers them at the parallel region's exit (only when
     * not zero there: in a sparse metric a zero is no value) */
    scorep_profile *p = &t->loc->profile;
    if (f->par_node && (p->mig_loss || p->mig_win)) {
        f->par_node->task_mig_loss += p->mig_loss;
        f->par_node->task_mig_win += p->mig_win;
    }
    p->mig_loss = 0;
    p->mig_win = 0;
    if (f->attached)
        scorep_profile_detach(p, &f->saved, f->at,
                              left > f->par_enter_ts ? left - f->par_enter_ts : 0);
    omp_frame_pop(t);
    /* the enclosing implicit task's region (a nested team ended), or none */
    const omp_frame *outer = omp_frame_implicit(t);
    p->mig_node = outer ? outer->par_node : NULL;
}

/* The worker's own frame in team `team`, when this thread is to write its end itself:
 * not yet written by the master (the runtime reported the end in time). */
static omp_frame *own_worker_frame(omp_thread *t)
{
    omp_frame *f = omp_frame_top(t);
    if (!f || f->kind != FRAME_IMPLICIT || f->index == 0)
        return f && f->kind == FRAME_IMPLICIT ? f : NULL;
    int none = ENDER_NONE;
    if (__atomic_compare_exchange_n(&f->ender, &none, ENDER_SELF, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE) ||
        none == ENDER_SELF)
        return f;
    return NULL;
}

/* Workers' ends are dated at the master's end of the closing barrier, when they left it. */
static uint64_t end_time(const omp_frame *f)
{
    uint64_t join = f && f->index != 0 ? __atomic_load_n(&f->team->join_ts, __ATOMIC_ACQUIRE) : 0;
    return join ? join : scorep_timer_ticks();
}

/* Master, leaving the team: every worker is idle now (all reached the closing barrier; LLVM
 * wakes them only for their next team, after the parallel end). Their ends are written
 * here, unless a worker claimed its own. */
static void end_workers(omp_team *team, omp_thread *self, uint64_t join)
{
    for (omp_thread *w = __atomic_load_n(&team->members, __ATOMIC_ACQUIRE); w; w = w->next_member) {
        omp_frame *f = &w->frames[w->worker_frame];
        int none = ENDER_NONE;
        if (!__atomic_compare_exchange_n(&f->ender, &none, ENDER_MASTER, false, __ATOMIC_ACQ_REL,
                                         __ATOMIC_ACQUIRE))
            continue;
        implicit_task_end(w, f, join);
        team_release(self, team);
    }
}

void omp_cb_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                          ompt_data_t *task_data, unsigned int actual, unsigned int index,
                          int flags)
{
    (void)task_data;
    if (flags & ompt_task_initial)
        return; /* the implicit parallel region around the program */
    omp_thread *t = omp_thread_get();
    if (!t)
        return;
    if (endpoint == ompt_scope_begin) {
        omp_team *team = parallel_data ? parallel_data->ptr : NULL;
        if (team)
            implicit_task_begin(t, team, actual, index);
        return;
    }
    omp_frame *f = own_worker_frame(t);
    if (!f)
        return; /* written by the master already */
    omp_team *team = f->team;
    if (f->index != 0) {
        implicit_task_end(t, f, end_time(f));
        team_release(t, team);
        return;
    }
    uint64_t raw = scorep_timer_ticks();
    implicit_task_end(t, f, raw);
    uint64_t join = __atomic_load_n(&team->join_ts, __ATOMIC_ACQUIRE);
    if (!join) /* no barrier callback: the team ends now */
        __atomic_store_n(&team->join_ts, join = t->loc->last_ts, __ATOMIC_RELEASE);
    end_workers(team, t, join);
}

/* ----------------------------------------------------------------- barriers */
static omp_region_kind sync_kind(ompt_sync_region_t kind)
{
    switch ((int)kind) {
    case ompt_sync_region_barrier_explicit:
    case ompt_sync_region_barrier:
        return OMP_R_BARRIER;
    case ompt_sync_region_taskwait:
        return OMP_R_TASKWAIT;
    case ompt_sync_region_taskgroup:
        return OMP_R_TASKGROUP;
    case ompt_sync_region_reduction:
        return OMP_R_REDUCTION;
    default: /* implicit, implementation, implicit workshare/parallel, teams */
        return OMP_R_IBARRIER;
    }
}

/* A barrier without a code pointer (LLVM: the closing barrier on workers) gets the code
 * pointer of the construct it ends, so that all team members share one barrier region. */
static const void *enclosing_codeptr(omp_thread *t)
{
    omp_frame *f = omp_frame_implicit(t);
    return f ? f->team->codeptr : NULL;
}

/* The code pointer of a barrier that the runtime passed wrongly: the return address of the
 * innermost frame outside the OpenMP runtime and this library, i.e. the user's call of the
 * barrier; NULL if the stack has none. LLVM's libomp (14 at least) passes such pointers to
 * the master: its __kmpc_end_critical releases with OMPT_LOAD_RETURN_ADDRESS(0), which reads
 * and clears the return address stored for global thread 0 instead of the caller's. A worker
 * that leaves a critical construct while the master is between GOMP_barrier's (or
 * __kmpc_barrier's) store and __kmp_barrier's load takes the master's code pointer: the
 * master's barrier then comes with none (it was the enclosing parallel region's, a wrong
 * line) or with __kmpc_barrier's own return address inside libomp (a barrier without a
 * line). Seen: 36 + 36 of 20000 explicit barriers of a master whose workers enter a critical
 * before each, 1 in a few hundred runs of test_unwind_omp.sh. Rare: an unwind (libunwind,
 * which may take the dynamic loader's lock) only where the pointer is missing or wrong. */
static const void *caller_codeptr(omp_thread *t)
{
    void *ips[32];
    /* a sample taken meanwhile is the runtime's work, and does not unwind within this one */
    int mark = scorep_sampling_runtime_begin(t->loc);
    int n = unw_backtrace(ips, 32);
    scorep_sampling_runtime_end(t->loc, mark);
    for (int i = 0; i < n; i++) {
        uintptr_t ip = (uintptr_t)ips[i];
        if (ip - omp_rt_lo < omp_rt_hi - omp_rt_lo || ip - omp_self_lo < omp_self_hi - omp_self_lo)
            continue;
        return ips[i];
    }
    return NULL;
}

/* The code pointer of a barrier's begin: the runtime's, or where it is missing or inside the
 * runtime (above), the user's call found on the stack; the closing barrier of a worker (LLVM
 * passes none: its stack holds no user frame) and any barrier without a user frame get the
 * code pointer of the construct they end, so that all team members share one barrier
 * region (a closing barrier's kind: libomp 14 reports it as ompt_sync_region_barrier_implicit,
 * later ones as _implicit_parallel). */
static const void *barrier_codeptr(omp_thread *t, const void *codeptr, ompt_sync_region_t kind)
{
    if (codeptr && omp_user_codeptr(codeptr))
        return codeptr;
    bool closing = kind == ompt_sync_region_barrier_implicit ||
                   kind == ompt_sync_region_barrier_implicit_parallel ||
                   kind == ompt_sync_region_barrier_teams;
    if (codeptr || !closing) {
        const void *c = caller_codeptr(t);
        if (c)
            return c;
    }
    return enclosing_codeptr(t);
}

/* The closing barrier of a parallel region ends without parallel data. */
static void closing_barrier_end(omp_thread *t)
{
    omp_frame *f = own_worker_frame(t);
    if (!f)
        return; /* a worker whose end the master wrote */
    uint64_t raw = end_time(f);
    uint64_t left = omp_leave(t, raw);
    if (f->index == 0)
        __atomic_store_n(&f->team->join_ts, left ? left : t->loc->last_ts, __ATOMIC_RELEASE);
}

void omp_cb_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                        ompt_data_t *parallel_data, ompt_data_t *task_data, const void *codeptr)
{
    (void)task_data;
    omp_thread *t = omp_thread_get();
    if (!t)
        return;
    omp_region_kind k = sync_kind(kind);
    if (endpoint == ompt_scope_begin) {
        uint64_t raw = scorep_timer_ticks();
        if (k == OMP_R_IBARRIER || k == OMP_R_BARRIER)
            omp_end_open_single(t, raw); /* no barrier inside a single */
        omp_enter(t, omp_region(k, k == OMP_R_BARRIER || k == OMP_R_IBARRIER
                                       ? barrier_codeptr(t, codeptr, kind)
                                       : codeptr ? codeptr : enclosing_codeptr(t)),
                  TAG_NONE, raw);
    } else if (!parallel_data && k == OMP_R_IBARRIER) {
        closing_barrier_end(t);
    } else {
        omp_leave(t, scorep_timer_ticks());
    }
}
