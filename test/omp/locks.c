/* SPDX-License-Identifier: BSD-3-Clause */
/* locks.c: mutual exclusion in a team of 4 threads, 25 rounds per thread: an unnamed
 * critical, a named critical, an omp lock and a nest lock taken twice (nested). */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int a = 0, b = 0, c = 0, d = 0;
    omp_lock_t lock;
    omp_nest_lock_t nest;
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
    omp_set_dynamic(0);
#pragma omp parallel num_threads(4) /* PAR */
    {
        for (int r = 0; r < 25; r++) {
#pragma omp critical /* CRITICAL */
            a++;
#pragma omp critical(named) /* NAMED */
            b++;
            omp_set_lock(&lock);
            c++;
            omp_unset_lock(&lock);
            omp_set_nest_lock(&nest);
            omp_set_nest_lock(&nest);
            d++;
            omp_unset_nest_lock(&nest);
            omp_unset_nest_lock(&nest);
        }
    }
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    printf("%d %d %d %d\n", a, b, c, d);
    return 0;
}
