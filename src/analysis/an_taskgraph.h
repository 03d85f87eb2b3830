/* SPDX-License-Identifier: BSD-3-Clause */
/* an_taskgraph.h: the OpenMP task graph of one rank (docs/openmp.md "Task graph"): one node
 * per explicit task instance from the AN_TASK_* events of all its thread locations, edges by
 * OpenMP's dependence rules among sibling tasks, parent -> child, and the taskwait/barrier
 * ordering; the critical path through it per parallel region instance, each task's slack. */
#ifndef SCOREP_AN_TASKGRAPH_H
#define SCOREP_AN_TASKGRAPH_H

#include "analysis/an_trace.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    AN_TG_TASK,     /* an explicit task instance */
    AN_TG_TASKWAIT, /* zero-time join: a taskwait/taskgroup of the tasks' parent */
    AN_TG_BARRIER   /* zero-time join: a barrier of the team */
} an_tg_node_kind;

typedef enum {
    AN_TG_DEP,   /* a dependence (depend clauses): the successor starts after the whole
                  * predecessor */
    AN_TG_CHILD, /* parent -> child: the child starts after the parent's part before it
                  * created the child (.offset) */
    AN_TG_SYNC   /* task -> join, join -> task created after it */
} an_tg_edge_kind;

typedef struct {
    uint32_t comm, creator; /* identity: (team, creating thread in the team, generation) */
    uint64_t gen;
    uint32_t kind;   /* an_tg_node_kind */
    uint32_t region; /* the task region (AN_NONE: unknown) */
    uint32_t cnode;  /* call path of the task region where it began (AN_NONE: never ran) */
    uint32_t loc;    /* location where it began: 0 master, 1 + w thread w (AN_NONE: never ran) */
    uint32_t parent; /* the parent task's node (AN_NONE: the implicit task of its thread) */
    uint32_t team;   /* the parallel region instance (an_omp_map's number; AN_NONE: none) */
    uint32_t level;  /* nesting: 0 for tasks of an implicit task, parent's + 1 */
    uint64_t pkey;   /* its parent's key for the sibling rules */
    uint64_t create, start, end; /* ticks */
    uint64_t dur;                /* ticks: its time on threads, summed over its switches */
    uint64_t offset;             /* ticks of the parent's time before it created this task */
    /* results of an_taskgraph_path (ticks) */
    uint64_t est;     /* longest chain of task time before it (its earliest start) */
    uint64_t tail;    /* longest chain from its start to the end of its team's graph */
    uint64_t cp_time; /* its time on its team's critical path (0: off the path) */
    uint64_t slack;   /* its team's path length less the longest chain through it */
    uint32_t path_next; /* the next node on its team's path (list from an_tg_team.first) */
    uint32_t mark;      /* private: the last successor given a dependence edge */
} an_tg_node;

typedef struct {
    uint32_t from, to, kind; /* an_tg_edge_kind */
    uint32_t on_path;
} an_tg_edge;

typedef struct {
    uint64_t enter, leave; /* the master's parallel region instance (ticks) */
    uint64_t max_leave;    /* the latest leave of the instances up to this one */
    uint64_t length;       /* its task graph's critical path (ticks; 0: no tasks) */
    uint32_t first;        /* a list of the nodes on its path, through path_next (AN_NONE:
                            * none) */
} an_tg_team;

typedef struct an_taskgraph {
    an_tg_node *nodes;
    size_t n_nodes, cap_nodes;
    an_tg_edge *edges;
    size_t n_edges, cap_edges;
    an_tg_team *teams; /* by an_omp_map's instance number */
    size_t n_teams;
    uint64_t n_tasks; /* AN_TG_TASK nodes */
    uint64_t cycles;  /* nodes left in a cycle (inconsistent input): not on any path */
    /* master events whose time the task chain replaces on the critical path (the master
     * running an explicit task, or waiting in a barrier/taskwait of a team with tasks) */
    unsigned char *master_skip;
} an_taskgraph;

/* whether team (parallel region instance) K has a task chain, which stands for the region
 * on the critical path (an_omp.c's path through barriers leaves such a region alone) */
static inline int an_taskgraph_covers(const an_taskgraph *g, uint32_t k)
{
    return g && k < g->n_teams && g->teams[k].first != AN_NONE;
}

/* Builds G from T's task events (master and threads; after an_omp_map, which gives the
 * ENTERs their team). 0, or -1 when memory runs out (G is then freed). */
int an_taskgraph_build(const an_trace *t, an_taskgraph *g);
/* The critical path per team: est, tail, cp_time, slack of every node, on_path of the edges,
 * the teams' lengths. Linear in nodes + edges. 0, or -1 when memory runs out. */
int an_taskgraph_path(an_taskgraph *g);
void an_taskgraph_free(an_taskgraph *g);

/* The DOT text of rank RANK's graph (nodes "rRANK.tI"), each node's duration, slack in
 * seconds (TICK per tick); with MERGE, the tasks of one region and nesting level are one node
 * (count, summed duration) and parallel edges one. Appended to *BUF (size *LEN, capacity
 * *CAP, grown). 0, or -1 when memory runs out. */
int an_taskgraph_dot(const an_taskgraph *g, const an_trace *t, uint32_t rank, double tick,
                     int merge, char **buf, size_t *len, size_t *cap);

/* above this many tasks (all ranks) the DOT file merges (SCOREP_TASKGRAPH_MAX_NODES) */
#define AN_TASKGRAPH_MAX_NODES_DEFAULT 5000

#endif
