/* SPDX-License-Identifier: BSD-3-Clause */
/* work.c: the C shared library of the CMake example (exact visits: 3 leaf per work_step). */
#include "work.h"

__attribute__((noinline)) int leaf(int x)
{
    return 2 * x + 1;
}

int work_step(int i)
{
    int sum = 0;
    for (int k = 0; k < 3; k++)
        sum += leaf(i + k);
    return sum;
}
