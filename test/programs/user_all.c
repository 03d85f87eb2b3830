/* SPDX-License-Identifier: BSD-3-Clause */
/* user_all.c: every macro of the C user API with known counts (test_user.sh); the global
 * region and the global metric are shared with user_all_lib.c. */
#include <stdio.h>

#include <scorep/SCOREP_User.h>

SCOREP_USER_GLOBAL_REGION_DEFINE(shared_handle)
SCOREP_USER_METRIC_GLOBAL(shared_metric)

void lib_work(int i); /* user_all_lib.c */

static volatile long sink;

static void seven(void)
{
    SCOREP_USER_REGION_DEFINE(h)
    SCOREP_USER_REGION_BEGIN(h, "seven", SCOREP_USER_REGION_TYPE_COMMON)
    sink++;
    SCOREP_USER_REGION_END(h)
}

/* level=0 once, level=1 twice, level=2 three times: parameter call paths below it */
static void levels(int level)
{
    SCOREP_USER_FUNC_BEGIN()
    SCOREP_USER_PARAMETER_INT64("level", level)
    SCOREP_USER_PARAMETER_UINT64("size", 100u * (unsigned)level)
    SCOREP_USER_PARAMETER_STRING("tag", level == 2 ? "hot" : "cold")
    sink += level;
    SCOREP_USER_FUNC_END()
}

static void metrics(void)
{
    SCOREP_USER_METRIC_LOCAL(m_int)
    SCOREP_USER_METRIC_LOCAL(m_uint)
    SCOREP_USER_METRIC_LOCAL(m_double)
    SCOREP_USER_METRIC_INIT(m_int, "m_int", "apples", SCOREP_USER_METRIC_TYPE_INT64,
                            SCOREP_USER_METRIC_CONTEXT_CALLPATH)
    SCOREP_USER_METRIC_INIT(m_uint, "m_uint", "pears", SCOREP_USER_METRIC_TYPE_UINT64,
                            SCOREP_USER_METRIC_CONTEXT_GLOBAL)
    SCOREP_USER_METRIC_INIT(m_double, "m_double", "s", SCOREP_USER_METRIC_TYPE_DOUBLE,
                            SCOREP_USER_METRIC_CONTEXT_CALLPATH)
    SCOREP_USER_REGION_BY_NAME_BEGIN("metrics", SCOREP_USER_REGION_TYPE_DYNAMIC)
    /* braces: without SCOREP_USER_ENABLE a macro is no statement at all */
    for (int i = 0; i < 2; i++) {
        SCOREP_USER_METRIC_INT64(m_int, -3)
    }
    for (int i = 0; i < 3; i++) {
        SCOREP_USER_METRIC_UINT64(m_uint, 5)
    }
    for (int i = 0; i < 4; i++) {
        SCOREP_USER_METRIC_DOUBLE(m_double, 0.25)
    }
    SCOREP_USER_REGION_BY_NAME_END("metrics")
}

int main(void)
{
    SCOREP_USER_REGION_DEFINE(init_enter)
    SCOREP_USER_REGION_DEFINE(phase)
    SCOREP_USER_REGION_DEFINE(loop)
    SCOREP_USER_REWIND_DEFINE(rewind)
    SCOREP_USER_METRIC_INIT(shared_metric, "shared_metric", "#", SCOREP_USER_METRIC_TYPE_INT64,
                            SCOREP_USER_METRIC_CONTEXT_CALLPATH)

    SCOREP_USER_REGION_INIT(init_enter, "init_enter", SCOREP_USER_REGION_TYPE_FUNCTION)
    for (int i = 0; i < 2; i++) {
        SCOREP_USER_REGION_ENTER(init_enter)
        SCOREP_USER_REGION_END(init_enter)
    }

    SCOREP_USER_REGION_BEGIN(loop, "levels_loop", SCOREP_USER_REGION_TYPE_LOOP)
    for (int level = 0; level < 3; level++)
        for (int k = 0; k <= level; k++)
            levels(level);
    SCOREP_USER_REGION_END(loop)

    for (int i = 0; i < 3; i++)
        seven();
    int on_before = SCOREP_RECORDING_IS_ON();
    SCOREP_RECORDING_OFF()
    int off_inside = SCOREP_RECORDING_IS_ON();
    for (int i = 0; i < 4; i++) /* hidden: recording is off */
        seven();
    SCOREP_USER_REGION_BY_NAME_BEGIN("while_off", SCOREP_USER_REGION_TYPE_COMMON)
    SCOREP_USER_REGION_BY_NAME_END("while_off")
    SCOREP_RECORDING_ON()
    for (int i = 0; i < 4; i++)
        seven();

    for (int i = 0; i < 3; i++) {
        SCOREP_USER_OA_PHASE_BEGIN(phase, "oa_phase", SCOREP_USER_REGION_TYPE_PHASE)
        seven();
        SCOREP_USER_OA_PHASE_END(phase)
    }

    /* the first BEGIN names the global region; lib_work's other name is ignored */
    SCOREP_USER_REGION_BEGIN(shared_handle, "shared", SCOREP_USER_REGION_TYPE_COMMON)
    SCOREP_USER_REGION_END(shared_handle)
    for (int i = 1; i <= 5; i++)
        lib_work(i);

    for (int i = 0; i < 4; i++) {
        SCOREP_USER_REWIND_POINT(rewind, "rewind_region")
        seven();
        SCOREP_USER_REWIND_CHECK(rewind, i % 2 == 0)
    }

    metrics();
    printf("recording on: %d, while off: %d, sink %ld\n", on_before, off_inside, sink);
    return 0;
}
