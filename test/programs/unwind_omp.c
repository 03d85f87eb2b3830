/* SPDX-License-Identifier: BSD-3-Clause */
/* unwind_omp.c: OpenMP constructs inside functions that are not instrumented, for
 * test_unwind_omp.sh: main -> compute -> parallel (3 threads) { work -> critical; barrier },
 * twice; prints the critical sum, 2 * (1 + 2 + 3). noinline keeps work and compute frames
 * of their own. */
#include <omp.h>
#include <stdio.h>

static long sum;

__attribute__((noinline)) void work(int t)
{
#pragma omp critical
    sum += t + 1;
}

__attribute__((noinline)) void compute(void)
{
#pragma omp parallel num_threads(3)
    {
        work(omp_get_thread_num());
#pragma omp barrier
    }
}

int main(void)
{
    omp_set_dynamic(0);
    for (int i = 0; i < 2; i++)
        compute();
    printf("sum %ld\n", sum);
    return 0;
}
