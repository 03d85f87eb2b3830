/* metric_tiny.c: tiny.c for the metric benchmark: calls a tiny function N times and prints
 * the loop's cost per call in the thread's CPU time ("ns_per_call <value>"), which leaves
 * out the time other processes of a loaded machine hold the CPU. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

volatile long bench_sink;

__attribute__((noinline, noclone)) long tiny(long x)
{
    return x + 1;
}

static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000L;
    if (n <= 0)
        n = 1;
    double t0 = cpu_ns();
    for (long i = 0; i < n; i++)
        bench_sink = tiny(i);
    double t1 = cpu_ns();
    printf("ns_per_call %.3f\n", (t1 - t0) / (double)n);
    return 0;
}
