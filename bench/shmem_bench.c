/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_bench.c: OpenSHMEM microbenchmarks of `make bench` (bench/run_shmem_bench.sh), 2 PEs:
 * "pingpong N": one-way latency of an 8-byte shmem_long_p answered after shmem_long_wait_until;
 * "put N": PE 0 issues N 8-byte shmem_putmem to PE 1 (one quiet at the end), time per put;
 * "mype N": N calls of shmem_my_pe (a wrapper with Enter/Leave only), time per call.
 * put and mype count the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), which time slices of
 * other processes on a busy machine do not inflate; pingpong counts wall time.
 * Prints "MODE ns VALUE" on PE 0. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long ping, pong, target;

static double now_ns(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void pingpong(int me, long n)
{
    for (long i = 1; i <= n; i++) {
        if (me == 0) {
            shmem_long_p(&ping, i, 1);
            shmem_long_wait_until(&pong, SHMEM_CMP_GE, i);
        } else if (me == 1) {
            shmem_long_wait_until(&ping, SHMEM_CMP_GE, i);
            shmem_long_p(&pong, i, 0);
        }
    }
}

static void puts_only(int me, long n)
{
    long v = 1;
    for (long i = 0; me == 0 && i < n; i++)
        shmem_putmem(&target, &v, sizeof v, 1);
    shmem_quiet();
}

static int sink;

static void mype(long n)
{
    for (long i = 0; i < n; i++)
        sink += shmem_my_pe();
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "pingpong";
    long n = argc > 2 ? atol(argv[2]) : 100000;
    int pp = strcmp(mode, "pingpong") == 0, me_only = strcmp(mode, "mype") == 0;
    if (n <= 0 || (!pp && !me_only && strcmp(mode, "put") != 0)) {
        fprintf(stderr, "usage: shmem_bench pingpong|put|mype N\n");
        return 2;
    }
    shmem_init();
    int me = shmem_my_pe();
    shmem_barrier_all();
    clockid_t clock = pp ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
    double t0 = now_ns(clock);
    if (pp)
        pingpong(me, n);
    else if (me_only)
        mype(n);
    else
        puts_only(me, n);
    double t = now_ns(clock) - t0;
    shmem_barrier_all();
    if (me == 0)
        printf("%s ns %.1f\n", mode, pp ? t / (2.0 * n) : t / n);
    shmem_finalize();
    return 0;
}
