/* SPDX-License-Identifier: BSD-3-Clause */
// user_cxx.cc: the user API in C++ (test_user.sh): SCOREP_USER_REGION ends with its scope,
// also on an early return and when an exception leaves it; the other macros compile as C++.
#include <cstdio>
#include <stdexcept>

#include <scorep/SCOREP_User.h>

SCOREP_USER_GLOBAL_REGION_DEFINE(cxx_global)

static volatile long sink;

static int scoped(int i)
{
    SCOREP_USER_REGION("scoped", SCOREP_USER_REGION_TYPE_FUNCTION)
    if (i % 2)
        return i; // the region ends here too
    sink += i;
    return 0;
}

static void thrower(int i)
{
    SCOREP_USER_REGION("thrower", SCOREP_USER_REGION_TYPE_COMMON)
    if (i == 1)
        throw std::runtime_error("one");
    sink++;
}

template <typename T> static T twice(T v)
{
    SCOREP_USER_FUNC_BEGIN()
    SCOREP_USER_PARAMETER_UINT64("bytes", sizeof(T))
    SCOREP_USER_FUNC_END()
    return 2 * v;
}

int main()
{
    SCOREP_USER_REGION_DEFINE(outer)
    SCOREP_USER_REWIND_DEFINE(rw)
    SCOREP_USER_METRIC_LOCAL(m)
    SCOREP_USER_METRIC_INIT(m, "cxx_metric", "#", SCOREP_USER_METRIC_TYPE_DOUBLE,
                            SCOREP_USER_METRIC_CONTEXT_GLOBAL)
    SCOREP_USER_REGION_BEGIN(outer, "outer", SCOREP_USER_REGION_TYPE_COMMON)
    for (int i = 0; i < 5; i++)
        sink += scoped(i);
    int caught = 0;
    for (int i = 0; i < 3; i++) {
        try {
            thrower(i);
        } catch (const std::exception &) {
            caught++;
        }
    }
    SCOREP_USER_REGION_END(outer)
    sink += twice(3) + static_cast<long>(twice(1.5));
    SCOREP_USER_OA_PHASE_BEGIN(cxx_global, "cxx_phase", SCOREP_USER_REGION_TYPE_PHASE)
    SCOREP_USER_METRIC_DOUBLE(m, 2.5)
    SCOREP_USER_OA_PHASE_END(cxx_global)
    SCOREP_USER_REWIND_POINT(rw, "cxx_rewind")
    SCOREP_USER_REWIND_CHECK(rw, false)
    SCOREP_RECORDING_OFF()
    bool off = !SCOREP_RECORDING_IS_ON();
    SCOREP_RECORDING_ON()
    std::printf("caught %d off %d sink %ld\n", caught, off ? 1 : 0, sink);
    return 0;
}
