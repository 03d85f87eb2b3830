/* SPDX-License-Identifier: BSD-3-Clause */
/* unwind_omp_nested.c: a parallel region inside a parallel region, in functions that are not
 * instrumented, for test_unwind_omp.sh (run with OMP_MAX_ACTIVE_LEVELS=2): main -> compute ->
 * parallel (2 threads) { outer -> parallel (2 threads) { work -> critical } }, once; with the
 * argument "direct" main -> direct -> parallel (2) { parallel (2) { work -> critical } }, the
 * inner construct in the outer one's body. work waits until every thread of both levels has
 * arrived, so the 4 threads run at once and no thread of the runtime's pool serves two inner
 * teams one after the other (libomp did: 3 threads, one with both teams' visits). Prints the
 * critical sum: per outer thread o and inner thread i 10 * (o + 1) + i + 1, so
 * 11 + 12 + 21 + 22 = 66. noinline keeps the functions frames of their own. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

static long sum;
static int arrived, timed_out;

__attribute__((noinline)) void work(int o, int i)
{
    /* the threads of both levels (2 x 2 when nested teams are active, 2 x 1 when not) */
    int all = omp_get_team_size(1) * omp_get_team_size(2), n;
#pragma omp atomic
    arrived++;
    double until = omp_get_wtime() + 20;
    do {
#pragma omp atomic read
        n = arrived;
    } while (n < all && omp_get_wtime() < until);
    if (n < all) {
#pragma omp atomic write
        timed_out = 1;
    }
#pragma omp critical
    sum += 10 * (o + 1) + i + 1;
}

__attribute__((noinline)) void outer(int o)
{
#pragma omp parallel num_threads(2)
    work(o, omp_get_thread_num());
}

__attribute__((noinline)) void compute(void)
{
#pragma omp parallel num_threads(2)
    outer(omp_get_thread_num());
}

__attribute__((noinline)) void direct(void)
{
#pragma omp parallel num_threads(2)
    {
        int o = omp_get_thread_num();
#pragma omp parallel num_threads(2)
        work(o, omp_get_thread_num());
    }
}

int main(int argc, char **argv)
{
    omp_set_dynamic(0);
    if (argc > 1 && strcmp(argv[1], "direct") == 0)
        direct();
    else
        compute();
    printf("sum %ld levels %d%s\n", sum, omp_get_max_active_levels(),
           timed_out ? " (not all threads arrived in work within 20 s)" : "");
    return 0;
}
