/* SPDX-License-Identifier: BSD-3-Clause */
/* pthread_tail_lib.c: the library of pthread_tail.c: its unlocks are tail calls at -O2. */
#include <pthread.h>

void lib_lock_unlock(pthread_mutex_t *m);
void lib_unlock(pthread_mutex_t *m);

volatile int lib_work;

void lib_lock_unlock(pthread_mutex_t *m)
{
    pthread_mutex_lock(m);
    lib_work++;
    pthread_mutex_unlock(m);
}

void lib_unlock(pthread_mutex_t *m)
{
    lib_work++;
    pthread_mutex_unlock(m);
}
