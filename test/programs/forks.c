/* SPDX-License-Identifier: BSD-3-Clause */
/* forks.c: a measured program whose children fork without exec (and exit through exit(), so
 * that atexit/on_exit handlers run in them), fork from a second thread, and run system():
 * only the parent's calls may be in the results. 10 calls of work() in the parent, 3 in
 * each child. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) void work(int n)
{
    volatile double x = 0;
    for (int i = 0; i < n; i++)
        x += i;
}

static void child(void)
{
    pid_t p = fork();
    if (p == 0) {
        for (int i = 0; i < 3; i++)
            work(1000);
        exit(0);
    }
    waitpid(p, NULL, 0);
}

static void *from_thread(void *arg)
{
    (void)arg;
    child();
    return NULL;
}

int main(void)
{
    for (int i = 0; i < 5; i++)
        work(1000);
    child();
    pthread_t t;
    pthread_create(&t, NULL, from_thread, NULL);
    pthread_join(t, NULL);
    if (system("true") != 0)
        return 1;
    for (int i = 0; i < 5; i++)
        work(1000);
    puts("parent done");
    return 0;
}
