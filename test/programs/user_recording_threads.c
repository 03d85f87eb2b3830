/* SPDX-License-Identifier: BSD-3-Clause */
/* user_recording_threads.c: SCOREP_RECORDING_OFF/ON switch the whole process, as in Score-P:
 * 2 threads started while recording is off record nothing (and see it off), 2 threads
 * started after it is on again record their 3 calls of work() each; a thread that started
 * while it was off records nothing at all: every call it makes is inside its start routine,
 * entered while off (calls entered while off end unrecorded, so nesting stays valid). */
#include <pthread.h>
#include <sched.h>
#include <scorep/SCOREP_User.h>
#include <stdio.h>

static _Thread_local volatile double sink; /* per thread: no data race between threads */
static volatile int phase;   /* 0: off, 1: main switched on again */
static volatile int started; /* the spanning thread has entered its calls (while off) */

__attribute__((noinline)) void work(int n)
{
    for (int i = 0; i < n; i++)
        sink += i * 1e-9;
}

static void *off_thread(void *arg)
{
    (void)arg;
    for (int i = 0; i < 5; i++)
        work(1000);
    printf("off thread sees recording %s\n", SCOREP_RECORDING_IS_ON() ? "on" : "off");
    return NULL;
}

static void *on_thread(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        work(1000);
    return NULL;
}

/* entered while recording is off; recording goes on while it runs */
__attribute__((noinline)) void work_outer(void)
{
    __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&phase, __ATOMIC_ACQUIRE))
        work(10);
    work(1000); /* inside a call entered while off: not recorded */
}

static void *spanning_thread(void *arg)
{
    (void)arg;
    work_outer();
    for (int i = 0; i < 4; i++)
        work(1000); /* still inside spanning_thread, entered while off: not recorded */
    return NULL;
}

int main(void)
{
    pthread_t t[2], s;
    work(1000);
    SCOREP_RECORDING_OFF();
    pthread_create(&s, NULL, spanning_thread, NULL);
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, off_thread, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    /* the spanning thread must have entered its calls while off, however late it was
     * scheduled (else it would enter them after the switch and record them) */
    while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
        sched_yield();
    SCOREP_RECORDING_ON();
    __atomic_store_n(&phase, 1, __ATOMIC_RELEASE);
    pthread_join(s, NULL);
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, on_thread, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("main sees recording %s\n", SCOREP_RECORDING_IS_ON() ? "on" : "off");
    return 0;
}
