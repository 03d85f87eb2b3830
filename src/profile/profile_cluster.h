/* SPDX-License-Identifier: BSD-3-Clause */
/* profile_cluster.h: dynamic regions in the profile (every visit its own call path with the
 * parameter "instance") and Score-P's online clustering of the instances of one dynamic
 * region into at most SCOREP_PROFILING_CLUSTER_COUNT clusters (docs/profile-clustering.md). */
#ifndef SCOREP_PROFILE_CLUSTER_H
#define SCOREP_PROFILE_CLUSTER_H

#include "profile/profile.h"

/* The parameter "instance" (int64), defined on first use; SCOREP_INVALID_ID if impossible. */
uint32_t scorep_profile_instance_param(void);

/* After the enter of dynamic region (the profile's current node is its node): opens its
 * child "instance=N", N = the visit of this call path (1, 2, ...). */
void scorep_profile_dynamic_enter(scorep_profile *p, uint32_t region);
/* Before the leave of dynamic region: the instance node that the leave will close, or NULL. */
pnode *scorep_profile_dynamic_instance(const scorep_profile *p, uint32_t region);
/* After that leave: the closed instance enters the clustering if it is the clustered one. */
void scorep_profile_dynamic_left(scorep_profile *p, pnode *instance);

/* At the end (profile writing, no more events): clusters the instances still outside the
 * clustering and numbers the clusters 1..n in Score-P's order (their "instance" values).
 * Returns the clustered region's node (the parent of the clusters), or NULL when nothing was
 * clustered in this process. */
const pnode *scorep_profile_cluster_finish(void);
/* After finish: the number of clustered iterations, and the cluster (1..n) of iteration i
 * (0-based). */
uint32_t scorep_profile_cluster_iterations(void);
uint32_t scorep_profile_cluster_of(uint32_t i);

#endif
