/* SPDX-License-Identifier: BSD-3-Clause */
/* unwind_omp_tasks.c: more OpenMP constructs in functions that are not instrumented, for
 * test_unwind_omp.sh: main -> compute -> parallel (2 threads) -> loop: a worksharing loop of
 * 6 iterations calling leaf (the lock API), then a single that creates a task calling leaf
 * and waits for it; prints the sum, 0 + ... + 5 + 100. */
#include <omp.h>
#include <stdio.h>

static long sum;
static omp_lock_t lock;

__attribute__((noinline)) void leaf(int i)
{
    omp_set_lock(&lock);
    sum += i;
    omp_unset_lock(&lock);
}

__attribute__((noinline)) void loop(void)
{
#pragma omp for schedule(static)
    for (int i = 0; i < 6; i++)
        leaf(i);
#pragma omp single
    {
#pragma omp task
        leaf(100);
#pragma omp taskwait
    }
}

__attribute__((noinline)) void compute(void)
{
#pragma omp parallel num_threads(2)
    loop();
}

int main(void)
{
    omp_set_dynamic(0);
    omp_init_lock(&lock);
    compute();
    omp_destroy_lock(&lock);
    printf("sum %ld\n", sum);
    return 0;
}
