/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_tasks.c: OMPT callbacks of explicit tasks: ThreadTaskCreate inside "!$omp create task"
 * on the creating thread; ThreadTaskSwitch, the task region and ThreadTaskComplete where the
 * task runs, with the thread's call path suspended meanwhile (profile_threads.h). Undeferred
 * tasks and tasks outside parallel regions run in place and are not recorded (as Score-P).
 * An untied task, which the runtime may resume on another thread, is recorded in parts: its
 * regions are left at each suspension and entered again where it resumes (docs/openmp.md). */
#include "adapters/omp/omp_adapter.h"

#include <stdlib.h>

void omp_cb_task_create(ompt_data_t *encountering_task, const ompt_frame_t *frame,
                        ompt_data_t *new_task, int flags, int has_dependences, const void *codeptr)
{
    (void)encountering_task;
    (void)frame;
    (void)has_dependences;
    new_task->ptr = NULL;
    if (!(flags & ompt_task_explicit) || (flags & ompt_task_undeferred))
        return;
    omp_thread *t = omp_thread_get();
    omp_frame *f = t ? omp_frame_implicit(t) : NULL;
    omp_task *task = f ? omp_pool_get(t) : NULL;
    if (!task)
        return;
    uint64_t raw = scorep_timer_ticks();
    *task =
        (omp_task){OMP_TASK_MAGIC,
                   omp_region(flags & ompt_task_untied ? OMP_R_TASK_UNTIED : OMP_R_TASK, codeptr),
                   f->team->instance,
                   f->index,
                   ++t->generation,
                   false,
                   (flags & ompt_task_untied) != 0,
                   false,
                   0,
                   0, /* last_loc: set where it begins */
                   NULL,
                   {{0, 0, false}}};
    new_task->ptr = task;
    omp_enter(t, omp_region(OMP_R_CREATE_TASK, codeptr), TAG_NONE, raw);
    scorep_event_thread_task(t->loc, BUF_EV_THREAD_TASK_CREATE, task->team, task->creator,
                             task->generation, task, raw);
    omp_leave(t, raw);
}


static void task_event(omp_thread *t, buf_event_type type, const omp_task *task, uint64_t raw)
{
    scorep_event_thread_task(t->loc, type, task->team, task->creator, task->generation, task, raw);
}

/* A part of a task begins on l (its start or a resumption): the frame notes l's call depth,
 * and in the profile l's call path is put aside, the part's tree growing under the parallel
 * region of the implicit task imp. */
static inline void task_part_attach(scorep_location *l, omp_frame *f, const omp_frame *imp,
                                    uint64_t raw)
{
    f->core_depth = l->depth;
    if (l->profiling && imp && imp->par_node) {
        scorep_profile_suspend(&l->profile, imp->par_node, imp->par_depth,
                               scorep_location_now(l, raw), &f->saved);
        f->attached = true;
        f->at = imp->par_node;
    }
}

/* The thread's call path is put aside; the task's tree grows under the parallel region. */
static void task_start(omp_thread *t, omp_task *task, uint64_t raw)
{
    omp_frame *imp = omp_frame_implicit(t);
    omp_frame *f = omp_frame_push(t, FRAME_TASK);
    if (!f)
        return;
    f->task = task;
    task->started = true;
    task->last_loc = t->loc->id;
    /* a task that began here: it leaves unless it ends here (task_end) */
    t->loc->profile.mig_loss++;
    scorep_location *l = t->loc;
    task_part_attach(l, f, imp, raw);
    /* Substrate plugins get Score-P's TASK_BEGIN for the switch to the task and the enter of
     * its region (with the enter's time and metric values), not those two: their delivery is
     * off meanwhile (this thread's flag, read by this thread's events only; the location's
     * events_fast stays 0 while plugins are loaded, so the general paths take the events). */
    bool plug = __builtin_expect(l->substrates_on, 0);
    if (plug)
        l->substrates_on = false;
    task_event(t, BUF_EV_THREAD_TASK_SWITCH, task, raw);
    uint64_t ts = omp_enter(t, task->region, TAG_NONE, raw);
    if (plug) {
        l->substrates_on = true;
        if (ts)
            scorep_substrates_task_begin(l, ts, task->region, scorep_event_metric_values(l),
                                         task->team, task->creator, task->generation, task);
    }
}

