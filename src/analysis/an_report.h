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
} an_report_info;

/* Collective: rank 0 writes PATH. */
int an_report_cube(an_ctx *c, const an_report_info *info, const char *path, char *err, size_t len);
/* Collective: rank 0 prints the top wait states with their share of the time to OUT. */
void an_summary(an_ctx *c, const char *prefix, FILE *out);

#endif
