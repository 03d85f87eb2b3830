/* SPDX-License-Identifier: BSD-3-Clause */
/* throttle_paths.c: test program for exact visits of a throttled function: tiny() from two
 * callers (left: 3000 calls, right: 2000), then from 3 threads whose start routine is not
 * instrumented (their calls belong to the thread's root) and which call left() once each.
 * Prints "done <checksum>". */
#include <pthread.h>
#include <stdio.h>

enum { THREADS = 3, THREAD_CALLS = 1234 };

static volatile long sink;

__attribute__((noinline)) void tiny(int i)
{
    __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

__attribute__((noinline)) void left(void)
{
    for (int i = 0; i < 3000; i++)
        tiny(i);
}

__attribute__((noinline)) void right(void)
{
    for (int i = 0; i < 2000; i++)
        tiny(1);
}

/* uninstrumented: the calls of tiny() after left() have no measured caller in this thread
 * but its root, and are settled only when the thread ends */
__attribute__((no_instrument_function)) static void *start(void *arg)
{
    (void)arg;
    left();
    for (int i = 0; i < THREAD_CALLS; i++)
        tiny(2);
    return NULL;
}

int main(void)
{
    left();
    right();
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, start, NULL) != 0)
            return 1;
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    printf("done %ld\n", (long)sink);
    return 0;
}
