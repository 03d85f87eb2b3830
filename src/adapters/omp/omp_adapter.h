/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_adapter.h: internals of the OpenMP adapter (an OMPT tool inside the runtime): per-thread
 * state, parallel-region and task objects, region and lock tables. See docs/openmp.md. */
#ifndef SCOREP_OMP_ADAPTER_H
#define SCOREP_OMP_ADAPTER_H

#include "core/events_thread.h"
#include "profile/profile_threads.h"

#include <omp-tools.h>
#include <stdbool.h>
#include <stdint.h>

/* ------------------------------------------------------------------ regions */
typedef enum {
    OMP_R_PARALLEL,
    OMP_R_IBARRIER,
    OMP_R_BARRIER,
    OMP_R_TASKWAIT,
    OMP_R_TASKGROUP,
    OMP_R_REDUCTION,
    OMP_R_FOR,
    OMP_R_SECTIONS,
    OMP_R_SECTION,
    OMP_R_SINGLE,
    OMP_R_SINGLE_SBLOCK,
    OMP_R_WORKSHARE,
    OMP_R_DISTRIBUTE,
    OMP_R_TASKLOOP,
    OMP_R_SCOPE,
    OMP_R_MASKED,
    OMP_R_CRITICAL,
    OMP_R_CRITICAL_SBLOCK,
    OMP_R_ORDERED,
    OMP_R_ORDERED_SBLOCK,
    OMP_R_TASK,
    OMP_R_TASK_UNTIED,
    OMP_R_CREATE_TASK,
    OMP_R_FLUSH,
    OMP_R_TARGET, /* target constructs of libgomp's host fallback (gomp_wrap.c) */
    OMP_R_TARGET_ENTER_DATA,
    OMP_R_TARGET_EXIT_DATA,
    OMP_R_TARGET_UPDATE,
    OMP_R_SET_LOCK, /* lock API regions: one each, no source position (as Score-P) */
    OMP_R_UNSET_LOCK,
    OMP_R_SET_NEST_LOCK,
    OMP_R_UNSET_NEST_LOCK,
    OMP_R_TEST_LOCK, /* entered only by a test that got the lock (Score-P's OMPT adapter) */
    OMP_R_TEST_NEST_LOCK,
    OMP_R_INIT_LOCK, /* lock initialisation and destruction: no duration (OMPT gives none) */
    OMP_R_INIT_LOCK_WITH_HINT,
    OMP_R_DESTROY_LOCK,
    OMP_R_INIT_NEST_LOCK,
    OMP_R_INIT_NEST_LOCK_WITH_HINT,
    OMP_R_DESTROY_NEST_LOCK,
    OMP_R_KINDS
} omp_region_kind;

/* The region of construct `kind` at code pointer `codeptr` (a return address; NULL allowed),
 * "!$omp for/do @file.c:14"; created on first use under a lock, found lock-free afterwards.
 * SCOREP_INVALID_ID when out of memory. */
uint32_t omp_region(omp_region_kind kind, const void *codeptr);

/* LLVM's libomp sometimes passes a return address inside itself instead of the user's code
 * (seen with gcc-compiled critical constructs): such code pointers count as none. */
void omp_runtime_range_init(void);
extern uintptr_t omp_rt_lo, omp_rt_hi; /* the OpenMP runtime's code: [lo, hi) */
extern uintptr_t omp_self_lo, omp_self_hi; /* this library's code: [lo, hi) */
static inline const void *omp_user_codeptr(const void *codeptr)
{
    return (uintptr_t)codeptr - omp_rt_lo < omp_rt_hi - omp_rt_lo ? NULL : codeptr;
}

/* ------------------------------------------------------------------- locks */
typedef struct {
    uint32_t id;         /* process-local lock id (OTF2 lockID) */
    uint32_t acquired;   /* acquisitions so far (atomic) */
    const void *codeptr; /* critical/ordered: last user code pointer seen (atomic) */
    uint64_t released;   /* the last release's timestamp (atomic): the next acquisition's
                          * is later, whatever the threads' clocks read */
} omp_lock;

/* The record of the mutex with OMPT wait id `wait_id`, created on first use. NULL when out
 * of memory. */
omp_lock *omp_lock_of(uint64_t wait_id);

/* ------------------------------------------------------- parallel and tasks */
struct omp_thread;

/* One parallel region instance, shared by its team. LLVM's runtime reports the ends of the
 * workers' closing barrier and implicit task late (when the worker is next used, or at
 * shutdown, possibly after the measurement ended): the master writes them for its idle
 * workers when it leaves the team (omp_parallel.c). refs: the master until parallel end, and
 * each worker until its end is written; the last one frees the object. */
