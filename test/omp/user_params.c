/* SPDX-License-Identifier: BSD-3-Clause */
/* user_params.c: user parameters and a user metric around and inside an OpenMP parallel
 * region of 3 threads: a parameter call path on the fork's path and one on every thread. */
#include <omp.h>
#include <stdio.h>

#include <scorep/SCOREP_User.h>

int main(void)
{
    SCOREP_USER_REGION_DEFINE(outer)
    SCOREP_USER_METRIC_LOCAL(items)
    SCOREP_USER_METRIC_INIT(items, "items", "#", SCOREP_USER_METRIC_TYPE_UINT64,
                            SCOREP_USER_METRIC_CONTEXT_CALLPATH)
    long sum = 0;
    SCOREP_USER_REGION_BEGIN(outer, "outer", SCOREP_USER_REGION_TYPE_COMMON)
    SCOREP_USER_PARAMETER_INT64("n", 4)
#pragma omp parallel num_threads(3) reduction(+ : sum) /* PAR */
    {
        SCOREP_USER_REGION_DEFINE(inner)
        SCOREP_USER_REGION_BEGIN(inner, "inner", SCOREP_USER_REGION_TYPE_COMMON)
        SCOREP_USER_PARAMETER_STRING("role", omp_get_thread_num() == 0 ? "master" : "worker")
        for (int i = 0; i < 1000; i++)
            sum += i;
        SCOREP_USER_METRIC_UINT64(items, 10)
        SCOREP_USER_REGION_END(inner)
    }
    SCOREP_USER_REGION_END(outer)
    printf("%ld\n", sum);
    return 0;
}
