/* SPDX-License-Identifier: BSD-3-Clause */
/* score_locks.c: known numbers of lock tests that get the lock and that do not, for
 * test_omp_score_locks.sh (scorep-score's estimate of their trace records). A team of 2:
 * thread 0 holds a simple lock and a nest lock while thread 1 tests each in vain (N_FAIL
 * and N_NEST_FAIL times; the barriers make every test fail), then each thread tests its
 * own free locks N_OK and N_NEST_OK times (every test gets the lock; each gives it back).
 * After the team the initial thread holds a POSIX mutex and tries it N_TRY_FAIL times
 * (EBUSY: a default mutex that is locked), then tries a free one N_TRY_OK times. Prints
 * the numbers of tests that got their lock; exits 1 if a test ends otherwise. */
#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

#define N_FAIL 300      /* omp_test_lock on the held lock (thread 1) */
#define N_OK 500        /* omp_test_lock on the thread's own lock (per thread) */
#define N_NEST_FAIL 200 /* omp_test_nest_lock on the held nest lock (thread 1) */
#define N_NEST_OK 100   /* omp_test_nest_lock on the thread's own nest lock (per thread) */
#define N_TRY_FAIL 400  /* pthread_mutex_trylock on the held mutex */
#define N_TRY_OK 250    /* pthread_mutex_trylock on a free mutex */

int main(void)
{
    omp_lock_t held, own[2];
    omp_nest_lock_t nheld, nown[2];
    int bad = 0, got = 0, ngot = 0;
    omp_init_lock(&held);
    omp_init_nest_lock(&nheld);
    for (int i = 0; i < 2; i++) {
        omp_init_lock(&own[i]);
        omp_init_nest_lock(&nown[i]);
    }
#pragma omp parallel num_threads(2) reduction(+ : bad, got, ngot)
    {
        int me = omp_get_thread_num();
        if (omp_get_num_threads() != 2)
            bad++;
        if (me == 0) {
            omp_set_lock(&held);
            omp_set_nest_lock(&nheld);
        }
#pragma omp barrier
        if (me == 1) {
            for (int i = 0; i < N_FAIL; i++)
                bad += omp_test_lock(&held) != 0;
            for (int i = 0; i < N_NEST_FAIL; i++)
                bad += omp_test_nest_lock(&nheld) != 0;
        }
#pragma omp barrier
        if (me == 0) {
            omp_unset_lock(&held);
            omp_unset_nest_lock(&nheld);
        }
        for (int i = 0; i < N_OK; i++)
            if (omp_test_lock(&own[me])) {
                got++;
                omp_unset_lock(&own[me]);
            }
        for (int i = 0; i < N_NEST_OK; i++)
            if (omp_test_nest_lock(&nown[me]) == 1) {
                ngot++;
                omp_unset_nest_lock(&nown[me]);
            }
    }
    pthread_mutex_t busy = PTHREAD_MUTEX_INITIALIZER, free_m = PTHREAD_MUTEX_INITIALIZER;
    int tgot = 0;
    pthread_mutex_lock(&busy);
    for (int i = 0; i < N_TRY_FAIL; i++)
        bad += pthread_mutex_trylock(&busy) != EBUSY;
    pthread_mutex_unlock(&busy);
    for (int i = 0; i < N_TRY_OK; i++)
        if (pthread_mutex_trylock(&free_m) == 0) {
            tgot++;
            pthread_mutex_unlock(&free_m);
        }
    printf("test_lock %d test_nest_lock %d trylock %d bad %d\n", got, ngot, tgot, bad);
    return bad != 0;
}
