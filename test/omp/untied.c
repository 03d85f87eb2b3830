/* SPDX-License-Identifier: BSD-3-Clause */
/* untied.c: one untied task that yields until the OpenMP runtime resumes it on another
 * thread (LLVM's libomp may; libgomp runs untied tasks as tied), at most 10^6 yields (or the
 * argument's number: 0 never yields) or 2 s, inside a user region ("loop"), which moves with
 * the task. Prints the threads it began and ended on and whether it moved
 * (test_omp_untied.sh; built with scorep-cc --user). */
#include <omp.h>
#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int first = -1, last = -1;
    long yields = 0, max = argc > 1 ? atol(argv[1]) : 1000000;
#pragma omp parallel num_threads(2) /* PAR */
    {
#pragma omp single
        {
#pragma omp task untied /* TASK */
            {
                SCOREP_USER_REGION_DEFINE(loop)
                SCOREP_USER_REGION_BEGIN(loop, "loop", SCOREP_USER_REGION_TYPE_COMMON)
                first = omp_get_thread_num();
                double t0 = omp_get_wtime();
                while (omp_get_thread_num() == first && yields < max &&
                       omp_get_wtime() - t0 < 2.0) {
                    yields++;
#pragma omp taskyield
                }
                last = omp_get_thread_num();
                SCOREP_USER_REGION_END(loop)
            }
        }
    }
    printf("first=%d last=%d yields=%ld moved=%s\n", first, last, yields,
           first != last ? "yes" : "no");
    return 0;
}
