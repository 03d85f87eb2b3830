/* SPDX-License-Identifier: BSD-3-Clause */
/* unwind_enter_bench.c: the cost of an instrumented enter and leave with and without
 * SCOREP_ENABLE_UNWINDING (bench/run_unwind_bench.sh): leaf() is instrumented and called
 * through three functions the filter leaves uninstrumented, from main; prints the
 * nanoseconds per call of the loop ("ns_per_call X"). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile long sink;

__attribute__((noinline)) void leaf(long i)
{
    sink += i;
}

__attribute__((noinline)) void mid3(long i)
{
    leaf(i);
    __asm__ volatile("");
}

__attribute__((noinline)) void mid2(long i)
{
    mid3(i);
    __asm__ volatile("");
}

__attribute__((noinline)) void mid1(long n)
{
    for (long i = 0; i < n; i++)
        mid2(i);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    mid1(n);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    printf("ns_per_call %.1f\n", ns / (double)n);
    return 0;
}