static void task_end(omp_thread *t, ompt_data_t *data, omp_task *task, uint64_t raw)
{
    omp_frame *f = omp_frame_top(t);
    if (!f || f->kind != FRAME_TASK || f->task != task)
        return; /* began on another thread (untied) or before the measurement */
    t->loc->profile.mig_loss--;
    scorep_location *l = t->loc;
    /* regions left open inside the task, then the task's region: for substrate plugins
     * Score-P's TASK_END instead of its leave and the completion (as at the begin) */
    omp_leave_to(t, f->n_regions + 1, raw);
    bool plug = __builtin_expect(l->substrates_on, 0);
    if (plug)
        l->substrates_on = false;
    uint32_t region = t->n_regions > f->n_regions ? t->regions[t->n_regions - 1].region
                                                  : SCOREP_INVALID_ID;
    uint64_t ts = region != SCOREP_INVALID_ID ? omp_leave(t, raw) : 0;
    task_event(t, BUF_EV_THREAD_TASK_COMPLETE, task, raw);
    if (plug) {
        l->substrates_on = true;
        if (ts)
            scorep_substrates_task_end(l, ts, region, scorep_event_metric_values(l), task->team,
                                       task->creator, task->generation, task);
    }
    if (f->attached)
        scorep_profile_resume(&l->profile, &f->saved, f->at, scorep_location_now(l, raw));
    omp_frame_pop(t);
    task->magic = 0;
    data->ptr = NULL;
    if (task->parked_regions != task->parked_inline)
        free(task->parked_regions); /* NULL unless it ended parked: not seen from libomp */
    omp_pool_put(t, task);
}

/* Suspension of an untied task (at a task scheduling point; the runtime may resume it on
 * any thread of its team): its part on this thread ends. Out of line, so that the callback's
 * path for tied tasks stays as it was. Its open regions, innermost first,
 * are left at `raw` (the core's above its region and the adapter's, in the core's order)
 * and kept in the task, its profile part ends (the thread's call path resumes). Substrate
 * plugins get none of these leaves: for them the task is only switched away from (Score-P's
 * view); the caller records the switch to what runs next. */
__attribute__((noinline, cold)) static void task_park(omp_thread *t, omp_task *task, uint64_t raw)
{
    omp_frame *f = omp_frame_top(t);
    if (!f || f->kind != FRAME_TASK || f->task != task)
        return;
    scorep_location *l = t->loc;
    uint32_t n_core = l->depth > f->core_depth ? l->depth - f->core_depth : 0;
    uint32_t n_adapter = t->n_regions - f->n_regions;
    /* kept in the task's block (no allocation) unless more than 3 regions are open */
    uint32_t cap = n_core + n_adapter, n = 0, left = 0;
    enum { INLINE = sizeof task->parked_inline / sizeof *task->parked_inline };
    omp_parked_region *saved = cap > INLINE ? malloc(cap * sizeof *saved)
                               : cap        ? task->parked_inline
                                            : NULL;
    bool plug = __builtin_expect(l->substrates_on, 0);
    if (plug)
        l->substrates_on = false;
    while (l->depth > f->core_depth) {
        uint32_t d = l->depth, region = l->stack_region[d - 1];
        bool adapter = t->n_regions > f->n_regions && t->regions[t->n_regions - 1].region == region;
        uint8_t tag = adapter ? t->regions[t->n_regions - 1].tag : TAG_NONE;
        if (adapter)
            omp_leave(t, raw);
        else
            scorep_event_leave_at(l, region, raw);
        if (l->depth >= d)
            break; /* not left (recording off meanwhile): the adapter's are left below */
        left++;
        if (saved && n < cap)
            saved[n++] = (omp_parked_region){region, tag, adapter};
    }
    /* the adapter's regions that the core did not record (entered while recording was off) */
    while (t->n_regions > f->n_regions) {
        omp_open_region r = t->regions[t->n_regions - 1];
        omp_leave(t, raw);
        if (saved && n < cap)
            saved[n++] = (omp_parked_region){r.region, r.tag, true};
    }
    if (plug) {
        l->substrates_on = true;
        /* the calling contexts of the regions left (the core's: the adapter's entered while
         * recording was off have none) go with the task */
        scorep_substrates_task_park(l, scorep_location_now(l, raw), task, left);
    }
    for (uint32_t i = 0; i < n / 2; i++) { /* outermost first */
        omp_parked_region x = saved[i];
        saved[i] = saved[n - 1 - i];
        saved[n - 1 - i] = x;
    }
    task->parked_regions = saved;
    task->n_parked = saved ? n : 0;
    task->parked = true;
    if (f->attached)
        scorep_profile_resume(&l->profile, &f->saved, f->at, scorep_location_now(l, raw));
    omp_frame_pop(t);
}

