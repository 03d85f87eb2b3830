/* SPDX-License-Identifier: BSD-3-Clause */
/* lock_bench_lib.c: lock_bench.c's loop in a shared library, whose mutex calls the pthread
 * adapter does not record (only the executable's are). */
#include <pthread.h>

void lock_loop_in_library(pthread_mutex_t *m, long n);

void lock_loop_in_library(pthread_mutex_t *m, long n)
{
    for (long i = 0; i < n; i++) {
        pthread_mutex_lock(m);
        pthread_mutex_unlock(m);
    }
}