typedef struct omp_team {
    uint32_t instance; /* process-wide sequence number: the trace's team id */
    uint32_t region;   /* !$omp parallel */
    const void *codeptr;
    struct scorep_location *master; /* the encountering thread's (substrate plugins) */
    pnode *fork_node;           /* the encountering thread's call path at the fork (profiling) */
    uint64_t join_ts;           /* master's end of the closing barrier (atomic; 0 = not yet) */
    struct omp_thread *members; /* the workers (atomic list through next_member) */
    int32_t refs;               /* atomic */
} omp_team;

/* A region open in a suspended untied task, to enter again where the task resumes: the
 * core's (user regions, the compiler adapter's) or also the adapter's (then with its tag). */
typedef struct {
    uint32_t region;
    uint8_t tag;
    bool adapter;
} omp_parked_region;

/* One explicit task, from creation to completion (ompt_data_t.ptr of the task). */
typedef struct omp_task {
    uint32_t magic;
    uint32_t region;  /* !$omp task */
    uint32_t team;    /* instance of the creating team */
    uint32_t creator; /* creating thread's index in that team */
    uint32_t generation;
    bool started;
    bool untied; /* may resume on another thread of its team (omp_tasks.c) */
    bool parked; /* untied, suspended: on no thread's frame stack */
    uint32_t n_parked; /* parked: its regions that were open, outermost first, ... */
    /* the location id of the thread its last part ran on (Score-P's last_location: where it
     * began, then where it resumed on another thread), for the profile's migration counts
     * (omp_tasks.c); in the padding before the pointer: the task fits its pool block */
    uint32_t last_loc;
    omp_parked_region *parked_regions; /* ... in parked_inline or, more, malloc'd */
    omp_parked_region parked_inline[3]; /* the task's region and two inside need no malloc */
} omp_task;
#define OMP_TASK_MAGIC 0x6f6d7074u

/* The task of OMPT task data D when this adapter records it (a deferred explicit task
 * created inside a parallel region), else NULL. */
static inline omp_task *omp_task_of(ompt_data_t *d)
{
    omp_task *task = d ? d->ptr : NULL;
    return task && task->magic == OMP_TASK_MAGIC ? task : NULL;
}

/* ----------------------------------------------------------- thread state */
typedef enum { FRAME_IMPLICIT, FRAME_TASK } omp_frame_kind;

/* What a thread is inside of: an implicit task (team member) or an explicit task. */
typedef struct {
    omp_frame_kind kind;
    uint32_t index;     /* implicit: thread number in the team */
    uint32_t n_regions; /* region stack height when the frame began */
    omp_team *team;     /* implicit */
    omp_task *task;     /* task */
    uint32_t core_depth; /* task: the location's call depth before the task's region */
    bool attached;      /* profile: worker grafted at `at` */
    pnode *at;
    scorep_profile_saved saved;
    pnode *par_node; /* implicit: the parallel region's node; tasks hang below it */
    uint32_t par_depth;
    uint64_t par_enter_ts;
    int ender; /* worker: who writes its end, ENDER_* (atomic) */
} omp_frame;

enum { ENDER_NONE, ENDER_SELF, ENDER_MASTER };

typedef struct {
    uint32_t region;
    uint8_t tag; /* what entered it, when an end callback must tell */
} omp_open_region;

enum { TAG_NONE, TAG_SECTION, TAG_SINGLE_EXECUTOR };

typedef struct omp_block omp_block;

/* A lock this thread holds and the acquisition order it got. Kept per thread: the runtime
 * reports a release after the lock is free, when the next owner may have taken it. */
typedef struct {
    omp_lock *lock;
    uint32_t order;
} omp_held;