/* Resumption of a parked untied task on this thread (the same one or another): a part
 * begins as the task began (task_start), with the switch to the task delivered to substrate
 * plugins as the switch it is, and its regions entered again, outermost first. */
__attribute__((noinline, cold)) static void task_resume(omp_thread *t, omp_task *task,
                                                       uint64_t raw)
{
    omp_frame *imp = omp_frame_implicit(t);
    omp_frame *f = omp_frame_push(t, FRAME_TASK);
    if (!f)
        return; /* the task stays parked: its end here finds no frame */
    f->task = task;
    task->parked = false;
    /* Score-P's migration: a part on another thread than the last part's */
    if (task->last_loc != t->loc->id) {
        task->last_loc = t->loc->id;
        t->loc->profile.mig_win++;
        t->loc->profile.mig_loss++;
    }
    scorep_location *l = t->loc;
    task_part_attach(l, f, imp, raw);
    task_event(t, BUF_EV_THREAD_TASK_SWITCH, task, raw);
    bool plug = __builtin_expect(l->substrates_on, 0);
    if (plug)
        l->substrates_on = false;
    if (task->parked_regions) {
        for (uint32_t i = 0; i < task->n_parked; i++) {
            omp_parked_region r = task->parked_regions[i];
            if (r.adapter)
                omp_enter(t, r.region, r.tag, raw);
            else
                scorep_event_enter_at(l, r.region, raw);
        }
    } else { /* nothing kept (out of memory for more than 3): at least the task's region */
        omp_enter(t, task->region, TAG_NONE, raw);
    }
    if (plug) {
        l->substrates_on = true;
        scorep_substrates_task_resume(l, scorep_location_now(l, raw), task);
    }
    if (task->parked_regions != task->parked_inline)
        free(task->parked_regions);
    task->parked_regions = NULL;
    task->n_parked = 0;
}

/* After a task: back in the implicit task of the innermost team, unless another explicit
 * task (suspended, below on this thread) resumes. The implicit task is named as Score-P
 * names it (SCOREP_Task.c): generation 0 and, as its creating thread, the location's
 * process-local id, not the thread's number in the team. Scalasca's PEARL takes that number
 * as the location's index in its process (its analysis thread) and keeps a call stack per
 * task: with the team number, a worker whose location's id differs from it (the threads'
 * locations are numbered in the order they first record) had its implicit task's regions
 * left on an empty stack after a task ran there, and scout.omp crashed. */
static void switch_back(omp_thread *t, uint64_t raw)
{
    omp_frame *f = omp_frame_top(t);
    if (f && f->kind == FRAME_TASK) {
        task_event(t, BUF_EV_THREAD_TASK_SWITCH, f->task, raw);
        return;
    }
    f = omp_frame_implicit(t);
    if (f)
        scorep_event_thread_task(t->loc, BUF_EV_THREAD_TASK_SWITCH, f->team->instance, t->loc->id,
                                 0, NULL, raw);
}

void omp_cb_task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next)
{
    omp_task *from = omp_task_of(prior), *to = omp_task_of(next);
    if (!from && !to)
        return;
    omp_thread *t = omp_thread_get();
    if (!t)
        return;
    uint64_t raw = scorep_timer_ticks();
    bool finished =
        status == ompt_task_complete || status == ompt_task_cancel || status == ompt_task_detach;
    bool parked = false;
    if (from && from->started) {
        if (finished)
            task_end(t, prior, from, raw);
        else if (__builtin_expect(from->untied, 0) && !from->parked &&
                 (status == ompt_task_switch || status == ompt_task_yield)) {
            task_park(t, from, raw);
            parked = from->parked;
        }
    }
    if (to && !to->started)
        task_start(t, to, raw);
    else if (__builtin_expect(to && to->parked, 0))
        task_resume(t, to, raw);
    else if (to || finished || parked)
        switch_back(t, raw);
}
