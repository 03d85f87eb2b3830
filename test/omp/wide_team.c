/* SPDX-License-Identifier: BSD-3-Clause */
/* wide_team.c: a serial phase of short calls that uses up SCOREP_TOTAL_MEMORY, then one
 * parallel region of 40 threads: every worker finds no free page and its trace stops, as a
 * team of 1000 threads did in the OpenMP V&V suite's taskloop tests
 * (test_omp_stop_warnings.sh: the stop warnings are summarized after the first 16). */
#include <omp.h>
#include <stdio.h>

static volatile long sink;
static volatile int slot[40];

__attribute__((noinline)) static void leaf(long i)
{
    sink += i;
}

/* each thread its own slot: no data race (test_programs_race_free.sh's rule) */
__attribute__((noinline)) static void work(int t)
{
    slot[t] = t;
}

int main(void)
{
    for (long i = 0; i < 200000; i++) /* 400,000 records: far more than the memory */
        leaf(i);
    int n = 0;
#pragma omp parallel num_threads(40)
    {
        work(omp_get_thread_num());
#pragma omp atomic
        n++;
    }
    printf("threads %d\n", n);
    return 0;
}
