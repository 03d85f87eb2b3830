/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_bench.c: CPU-bound work without system calls for `make bench`'s sampling rows;
 * prints the CPU time of the work itself in microseconds ("work_us N"). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;

__attribute__((noinline)) static double kernel(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++)
        x += (double)i * 1e-9;
    return x;
}

int main(int argc, char **argv)
{
    long reps = argc > 1 ? atol(argv[1]) : 3000;
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (long r = 0; r < reps; r++)
        sink += kernel(100000 + (r & 1)); /* no common subexpression over r */
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    printf("work_us %ld\n", (b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000L);
    return 0;
}
