/* SPDX-License-Identifier: BSD-3-Clause */
/* exit_busy.c: test program for the end of a measurement while threads still record: four
 * threads call functions without pause (new call paths among them: the profile grows while
 * it is closed), and main returns ARGV[1] milliseconds (default 100) after every thread made
 * its first call, without joining them, so that the measurement ends (exit) while they are
 * inside events. Prints "done". Main waits for the first calls because a thread that the
 * system has not run yet when the measurement ends stays unmeasured by design (the registry
 * is closed): on a loaded machine 100 ms were once not enough for 3 of the 4 threads to
 * start, and the test saw 2 locations instead of 5. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define THREADS 4

static long sink; /* added to atomically: the program itself has no data race */
static int started; /* threads past their first call (atomic) */

__attribute__((noinline)) void leaf(long i)
{
    __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

/* depth d of calls: each depth a call path of its own */
__attribute__((noinline)) void nest(int d, long i)
{
    if (d > 0)
        nest(d - 1, i);
    else
        leaf(i);
}

static void *busy(void *arg)
{
    long id = (long)arg;
    nest((int)(id % 64), 0);
    __atomic_fetch_add(&started, 1, __ATOMIC_RELEASE);
    for (long i = 1;; i++)
        nest((int)((i + id) % 64), i);
    return NULL;
}

int main(int argc, char **argv)
{
    long ms = argc > 1 ? atol(argv[1]) : 100;
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, busy, (void *)i) != 0)
            return 1;
    /* every thread measured (its location made at its first call) before the wait begins */
    while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < THREADS)
        usleep(1000);
    usleep((useconds_t)ms * 1000);
    printf("done\n");
    fflush(stdout);
    return 0;
}
