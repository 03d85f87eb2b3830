/* SPDX-License-Identifier: BSD-3-Clause */
/* an_report.h: the outputs of the analysis: scout.cubex (an_report_cube.c) and the short
 * text summary (an_summary.c). */
#ifndef SCOREP_AN_REPORT_H
#define SCOREP_AN_REPORT_H

#include "analysis/an_context.h"

#include <stdio.h>

typedef struct {
    const char *mode; /* "post-mortem" or "in situ" */
    uint64_t ccv;     /* clock condition violations, all ranks */
    int reduced;      /* some rank's trace was reduced or flushed */
    /* POP efficiencies (an_pop): computation = time outside MPI per rank, runtime = the
     * longest rank's time; communication = serialisation x transfer, where the runtime on an
     * ideal network is the runtime less the critical path's time in MPI calls (not waiting:
     * the path leaves a rank at its wait states), at least the longest computation */
    double load_balance, comm_efficiency, parallel_efficiency;
    double serialisation_efficiency, transfer_efficiency, ideal_runtime;
    /* POP at thread level (an_pop_threads.c) */
    double thread_load_balance, thread_comp_efficiency, thread_parallel_efficiency;
    double serial_share;
    const char *cp_segments;  /* rank 0: the critical path's pieces (an_ctx) */
    struct an_stat_all *stat; /* rank 0: the pattern instances of all ranks, or NULL */
} an_report_info;

/* the pattern instances of all ranks on rank 0 (an_pattern_stat.c) */
typedef struct an_stat_all {
    an_stat_rec *rec;
    size_t n;
    uint64_t start; /* the trace's start (ticks): trace.stat's times are seconds after it */
    double tick;
} an_stat_all;

/* Collective: gathers every rank's pattern instances into OUT on rank 0; -1 when memory ran
 * out (on every rank) */
int an_stat_gather(an_ctx *c, an_stat_all *out);
/* rank 0: writes trace.stat beside CUBEX; a record's call path is cube cnode
 * CUBE_ID[MAP[rank][cnode]] */
int an_stat_write(an_stat_all *a, const char *cubex, uint32_t **map, const int *cube_id);

/* Collective: fills the POP efficiencies of INFO (the same on every rank). */
void an_pop(an_ctx *c, an_report_info *info);

/* Collective: fills INFO's POP efficiencies at thread level (after the thread passes). */
void an_pop_threads(an_ctx *c, an_report_info *info);

/* rank 0, an_report_cube.c: the performance-impact tree (an_pattern_impact.c) into the
 * gathered values ALL_V of every rank's locations (rank r's N_LOCS[r] blocks at V_DISPL[r],
 * its CN_COUNT[r] / 2 call paths mapped by MAP[r] onto NG global ones): each master thread
 * and each location marked in TEAM (all ranks' locations in order; an OpenMP thread) */
int an_impact(double *all_v, const int *v_displ, const int *cn_count, uint32_t **map, size_t ng,
              int size, const int *n_locs, const uint8_t *team);

/* rank 0, an_report_cube.c: the computational load imbalance tree (an_pattern_imbalance.c)
 * from the gathered values of every location (rank r's N_LOCS[r] blocks at V_DISPL[r]) over
 * the NG global call paths GC (regions of T), written into W at the metrics MID, the cnodes
 * CUBE_ID and the locations LOC (all ranks' locations in order) */
struct cube_writer;
int an_imbalance_write(struct cube_writer *w, const an_trace *t, const an_cnode *gc, size_t ng,
                       const int *cube_id, const int *mid, const int *loc, const double *all_v,
                       const int *v_displ, const int *cn_count, const int *n_locs,
                       uint32_t **map, int size);

/* Collective: rank 0 writes PATH. */
int an_report_cube(an_ctx *c, const an_report_info *info, const char *path, char *err, size_t len);
/* Collective: rank 0 prints the top wait states with their share of the time to OUT. */
void an_summary(an_ctx *c, const an_report_info *info, const char *prefix, FILE *out);

#endif
