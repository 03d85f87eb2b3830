/* SPDX-License-Identifier: BSD-3-Clause */
/* selective_omp.c: selective recording and OpenMP (test_selective.sh): region "step" begun 4
 * times by the master (instances 0-3), each around a parallel loop of 8 iterations in a team
 * of 2 threads (4 each: static schedule) that each begin region "work" (instances 8k to 8k+7
 * in step k, on whichever thread runs them). The team's size is the program's, not
 * OMP_NUM_THREADS's (a many-core machine's default). */
#include <stdio.h>

#include <scorep/SCOREP_User.h>

int main(void)
{
    long sum = 0;
    for (int k = 0; k < 4; k++) {
        SCOREP_USER_REGION_DEFINE(step)
        SCOREP_USER_REGION_BEGIN(step, "step", SCOREP_USER_REGION_TYPE_COMMON)
#pragma omp parallel for num_threads(2) reduction(+ : sum) schedule(static)
        for (int i = 0; i < 8; i++) {
            SCOREP_USER_REGION_DEFINE(work)
            SCOREP_USER_REGION_BEGIN(work, "work", SCOREP_USER_REGION_TYPE_COMMON)
            sum += i;
            SCOREP_USER_REGION_END(work)
        }
        SCOREP_USER_REGION_END(step)
    }
    printf("sum %ld\n", sum);
    return 0;
}
