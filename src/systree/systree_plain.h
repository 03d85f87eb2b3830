/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_plain.h: the plain method the sequence definitions replace, for comparison in
 * scorep-systree-sim and the tests: every process's single-node definitions merged into one
 * tree at world rank 0 with the same binomial tree, node by node. */
#ifndef SYSTREE_PLAIN_H
#define SYSTREE_PLAIN_H

#include "systree/systree_build.h"

/* A name stored parsed (prefix, number, suffix) so a simulated million-node tree fits in
 * memory; it is written out as the full string. */
typedef struct systree_pname {
    const char *prefix, *suffix;
    uint64_t num;
    uint8_t width;
    bool numbered;
} systree_pname;

typedef struct systree_pnode {
    uint8_t kind, type;
    const char *klass;
    systree_pname name;
    uint32_t n, cap;
    struct systree_pnode **child;
    uint32_t *index; /* hash index of the children, for nodes with many */
    uint32_t icap;
    uint64_t origin; /* location group: world rank; location: index in its process */
} systree_pnode;

typedef struct systree_plain_cfg {
    systree_describe_fn describe;
    void *arg;
    uint64_t rank_limit; /* most bytes one rank's tree may take; 0: no limit */
    uint64_t mem_limit;  /* most bytes all simulated ranks' trees may take; 0: no limit */
} systree_plain_cfg;

typedef struct systree_plain_result {
    systree_pnode *root; /* at the process of world rank 0: a nameless root over the tops */
    uint64_t root_bytes; /* memory of rank 0's tree */
    uint64_t peak_bytes; /* most memory of all trees together */
    int stopped;         /* a limit was reached: root is NULL */
    unsigned stop_round; /* in this merge round (1-based) */
    uint64_t stop_ranks; /* when the largest tree held this many ranks */
    uint64_t stop_bytes; /* and that rank's tree needed this many bytes */
} systree_plain_result;

/* Collective over world. Returns 0 (also when stopped by a limit), -1 on errors. */
int systree_plain_build(systree_comm *world, const systree_plain_cfg *cfg,
                        systree_plain_result *res);
void systree_pnode_free(systree_pnode *n);
/* Puts siblings of the same shape together (stable, in the order each shape first appears),
 * the order the sequence definitions expand to, so both methods give the same tree. */
int systree_plain_group(systree_pnode *root);
/* Serialised size: class strings and literal names in a string table, other names inline. */
int systree_plain_pack(const systree_pnode *root, systree_buf *b);
/* Depth-first pre-order expansion, as systree_walk (with origin set). */
int systree_plain_walk(const systree_pnode *root, systree_visit_fn fn, void *arg);

#endif
