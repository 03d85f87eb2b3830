/* SPDX-License-Identifier: BSD-3-Clause */
/* counter.c: the program of the autotools example: 5 count_up(4), so 20 bump. */
#include <stdio.h>

#include "count.h"

int main(void)
{
    int total = 0;
    for (int i = 0; i < 5; i++)
        total += count_up(4);
    printf("total %d\n", total);
    return 0;
}
