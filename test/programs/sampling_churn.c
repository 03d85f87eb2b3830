/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_churn.c: starts and joins 300 short threads one after another; with a sampling
 * source per thread, the sources of ended threads must be released. The main thread then
 * spends 100 ms of CPU in hot(), so that samples (and with them a profile) exist however
 * few of the short threads' samples the kernel delivers. */
#include <pthread.h>
#include <stdio.h>

#define HOT_MS 100
#include "sampling_work.h"

static void *work(void *arg)
{
    (void)arg;
    for (int i = 0; i < 20000; i++)
        sink += i * 1e-9;
    return NULL;
}

int main(void)
{
    for (int i = 0; i < 300; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, work, NULL) != 0 || pthread_join(t, NULL) != 0) {
            printf("thread %d failed\n", i);
            return 1;
        }
    }
    hot();
    printf("done\n");
    return 0;
}
