/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_more.c: OpenMP and user-API events for the substrate plugin test: 2 parallel
 * regions of 2 threads, each thread calls leaf once (leaf: 4 calls); 3 int parameters;
 * user metrics: "level" (INT64) triggered with 1, 2, 3 and "ratio" (DOUBLE) with 0.25 and
 * 0.5; recording switched off around one more call of leaf (not delivered). */
#include <omp.h>
#include <stdio.h>
#include <scorep/SCOREP_User.h>

int sink; /* added to by both threads of a parallel region: atomically */

__attribute__((noinline)) void leaf(int i)
{
    __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

int main(void)
{
    for (int r = 0; r < 2; r++) {
#pragma omp parallel num_threads(2)
        leaf(omp_get_thread_num());
    }
    for (int i = 0; i < 3; i++) {
        SCOREP_USER_PARAMETER_INT64("i", i)
    }
    SCOREP_USER_METRIC_LOCAL(level)
    SCOREP_USER_METRIC_LOCAL(ratio)
    SCOREP_USER_METRIC_INIT(level, "level", "#", SCOREP_USER_METRIC_TYPE_INT64,
                            SCOREP_USER_METRIC_CONTEXT_GLOBAL)
    SCOREP_USER_METRIC_INIT(ratio, "ratio", "1", SCOREP_USER_METRIC_TYPE_DOUBLE,
                            SCOREP_USER_METRIC_CONTEXT_GLOBAL)
    for (int i = 1; i <= 3; i++) {
        /* braces: without the user API the macro is empty, and leaf(9) below was the body */
        SCOREP_USER_METRIC_INT64(level, i)
    }
    SCOREP_USER_METRIC_DOUBLE(ratio, 0.25)
    SCOREP_USER_METRIC_DOUBLE(ratio, 0.5)
    SCOREP_RECORDING_OFF()
    leaf(9);
    SCOREP_RECORDING_ON()
    printf("sink %d\n", __atomic_load_n(&sink, __ATOMIC_RELAXED));
    return 0;
}
