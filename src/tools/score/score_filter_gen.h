/* SPDX-License-Identifier: BSD-3-Clause */
/* score_filter_gen.h: scorep-score -g: writes initial_scorep.filter listing the regions
 * that are frequently called and cheap, with Score-P's parameters and file layout. */
#ifndef SCOREP_SCORE_FILTER_GEN_H
#define SCOREP_SCORE_FILTER_GEN_H

#include "tools/score/score_model.h"

#include <stdio.h>

#define SCORE_FILTER_FILE "initial_scorep.filter"

typedef struct {
    double buffer_percent;  /* bufferpercent: share of max_buf the region needs, >= (1) */
    double time_per_visit;  /* timepervisit: us per visit, <= (1) */
    uint64_t min_visits;    /* visits: at least (0 = any) */
    double buffer_absolute; /* bufferabsolute: MiB of max_buf at least (0 = any) */
    bool usr, com;          /* type=usr|com|both (usr) */
} score_gen_params;

void score_gen_defaults(score_gen_params *g);
/* Parses Score-P's -g argument "key=value,..." into g; -1 with a message in err. */
int score_gen_parse(const char *arg, score_gen_params *g, char *err, size_t errlen);
/* true when the region is a candidate under g (m->max_buf is the reference). */
bool score_gen_candidate(const score_model *m, const score_row *w, const score_gen_params *g);
/* Writes SCORE_FILTER_FILE in the current directory (an existing one is moved aside, its
 * new name in moved[]); filter_path: the -f file, or NULL; entries in the -s order (a
 * score_sort). 0, or -1 with err set. */
int score_gen_write(const score_model *m, const score_gen_params *g, const char *filter_path,
                    int sort, char *moved, size_t movedlen, char *err, size_t errlen);

#endif
