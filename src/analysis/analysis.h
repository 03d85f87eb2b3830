/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis.h: the wait-state analysis layer (src/analysis, docs/analysis.md): Scalasca-style
 * patterns from one trace per rank, replayed over MPI with as many processes as the trace has
 * ranks. Entry point for scorep-analyze (post-mortem). */
#ifndef SCOREP_ANALYSIS_H
#define SCOREP_ANALYSIS_H

#include "analysis/an_net.h"
#include "analysis/an_trace.h"

#include <stdio.h>

typedef struct {
    const char *mode; /* written into the report: "post-mortem" or "in situ" */
    FILE *summary;    /* rank 0 prints the text summary there (NULL: none) */
    /* results, summed over all ranks */
    uint64_t ccv; /* clock condition violations */
    uint64_t unmatched_sends, unmatched_recvs, skipped_inter_colls;
    uint64_t thread_mpi_events; /* MPI events of threads other than the masters: not replayed */
} an_options;

/* Analyses T (this rank's trace: rank r of COMM analyses trace rank r) and writes the report
 * to CUBEX (rank 0). Collective over COMM. Returns 0, or -1 with one line in ERR (the same
 * outcome on every rank). */
int an_analyze(an_trace *t, an_net *net, const char *cubex, an_options *opt, char *err,
               size_t len);

#endif
