/* SPDX-License-Identifier: BSD-3-Clause */
/* libwrap_bench.c: the cost of a wrapped library call (run_libwrap_bench.sh): N calls (default
 * 10^7) of lwb_work, a one-statement function of a shared library, timed on the thread's CPU
 * clock: "ns_per_call <value>". Without a wrapper: the plain call; with one: plus the
 * wrapper's enter and leave. Built with -DLWB_LIBRARY it is that library. */
#ifdef LWB_LIBRARY
int lwb_work(long i);
int lwb_work(long i)
{
    return (int)(i & 7);
}
#else
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int lwb_work(long i);
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
    long s = 0;
    double t0 = now_ns();
    for (long i = 0; i < n; i++)
        s += lwb_work(i);
    double t1 = now_ns();
    bench_sink = s;
    printf("ns_per_call %.3f\n", (t1 - t0) / (double)n);
    return 0;
}
#endif
