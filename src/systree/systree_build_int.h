/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_build_int.h: internals shared by the parts of the construction algorithm (the
 * merges and index passes inside one split family, and the level driver). */
#ifndef SYSTREE_BUILD_INT_H
#define SYSTREE_BUILD_INT_H

#include "systree/systree_build.h"

/* A binomial child whose list this member merged: where its records went. */
typedef struct systree_kid {
    int rank;
    systree_map map;
} systree_kid;

/* A record of a list as it left a member: nodes per copy, and copies. */
typedef struct systree_recinfo {
    systree_count size;
    uint64_t copies;
} systree_recinfo;

/* One member of a merge family (the two counts side by side: 48 bytes, not 56, per member
 * of every level; the simulator holds 10^7 of them at the lowest level). */
typedef struct systree_mstate {
    systree_list list;     /* merged so far; sent up, made a node's children, or the result */
    uint32_t nrec;         /* records of the list when it left this member */
    uint32_t nkids;        /* binomial children merged */
    systree_recinfo *info; /* their sizes and copies */
    systree_kid *kids;
    systree_count *pos; /* positions of those records, known on the way down */
} systree_mstate;

/* Merges every group's lists into its rank 0 with a binomial tree (contiguous rank ranges,
 * so lists are merged in rank order and name patterns continue). */
int systree_merge_family(systree_comm *f, systree_mstate *st);
/* Records the list of a member as it is now (its sizes), before it is moved or sent. */
int systree_mstate_freeze(systree_mstate *s);
/* Positions on the way down: each rank 0 has pos set; afterwards every member has. */
int systree_pass_down(systree_comm *f, systree_mstate *st);
void systree_mstate_free(systree_mstate *s);

unsigned systree_ceil_log2(uint64_t n);
/* Largest group size among the local members. */
uint64_t systree_max_group(const systree_comm *f);

/* The family of level d: the members of `in` grouped by their name path (classes and names
 * of levels 0..d), collisions of the hash resolved; (*of)[m] is m's member index in `in`. */
int systree_split_by_path(const systree_build_cfg *cfg, uint32_t d, systree_comm *in,
                          systree_comm **out, size_t **of, uint64_t *resplits);

#endif
