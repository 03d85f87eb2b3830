/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_work.h: the CPU-bound work of the sampling test programs. hot() spends HOT_MS
 * milliseconds of its own thread's CPU time (define HOT_MS before including this). */
#ifndef SAMPLING_WORK_H
#define SAMPLING_WORK_H
#include <time.h>

static _Thread_local volatile double sink; /* per thread: no data race between workers */

__attribute__((noinline)) static double spin(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++)
        x += (double)i * 1e-9;
    return x;
}

/* ms milliseconds of the calling thread's CPU time (inlined: hot's frame stays the caller of
 * spin and clock_gettime, no tail call) */
static inline __attribute__((always_inline)) void cpu_ms(long ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    do {
        sink += spin(100000);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ms * 1000000L);
}

__attribute__((noinline)) void hot(void)
{
    cpu_ms(HOT_MS);
}
#endif
