/* SPDX-License-Identifier: BSD-3-Clause */
/* selective_file.h: the selective recording file of Score-P (SCOREP_SELECTIVE_CONFIG_FILE):
 * which instances of which user regions are recorded. One region per line, its name
 * followed by instance numbers and intervals, instances counted from 0:
 *     my_region 1, 23:100, 110:120, 130
 * A name alone selects every instance. The parser knows nothing of the runtime (unit-tested
 * alone, test/unit/test_selective_file.c); user_selective.c applies the result. */
#ifndef SCOREP_SELECTIVE_FILE_H
#define SCOREP_SELECTIVE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t first, last; /* inclusive */
} scorep_sel_interval;

/* One selected region. */
typedef struct scorep_selection {
    char *name;
    uint32_t line; /* the first line naming it (messages) */
    uint32_t n, cap;
    scorep_sel_interval *iv; /* sorted, disjoint and not adjacent once parsed */
    uint64_t instances;      /* instances begun so far in this process (user_selective.c) */
    int defined;             /* a user region of this name was defined (user_selective.c) */
} scorep_selection;

typedef struct {
    scorep_selection *regions; /* sorted by name once parsed */
    size_t n, cap;
} scorep_selection_table;

/* Parses the file at path into t (empty before). Returns 0; -1 when the file cannot be read
 * (err: why); -2 on syntax errors (err: one "path:line: what" line per error, as many as fit),
 * or -3 when memory ran out. On error t is left empty. */
int scorep_selection_parse(scorep_selection_table *t, const char *path, char *err, size_t errlen);

/* The selection of the region called name; NULL when the file does not name it. */
scorep_selection *scorep_selection_find(const scorep_selection_table *t, const char *name);

/* Whether instance (counted from 0) of s is selected. No allocation, no lock. */
bool scorep_selection_contains(const scorep_selection *s, uint64_t instance);

void scorep_selection_free(scorep_selection_table *t);

#endif
