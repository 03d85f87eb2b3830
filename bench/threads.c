/* SPDX-License-Identifier: BSD-3-Clause */
/* threads.c: the finalize benchmark. T threads (default 8) call a tiny function N times
 * each (default 10^5); prints the time from the first create to the last join. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

volatile long bench_sink;
static long calls = 100000;

__attribute__((noinline, noclone)) long tiny(long x)
{
    return x + 1;
}

static void *worker(void *arg)
{
    (void)arg;
    for (long i = 0; i < calls; i++)
        bench_sink = tiny(i);
    return NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int nt = argc > 1 ? atoi(argv[1]) : 8;
    if (argc > 2)
        calls = atol(argv[2]);
    if (nt < 1 || nt > 256)
        nt = 8;
    pthread_t th[256];
    double t0 = now_s();
    for (int i = 0; i < nt; i++)
        if (pthread_create(&th[i], NULL, worker, NULL) != 0) {
            fprintf(stderr, "threads: pthread_create failed\n");
            return 1;
        }
    for (int i = 0; i < nt; i++)
        pthread_join(th[i], NULL);
    printf("threads_s %.6f\n", now_s() - t0);
    return 0;
}
