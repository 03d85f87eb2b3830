/* SPDX-License-Identifier: BSD-3-Clause */
/* metric_omp.c: per-thread metric test program: argv[1] OpenMP threads (default 3) each spend
 * argv[2] ms (default 100) of their own CPU time in spin(), so a per-thread counter of spin
 * shows one thread's share and a process-wide one would show all of them. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

_Thread_local volatile double sink; /* per thread: written in a parallel region */

__attribute__((no_instrument_function)) static long long thread_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

__attribute__((noinline)) void spin(long ms)
{
    long long end = thread_ns() + ms * 1000000LL;
    double s = 0;
    while (thread_ns() < end)
        for (int i = 0; i < 10000; i++)
            s += i * 0.5;
    sink = s;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 3;
    long ms = argc > 2 ? atol(argv[2]) : 100;
    omp_set_dynamic(0);
#pragma omp parallel num_threads(threads)
    spin(ms);
    printf("threads %d\n", threads);
    return 0;
}
