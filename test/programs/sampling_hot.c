/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_hot.c: spends about 0.5 s of thread CPU time in hot() and little elsewhere, then
 * prints the process CPU time in ms ("cpu_ms N") so that tests can bound the samples. */
#include <stdio.h>
#include <time.h>

#define HOT_MS 500
#include "sampling_work.h"

__attribute__((noinline)) void cold(void)
{
    sink += spin(200000);
}

int main(void)
{
    cold();
    hot();
    cold();
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    printf("cpu_ms %ld\n", t.tv_sec * 1000L + t.tv_nsec / 1000000L);
    return 0;
}
