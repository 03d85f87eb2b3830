/* SPDX-License-Identifier: BSD-3-Clause */
/* gomp.c: one team of 2 threads whose OpenMP events are the same on every run, for comparing
 * the libgomp path (GOMP_* wrappers) with the OMPT path record by record: an explicit barrier;
 * thread 0 creates a task, then one undeferred task (if(0): not recorded), and waits for the
 * first at a taskwait, where it runs it; thread 1 spins in user code until the task ran, so
 * it never takes the task. Then, 3 times, a team of 2 that run a task each and share a loop
 * of 4 iterations with an unsigned long long variable, nowait (gcc drops the barrier of a
 * loop that ends a parallel region, clang does not) (visits). */
#include <omp.h>
#include <stdio.h>

static int ran, undeferred, sum;

void work(int i)
{
    __atomic_fetch_add(&sum, i, __ATOMIC_RELAXED);
}

int main(void)
{
    omp_set_dynamic(0);
#pragma omp parallel num_threads(2) /* PAR */
    {
#pragma omp barrier /* BARRIER */
        if (omp_get_thread_num() == 0) {
#pragma omp task /* TASK */
            __atomic_store_n(&ran, 1, __ATOMIC_RELEASE);
#pragma omp task if (0) /* UNDEFERRED */
            undeferred++;
#pragma omp taskwait /* WAIT */
        } else {
            while (!__atomic_load_n(&ran, __ATOMIC_ACQUIRE))
                ;
        }
    }
    for (int r = 0; r < 3; r++) {
#pragma omp parallel num_threads(2) /* PAR2 */
        {
#pragma omp task /* TASK2 */
            work(1);
#pragma omp taskwait                        /* WAIT2 */
#pragma omp for schedule(dynamic, 1) nowait /* ULL_LOOP */
            for (unsigned long long i = 0; i < 4; i++)
                work(1);
        }
    }
    printf("ran %d undeferred %d sum %d\n", ran, undeferred, sum);
    return 0;
}
