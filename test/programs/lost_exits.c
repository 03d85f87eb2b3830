/* SPDX-License-Identifier: BSD-3-Clause */
/* lost_exits.c: test program of leaves whose calls' exits were lost (test_event_fast.sh).
 * main calls outer(), which calls inner(), which longjmps back to main: neither hook sees
 * the exits of inner and outer. main then calls after() (at the depth below inner's) and
 * returns: main's leave finds inner's Enter last at its depth and inner on the call stack,
 * so the general path leaves inner and outer first (core/events.c, leave_mismatch).
 * Prints "done 3". */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf back;
volatile long sink;

__attribute__((noinline)) void inner(int jump)
{
    if (jump)
        longjmp(back, 1);
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
    if (!setjmp(back))
        outer(1);
    after();
    printf("done %ld\n", sink);
    return 0;
}
