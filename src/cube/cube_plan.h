/* cube_plan.h: private view of a cube_plan (cube.h) for cube_writer.c's anchor writer. */
#ifndef SCOREP_CUBE_PLAN_H
#define SCOREP_CUBE_PLAN_H

#include "cube/cube.h"

struct cube_plan {
    int n_metrics, n_cnodes;
    uint64_t n_locations;
    int *metric_file; /* metric id -> file id (document order of the metric tree) */
    int *deep_pos;    /* cnode id -> row of EXCLUSIVE metrics (depth-first pre-order) */
    int *wide_pos;    /* cnode id -> row of INCLUSIVE metrics (wide order) */
    cube_metric_kind *kind;
    uint64_t *index_at; /* per file id: offset of the index member's header */
    uint64_t *data_at;  /* per file id: offset of the data member's header */
    uint64_t anchor_at; /* offset of anchor.xml's header */
};

#endif
