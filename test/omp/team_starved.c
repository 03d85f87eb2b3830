/* SPDX-License-Identifier: BSD-3-Clause */
/* team_starved.c: a serial phase of short calls that uses up SCOREP_TOTAL_MEMORY between
 * parallel regions, so that the worker's trace stops while the master still records its
 * teams (test_omp_team_starved.sh). With an argument "late" no parallel region comes first:
 * the worker starts after the memory is gone and records nothing. */
#include <stdio.h>
#include <string.h>

static volatile long sink;

__attribute__((noinline)) static void leaf(long i)
{
    sink += i;
}

static void region(long r)
{
#pragma omp parallel num_threads(2)
    sink += r;
}

int main(int argc, char **argv)
{
    int late = argc > 1 && strcmp(argv[1], "late") == 0;
    long regions = 0;
    if (!late)
        region(regions++);
    for (long i = 0; i < 200000; i++) /* 400,000 records: far more than the memory */
        leaf(i);
    while (regions < 200)
        region(regions++);
    printf("regions %ld\n", regions);
    return 0;
}
