/* SPDX-License-Identifier: BSD-3-Clause */
/* count.c: the static library of the autotools example (count_up(n) calls bump n times). */
#include "count.h"

__attribute__((noinline)) int bump(int x)
{
    return x + 1;
}

int count_up(int n)
{
    int x = 0;
    for (int i = 0; i < n; i++)
        x = bump(x);
    return x;
}
