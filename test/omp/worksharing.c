/* SPDX-License-Identifier: BSD-3-Clause */
/* worksharing.c: every worksharing construct of C in one team of 4 threads, 3 times: a static
 * and a dynamic loop of 100 iterations calling body(), sections with 3 sections, single,
 * single nowait, masked (master), an ordered loop of 8 iterations, an explicit barrier. */
#include <omp.h>
#include <stdio.h>

static int sink; /* added to by every thread: atomically */

void body(int i)
{
    __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

int main(void)
{
    int n = 0;
    omp_set_dynamic(0);
    for (int r = 0; r < 3; r++) {
#pragma omp parallel num_threads(4) /* PAR */
        {
#pragma omp for schedule(static) /* FOR_STATIC */
            for (int i = 0; i < 100; i++)
                body(i);
#pragma omp for schedule(dynamic, 7) /* FOR_DYNAMIC */
            for (int i = 0; i < 100; i++)
                body(i);
#pragma omp sections /* SECTIONS */
            {
#pragma omp section
                body(1);
#pragma omp section
                body(2);
#pragma omp section
                body(3);
            }
#pragma omp single /* SINGLE */
            body(4);
#pragma omp single nowait /* SINGLE_NOWAIT */
            body(5);
#pragma omp master /* MASTER */
            body(6);
#pragma omp barrier                         /* BARRIER */
#pragma omp for ordered schedule(static, 1) /* ORDERED_FOR */
            for (int i = 0; i < 8; i++) {
#pragma omp ordered /* ORDERED */
                n++;
            }
        }
    }
    printf("ordered %d\n", n);
    return 0;
}
