/* SPDX-License-Identifier: BSD-3-Clause */
/* untied_many.c: 50 untied tasks in a team of 4 threads, each creating 5 tied children with a
 * taskyield after each, then a taskwait, one more child and a taskwait: 350 tasks, the untied
 * ones suspended at every scheduling point of their bodies and resumed by any thread (LLVM's
 * libomp). Prints how many untied tasks ended on another thread than they began on
 * (test_omp_untied.sh). With the argument "pause" it then waits 4 s before it ends: the test
 * takes a checkpoint's rescue piece written after the team ended (its migration counts).
 * With "inside FILE" it prints the line inside the parallel region, once every task ended
 * (the single's barrier), and its master waits there until FILE exists (at most 60 s), then
 * calls abort(): the test takes a checkpoint written inside the region, then the program
 * dies there. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void work(int n)
{
    volatile double x = 0;
    for (int i = 0; i < n; i++)
        x += i;
}

int main(int argc, char **argv)
{
    int moved = 0, done = 0;
    const char *go = argc > 2 && strcmp(argv[1], "inside") == 0 ? argv[2] : NULL;
#pragma omp parallel num_threads(4) /* PAR */
    {
#pragma omp single
        for (int k = 0; k < 50; k++) {
#pragma omp task untied /* UNTIED */
            {
                int first = omp_get_thread_num();
                for (int y = 0; y < 5; y++) {
#pragma omp task /* CHILD */
                    work(20000);
#pragma omp taskyield
                    work(1000);
                }
#pragma omp taskwait
#pragma omp task /* LAST */
                work(5000);
#pragma omp taskwait
#pragma omp atomic
                moved += first != omp_get_thread_num();
#pragma omp atomic
                done++;
            }
        }
        /* (the single's barrier: every task ended) */
#pragma omp master
        if (go) {
            printf("done=%d moved=%d\n", done, moved);
            fflush(stdout);
            for (int i = 0; i < 6000 && access(go, F_OK) != 0; i++)
                usleep(10000);
            abort();
        }
    }
    printf("done=%d moved=%d\n", done, moved);
    if (argc > 1 && strcmp(argv[1], "pause") == 0) {
        fflush(stdout);
        sleep(4);
    }
    return 0;
}
