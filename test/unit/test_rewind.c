/* SPDX-License-Identifier: BSD-3-Clause */
/* test_rewind.c: drives the core rewind interface (core/rewind.h) directly inside a real
 * measurement (linked with libscorep-rt); test_rewind.sh checks the trace and profile. */
#include "core/events.h"
#include "core/rewind.h"
#include "defs/defs.h"

#include <stdio.h>

static uint32_t region(const char *name)
{
    return scorep_defs_region(name, NULL, "test_rewind.c", 1, 1, SCOREP_PARADIGM_USER,
                              SCOREP_ROLE_CODE);
}

static void work(scorep_location *l, uint32_t w, int n)
{
    for (int k = 0; k < n; k++) {
        scorep_event_enter(l, w);
        scorep_event_leave(l, w);
    }
}

int main(void)
{
    scorep_location *l = scorep_location_get();
    if (!l) {
        fprintf(stderr, "no measurement\n");
        return 1;
    }
    uint32_t block = region("rewind_block"), outer = region("rewind_outer"), w = region("work");
    /* 10 rewind regions of 5 calls each; the even ones are discarded */
    for (int i = 0; i < 10; i++) {
        scorep_rewind_point(l, block);
        work(l, w, 5);
        scorep_rewind_check(l, block, i % 2 == 0);
    }
    /* nested, the outer one discards: the inner one goes with it */
    scorep_rewind_point(l, outer);
    scorep_rewind_point(l, block);
    work(l, w, 3);
    scorep_rewind_check(l, block, false);
    scorep_rewind_check(l, outer, true);
    /* nested, only the inner one discards */
    scorep_rewind_point(l, outer);
    scorep_rewind_point(l, block);
    work(l, w, 2);
    scorep_rewind_check(l, block, true);
    scorep_rewind_check(l, outer, false);
    printf("rewinds done\n");
    return 0;
}
