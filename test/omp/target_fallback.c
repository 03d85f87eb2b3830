/* SPDX-License-Identifier: BSD-3-Clause */
/* target_fallback.c: target constructs run by host fallback (test_omp_target_fallback.sh:
 * clang -fopenmp-targets=x86_64-pc-linux-gnu with OMP_TARGET_OFFLOAD=DISABLED, gcc without an
 * offload device): a target teams distribute parallel for (2 teams of 2 threads), a target
 * region holding a parallel region of 2 threads, and a target nowait region waited for by a
 * taskwait. Every OpenMP team of the program is forked inside a target construct's body.
 * Prints the sum of a[] (0 + ... + 63 = 2016) and x (1 per thread of the parallel region,
 * then 10 from the nowait region: 12). */
#include <stdio.h>

#define N 64
static int a[N];

int main(void)
{
    int x = 0;
#pragma omp target teams distribute parallel for num_teams(2) num_threads(2) map(tofrom : a) /* TTDPF */
    for (int i = 0; i < N; i++)
        a[i] = i;
#pragma omp target map(tofrom : x) /* TPAR */
    {
#pragma omp parallel num_threads(2) reduction(+ : x) /* PAR */
        x += 1;
    }
#pragma omp target map(tofrom : x) nowait /* NOWAIT */
    x += 10;
#pragma omp taskwait
    int s = 0;
    for (int i = 0; i < N; i++)
        s += a[i];
    printf("a %d x %d\n", s, x);
    return 0;
}
