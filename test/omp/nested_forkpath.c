/* SPDX-License-Identifier: BSD-3-Clause */
/* nested_forkpath.c: a thread that visits the outer parallel region once (round 0, a team
 * of 2, each member's inner team of 1) and then runs as a pooled worker in an inner team
 * forked from that region by the master (round 1: the outer team of 1, its inner team of 2,
 * each member waiting 100 ms), so that the worker's profile has the inner team's time at
 * the same call path as its own short visit (test_omp_nested_forkpath.sh). 100 ms: the
 * short visit stays shorter even when a loaded machine deschedules it (with 20 ms, one CI
 * run under load had a visit of 8.9 ms). */
#include <omp.h>
#include <stdio.h>
#include <time.h>

static void wait_ms(int ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000.0 + (t.tv_nsec - t0.tv_nsec) / 1e6 < ms);
}

int main(void)
{
    int seen = 0;
    omp_set_max_active_levels(2);
    for (int r = 0; r < 2; r++) {
#pragma omp parallel num_threads(2 - r) reduction(+ : seen) /* outer */
        {
#pragma omp parallel num_threads(1 + r) reduction(+ : seen) /* inner */
            {
                if (r == 1)
                    wait_ms(100);
                seen++;
            }
        }
    }
    printf("inner members %d\n", seen);
    return 0;
}
