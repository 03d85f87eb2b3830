/* SPDX-License-Identifier: BSD-3-Clause */
/* throttle_omp.c: test program for throttling in OpenMP teams: two teams of 2 threads, each
 * calling work() 3000 times in all (static schedule). Prints "done <checksum>". */
#include <stdio.h>

static volatile long sink;

__attribute__((noinline)) void work(int i)
{
    __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

int main(void)
{
    for (int team = 0; team < 2; team++) {
#pragma omp parallel for num_threads(2) schedule(static)
        for (int i = 0; i < 3000; i++)
            work(i);
    }
    printf("done %ld\n", (long)sink);
    return 0;
}
