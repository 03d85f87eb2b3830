/* SPDX-License-Identifier: BSD-3-Clause */
/* pthread_tail.c: which mutex calls are the program's (test_pthread_locks.sh): a function of
 * the program that ends with an unlock (a tail call at -O2) is the program's; a library
 * function the program calls (pthread_tail_lib.c) that locks and unlocks, or only unlocks, at
 * its end is not, though its tail call returns into the program. Mutex a: the program's lock
 * (order 1) and its tail-called unlock, then the library's lock and unlock (not recorded).
 * Mutex b: the program's lock (order 1), the library's unlock (not recorded), the program's
 * lock (order 2: a new holding) and unlock. */
#include <pthread.h>
#include <stdio.h>

void lib_lock_unlock(pthread_mutex_t *m);
void lib_unlock(pthread_mutex_t *m);

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
volatile int work;

__attribute__((noinline)) void unlock_at_end(pthread_mutex_t *m)
{
    work++;
    pthread_mutex_unlock(m);
}

int main(void)
{
    pthread_mutex_lock(&a);
    unlock_at_end(&a);
    lib_lock_unlock(&a);
    pthread_mutex_lock(&b);
    lib_unlock(&b);
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    printf("done %d\n", work);
    return 0;
}
