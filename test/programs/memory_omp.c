/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_omp.c: every OpenMP thread of a parallel region (2 threads) allocates 1024 bytes
 * it frees and 256 it leaks (test_memory_recording.sh). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *leaks[64];

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    long sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
        int t = omp_get_thread_num();
        /* volatile: the compiler may drop a malloc/free pair whose block does not escape */
        char *volatile a = malloc(1024);
        char *b = malloc(256);
        memset(a, 1, 1024);
        memset(b, 2, 256);
        sum += a[1023] + b[255];
        free(a);
        leaks[t] = b;
    }
    printf("sum %ld\n", sum);
    return 0;
}
