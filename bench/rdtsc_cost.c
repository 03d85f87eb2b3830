/* SPDX-License-Identifier: BSD-3-Clause */
/* rdtsc_cost.c: the cost of one rdtsc instruction (a loop of N reads, default 10^7). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000L;
    if (n <= 0)
        n = 1;
    struct timespec a, b;
    uint64_t acc = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) {
#if defined(__x86_64__) || defined(__i386__)
        uint32_t lo, hi;
        __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
        acc += ((uint64_t)hi << 32) | lo;
#else
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        acc += (uint64_t)t.tv_nsec;
#endif
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / (double)n;
    printf("ns_per_rdtsc %.3f %llu\n", ns, (unsigned long long)(acc & 1));
    return 0;
}
