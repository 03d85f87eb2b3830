/* SPDX-License-Identifier: BSD-3-Clause */
/* an_load.h: inputs of the analysis (post-mortem: an OTF2 archive read rank by rank). */
#ifndef SCOREP_AN_LOAD_H
#define SCOREP_AN_LOAD_H

#include "analysis/an_trace.h"

/* Reads the global definitions of the archive ANCHOR (.../traces.otf2) and the events of
 * rank RANK's master thread into T. N_PROCS is the number of analysis processes: it must
 * equal the number of MPI ranks in the trace, or be 1 for a trace without MPI ranks (one
 * process's threads; several processes without MPI are refused). Returns 0, or -1 with one
 * line in ERR. */
int an_load_otf2(const char *anchor, uint32_t rank, uint32_t n_procs, an_trace *t, char *err,
                 size_t len);

/* an_load_probe.c: *MPI_RANKS = the MPI ranks of the archive ANCHOR (0: a program without
 * MPI), from its global definitions. Returns 0, or -1 with one line in ERR. */
int an_load_otf2_mpi_ranks(const char *anchor, uint32_t *mpi_ranks, char *err, size_t len);

/* In situ (an_load_buffer.c): the events of location L (this process's master thread) from
 * its trace buffer, with the unified definitions U. Returns 0, or -1 with one line in ERR. */
struct scorep_location;
struct scorep_unified_s;
int an_load_buffer(const struct scorep_location *l, const struct scorep_unified_s *u, uint32_t rank,
                   uint32_t n_procs, an_trace *t, char *err, size_t len);
/* Collective over the measurement's processes, before an_load_buffer on every one of them
 * (which may fail on some): the thread teams' communicator ids, by which the task events
 * name their team as the trace does (trace_threads.c; the trace writer reuses them). */
void an_load_buffer_prepare(const struct scorep_unified_s *u);

/* Task events (an_task_load.c), shared by both loaders. Per location being read: the task
 * created last (its depend items follow it) and a cache of the create regions' task regions. */
typedef struct {
    uint32_t *map; /* per create region: task region + 1, UINT32_MAX none, 0 not looked up */
    size_t n_map;
    int has_last;
    uint32_t last_comm, last_creator;
    uint64_t last_generation;
} an_task_state;
/* the region "!$omp task @f:L" that create region "!$omp create task @f:L" creates, or AN_NONE */
uint32_t an_task_region(an_task_state *s, const an_trace *t, uint32_t create_region);
/* sets the task triple of an AN_TASK_* event */
void an_task_fill(an_event *e, uint32_t comm, uint32_t creator, uint64_t generation);
/* an AN_TASK_CREATE was read: the next depend items are this task's */
void an_task_created(an_task_state *s, uint32_t comm, uint32_t creator, uint64_t generation);
/* fills depend item E of the task created last; -1 when no task was created yet */
int an_task_depend(an_task_state *s, an_event *e, uint64_t address, uint32_t type);
/* frees the cache (the last task stays) */
void an_task_state_free(an_task_state *s);

#endif
