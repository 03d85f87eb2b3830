/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_bench.c: malloc/free pairs for run_memory_bench.sh: N pairs of malloc(SIZE) and
 * free per thread, T threads at once; prints the wall time per pair of one thread
 * ("ns_per_pair X"). Built plain (the baseline) and with scorep-cc (the memory adapter);
 * with -DBENCH_HBW the pairs are memkind's hbw_malloc/hbw_free. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef BENCH_HBW
/* -DBENCH_HBW (with -lmemkind): memkind's hbw_malloc/hbw_free pairs instead, in ordinary
 * memory where there is no HBM (HBW_POLICY_PREFERRED) */
#include <hbwmalloc.h>
#define malloc hbw_malloc
#define free hbw_free
#endif

static long pairs, size;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

__attribute__((noinline)) void *loop(void *arg)
{
    double *ns = arg;
    double t0 = now();
    for (long i = 0; i < pairs; i++) {
        char *volatile p = malloc((size_t)size); /* volatile: the pair cannot be dropped */
        p[0] = (char)i;
        free(p);
    }
    *ns = (now() - t0) / (double)pairs;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: memory_bench PAIRS THREADS SIZE\n");
        return 2;
    }
#ifdef BENCH_HBW
    hbw_set_policy(HBW_POLICY_PREFERRED);
#endif
    pairs = atol(argv[1]);
    int n = atoi(argv[2]);
    size = atol(argv[3]);
    pthread_t t[64];
    double ns[64], sum = 0;
    if (n < 1 || n > 64 || pairs < 1 || size < 1)
        return 2;
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, loop, &ns[i]);
    for (int i = 0; i < n; i++) {
        pthread_join(t[i], NULL);
        sum += ns[i];
    }
    printf("ns_per_pair %.1f\n", sum / n);
    return 0;
}
