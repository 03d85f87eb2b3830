/* SPDX-License-Identifier: BSD-3-Clause */
/* target.c: a target region on the default device with map(to: a[0:1000]) and
 * map(from: b[0:1000]), 1000 doubles each (8,000 bytes each way), and a scalar passed by
 * value, run twice; then a target data region mapping c[0:500] tofrom (4,000 bytes each
 * way) around a target region that uses c without moving it. Prints the sums. Built with
 * clang -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu by test_omp_target.sh. */
#include <stdio.h>

#define N 1000
#define M 500
static double a[N], b[N], c[M];

static void scale(double f)
{
    /* f: implicitly firstprivate, passed by value (no transfer) */
#pragma omp target map(to : a[0 : N]) map(from : b[0 : N]) /* TARGET */
    for (int i = 0; i < N; i++)
        b[i] = f * a[i];
}

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = i;
    for (int i = 0; i < M; i++)
        c[i] = 1.0;
    scale(2.0);
    scale(2.0);
#pragma omp target data map(tofrom : c[0 : M]) /* DATA */
    {
#pragma omp target map(tofrom : c[0 : M]) /* INNER */
        for (int i = 0; i < M; i++)
            c[i] += 1.0;
    }
    double sb = 0, sc = 0;
    for (int i = 0; i < N; i++)
        sb += b[i];
    for (int i = 0; i < M; i++)
        sc += c[i];
    printf("b %.0f c %.0f\n", sb, sc);
    return 0;
}
