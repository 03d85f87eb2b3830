/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_plan.h: private view of a cube_plan (cube.h) for cube_writer.c's anchor writer. */
#ifndef SCOREP_CUBE_PLAN_H
#define SCOREP_CUBE_PLAN_H

#include "cube/cube.h"

struct cube_plan {
    int n_metrics, n_cnodes;
    uint64_t n_locations;
    int *metric_file; /* metric id -> file id (document order of the metric tree) */
    int *deep_pos;    /* cnode id -> position in EXCLUSIVE metrics' enumeration (deep) */
    int *wide_pos;    /* cnode id -> position in INCLUSIVE metrics' enumeration (wide) */
    /* per metric, bit k of its `words` 64-bit words: position k has a row; rank[w]: rows
     * before word w (a row's number is rank + popcount below its bit: 1.03 bits per call
     * path and metric, where an int per pair would take 32) */
    size_t words;
    uint64_t *row_bits;
    uint32_t *row_rank;
    uint32_t *n_rows; /* per metric */
    int *file_metric; /* file id -> metric id */
    cube_metric_kind *kind;
    uint64_t *index_at; /* per file id: offset of the index member's header */
    uint64_t *data_at;  /* per file id: offset of the data member's header */
    uint64_t anchor_at; /* offset of anchor.xml's header */
};

#endif
