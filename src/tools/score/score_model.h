/* SPDX-License-Identifier: BSD-3-Clause */
/* score_model.h: the numbers of scorep-score (per region and per group: visits, times,
 * estimated trace buffer bytes, filter effect) computed from a Cube profile. Used by
 * scorep-score and by scorep-report's top table (src/tools/report/report_profile.c). */
#ifndef SCOREP_SCORE_MODEL_H
#define SCOREP_SCORE_MODEL_H

#include "cube/cube.h"
#include "filter/filter.h"

#include <stdbool.h>
#include <stdint.h>

/* Score-P's region types in its order; the types after COM are communication: a USR
 * region with one of them below a call path of it is COM. */
typedef enum {
    SCORE_ALL,
    SCORE_FLT,
    SCORE_USR,
    SCORE_SCOREP,
    SCORE_MEMORY, /* malloc, free, new, delete (docs/memory.md): no communication */
    SCORE_LIB,    /* user library wrappers, paradigm libwrap[:NAME] (Score-P's type LIB) */
    SCORE_COM,
    SCORE_MPI,
    SCORE_OMP,
    SCORE_SHMEM,
    SCORE_PTHREAD,
    SCORE_CUDA,
    SCORE_IO, /* POSIX and ISO C I/O calls (Score-P's type IO) */
    SCORE_N_TYPES
} score_type;

/* Bytes our trace buffer (src/buffer/buffer.h) uses per record, with its timestamp:
 * buf_region_rec for an enter or a leave, buf_event_rec for a metric value, parameter or
 * thread event, buf_mpi_rec for every MPI record (message ids and request ids included).
 * Every page of SCORE_PAGE_SIZE bytes starts with a SCORE_PAGE_HEADER-byte header. */
enum {
    SCORE_REGION_RECORD = 16,
    SCORE_EVENT_RECORD = 24,
    SCORE_MPI_RECORD = 64,
    SCORE_PAGE_HEADER = 32,
    SCORE_PAGE_SIZE = 8192
};

/* Filter marks of the flt column, as Score-P prints them. */
typedef enum {
    SCORE_FLT_NONE = ' ',
    SCORE_FLT_YES = '+',
    SCORE_FLT_NO = '-',
    SCORE_FLT_MAYBE = '*'
} score_flt;

/* One row: a region or a group (name = group name then). */
typedef struct {
    const char *name, *mangled, *file;
    score_type type;
    char flt;                  /* score_flt */
    uint64_t max_buf;          /* largest per-process estimate of the buffer bytes */
    uint64_t total_buf;        /* sum over processes */
    uint64_t visits;           /* calls (parameter cnodes are not counted as visits) */
    double excl, incl;         /* seconds over all locations; incl of the outermost calls */
    double min_excl, max_excl; /* over the locations that visited it */
} score_row;

typedef struct {
    unsigned n_counters;         /* -c: metric values recorded at every enter and leave */
    const scorep_filter *filter; /* -f, NULL for none */
} score_params;

typedef struct {
    const cube_reader *r;
    int n_rows;         /* = r->n_regions */
    score_row *regions; /* by region id */
    score_row groups[SCORE_N_TYPES];
    bool has_filter;
    score_row kept[SCORE_N_TYPES]; /* -f: groups of what the filter keeps; kept[FLT] = removed */
    uint64_t max_buf, total_buf;   /* of the run as estimated (with the filter, if any) */
    int max_locations_per_process;
} score_model;

const char *score_type_name(score_type t);
/* Bytes one visit of the region adds to the buffer: enter and leave, their metric values,
 * and the MPI records its call writes (by name, see score_model.c). */
uint64_t score_visit_bytes(const char *name, score_type t, unsigned n_counters);
/* Fills m from r (which must outlive m). 0, or -1 with a message in err. */
int score_model_compute(score_model *m, const cube_reader *r, const score_params *p, char *err,
                        size_t errlen);
/* Where the values come from when r holds the definitions only (the distributed engine,
 * src/cube/cube_engine.h): the per-location row of (metric, cnode) in a view, exact bits as
 * cube_reader_value_bits gives them. 0 or -1. The numbers equal score_model_compute's. */
typedef struct {
    void *ctx;
    int (*row)(void *ctx, int metric, int cnode, cube_view view, uint64_t *out);
} score_source;
int score_model_compute_from(score_model *m, const cube_reader *r, const score_source *src,
                             const score_params *p, char *err, size_t errlen);
void score_model_free(score_model *m);

#endif
