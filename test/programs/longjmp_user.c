/* SPDX-License-Identifier: BSD-3-Clause */
/* longjmp_user.c: user regions (SCOREP_USER_REGION_BEGIN, _INIT + _ENTER, _BY_NAME_BEGIN)
 * begun in the frames a longjmp abandons, and in the frame that called setjmp, before and
 * after the setjmp, for test_longjmp_user.sh. Built with and without compiler
 * instrumentation: the expected call paths are in the comments. */
#include <scorep/SCOREP_User.h>
#include <setjmp.h>
#include <stdio.h>

#define NI __attribute__((noinline))

static jmp_buf env;
static volatile int count;

/* the call made after each jump: after (under leaf when functions are instrumented) */
NI static void leaf(void)
{
    SCOREP_USER_REGION_DEFINE(after)
    SCOREP_USER_REGION_BEGIN(after, "after", SCOREP_USER_REGION_TYPE_COMMON)
    count++;
    SCOREP_USER_REGION_END(after)
}

/* three abandoned frames, each with a region open at the jump: r1 (BEGIN), r2 (INIT + ENTER),
 * r3 (by name); left at the jump innermost first: r3 d3 r2 d2 r1 d1 */
NI static void d3(void)
{
    SCOREP_USER_REGION_BY_NAME_BEGIN("r3", SCOREP_USER_REGION_TYPE_COMMON)
    count++;
    longjmp(env, 1);
}

NI static void d2(void)
{
    SCOREP_USER_REGION_DEFINE(r2)
    SCOREP_USER_REGION_INIT(r2, "r2", SCOREP_USER_REGION_TYPE_COMMON)
    SCOREP_USER_REGION_ENTER(r2)
    d3();
    SCOREP_USER_REGION_END(r2)
}

NI static void d1(void)
{
    SCOREP_USER_REGION_DEFINE(r1)
    SCOREP_USER_REGION_BEGIN(r1, "r1", SCOREP_USER_REGION_TYPE_COMMON)
    d2();
    SCOREP_USER_REGION_END(r1)
}

/* a region of the setjmp caller begun before the setjmp stays open across the jump: after
 * is its child, and its END comes as written. Paths: outer/d1/r1/d2/r2/d3/r3, outer/after */
NI static void case_before(void)
{
    SCOREP_USER_REGION_DEFINE(outer)
    SCOREP_USER_REGION_BEGIN(outer, "outer", SCOREP_USER_REGION_TYPE_COMMON)
    if (setjmp(env) == 0)
        d1();
    else
        leaf();
    SCOREP_USER_REGION_END(outer)
}

/* one begun after the setjmp in the same frame stays open too (the runtime cannot tell it
 * from outer: docs/design.md, "Jumps out of calls"): the program ends it on the jump's
 * path as well. Paths: inner/d1/r1/d2/r2/d3/r3, inner/after */
NI static void case_after(void)
{
    SCOREP_USER_REGION_DEFINE(inner)
    if (setjmp(env) == 0) {
        SCOREP_USER_REGION_BEGIN(inner, "inner", SCOREP_USER_REGION_TYPE_COMMON)
        d1();
        SCOREP_USER_REGION_END(inner)
    } else {
        leaf();
        SCOREP_USER_REGION_END(inner)
    }
}

int main(void)
{
    case_before();
    case_after();
    printf("done %d\n", count);
    return 0;
}
