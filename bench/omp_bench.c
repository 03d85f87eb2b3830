/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_bench.c: OpenMP overhead micro-benchmarks for `make bench` (run_omp_bench.sh):
 *   omp_bench parallel THREADS N   N empty parallel regions of THREADS threads
 *   omp_bench tasks THREADS N      one thread creates N empty tasks (taskwait every 64),
 *                                  the team runs them
 *   omp_bench deptasks THREADS N   the same with 2 depend items per task (in: x[i % 64],
 *                                  out: y[i % 64]: no two tasks between taskwaits share one)
 *   omp_bench create0|create2|create64 THREADS N
 *                                  as tasks/deptasks with 0, 2 or 64 depend items per task
 *                                  (64: an iterator over a row of z[64][64] of its own), but
 *                                  prints only the creating thread's time in the task
 *                                  constructs: the tool's create and dependences callbacks
 *                                  without the scheduling of the tasks
 * Prints the wall time per region or task in ns. Built without instrumentation; measured
 * runs preload the runtime (its OMPT tool is the only thing measured). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile int sink;

static double parallel_regions(int threads, long n)
{
    double t0 = now();
    for (long i = 0; i < n; i++) {
#pragma omp parallel num_threads(threads)
        sink = 1;
    }
    return (now() - t0) / n;
}

static double tasks(int threads, long n)
{
    double t0 = 0;
#pragma omp parallel num_threads(threads)
#pragma omp single
    {
        t0 = now();
        for (long i = 0; i < n; i++) {
#pragma omp task
            sink = 1;
            if (i % 64 == 63) {
#pragma omp taskwait
            }
        }
#pragma omp taskwait
        t0 = now() - t0;
    }
    return t0 / n;
}

static int x[64], y[64];

static double dep_tasks(int threads, long n)
{
    double t0 = 0;
#pragma omp parallel num_threads(threads)
#pragma omp single
    {
        t0 = now();
        for (long i = 0; i < n; i++) {
#pragma omp task depend(in : x[i % 64]) depend(out : y[i % 64])
            sink = 1;
            if (i % 64 == 63) {
#pragma omp taskwait
            }
        }
#pragma omp taskwait
        t0 = now() - t0;
    }
    return t0 / n;
}

static int z[64][64];

/* the creating thread's ns per task construct with ITEMS (0, 2, 64) depend items */
static double creation(int threads, long n, int items)
{
    double spent = 0;
#pragma omp parallel num_threads(threads)
#pragma omp single
    {
        for (long i = 0; i < n; i++) {
            double t0 = now();
            if (items == 0) {
#pragma omp task
                sink = 1;
            } else if (items == 2) {
#pragma omp task depend(in : x[i % 64]) depend(out : y[i % 64])
                sink = 1;
            } else {
#pragma omp task depend(iterator(j = 0 : 64), inout : z[i % 64][j])
                sink = 1;
            }
            spent += now() - t0;
            if (i % 64 == 63) {
#pragma omp taskwait
            }
        }
#pragma omp taskwait
    }
    return spent / n;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: omp_bench parallel|tasks|deptasks|create0|create2|create64 "
                        "THREADS N\n");
        return 2;
    }
    int threads = atoi(argv[2]);
    long n = atol(argv[3]);
    omp_set_dynamic(0);
    double per = strcmp(argv[1], "tasks") == 0             ? tasks(threads, n)
                 : strcmp(argv[1], "deptasks") == 0        ? dep_tasks(threads, n)
                 : strncmp(argv[1], "create", 6) == 0      ? creation(threads, n, atoi(argv[1] + 6))
                                                           : parallel_regions(threads, n);
    printf("%.1f\n", per);
    return 0;
}