typedef struct omp_thread {
    scorep_location *loc;
    omp_frame *frames;
    uint32_t n_frames;
    size_t cap_frames;        /* capacities: base/grow.h */
    omp_open_region *regions; /* regions entered by this adapter, innermost last */
    uint32_t n_regions;
    size_t cap_regions;
    uint32_t generation;   /* explicit tasks created by this thread */
    /* (Score-P's migration counts are its location's profile's mig_loss / mig_win: tasks
     * that began here + resumptions here from another thread - tasks that ended here (= the
     * tasks that left: task_migration_loss), and those resumptions (task_migration_win);
     * added to the parallel region's node at the implicit task's end, omp_parallel.c) */
    const pnode *map_from; /* last fork call path mapped into this thread's tree */
    pnode *map_to;
    uint32_t map_depth;
    omp_block *free_blocks; /* pool cache (omp_pool_*) */
    uint32_t n_free;
    omp_held *held; /* locks held, any order */
    uint32_t n_held;
    size_t cap_held;
    struct omp_thread *next_member; /* in the team it works in (omp_team.members) */
    uint32_t worker_frame;          /* index of that team's frame */
    /* when the pending lock call (omp_set_lock, omp_test_lock and the nest ones) began
     * (0: none) and its kind: its region is entered at that time once the call gets the
     * lock; a failed test records nothing (omp_constructs.c) */
    uint64_t lock_at;
    int lock_kind;
    bool lock_open; /* omp_set_lock's or omp_set_nest_lock's region entered at its start */
} omp_thread;

/* This thread's state, created on first use; NULL when the measurement is off. */
omp_thread *omp_thread_get(void);

omp_frame *omp_frame_push(omp_thread *t, omp_frame_kind kind);
void omp_frame_pop(omp_thread *t);
omp_frame *omp_frame_top(omp_thread *t);
/* Innermost implicit-task frame, or NULL outside parallel regions. */
omp_frame *omp_frame_implicit(omp_thread *t);

/* Region stack of the adapter's own regions; enter/leave record the events. */
/* returns the timestamp of the enter (0 when none was recorded) */
uint64_t omp_enter(omp_thread *t, uint32_t region, uint8_t tag, uint64_t raw);
/* Leaves the innermost region; returns the timestamp used (0 when none). */
uint64_t omp_leave(omp_thread *t, uint64_t raw);
/* Leaves regions until the stack is `height` high. */
void omp_leave_to(omp_thread *t, uint32_t height, uint64_t raw);
uint8_t omp_top_tag(const omp_thread *t);
/* Ends a single construct whose executing thread got no end callback (gcc's GOMP_single_start
 * has no end): called where the next construct shows that it ended. */
void omp_end_open_single(omp_thread *t, uint64_t raw);

/* Locks held: push at acquisition; pop returns the order (UINT32_MAX when not found). */
void omp_held_push(omp_thread *t, omp_lock *lock, uint32_t order);
uint32_t omp_held_pop(omp_thread *t, omp_lock *lock);

/* Fixed-size blocks for teams and tasks: per-thread cache, a locked global list behind it. */
void *omp_pool_get(omp_thread *t);
void omp_pool_put(omp_thread *t, void *p);

/* Callbacks (ompt_tool.c registers them). */
void omp_cb_thread_begin(ompt_thread_t type, ompt_data_t *thread_data);
void omp_cb_parallel_begin(ompt_data_t *encountering_task, const ompt_frame_t *frame,
                           ompt_data_t *parallel_data, unsigned int requested, int flags,
                           const void *codeptr);
void omp_cb_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task, int flags,
                         const void *codeptr);
void omp_cb_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                          ompt_data_t *task_data, unsigned int actual, unsigned int index,
                          int flags);
void omp_cb_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                        ompt_data_t *parallel_data, ompt_data_t *task_data, const void *codeptr);
void omp_cb_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                 ompt_data_t *task_data, uint64_t count, const void *codeptr);
void omp_cb_dispatch(ompt_data_t *parallel_data, ompt_data_t *task_data, ompt_dispatch_t kind,
                     ompt_data_t instance);
void omp_cb_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                   ompt_data_t *task_data, const void *codeptr);
/* The start of omp_set_lock or omp_set_nest_lock where the caller knows it is one (libgomp's
 * wrappers): its region is entered now, so that samples taken while it waits fall in it;
 * the acquisition (omp_cb_mutex_acquired, omp_cb_nest_lock) ends it. */
void omp_lock_set_begin(ompt_mutex_t kind);
void omp_cb_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                          ompt_wait_id_t wait_id, const void *codeptr);
void omp_cb_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr);
void omp_cb_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr);
void omp_cb_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void *codeptr);
void omp_cb_flush(ompt_data_t *thread_data, const void *codeptr);
void omp_cb_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                      ompt_wait_id_t wait_id, const void *codeptr);
void omp_cb_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr);
void omp_cb_task_create(ompt_data_t *encountering_task, const ompt_frame_t *frame,
                        ompt_data_t *new_task, int flags, int has_dependences, const void *codeptr);
void omp_cb_task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next);
void omp_cb_dependences(ompt_data_t *task_data, const ompt_dependence_t *deps, int ndeps);

#endif
