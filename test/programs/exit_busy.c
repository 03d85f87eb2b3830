/* SPDX-License-Identifier: BSD-3-Clause */
/* exit_busy.c: test program for the end of a measurement while threads still record: four
 * threads call functions without pause (new call paths among them: the profile grows while
 * it is closed), and main returns after ARGV[1] milliseconds (default 100) without joining
 * them, so that the measurement ends (exit) while they are inside events. Prints "done". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define THREADS 4

static long sink; /* added to atomically: the program itself has no data race */

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
    for (long i = 0;; i++)
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
    usleep((useconds_t)ms * 1000);
    printf("done\n");
    fflush(stdout);
    return 0;
}
