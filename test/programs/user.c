/* SPDX-License-Identifier: BSD-3-Clause */
/* user.c: test program for the user API: regions of every kind, parameters, metrics and
 * recording control, with known counts. */
#include <stdio.h>

#include <scorep/SCOREP_User.h>

static void phase_work(int n)
{
    SCOREP_USER_FUNC_BEGIN()
    SCOREP_USER_PARAMETER_INT64("n", n)
    SCOREP_USER_PARAMETER_STRING("kind", n % 2 ? "odd" : "even")
    volatile int x = 0;
    for (int i = 0; i < 100; i++)
        x += i;
    SCOREP_USER_FUNC_END()
}

int main(void)
{
    SCOREP_USER_REGION_DEFINE(loop)
    SCOREP_USER_REGION_DEFINE(init)
    SCOREP_USER_METRIC_LOCAL(m)
    SCOREP_USER_METRIC_INIT(m, "items", "#", SCOREP_USER_METRIC_TYPE_UINT64,
                            SCOREP_USER_METRIC_CONTEXT_CALLPATH)
    SCOREP_USER_REGION_INIT(init, "init_region", SCOREP_USER_REGION_TYPE_COMMON)
    SCOREP_USER_REGION_ENTER(init)
    SCOREP_USER_REGION_END(init)
    SCOREP_USER_REGION_BEGIN(loop, "main_loop", SCOREP_USER_REGION_TYPE_LOOP)
    for (int i = 0; i < 6; i++) {
        phase_work(i % 3);
        SCOREP_USER_METRIC_UINT64(m, 10)
    }
    SCOREP_USER_REGION_END(loop)
    for (int i = 0; i < 4; i++) {
        SCOREP_USER_REGION_BY_NAME_BEGIN("by_name", SCOREP_USER_REGION_TYPE_COMMON)
        SCOREP_USER_REGION_BY_NAME_END("by_name")
    }
    SCOREP_RECORDING_OFF()
    for (int i = 0; i < 5; i++) {
        SCOREP_USER_REGION_BY_NAME_BEGIN("hidden", SCOREP_USER_REGION_TYPE_COMMON)
        SCOREP_USER_REGION_BY_NAME_END("hidden")
    }
    int off = !SCOREP_RECORDING_IS_ON();
    SCOREP_RECORDING_ON()
    printf("recording was off: %d\n", off);
    return 0;
}
