/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_threads.h: OTF2 side of fork-join threading (OpenMP): the fork/join, team, lock and
 * task records of events_thread.h, and the thread-team communicators they refer to, which
 * are derived at write time from the team-begin records (no definitions while measuring). */
#ifndef SCOREP_TRACE_THREADS_H
#define SCOREP_TRACE_THREADS_H

#include "buffer/buffer.h"

#include <otf2/otf2.h>

struct scorep_unified_s;

/* Collective over the ipc backend, before any location's events are written (and before
 * the in-situ analysis reads the buffers; a second call returns the first one's result): finds the
 * teams of this process (a team is the list of locations by thread number; parallel
 * regions run by the same threads share it) and gives them global communicator ids after
 * the unified communicators and the per-rank pthread contingents. 0, or -1 when out of
 * memory (team events then refer to no communicator). */
int scorep_trace_threads_prepare(const struct scorep_unified_s *u);
/* The global communicator id of parallel region instance INSTANCE's team (prepare first);
 * UINT32_MAX when unknown. The in-situ analysis names tasks by it as the trace does. */
uint32_t scorep_trace_threads_team_comm(uint32_t instance);

/* Writes one record of type BUF_EV_THREAD_FORK .. BUF_EV_THREAD_TASK_DEPEND. */
void scorep_trace_threads_event(OTF2_EvtWriter *w, const buf_item *it);

/* Rank 0, from the global definitions pass (twice: g == NULL first, while strings are
 * collected): the OpenMP location group (the CPU locations of all ranks; GPU streams are
 * CUDA's) after the pthread groups, then one group and one communicator per team of every
 * rank. base: the OpenMP location group's id (the groups before it are trace_otf2.c's);
 * name, empty: string ids of the teams' name and "". *next_group, *next_comm: the first ids
 * after the teams' (when nothing was written: base + 1 and the first team comm id). */
void scorep_trace_threads_defs(OTF2_GlobalDefWriter *g, const struct scorep_unified_s *u, int size,
                               uint32_t base, uint32_t name, uint32_t empty, uint32_t *next_group,
                               uint32_t *next_comm);

#endif
