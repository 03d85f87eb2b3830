/* SPDX-License-Identifier: BSD-3-Clause */
/* selective.c: selective recording (test_selective.sh, SCOREP_SELECTIVE_CONFIG_FILE): user
 * regions whose instances are known by design, counted from 0 per region and process.
 *   loop:  20 instances one after the other (Score-P's selective_test), each calls foo once;
 *   outer: 6 instances, each with 3 instances of inner (inner i of outer k is 3k+i);
 *   rec:   3 calls of a recursion 3 deep (call k: instances 3k outermost, 3k+1, 3k+2);
 *   tloop: 10 instances on a first thread, after its end 10 on a second one (instances 0-9
 *          and 10-19), each calls foo once;
 *   side:  a region the file does not name, before and after all of them. */
#include <pthread.h>
#include <stdio.h>

#include <scorep/SCOREP_User.h>

static volatile int calls;

static void foo(void)
{
    SCOREP_USER_FUNC_BEGIN()
    calls++;
    SCOREP_USER_FUNC_END()
}

static void rec(int depth)
{
    SCOREP_USER_REGION_DEFINE(h)
    SCOREP_USER_REGION_BEGIN(h, "rec", SCOREP_USER_REGION_TYPE_FUNCTION)
    if (depth > 0)
        rec(depth - 1);
    SCOREP_USER_REGION_END(h)
}

static void side(void)
{
    SCOREP_USER_REGION_DEFINE(h)
    SCOREP_USER_REGION_BEGIN(h, "side", SCOREP_USER_REGION_TYPE_COMMON)
    calls++;
    SCOREP_USER_REGION_END(h)
}

static void *worker(void *arg)
{
    for (int i = 0; i < 10; i++) {
        SCOREP_USER_REGION_DEFINE(h)
        SCOREP_USER_REGION_BEGIN(h, "tloop", SCOREP_USER_REGION_TYPE_LOOP)
        foo();
        SCOREP_USER_REGION_END(h)
    }
    return arg;
}

int main(void)
{
    SCOREP_USER_FUNC_BEGIN()
    side();
    for (int i = 0; i < 20; i++) {
        SCOREP_USER_REGION_DEFINE(loop)
        SCOREP_USER_REGION_BEGIN(loop, "loop", SCOREP_USER_REGION_TYPE_DYNAMIC)
        foo();
        SCOREP_USER_REGION_END(loop)
    }
    for (int k = 0; k < 6; k++) {
        SCOREP_USER_REGION_DEFINE(outer)
        SCOREP_USER_REGION_BEGIN(outer, "outer", SCOREP_USER_REGION_TYPE_COMMON)
        for (int i = 0; i < 3; i++) {
            SCOREP_USER_REGION_DEFINE(inner)
            SCOREP_USER_REGION_BEGIN(inner, "inner", SCOREP_USER_REGION_TYPE_COMMON)
            calls++;
            SCOREP_USER_REGION_END(inner)
        }
        SCOREP_USER_REGION_END(outer)
    }
    for (int k = 0; k < 3; k++)
        rec(2);
    for (int t = 0; t < 2; t++) {
        pthread_t th;
        if (pthread_create(&th, NULL, worker, NULL) != 0 || pthread_join(th, NULL) != 0)
            return 1;
    }
    side();
    printf("calls %d recording %d\n", calls, SCOREP_RECORDING_IS_ON() ? 1 : 0);
    SCOREP_USER_FUNC_END()
    return 0;
}
