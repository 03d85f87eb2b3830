/* systree_job.h: the job's system tree at finalize: built collectively as sequence
 * definitions (src/systree, default) or with the plain method, then expanded node by node
 * for the OTF2 and Cube writers on rank 0. */
#ifndef SCOREP_SYSTREE_JOB_H
#define SCOREP_SYSTREE_JOB_H

#include <stdint.h>

struct systree_comm;

typedef enum { SCOREP_ST_NODE, SCOREP_ST_PROCESS, SCOREP_ST_LOCATION } scorep_st_kind;

typedef struct {
    scorep_st_kind kind;
    uint64_t ordinal;        /* among the nodes of its kind, depth-first (= Cube id) */
    uint64_t parent_ordinal; /* ordinal of the parent in its kind; UINT64_MAX at the top */
    const char *klass, *name;
    uint32_t rank;  /* processes and locations: the world rank */
    uint32_t local; /* locations: index among its process's locations */
    int gpu;        /* locations: a GPU stream (CUDA adapter) */
} scorep_st_node;

typedef int (*scorep_st_visit)(void *arg, const scorep_st_node *n);

/* Collective over the ipc backend. 0, or -1 on all ranks. */
int scorep_systree_prepare(void);
/* Rank 0, after prepare: every node in depth-first pre-order. Stops on fn's non-zero. */
int scorep_systree_walk(scorep_st_visit fn, void *arg);
/* Rank 0: the location ordinal of (rank, local index), UINT64_MAX if unknown. */
uint64_t scorep_systree_location_ordinal(uint32_t rank, uint32_t local);
/* Every rank, after prepare with sequence definitions: the ordinal of its own local-th
 * location (UINT64_MAX otherwise). Rank 0: the number of locations (0 otherwise). */
uint64_t scorep_systree_my_location_ordinal(uint32_t local);
uint64_t scorep_systree_location_total(void);
void scorep_systree_release(void);

/* MPI runs: how to make the world communicator of the construction (set by the adapter). */
void scorep_systree_set_world(struct systree_comm *(*factory)(void));

#endif
