/* SPDX-License-Identifier: BSD-3-Clause */
/* score_mutex.c: 2 POSIX threads take and give back one mutex 1000 times each (a
 * ThreadAcquireLock and a ThreadReleaseLock per pair, which scorep-score counts since
 * session 25), for test_score_sync.sh. Prints the counter. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *work(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&m);
        counter++;
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, work, NULL) != 0)
            return 1;
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("counter %ld\n", counter);
    return 0;
}
