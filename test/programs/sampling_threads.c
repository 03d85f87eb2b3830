/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_threads.c: three threads (main and two pthreads) each spend about 0.3 s of their
 * own CPU time in hot(); prints the process CPU time in ms ("cpu_ms N"). */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define HOT_MS 300
#include "sampling_work.h"

static void *worker(void *arg)
{
    (void)arg;
    hot();
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    hot();
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    struct timespec c;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
    printf("cpu_ms %ld\n", c.tv_sec * 1000L + c.tv_nsec / 1000000L);
    return 0;
}
