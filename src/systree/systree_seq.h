/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_seq.h: the system tree as sequence definitions (Lorenz & Feld): each record stands
 * for `copies` consecutive siblings of the same shape, so a regular machine is described in
 * constant size; merging, indexing, serialisation and a streaming expansion to single nodes. */
#ifndef SYSTREE_SEQ_H
#define SYSTREE_SEQ_H

#include "systree/systree_buf.h"
#include "systree/systree_names.h"

#include <stdbool.h>
#include <stdint.h>

/* What a node is in the output formats (OTF2 SystemTreeNode / LocationGroup / Location, Cube
 * systemtreenode / locationgroup / location). */
typedef enum systree_kind {
    SYSTREE_STNODE = 0,
    SYSTREE_LOCGROUP = 1,
    SYSTREE_LOCATION = 2,
    SYSTREE_NKINDS = 3
} systree_kind;

/* Types of location groups and locations (the values of OTF2's enums). */
enum { SYSTREE_LOCGROUP_PROCESS = 1, SYSTREE_LOCGROUP_ACCELERATOR = 2 };
enum { SYSTREE_LOCATION_CPU_THREAD = 1, SYSTREE_LOCATION_GPU = 2, SYSTREE_LOCATION_METRIC = 3 };

typedef struct systree_rec systree_rec;

/* Records in depth-first order of their copies: all copies of v[0], then of v[1], ... */
typedef struct systree_list {
    uint32_t n, cap;
    systree_rec **v;
} systree_list;

struct systree_rec {
    uint8_t kind, type;
    const char *klass; /* interned: "machine", "node", "process", "thread", ... */
    uint64_t copies;
    uint64_t shape; /* hash of kind, type, class and the children's copies and shapes */
    systree_names names;
    systree_list children;
};

/* Counts of nodes by kind; a position is the count of nodes of each kind before a node in
 * depth-first order, so the node's index is the sum and its ordinal in its kind the entry. */
typedef struct systree_count {
    uint64_t k[SYSTREE_NKINDS];
} systree_count;

systree_rec *systree_rec_new(systree_kind kind, uint8_t type, const char *klass, const char *name);
void systree_rec_free(systree_rec *r);
/* Computes the shape hash; the children must be complete. Call before merging r. */
void systree_rec_seal(systree_rec *r);
bool systree_same_shape(const systree_rec *a, const systree_rec *b);
/* Nodes of one copy of r (r itself and its subtree), by kind. */
systree_count systree_rec_size(const systree_rec *r);

int systree_list_push(systree_list *l, systree_rec *r);
void systree_list_free(systree_list *l);
uint64_t systree_list_nodes(const systree_list *l); /* expanded nodes */

/* Where a merged record went: it became copies offset .. offset + copies - 1 of record
 * `target` of the list it was merged into. */
typedef struct systree_where {
    uint32_t target;
    uint64_t offset;
} systree_where;

/* Where each record of a merged list went. */
typedef struct systree_map {
    uint32_t n;
    systree_where *e;
} systree_map;

/* Merges `from` into `into` (both lists of sealed records, `from` in order after `into`): a
 * record of the same shape as one of `into` adds its copies and names there, any other is
 * appended. `from` is emptied (its records are moved or freed). map may be NULL. */
int systree_list_merge(systree_list *into, systree_list *from, systree_map *map);
void systree_map_free(systree_map *m);
/* systree_list_merge of a list of the one sealed record r, without the list and the map
 * (where: NULL, or where r went). */
int systree_list_merge_one(systree_list *into, systree_rec *r, systree_where *where);

/* Positions of the first copies of l's records when l's first node is at `start`. */
void systree_list_positions(const systree_list *l, systree_count start, systree_count *out);

/* Serialisation: a string table, then the records in pre-order. */
int systree_list_pack(const systree_list *l, systree_buf *b);
int systree_list_unpack(systree_reader *r, systree_list *out);

/* One expanded node. */
typedef struct systree_node {
    uint64_t index;          /* depth-first index in the whole tree */
    uint64_t ordinal;        /* index among the nodes of its kind */
    uint64_t parent;         /* depth-first index of the parent, UINT64_MAX at the top */
    uint64_t parent_ordinal; /* ordinal of the parent in its kind, UINT64_MAX at the top */
    uint32_t depth;
    uint8_t kind, type;
    const char *klass;
    const char *name; /* valid until the callback returns / the next call */
    uint64_t origin;  /* plain trees: world rank of a location group, index of a location in
                       * its process; UINT64_MAX in sequence trees (use the places there) */
} systree_node;

/* Visits every node in depth-first pre-order without storing them: memory by depth only.
 * Stops with fn's value when that is not 0. */
typedef int (*systree_visit_fn)(void *arg, const systree_node *node);
int systree_walk(const systree_list *top, systree_visit_fn fn, void *arg);
/* The node at depth-first index `index`; name written into buf. -1 when there is none. */
int systree_node_at(const systree_list *top, uint64_t index, systree_node *out, char *buf,
                    size_t size);

#endif
