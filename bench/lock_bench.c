/* SPDX-License-Identifier: BSD-3-Clause */
/* lock_bench.c: the cost of the pthread adapter's mutex wrappers (run_lock_bench.sh): N
 * uncontended pthread_mutex_lock/unlock pairs in one thread, called from the program itself
 * (recorded) or from a shared library (lock_bench_lib.c: passed straight through), timed with
 * the thread's CPU clock. Prints "ns_per_pair X". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void lock_loop_in_library(pthread_mutex_t *m, long n);

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    int lib = argc > 2 && strcmp(argv[2], "library") == 0;
    double t = cpu();
    if (lib) {
        lock_loop_in_library(&m, n);
    } else {
        for (long i = 0; i < n; i++) {
            pthread_mutex_lock(&m);
            pthread_mutex_unlock(&m);
        }
    }
    printf("ns_per_pair %.2f\n", (cpu() - t) * 1e9 / (double)n);
    return 0;
}
