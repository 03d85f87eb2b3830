// SPDX-License-Identifier: BSD-3-Clause
// longjmp_user_catch.cc: C++ user regions (the SCOREP_USER_REGION object) and a catch, for
// test_longjmp_user.sh: the handler in catcher lands at catcher's stack pointer, where its
// region was begun (the object's constructor is always inlined), so the catch keeps the
// region and after is its child; thrower's region ends in its destructor as the exception
// unwinds it. Call paths: catcher, catcher/thrower, catcher/after, each once.
#include <scorep/SCOREP_User.h>
#include <cstdio>
#include <stdexcept>

static volatile int count;

__attribute__((noinline)) static void after()
{
    SCOREP_USER_REGION("after", SCOREP_USER_REGION_TYPE_COMMON)
    count++;
}

__attribute__((noinline)) static void thrower()
{
    SCOREP_USER_REGION("thrower", SCOREP_USER_REGION_TYPE_COMMON)
    if (count >= 0)
        throw std::runtime_error("thrown");
}

__attribute__((noinline)) static void catcher()
{
    SCOREP_USER_REGION("catcher", SCOREP_USER_REGION_TYPE_COMMON)
    try {
        thrower();
    } catch (const std::exception &) {
        after();
    }
}

int main()
{
    catcher();
    std::printf("done %d\n", count);
    return 0;
}
