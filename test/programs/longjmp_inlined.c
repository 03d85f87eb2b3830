/* SPDX-License-Identifier: BSD-3-Clause */
/* longjmp_inlined.c: calls inlined into the frame that calls setjmp, for
 * test_longjmp_regions.sh: their hooks (gcc's and clang's -finstrument-functions, the
 * plugins with --instrument-inlined) record that frame's stack pointer, the jump's target.
 * One entered after the setjmp is abandoned by the jump (left at it); a user region begun
 * after a setjmp in the same frame stays open (its END is on the jump's path too). Expected
 * call paths in the comments. */
#include <scorep/SCOREP_User.h>
#include <setjmp.h>
#include <stdio.h>

#define NI __attribute__((noinline))

static jmp_buf env;
static sigjmp_buf senv;
static volatile int count;

NI static void thrower(void)
{
    count++;
    longjmp(env, 1);
}

NI static void after(void)
{
    count++;
}

/* inlined into case_inl after its setjmp; its exit is skipped: left at the jump */
static inline __attribute__((always_inline)) void inl_after(void)
{
    count++;
    thrower();
}

/* case_inl/inl_after/thrower, then case_inl/after */
NI static void case_inl(void)
{
    if (setjmp(env) == 0)
        inl_after();
    else
        after();
}

NI static void sthrower(void)
{
    count++;
    siglongjmp(senv, 1);
}

/* calls sigsetjmp itself (gcc and clang inline no function that calls setjmp: a call
 * inlined around a setjmp does not occur), and begins a user region after it: both stay
 * open across the jump (r is ended on both paths).
 * case_encl/inl_encl/r/sthrower, case_encl/inl_encl/r/after */
NI static void inl_encl(void)
{
    SCOREP_USER_REGION_DEFINE(r)
    if (sigsetjmp(senv, 0) == 0) {
        SCOREP_USER_REGION_BEGIN(r, "r", SCOREP_USER_REGION_TYPE_COMMON)
        sthrower();
    } else {
        after();
    }
    SCOREP_USER_REGION_END(r)
}

NI static void case_encl(void)
{
    inl_encl();
}

int main(void)
{
    case_inl();
    case_encl();
    printf("done %d\n", count);
    return 0;
}
