/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_patterns.c: the common OpenMP patterns, timed, for comparing OpenMP runtimes (GNU
 * libgomp against LLVM's libomp, run_omp_bench.sh) and the cost of recording them:
 *   omp_patterns PATTERN THREADS N
 *     for       N parallel regions, each a static loop of 1000 iterations (barrier at end)
 *     dynamic   N parallel regions, each a dynamic loop of 1000 iterations, chunk 10
 *     reduction N parallel regions, each a reduction(+) loop of 1000 iterations
 *     barrier   one parallel region, N explicit barriers
 *     tasks     one thread creates N empty tasks (taskwait every 64), the team runs them
 *     fib       fib(N) with a task per call, cut off below n > 12 (if clause), taskwait
 *     fibnocut  fib(N) with a task per call and no cut-off
 * Prints the wall time in ms. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;

static long fib(int n, int cut)
{
    long x, y;
    if (n < 2)
        return n;
#pragma omp task shared(x) if (n > cut)
    x = fib(n - 1, cut);
#pragma omp task shared(y) if (n > cut)
    y = fib(n - 2, cut);
#pragma omp taskwait
    return x + y;
}

static void loops(const char *pattern, long n)
{
    double a[1000];
    for (int i = 0; i < 1000; i++)
        a[i] = i;
    for (long r = 0; r < n; r++) {
        double s = 0;
        if (strcmp(pattern, "for") == 0) {
#pragma omp parallel for schedule(static)
            for (int i = 0; i < 1000; i++)
                a[i] = a[i] * 0.5 + 1;
        } else if (strcmp(pattern, "dynamic") == 0) {
#pragma omp parallel for schedule(dynamic, 10)
            for (int i = 0; i < 1000; i++)
                a[i] = a[i] * 0.5 + 1;
        } else {
#pragma omp parallel for reduction(+ : s)
            for (int i = 0; i < 1000; i++)
                s += a[i];
        }
        sink = s + a[r % 1000];
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: omp_patterns for|dynamic|reduction|barrier|tasks|fib|fibnocut "
                        "THREADS N\n");
        return 2;
    }
    const char *p = argv[1];
    long n = atol(argv[3]);
    omp_set_num_threads(atoi(argv[2]));
    omp_set_dynamic(0);
    double t0 = omp_get_wtime();
    if (strcmp(p, "barrier") == 0) {
#pragma omp parallel
        for (long i = 0; i < n; i++) {
#pragma omp barrier
        }
    } else if (strcmp(p, "tasks") == 0) {
#pragma omp parallel
#pragma omp single
        for (long i = 0; i < n; i++) {
#pragma omp task
            sink = 1;
            if (i % 64 == 63) {
#pragma omp taskwait
            }
        }
    } else if (strncmp(p, "fib", 3) == 0) {
        long r = 0;
#pragma omp parallel
#pragma omp single
        r = fib((int)n, strcmp(p, "fib") == 0 ? 12 : 0);
        sink = (double)r;
    } else if (strcmp(p, "for") == 0 || strcmp(p, "dynamic") == 0 || strcmp(p, "reduction") == 0) {
        loops(p, n);
    } else {
        fprintf(stderr, "omp_patterns: unknown pattern %s\n", p);
        return 2;
    }
    printf("%.2f\n", (omp_get_wtime() - t0) * 1e3);
    return 0;
}
