/* SPDX-License-Identifier: BSD-3-Clause */
/* tiny.c: the overhead benchmark. Calls a tiny function N times (default 10^7) and prints
 * the loop's own time per call: "ns_per_call <value>". TINY_CLOCK chooses the clock:
 * CLOCK_MONOTONIC (default), or CLOCK_THREAD_CPUTIME_ID (the metric benchmark), which
 * leaves out the time other processes of a loaded machine hold the CPU. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

volatile long bench_sink;

__attribute__((noinline, noclone)) long tiny(long x)
{
    return x + 1;
}

#ifndef TINY_CLOCK
#define TINY_CLOCK CLOCK_MONOTONIC
#endif

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(TINY_CLOCK, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000L;
    if (n <= 0)
        n = 1;
    double t0 = now_ns();
    for (long i = 0; i < n; i++)
        bench_sink = tiny(i);
    double t1 = now_ns();
    printf("ns_per_call %.3f\n", (t1 - t0) / (double)n);
    return 0;
}
