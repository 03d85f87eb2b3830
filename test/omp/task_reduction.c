/* SPDX-License-Identifier: BSD-3-Clause */
/* task_reduction.c: a parallel construct with a task reduction (reduction(task, ...)), whose
 * tasks take part with in_reduction: gcc calls GOMP_parallel_reductions for it, which the
 * GOMP_* wrappers did not record before session 19 (test_omp_task_reduction.sh). */
#include <stdio.h>

int main(void)
{
    long sum = 0;
#pragma omp parallel num_threads(2) reduction(task, + : sum) /* PAR */
    {
#pragma omp single
        for (long i = 1; i <= 100; i++) {
#pragma omp task in_reduction(+ : sum) /* TASK */
            sum += i;
        }
    }
    printf("sum %ld\n", sum);
    return 0;
}
