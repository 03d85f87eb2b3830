/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_build.h: the distributed construction of the global sequence definitions (Lorenz &
 * Feld, "Scaling Score-P to the next level"): level by level bottom-up with hashed splits,
 * binomial-tree merges, depth-first indices passed back down, the tree broadcast to all. */
#ifndef SYSTREE_BUILD_H
#define SYSTREE_BUILD_H

#include "systree/systree_comm.h"
#include "systree/systree_seq.h"

typedef struct systree_level_desc {
    const char *klass, *name; /* e.g. "machine" "Linux", "node" "node0017" */
} systree_level_desc;

typedef struct systree_loc_desc {
    const char *klass, *name; /* e.g. "thread" "Master thread" */
    uint8_t type;             /* SYSTREE_LOCATION_* */
} systree_loc_desc;

/* Where one process sits: the system-tree nodes above it (the machine first; every process
 * must have the same number), the process and its locations. */
typedef struct systree_local {
    uint32_t nlevels;
    const systree_level_desc *levels;
    const char *process_class, *process_name; /* e.g. "process" "MPI Rank 3" */
    uint8_t process_type;                     /* SYSTREE_LOCGROUP_* */
    uint32_t nlocations;
    const systree_loc_desc *locations;
} systree_local;

/* Describes the process of world rank `world`; the strings stay valid until the next call. */
typedef int (*systree_describe_fn)(void *arg, uint64_t world, systree_local *out);

/* A process's place in the global tree: positions (index = sum of the counts, ordinal in
 * its kind = the count of its kind) of its location group and of its locations, in the
 * order they were described. */
typedef struct systree_place {
    uint64_t world;
    systree_count process;
    uint32_t nlocations;
    const systree_count *locations;
} systree_place;
typedef int (*systree_place_fn)(void *arg, const systree_place *place);

typedef struct systree_build_cfg {
    systree_describe_fn describe;
    systree_place_fn place; /* may be NULL */
    void *arg;
} systree_build_cfg;

typedef struct systree_build_info {
    uint32_t levels;   /* system-tree levels above the processes */
    uint64_t resplits; /* extra splits for hash collisions (this process's groups) */
} systree_build_info;

/* Collective over `world`: every local member ends with its place (cfg->place) and the
 * process with *global, the global sequence definitions (free with systree_list_free). */
int systree_build(systree_comm *world, const systree_build_cfg *cfg, systree_list *global,
                  systree_build_info *info);

/* The sequence record of one process (its locations merged by type), sealed; locs
 * (nlocations entries, may be NULL) tells where each location went among its children. */
int systree_local_record(const systree_local *l, systree_rec **out, systree_where *locs);

/* Positions of a process's n locations given its record, where they went and its position. */
void systree_local_positions(const systree_rec *process, systree_count at,
                             const systree_where *locs, uint32_t n, systree_count *out);

/* The colour of a name path (31 bits). Tests replace it to force collisions. */
typedef uint32_t (*systree_hash_fn)(const char *path, size_t len, uint32_t seed);
extern systree_hash_fn systree_hash_hook;

#endif
