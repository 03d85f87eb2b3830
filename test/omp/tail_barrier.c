/* SPDX-License-Identifier: BSD-3-Clause */
/* tail_barrier.c: a parallel region whose last statement is `#pragma omp barrier`, which gcc
 * -O2 compiles to a tail call (`jmp GOMP_barrier`), next to one whose barrier is followed by
 * more work (an ordinary call); test_omp_tail_barrier.sh checks how both are named. */
#include <omp.h>
#include <stdio.h>

static volatile double sum[64];

int main(void)
{
    for (int rep = 0; rep < 3; rep++) {
#pragma omp parallel num_threads(2) /* PAR_TAIL */
        {
            sum[omp_get_thread_num()] += 1.0;
#pragma omp barrier /* BARRIER_TAIL */
        }
#pragma omp parallel num_threads(2) /* PAR_MID */
        {
            sum[omp_get_thread_num()] += 1.0;
#pragma omp barrier /* BARRIER_MID */
            sum[omp_get_thread_num() + 2] += sum[1 - omp_get_thread_num()];
        }
    }
    printf("%g %g\n", sum[0] + sum[1], sum[2] + sum[3]);
    return 0;
}
