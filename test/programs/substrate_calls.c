/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_calls.c: a known call pattern for the substrate plugin test: main calls mid
 * twice and starts 2 threads that run worker, which calls mid once; mid calls leaf 3 times.
 * So main 1, worker 2, mid 4, leaf 12 calls; 2 threads created and joined. */
#include <pthread.h>
#include <stdio.h>

int sink; /* added to by main and both threads: atomically */

__attribute__((noinline)) void leaf(int i)
{
    __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

__attribute__((noinline)) void mid(void)
{
    for (int i = 0; i < 3; i++)
        leaf(i);
}

__attribute__((noinline)) void *worker(void *arg)
{
    (void)arg;
    mid();
    return NULL;
}

int main(void)
{
    mid();
    mid();
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("sink %d\n", __atomic_load_n(&sink, __ATOMIC_RELAXED));
    return 0;
}
