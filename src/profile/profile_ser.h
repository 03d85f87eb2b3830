/* SPDX-License-Identifier: BSD-3-Clause */
/* profile_ser.h: a location's call tree as bytes and back (rank-local pieces of a process
 * that ends without the collective finalize: rescue, checkpoints, scorep-recover). */
#ifndef SCOREP_PROFILE_SER_H
#define SCOREP_PROFILE_SER_H

#include "base/ser.h"
#include "profile/profile.h"

/* Appends p's tree (values, user metrics; metric sources' dense values are left out).
 * close_ts != 0 (a checkpoint of a running thread): the calls open on the current path
 * count as if they ended at close_ts. 0, or -1 (out of memory, or a tree that a concurrent
 * change made unbounded). */
int scorep_profile_pack(const scorep_profile *p, uint64_t close_ts, ser_buf *b);
/* Adds the packed tree into p (freshly initialised). 0 or -1 (damaged bytes, memory). */
int scorep_profile_unpack(scorep_profile *p, ser_reader *r);

#endif
