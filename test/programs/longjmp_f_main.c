/* SPDX-License-Identifier: BSD-3-Clause */
/* longjmp_f_main.c: the C side of longjmp_f.F90 (test_longjmp_regions.sh): main's region top
 * is open across a setjmp whose longjmp (c_jump, called from the Fortran frames) abandons
 * f_outer and f_inner with their regions. Paths: top/fr1/fr2/fr3 and top/after, twice. */
#include <scorep/SCOREP_User.h>
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static volatile int count;

void f_outer(void);
void c_jump(void);

__attribute__((noinline)) void c_jump(void)
{
    count++;
    longjmp(env, 1);
}

__attribute__((noinline)) static void after(void)
{
    SCOREP_USER_REGION_BY_NAME_BEGIN("after", SCOREP_USER_REGION_TYPE_COMMON)
    count++;
    SCOREP_USER_REGION_BY_NAME_END("after")
}

__attribute__((noinline)) static void jump_once(void)
{
    SCOREP_USER_REGION_DEFINE(top)
    SCOREP_USER_REGION_BEGIN(top, "top", SCOREP_USER_REGION_TYPE_COMMON)
    if (setjmp(env) == 0)
        f_outer();
    else
        after();
    SCOREP_USER_REGION_END(top)
}

int main(void)
{
    jump_once();
    jump_once();
    printf("done %d\n", count);
    return 0;
}
