/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_cc.c: instrumented calls below an uninstrumented one (hidden, filtered out by
 * test_substrate_cc.sh), with CPU time in each, so that a run with SCOREP_ENABLE_UNWINDING
 * and a sampling timer gives calling contexts with unwound frames, samples inside the
 * instrumented calls and in hidden's own code. With the argument "threads" two POSIX
 * threads run a smaller share (run/work/hidden/leaf) while main does its own. Prints the
 * number of leaf calls. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static volatile double sink;

__attribute__((noinline)) void leaf(int n)
{
    double x = 0;
    for (int i = 0; i < n; i++)
        x += (double)i * 1e-9;
    sink += x;
}

__attribute__((noinline)) void hidden(int n)
{
    double x = 0;
    for (int i = 0; i < n; i++)
        x += (double)i * 1e-9;
    sink += x;
    leaf(n);
    leaf(n / 2);
}

__attribute__((noinline)) void work(int k, int n)
{
    for (int j = 0; j < k; j++)
        hidden(n);
}

void *run(void *arg)
{
    (void)arg;
    work(10, 500000);
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 && strcmp(argv[1], "threads") == 0;
    pthread_t t[2];
    for (int i = 0; threads && i < 2; i++)
        pthread_create(&t[i], NULL, run, NULL);
    work(30, 1000000);
    leaf(2000000);
    for (int i = 0; threads && i < 2; i++)
        pthread_join(t[i], NULL);
    printf("calls %d\n", 30 * 2 + 1 + (threads ? 2 * 10 * 2 : 0));
    return 0;
}
