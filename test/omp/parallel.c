/* SPDX-License-Identifier: BSD-3-Clause */
/* parallel.c: parallel regions of known shape. argv[1] threads (default 4) in 10 regions that
 * call work() once per thread; then 5 times a team of 2 that each open a nested team of 3
 * calling work() once per thread. Tests count forks, teams and visits per thread. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int sink; /* added to by every thread: atomically */

void work(int n)
{
    for (int i = 0; i < n; i++)
        __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 4, calls = 0;
    omp_set_dynamic(0);
    omp_set_max_active_levels(2);
    for (int r = 0; r < 10; r++) {
#pragma omp parallel num_threads(threads) /* FLAT */
        {
            work(1000);
#pragma omp atomic
            calls++;
        }
    }
    for (int r = 0; r < 5; r++) {
#pragma omp parallel num_threads(2) /* OUTER */
        {
#pragma omp parallel num_threads(3) /* INNER */
            {
                work(100);
#pragma omp atomic
                calls++;
            }
        }
    }
    printf("calls %d\n", calls);
    return 0;
}
