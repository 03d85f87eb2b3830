/* SPDX-License-Identifier: BSD-3-Clause */
/* lost_exits.c: test program of leaves whose calls' exits were lost (test_event_fast.sh).
 * main calls outer(), which calls inner(), which jumps back to main: neither hook sees
 * the exits of inner and outer. The jump is GCC's __builtin_longjmp, inline code that the
 * runtime's longjmp (adapters/compiler/longjmp.c, which leaves the abandoned calls at the
 * jump) never sees: the exits stay lost until a leave that does not match. main then calls
 * after() (at the depth below inner's) and returns: main's leave finds inner's Enter last at its depth and inner on the call stack,
 * so the general path leaves inner and outer first (core/events.c, leave_mismatch).
 * Prints "done 3". */
#include <stdio.h>

static void *back[5]; /* __builtin_setjmp's buffer: five words */
volatile long sink;

__attribute__((noinline)) void inner(int jump)
{
    if (jump)
        __builtin_longjmp(back, 1);
    sink++;
}

__attribute__((noinline)) void outer(int jump)
{
    inner(jump);
    sink++;
}

__attribute__((noinline)) void after(void)
{
    sink += 3;
}

int main(void)
{
    if (!__builtin_setjmp(back))
        outer(1);
    after();
    printf("done %ld\n", sink);
    return 0;
}
