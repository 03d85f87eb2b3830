/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_calls.c: CPU time in many short instrumented calls of leaf() (argv[1] calls, 1000000
 * by default), so that many samples interrupt the enter and leave events themselves
 * (test_sampling_events.sh). No output: a write at exit would be an I/O event below exit's
 * frames, outside what this program tests. */
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) void leaf(void)
{
    double x = 0;
    for (int i = 0; i < 50; i++)
        x += (double)i * 1e-9;
    sink += x;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    for (long i = 0; i < n; i++)
        leaf();
    return 0;
}
