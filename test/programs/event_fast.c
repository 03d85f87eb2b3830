/* SPDX-License-Identifier: BSD-3-Clause */
/* event_fast.c: test program of the fast path of a measured call (core/events.h,
 * scorep_event_enter_fast_as) and the cases it hands to the general path. main calls leaf()
 * 3000 times (many trace pages; the throttle threshold), recurse() 300 deep (beyond the
 * call stack's first 256 levels and the profile's depth limit), then with recording
 * switched off off_leaf() 77 times, and with it on again 5 times, then rw_leaf() 7 times
 * between a rewind point and a check that discards them (the check finds the call level of
 * its point only where every fast leave popped its call: the location's depth, which
 * neither the profile nor the merged trace shows otherwise). Prints "done <sum>".
 * Built with -DUSER_REGIONS (and scorep-cc --nocompiler), each function's body is a user
 * region of the function's name instead (the user adapter's way to the fast path). */
#include <scorep/SCOREP_User.h>
#include <stdio.h>

#ifdef USER_REGIONS
#define BEGIN(name)                                                                                \
    SCOREP_USER_REGION_DEFINE(h)                                                                   \
    SCOREP_USER_REGION_BEGIN(h, name, SCOREP_USER_REGION_TYPE_FUNCTION)
#define END() SCOREP_USER_REGION_END(h)
#else
#define BEGIN(name)
#define END()
#endif

static volatile long sink;

__attribute__((noinline)) void leaf(long i)
{
    BEGIN("leaf")
    sink += i;
    END()
}

__attribute__((noinline)) void off_leaf(long i)
{
    BEGIN("off_leaf")
    sink += i;
    END()
}

__attribute__((noinline)) void rw_leaf(long i)
{
    BEGIN("rw_leaf")
    sink += i;
    END()
}

/* not a tail call: the increment after the call keeps every frame */
__attribute__((noinline)) void recurse(int n)
{
    BEGIN("recurse")
    if (n > 0)
        recurse(n - 1);
    sink++;
    END()
}

int main(void)
{
    BEGIN("main")
    for (long i = 0; i < 3000; i++)
        leaf(i);
    recurse(299);
    SCOREP_RECORDING_OFF();
    for (long i = 0; i < 77; i++)
        off_leaf(i);
    SCOREP_RECORDING_ON();
    for (long i = 0; i < 5; i++)
        off_leaf(i);
    SCOREP_USER_REWIND_DEFINE(rw)
    SCOREP_USER_REWIND_POINT(rw, "rewound")
    for (long i = 0; i < 7; i++)
        rw_leaf(i);
    SCOREP_USER_REWIND_CHECK(rw, 1)
    END()
    printf("done %ld\n", (long)sink);
    return 0;
}
