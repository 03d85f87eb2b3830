/* SPDX-License-Identifier: BSD-3-Clause */
/* user_threads.c: user regions from several threads at once (test_user.sh): 4 threads begin
 * the same static handle, the same region by name and a parameter 7 times each, starting
 * together so that they race to define the handle's region. */
#include <pthread.h>
#include <stdio.h>

#include <scorep/SCOREP_User.h>

enum { THREADS = 4, TIMES = 7 };

static pthread_barrier_t start;

static void *worker(void *arg)
{
    long id = (long)arg;
    pthread_barrier_wait(&start);
    for (int i = 0; i < TIMES; i++) {
        SCOREP_USER_REGION_DEFINE(h)
        SCOREP_USER_REGION_BEGIN(h, "threaded", SCOREP_USER_REGION_TYPE_COMMON)
        SCOREP_USER_PARAMETER_INT64("odd", i % 2)
        SCOREP_USER_REGION_BY_NAME_BEGIN("threaded_by_name", SCOREP_USER_REGION_TYPE_COMMON)
        SCOREP_USER_REGION_BY_NAME_END("threaded_by_name")
        SCOREP_USER_REGION_END(h)
    }
    return (void *)id;
}

int main(void)
{
    pthread_t t[THREADS];
    long sum = 0;
    pthread_barrier_init(&start, NULL, THREADS);
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < THREADS; i++) {
        void *r;
        pthread_join(t[i], &r);
        sum += (long)r;
    }
    printf("threads %d sum %ld\n", THREADS, sum);
    return 0;
}
