/* SPDX-License-Identifier: BSD-3-Clause */
/* throttle.c: test program for throttling: main calls tiny() 5000 times, then caller()
 * once (which calls tiny() 10 times), then slowish() 1100 times (each sleeps 50 us).
 * Prints "done <checksum>". */
#include <stdio.h>
#include <time.h>

static volatile long sink;

__attribute__((noinline)) void tiny(int i)
{
    sink += i;
}

__attribute__((noinline)) void caller(void)
{
    for (int i = 0; i < 10; i++)
        tiny(i);
}

__attribute__((noinline)) void slowish(void)
{
    struct timespec d = {0, 50000};
    nanosleep(&d, NULL);
}

int main(void)
{
    for (int i = 0; i < 5000; i++)
        tiny(i);
    caller();
    for (int i = 0; i < 1100; i++)
        slowish();
    printf("done %ld\n", (long)sink);
    return 0;
}
