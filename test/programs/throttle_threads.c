/* SPDX-License-Identifier: BSD-3-Clause */
/* throttle_threads.c: test program for exact visits of a throttled function called from 2
 * threads at once: main calls tiny() 2000 times (throttled from its 1001st call), then 2
 * threads, released together by a barrier, each call work() once, which calls tiny()
 * CALLS times; a counter shared between the threads would lose some of them.
 * Prints "done <checksum>". */
#include <pthread.h>
#include <stdio.h>

enum { THREADS = 2, CALLS = 1000000 };

static volatile long sink;
static pthread_barrier_t start_together;

__attribute__((noinline)) void tiny(int i)
{
    __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

__attribute__((noinline)) void work(void)
{
    for (int i = 0; i < CALLS; i++)
        tiny(1);
}

/* uninstrumented: work() is the only measured call of each thread */
__attribute__((no_instrument_function)) static void *start(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start_together);
    work();
    return NULL;
}

int main(void)
{
    for (int i = 0; i < 2000; i++)
        tiny(2);
    if (pthread_barrier_init(&start_together, NULL, THREADS) != 0)
        return 1;
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, start, NULL) != 0)
            return 1;
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    printf("done %ld\n", (long)sink);
    return 0;
}
