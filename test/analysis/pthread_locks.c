/* SPDX-License-Identifier: BSD-3-Clause */
/* pthread_locks.c: pthread mutexes and condition variables in a known pattern, for the pthread
 * adapter's regions and lock events (test_pthread_locks.sh) and the analysis's lock contention
 * (test_analysis_pthread.sh). Built with -DUSE_MPI it is a 1-rank MPI program (the analysis
 * replays MPI programs). Main creates threads 0, 1, 2 in that order (their pthread sequence
 * numbers are 1, 2, 3) and then, at fixed times from a start t0 (D = argv[1] seconds):
 *   1. mutex A (statically initialised): thread k locks it at t0 + k*S and holds it for D;
 *      thread 0 also tries it once while holding it (EBUSY)
 *   2. mutex M and condition C: thread 0 locks M and waits on C; main signals at t1 + D
 *   3. threads 1 and 2 (once main has signalled 2) wait on C; main broadcasts at t2 + D; each
 *      woken thread holds M for D/2
 *   4. main: pthread_cond_timedwait on C that times out after D (a long call, but no lock
 *      contention: the mutex is free when it times out); a recursive mutex R locked
 *      twice, unlocked twice, tried once; M, R and C destroyed
 * Every holding of a mutex is printed as "H mutex thread kind enter acquired released" (the
 * program's own clock: just before the call that acquires, just after it returned, just
 * before the call that releases), from which the tests derive the lock contention. */
#include "scenario.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#ifdef USE_MPI
#include <mpi.h>
#endif

#define NT 3
#define S 0.02 /* stagger of the arrivals at A */

static pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t M, R;
static pthread_cond_t C;
static int ready1, ready2;
static int waiting; /* waits begun on C (under M): main hands off only once they wait */
static double D, t0, t1, t2;
static scenario_marks marks;

static void holding(const char *mutex, const char *thread, const char *kind, double enter,
                    double acq, double rel)
{
    marks_add(&marks, "H %s %s %s %.9f %.9f %.9f", mutex, thread, kind, enter, acq, rel);
}

/* waits on C for FLAG with M held since ACQ (acquired by KIND at ENTER); returns with M held,
 * the holding that ends then in *ENTER, *ACQ, *KIND */
static void wait_for(int *flag, const char *who, double *enter, double *acq, const char **kind)
{
    while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
        double w = now();
        holding("M", who, *kind, *enter, *acq, w);
        __atomic_add_fetch(&waiting, 1, __ATOMIC_RELEASE);
        pthread_cond_wait(&C, &M);
        *enter = w;
        *acq = now();
        *kind = "wait";
    }
}

static void *thread_main(void *arg)
{
    int k = (int)(long)arg;
    char who[8];
    snprintf(who, sizeof who, "%d", k);
    /* 1: contention on A */
    spin_until(t0 + k * S);
    double e = now();
    pthread_mutex_lock(&A);
    double a = now();
    if (k == 0 && pthread_mutex_trylock(&A) != EBUSY)
        abort();
    spin_until(a + D);
    double r = now();
    pthread_mutex_unlock(&A);
    holding("A", who, "lock", e, a, r);
    /* 2 and 3: condition handoffs. Threads 1 and 2 begin 3 only after main's signal of 2:
     * were they waiting on C then (main or thread 0 descheduled past t2 on a loaded machine),
     * the signal could wake one of them, which would wait twice, and thread 0 not at all */
    int *flag = k == 0 ? &ready1 : &ready2;
    while (k != 0 && !__atomic_load_n(&ready1, __ATOMIC_ACQUIRE)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    spin_until(k == 0 ? t1 : t2 + (k - 1) * S);
    const char *kind = "lock";
    e = now();
    pthread_mutex_lock(&M);
    a = now();
    wait_for(flag, who, &e, &a, &kind);
    if (k != 0)
        spin_until(now() + D / 2);
    r = now();
    pthread_mutex_unlock(&M);
    holding("M", who, kind, e, a, r);
    return NULL;
}

/* main's part of a handoff at time AT, once WAITERS waits have begun (on a loaded machine a
 * thread may come late; the visits must not depend on it): set FLAG and signal (or broadcast)
 * under M */
static void handoff(double at, int waiters, int *flag, int broadcast)
{
    spin_until(at);
    while (__atomic_load_n(&waiting, __ATOMIC_ACQUIRE) < waiters) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    double e = now();
    pthread_mutex_lock(&M);
    double a = now();
    __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
    if (broadcast)
        pthread_cond_broadcast(&C);
    else
        pthread_cond_signal(&C);
    double r = now();
    pthread_mutex_unlock(&M);
    holding("M", "main", "lock", e, a, r);
}

static void timed_and_recursive(void)
{
    /* a timed wait that times out after D: M released and acquired again */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    long ns = ts.tv_nsec + (long)(D * 1e9);
    ts.tv_sec += ns / 1000000000;
    ts.tv_nsec = ns % 1000000000;
    double e = now();
    pthread_mutex_lock(&M);
    double a = now(), w = now();
    int rc = pthread_cond_timedwait(&C, &M, &ts);
    double a2 = now();
    if (rc != ETIMEDOUT)
        abort();
    double r = now();
    pthread_mutex_unlock(&M);
    holding("M", "main", "lock", e, a, w);
    holding("M", "main", "timedwait", w, a2, r);
    /* a recursive mutex: one holding of two locks, then a trylock */
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&R, &attr);
    pthread_mutexattr_destroy(&attr);
    e = now();
    pthread_mutex_lock(&R);
    a = now();
    pthread_mutex_lock(&R);
    pthread_mutex_unlock(&R);
    r = now();
    pthread_mutex_unlock(&R);
    holding("R", "main", "lock", e, a, r);
    e = now();
    if (pthread_mutex_trylock(&R) != 0)
        abort();
    a = now();
    r = now();
    pthread_mutex_unlock(&R);
    holding("R", "main", "trylock", e, a, r);
}

int main(int argc, char **argv)
{
#ifdef USE_MPI
    MPI_Init(&argc, &argv);
#endif
    D = argc > 1 ? atof(argv[1]) : 0.2;
    pthread_mutex_init(&M, NULL);
    pthread_cond_init(&C, NULL);
    t0 = now() + 0.05;
    t1 = t0 + (NT - 1) * S + NT * D + 0.1; /* after everybody held A */
    t2 = t1 + 2 * D + 0.1;
    pthread_t th[NT];
    for (long k = 0; k < NT; k++)
        if (pthread_create(&th[k], NULL, thread_main, (void *)k) != 0)
            abort();
    handoff(t1 + D, 1, &ready1, 0);
    handoff(t2 + D, 3, &ready2, 1);
    for (int k = 0; k < NT; k++)
        pthread_join(th[k], NULL);
    timed_and_recursive();
    pthread_mutex_destroy(&R);
    pthread_mutex_destroy(&M);
    pthread_cond_destroy(&C);
#ifdef USE_MPI
    MPI_Finalize();
#endif
    marks_print(&marks);
    return 0;
}
