/* SPDX-License-Identifier: BSD-3-Clause */
/* roles.c: one of each OpenMP construct the adapter records (test_omp_roles.sh checks the
 * region role each gets in the trace and the profiles): a team of 2 with a loop, an ordered
 * loop, sections, single, masked, critical, flush, barrier, tasks (tied and untied),
 * taskwait, taskgroup and the lock API (with the hinted initialisations where the runtime
 * has them: libomp; GCC 12's libgomp has none, a weak reference is NULL there). Prints
 * "sum N" so that the work cannot be left out. */
#include <omp.h>
#include <stdio.h>

#pragma weak omp_init_lock_with_hint
#pragma weak omp_init_nest_lock_with_hint

static volatile long sink;

static void work(long n)
{
    for (long i = 0; i < n; i++)
        sink += i;
}

int main(void)
{
    long sum = 0;
    omp_lock_t lock;
    omp_nest_lock_t nest;
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
#pragma omp for schedule(static)
        for (int i = 0; i < 8; i++)
            sum += i;
#pragma omp for ordered schedule(static, 1)
        for (int i = 0; i < 4; i++) {
#pragma omp ordered
            sum += i;
        }
#pragma omp sections
        {
#pragma omp section
            work(1000);
#pragma omp section
            work(2000);
        }
#pragma omp single
        sum += 1;
#pragma omp masked
        sum += 1;
#pragma omp critical
        sum += 1;
#pragma omp flush
#pragma omp barrier
#pragma omp single
        {
#pragma omp task
            work(1000);
#pragma omp task untied
            work(1000);
#pragma omp taskwait
#pragma omp taskgroup
            {
#pragma omp task
                work(1000);
            }
        }
        omp_set_lock(&lock);
        sum += 1;
        omp_unset_lock(&lock);
        if (omp_test_lock(&lock))
            omp_unset_lock(&lock);
        omp_set_nest_lock(&nest);
        sum += 1;
        omp_unset_nest_lock(&nest);
        if (omp_test_nest_lock(&nest))
            omp_unset_nest_lock(&nest);
    }
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    if (omp_init_lock_with_hint && omp_init_nest_lock_with_hint) {
        omp_init_lock_with_hint(&lock, omp_sync_hint_uncontended);
        omp_destroy_lock(&lock);
        omp_init_nest_lock_with_hint(&nest, omp_sync_hint_uncontended);
        omp_destroy_nest_lock(&nest);
    }
    printf("sum %ld\n", sum);
    return 0;
}
