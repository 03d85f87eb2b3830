/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_enum.h: private call-tree helpers of the Cube library: child lists and the deep and
 * wide enumerations that map index positions to call-tree nodes. */
#ifndef SCOREP_CUBE_ENUM_H
#define SCOREP_CUBE_ENUM_H

typedef struct {
    int n;
    int n_roots;
    int *roots;     /* in the given visiting order */
    int *child_off; /* children of v: children[child_off[v] .. child_off[v+1]) */
    int *children;
} cube_tree;

/* Builds the child lists of a forest given by parent ids (-1 = root). Nodes are taken in
 * the order given by `order` (a permutation of 0..n-1, or NULL for ascending ids), so the
 * children of every node and the roots keep that order. Returns 0 or -1 (bad parent,
 * out of memory). */
int cube_tree_build(cube_tree *t, const int *parent, const int *order, int n);
void cube_tree_free(cube_tree *t);

/* Fill seq[0..n) with node ids in enumeration order: deep = depth-first pre-order (what
 * EXCLUSIVE metrics use); wide = one root at a time: the root, then per visited node all its
 * children before descending (what INCLUSIVE metrics use). Return 0, or -1 if the forest has a
 * cycle or out of memory. */
int cube_tree_deep(const cube_tree *t, int *seq);
int cube_tree_wide(const cube_tree *t, int *seq);

/* The call tree of a reader (children in document order). */
struct cube_reader;
const cube_tree *cube_reader_call_tree(const struct cube_reader *r);

#endif
