/* SPDX-License-Identifier: BSD-3-Clause */
/* locks.c: mutual exclusion in a team of 4 threads, 25 rounds per thread: an unnamed
 * critical, a named critical, an omp lock and a nest lock taken twice (nested). The initial
 * thread initialises and destroys both locks; each thread of the team initialises and
 * destroys a lock and a nest lock of its own OWN times, and, where the runtime has
 * omp_init_lock_with_hint (libomp; GCC 12's libgomp has none: a weak reference, NULL
 * there), once more each with hint "contended" and once each with hint "none". Prints the
 * four counters, then "hints 1" where the hinted calls ran, "hints 0" where not. */
#include <omp.h>
#include <stdio.h>

#define OWN 2
#pragma weak omp_init_lock_with_hint
#pragma weak omp_init_nest_lock_with_hint

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
        omp_lock_t own;
        omp_nest_lock_t own_nest;
        for (int r = 0; r < OWN; r++) {
            omp_init_lock(&own);
            omp_destroy_lock(&own);
            omp_init_nest_lock(&own_nest);
            omp_destroy_nest_lock(&own_nest);
        }
        if (omp_init_lock_with_hint && omp_init_nest_lock_with_hint) {
            omp_init_lock_with_hint(&own, omp_sync_hint_contended);
            omp_destroy_lock(&own);
            omp_init_lock_with_hint(&own, omp_sync_hint_none);
            omp_destroy_lock(&own);
            omp_init_nest_lock_with_hint(&own_nest, omp_sync_hint_contended);
            omp_destroy_nest_lock(&own_nest);
            omp_init_nest_lock_with_hint(&own_nest, omp_sync_hint_none);
            omp_destroy_nest_lock(&own_nest);
        }
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
    printf("%d %d %d %d\nhints %d\n", a, b, c, d, omp_init_lock_with_hint != NULL);
    return 0;
}
