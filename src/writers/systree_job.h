/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_job.h: the job's system tree at finalize: built collectively as sequence
 * definitions (src/systree, default) or with the plain method, then expanded node by node
 * for the OTF2 and Cube writers on rank 0. */
#ifndef SCOREP_SYSTREE_JOB_H
#define SCOREP_SYSTREE_JOB_H

#include <stdint.h>

/* What the writers get: the sequence tree's system-tree nodes, processes and locations, and
 * for GPU streams (CUDA adapter) the structure Score-P defines: under the node of the
 * process a system-tree node per device (class "CUDA Device", name the device number, one
 * per node shared by its processes), in it a location group of type accelerator per CUDA
 * context of each process ("CUDA Context <id>", created by that process), in it the
 * streams. Device and context come from the stream's name CUDA[device:context:...]. */
typedef enum {
    SCOREP_ST_NODE,
    SCOREP_ST_PROCESS,
    SCOREP_ST_LOCATION,
    SCOREP_ST_DEVICE, /* a system-tree node of a GPU */
    SCOREP_ST_ACCEL   /* a location group of type accelerator: a GPU context */
} scorep_st_kind;

typedef struct {
    scorep_st_kind kind;
    /* global ids (OTF2's): among the entities of the same OTF2 kind (system-tree node,
     * location group, location). Nodes, processes, locations: the sequence tree's
     * ordinals (depth-first); devices: the number of nodes + their number in walk order;
     * accelerator groups: the number of processes + their number in walk order. */
    uint64_t ordinal;
    uint64_t parent_ordinal; /* of the parent in its kind; UINT64_MAX at the top */
    /* Cube ids: the position in document order among the entities of the same Cube kind
     * (system-tree node, location group, location), as the walk gives them; a location's
     * doc is its column in the profile's rows */
    uint64_t doc, parent_doc;
    const char *klass, *name;
    uint32_t rank;     /* processes and locations: the world rank; accelerator groups: the
                        * rank of the process that created them */
    uint32_t local;    /* locations: index among its process's locations */
    uint32_t in_group; /* locations: index in its location group (Cube's location rank) */
    int gpu;           /* locations: a GPU stream (CUDA adapter) */
    const char *creator;      /* accelerator groups: the creating process's name */
    uint64_t creator_ordinal; /* accelerator groups: its ordinal */
} scorep_st_node;

typedef int (*scorep_st_visit)(void *arg, const scorep_st_node *n);

/* Collective over the ipc backend. 0, or -1 on all ranks. */
int scorep_systree_prepare(void);
/* Rank 0, after prepare: every entity in depth-first pre-order, which is Cube's document
 * order: in a node first its processes (each with its CPU locations), then its devices,
 * each with its accelerator groups and their streams. Stops on fn's non-zero; -1 also
 * when memory runs out. Without GPU streams ordinal == doc for every entity. */
int scorep_systree_walk(scorep_st_visit fn, void *arg);
/* Rank 0: the location ordinal of (rank, local index), UINT64_MAX if unknown. */
uint64_t scorep_systree_location_ordinal(uint32_t rank, uint32_t local);
/* Rank 0: the number of locations of a rank. */
uint32_t scorep_systree_location_count(uint32_t rank);
/* Every rank, after prepare with sequence definitions: the ordinal of its own local-th
 * location (UINT64_MAX otherwise). Rank 0: the number of locations (0 otherwise). */
uint64_t scorep_systree_my_location_ordinal(uint32_t local);
uint64_t scorep_systree_location_total(void);
/* Rank 0: whether some process has a GPU stream (then the tree has accelerator groups). */
int scorep_systree_has_gpu(void);
void scorep_systree_release(void);

#endif
