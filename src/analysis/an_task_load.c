/* SPDX-License-Identifier: BSD-3-Clause */
/* an_task_load.c: what both loaders need for the task events of an_trace.h: the task region
 * that a "!$omp create task @f:L" region creates (the trace names it only where the task
 * runs), and the task a depend item belongs to (the one created last on the location). */
#include "analysis/an_load.h"

#include <stdlib.h>
#include <string.h>

static const char create_prefix[] = "!$omp create task";

/* the region "!$omp task<kind> @f:L" of create region C ("!$omp create task @f:L"), or
 * AN_NONE; only positioned names pair up (two unpositioned tasks cannot be told apart) */
static uint32_t find_task_region(const an_trace *t, uint32_t c)
{
    const char *n = t->regions[c].name;
    if (!n || strncmp(n, create_prefix, sizeof create_prefix - 1) != 0)
        return AN_NONE;
    const char *at = n + sizeof create_prefix - 1; /* " @f:L" */
    if (strncmp(at, " @", 2) != 0)
        return AN_NONE;
    static const char *const kinds[] = {"!$omp task", "!$omp task untied"};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        size_t len = strlen(kinds[k]);
        for (size_t r = 0; r < t->n_regions; r++) {
            const char *m = t->regions[r].name;
            if (m && strncmp(m, kinds[k], len) == 0 && strcmp(m + len, at) == 0)
                return (uint32_t)r;
        }
    }
    return AN_NONE;
}

uint32_t an_task_region(an_task_state *s, const an_trace *t, uint32_t create_region)
{
    if (create_region >= t->n_regions)
        return AN_NONE;
    if (!s->map) { /* per create region: its task region + 1 (0: not looked up yet) */
        if (!(s->map = calloc(t->n_regions, sizeof *s->map)))
            return AN_NONE;
        s->n_map = t->n_regions;
    }
    if (create_region >= s->n_map)
        return AN_NONE;
    if (!s->map[create_region]) {
        uint32_t r = find_task_region(t, create_region);
        s->map[create_region] = r == AN_NONE ? UINT32_MAX : r + 1;
    }
    uint32_t v = s->map[create_region];
    return v == UINT32_MAX ? AN_NONE : v - 1;
}

void an_task_state_free(an_task_state *s)
{
    free(s->map);
    s->map = NULL;
    s->n_map = 0;
}

void an_task_fill(an_event *e, uint32_t comm, uint32_t creator, uint64_t generation)
{
    e->comm = comm;
    e->peer = creator;
    e->request = generation;
}

int an_task_depend(an_task_state *s, an_event *e, uint64_t address, uint32_t type)
{
    if (!s->has_last)
        return -1; /* a depend item before any task creation: not ours */
    an_task_fill(e, s->last_comm, s->last_creator, s->last_generation);
    e->msg_id = address;
    e->tag = type <= AN_DEP_INOUTSET ? type : AN_DEP_OTHER;
    return 0;
}

void an_task_created(an_task_state *s, uint32_t comm, uint32_t creator, uint64_t generation)
{
    s->has_last = 1;
    s->last_comm = comm;
    s->last_creator = creator;
    s->last_generation = generation;
}
