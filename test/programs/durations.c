/* SPDX-License-Identifier: BSD-3-Clause */
/* durations.c: test program for the minimum duration of traced calls: main calls fast()
 * 1000 times (nanoseconds each) and slow() 5 times (each sleeps 2 ms; slow calls fast()
 * once inside). Prints "done". */
#include <stdio.h>
#include <time.h>

static volatile long sink;

__attribute__((noinline)) void fast(int i)
{
    sink += i;
}

__attribute__((noinline)) void slow(void)
{
    struct timespec d = {0, 2000000};
    nanosleep(&d, NULL);
    fast(-1);
}

int main(void)
{
    for (int i = 0; i < 1000; i++)
        fast(i);
    for (int i = 0; i < 5; i++)
        slow();
    printf("done\n");
    return 0;
}
