/* SPDX-License-Identifier: BSD-3-Clause */
/* serial_fill.c: a serial phase of short calls that uses up SCOREP_TOTAL_MEMORY before any
 * OpenMP worker starts (XSBench's setup under --instrument=functions did this), then
 * REGIONS parallel regions of 2 threads whose members call functions of their own
 * (test_omp_serial_fill.sh). Argument: the serial phase's calls (default 200,000). */
#include <stdio.h>
#include <stdlib.h>

enum { REGIONS = 100, WORK_CALLS = 50 };

static volatile long sink;

__attribute__((noinline)) static void leaf(long i)
{
    sink += i;
}

__attribute__((noinline)) static void work(long r)
{
    for (long i = 0; i < WORK_CALLS; i++)
        leaf(r + i);
}

int main(int argc, char **argv)
{
    long calls = argc > 1 ? atol(argv[1]) : 200000;
    for (long i = 0; i < calls; i++)
        leaf(i);
    int regions = 0;
    for (long r = 0; r < REGIONS; r++, regions++) {
#pragma omp parallel num_threads(2)
        work(r);
    }
    printf("regions %d\n", regions);
    return 0;
}
