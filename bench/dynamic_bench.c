/* SPDX-License-Identifier: BSD-3-Clause */
/* dynamic_bench.c: the cost of a dynamic user region (an instance per visit, clustering;
 * docs/profile-clustering.md). N iterations (argv[1]) of the dynamic region "iteration",
 * each calling the user function f 2 or 5 times or g once (three behaviours, as
 * test/programs/user_dynamic.c). Prints "ns_per_iteration <value>" (the loop only) and
 * "maxrss_kb <value>" (measured before the profile is written, at exit). */
#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static volatile long sink;

static void f(void)
{
    SCOREP_USER_REGION_DEFINE(h)
    SCOREP_USER_REGION_BEGIN(h, "f", SCOREP_USER_REGION_TYPE_FUNCTION)
    sink++;
    SCOREP_USER_REGION_END(h)
}

static void g(void)
{
    SCOREP_USER_REGION_DEFINE(h)
    SCOREP_USER_REGION_BEGIN(h, "g", SCOREP_USER_REGION_TYPE_FUNCTION)
    sink += 2;
    SCOREP_USER_REGION_END(h)
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    SCOREP_USER_REGION_DEFINE(it)
    for (long k = 1; k <= n; k++) {
        SCOREP_USER_REGION_BEGIN(it, "iteration", SCOREP_USER_REGION_TYPE_DYNAMIC)
        int calls = k % 3 == 1 ? 2 : k % 3 == 2 ? 5 : 0;
        for (int i = 0; i < calls; i++)
            f();
        if (!calls)
            g();
        SCOREP_USER_REGION_END(it)
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("ns_per_iteration %.1f\n",
           ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / (double)n);
    printf("maxrss_kb %ld\n", ru.ru_maxrss);
    return 0;
}
