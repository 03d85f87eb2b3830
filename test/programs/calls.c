/* SPDX-License-Identifier: BSD-3-Clause */
/* calls.c: test program with known call counts: a leaf called 10^6 times, recursion
 * deeper than the profile's maximum depth, and 8 threads doing known work. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long sink; /* added to by several threads: atomically */

__attribute__((noinline)) void leaf(int i)
{
    __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

__attribute__((noinline)) int recurse(int n)
{
    if (n == 0)
        return 0;
    return 1 + recurse(n - 1);
}

__attribute__((noinline)) void thread_work(int k)
{
    for (int i = 0; i < 1000 + k; i++)
        leaf(i);
}

static void *thread_main(void *arg)
{
    thread_work((int)(long)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    int depth = argc > 1 ? atoi(argv[1]) : 150;
    for (int i = 0; i < 1000000; i++)
        leaf(i);
    printf("recursion %d\n", recurse(depth));
    pthread_t t[8];
    for (long k = 0; k < 8; k++)
        pthread_create(&t[k], NULL, thread_main, (void *)k);
    for (int k = 0; k < 8; k++)
        pthread_join(t[k], NULL);
    printf("done %ld\n", __atomic_load_n(&sink, __ATOMIC_RELAXED) > 0 ? 1L : 0L);
    return 3;
}
