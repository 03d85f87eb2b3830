/* SPDX-License-Identifier: BSD-3-Clause */
/* score_print.h: scorep-score's text output: the estimate lines, the group and region
 * table in Score-P's layout, and the --top table. */
#ifndef SCOREP_SCORE_PRINT_H
#define SCOREP_SCORE_PRINT_H

#include "tools/score/score_model.h"

#include <stdio.h>

typedef enum {
    SORT_MAXBUF,
    SORT_TOTALTIME,
    SORT_TIMEPERVISIT,
    SORT_VISITS,
    SORT_NAME,
    SORT_INCL
} score_sort;

/* Column widths of the table, from the ALL row as Score-P sizes them. */
typedef struct {
    int type, buf, visits, time, tpv;
} score_widths;

score_widths score_table_widths(const score_model *m);
/* Sorts rows in place by key; ties keep their order (Score-P's stable sort). */
void score_sort_rows(score_row *rows, size_t n, score_sort key);
/* Integer with thousands separators, as Score-P prints them; buf holds >= 32 bytes. */
const char *score_grouped(uint64_t v, char *buf);
double score_time_per_visit(const score_row *w);
/* The three estimate lines, the hint and the group table (and with a filter, its rows). */
void score_print_groups(FILE *out, const score_model *m, score_sort key);
/* One row per region with trace bytes, sorted; limit 0 = all; mangled: -m. */
void score_print_regions(FILE *out, const score_model *m, score_sort key, long limit, bool mangled);
/* rank region excl incl visits min max for the top regions by exclusive time. */
void score_print_top(FILE *out, const score_model *m, long top);

#endif
