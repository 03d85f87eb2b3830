/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_cc_nested.c: many short OpenMP parallel regions, each with a nested team per
 * outer thread, team sizes changing from one region to the next (outer 2 or 3, inner 1 to
 * 3), so that workers are deactivated at every team end (LLVM's libomp: idle workers' ends
 * written by their master) and pooled threads change teams and levels
 * (test_substrate_cc.sh, part "OpenMP nested teams"). work() and leaf() are instrumented.
 * Prints the number of leaf calls: sum over rounds r of outer(r) * inner(r, i) * 2. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

void leaf(int n)
{
    double x = 0;
    for (int i = 0; i < n; i++)
        x += i * 0.5;
    sink = x;
}

void work(int n)
{
    leaf(n);
    leaf(n);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 40;
    long calls = 0;
    omp_set_max_active_levels(2);
    for (int r = 0; r < rounds; r++) {
#pragma omp parallel num_threads(2 + r % 2) reduction(+ : calls)
        {
            int outer = omp_get_thread_num();
#pragma omp parallel num_threads(1 + (r + outer) % 3) reduction(+ : calls)
            {
                work(2000);
                calls += 2;
            }
        }
    }
    printf("leaf calls %ld\n", calls);
    return 0;
}
