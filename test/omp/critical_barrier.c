/* SPDX-License-Identifier: BSD-3-Clause */
/* critical_barrier.c: the workers of a team of 3 leave a critical construct while the master
 * enters an explicit barrier, N times (argument, default 100000); prints the critical's count,
 * 2 N. For test_omp_barrier_codeptr.sh: LLVM's libomp hands a worker's critical release the
 * master's stored return address, and the master's barrier lost its code pointer. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long count;

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    omp_set_dynamic(0);
#pragma omp parallel num_threads(3) /* PAR */
    for (int i = 0; i < n; i++) {
        if (omp_get_thread_num() != 0) {
#pragma omp critical /* CRIT */
            count++;
        }
#pragma omp barrier /* BAR */
    }
    printf("count %ld\n", count);
    return 0;
}
