/* SPDX-License-Identifier: BSD-3-Clause */
/* profile_threads.h: call-tree operations of fork-join threading: a worker's tree hangs under
 * the call path of the fork, and a thread running an explicit task puts its current call
 * path aside so that the task's time is not counted where the thread happened to wait. */
#ifndef SCOREP_PROFILE_THREADS_H
#define SCOREP_PROFILE_THREADS_H

#include "profile/profile.h"

/* The position of a profile put aside by attach or suspend. */
typedef struct {
    pnode *cur;
    uint32_t depth, overflow;
    uint64_t ts; /* suspend: when the thread left the call path */
} scorep_profile_saved;

/* The node of p with the same call path as `foreign` (a node of another location's tree,
 * whose nodes are immutable once created), created where missing without visits; *depth
 * gets the number of region nodes on the path. NULL when out of memory. Reading foreign
 * needs no lock: parent, kind, key, id and value never change after creation. */
pnode *scorep_profile_map_path(scorep_profile *p, const pnode *foreign, uint32_t *depth);

/* Worker: continue p at `at` (a node from map_path) for one implicit task. */
void scorep_profile_attach(scorep_profile *p, pnode *at, uint32_t depth,
                           scorep_profile_saved *saved);
/* Back to the saved position. `duration` (the worker's time in the team) is added to the
 * inclusive time of `at` and its ancestors, which got no visits: so their exclusive time on
 * this location is zero instead of negative. */
void scorep_profile_detach(scorep_profile *p, const scorep_profile_saved *saved, pnode *at,
                           uint64_t duration);

/* Task: the thread's call path is put aside at ts and the task's tree grows under `base`. */
void scorep_profile_suspend(scorep_profile *p, pnode *base, uint32_t base_depth, uint64_t ts,
                            scorep_profile_saved *saved);
/* Back at ts: the open calls between the saved position and `base` get the time of the
 * interruption added to their enter times, so it is not counted twice. */
void scorep_profile_resume(scorep_profile *p, const scorep_profile_saved *saved, const pnode *base,
                           uint64_t ts);

#endif
