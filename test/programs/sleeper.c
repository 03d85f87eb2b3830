/* SPDX-License-Identifier: BSD-3-Clause */
/* sleeper.c: test program for ends other than returning from main.
 *   sleeper        main -> run -> step (5 times), then a thread parked in idle_thread and,
 *                  once that thread runs, main in wait_loop: prints "ready" and sleeps
 *                  until a signal ends it.
 *   sleeper exit   main -> run -> step (5 times), then a thread calls worker (3 times) and
 *                  exit(7) while main waits in pthread_join. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile long sink;
static volatile int idle_started;

__attribute__((noinline)) void step(int i)
{
    sink += i;
}

__attribute__((noinline)) void run(void)
{
    for (int i = 0; i < 5; i++)
        step(i);
}

__attribute__((noinline)) void wait_loop(void)
{
    printf("ready\n");
    fflush(stdout);
    for (;;)
        usleep(10000);
}

__attribute__((noinline)) void worker(int i)
{
    sink += i;
}

static void *idle_thread(void *arg)
{
    (void)arg;
    __atomic_store_n(&idle_started, 1, __ATOMIC_RELEASE);
    for (;;)
        usleep(10000);
    return NULL;
}

static int joining;

static void *exit_thread(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        worker(i);
    /* main is (about to be) in pthread_join: give it time to get there, so that the
     * pthread_join region is open when the program exits, also on a loaded machine */
    while (!__atomic_load_n(&joining, __ATOMIC_ACQUIRE))
        usleep(1000);
    usleep(100000);
    printf("exiting from a thread\n");
    fflush(stdout);
    exit(7);
    return NULL;
}

int main(int argc, char **argv)
{
    int exit_mode = argc > 1 && strcmp(argv[1], "exit") == 0;
    pthread_t t;
    run();
    if (exit_mode) {
        pthread_create(&t, NULL, exit_thread, NULL);
        __atomic_store_n(&joining, 1, __ATOMIC_RELEASE);
        pthread_join(t, NULL);
        printf("not reached\n");
        return 0;
    }
    pthread_create(&t, NULL, idle_thread, NULL);
    while (!__atomic_load_n(&idle_started, __ATOMIC_ACQUIRE))
        usleep(1000);
    wait_loop();
    return 0;
}
