/* SPDX-License-Identifier: BSD-3-Clause */
/* many_calls.c: 200000 calls of work(), about 2.4 MB of trace events, and one line of
 * output that does not depend on the measurement (test_hostile_input.sh fills a small file
 * system with its trace). */
#include <stdio.h>

__attribute__((noinline)) double work(int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += i * 0.5;
    __asm__ volatile("");
    return s;
}

int main(void)
{
    double t = 0;
    for (int k = 0; k < 200000; k++)
        t += work(10);
    printf("result %.1f\n", t);
    return 0;
}
