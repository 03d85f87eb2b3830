/* SPDX-License-Identifier: BSD-3-Clause */
/* unwind_start.c: the start-up benchmark of SCOREP_ENABLE_UNWINDING (run_unwind_bench.sh):
 * main creates and joins one thread that returns at once, so that a run under scorep-run is
 * the runtime's start-up and finalize plus two wrapped calls, each unwound once. */
#include <pthread.h>

static void *worker(void *arg)
{
    return arg;
}

int main(void)
{
    pthread_t t;
    if (pthread_create(&t, NULL, worker, NULL) != 0)
        return 1;
    return pthread_join(t, NULL) != 0;
}
