/* SPDX-License-Identifier: BSD-3-Clause */
/* user_region_bench.c: the cost of one user region (SCOREP_USER_REGION_BEGIN/END on a static
 * handle) around a tiny body, N times (default 10^7): "ns_per_pair <value>" on the thread's CPU
 * clock. Built without --user the macros vanish: the baseline. run_selective_bench.sh runs it
 * with and without a selective recording file (SCOREP_SELECTIVE_CONFIG_FILE). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <scorep/SCOREP_User.h>

volatile long bench_sink;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000L;
    if (n <= 0)
        n = 1;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        SCOREP_USER_REGION_DEFINE(h)
        SCOREP_USER_REGION_BEGIN(h, "work", SCOREP_USER_REGION_TYPE_COMMON)
        bench_sink = i;
        SCOREP_USER_REGION_END(h)
    }
    double t1 = now_ns();
    printf("ns_per_pair %.3f\n", (t1 - t0) / (double)n);
    return 0;
}
