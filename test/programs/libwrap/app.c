/* SPDX-License-Identifier: BSD-3-Clause */
/* app.c: calls mylib a known number of times (test_libwrap.sh derives its expected Enter and
 * Leave counts from these loops): ml_add 10 (+1 inside ml_apply_t), ml_make_pair 3,
 * ml_apply 4 (calling back twice 4 times), ml_apply_t 1, ml_sum 1 (variadic: not wrapped),
 * ml_noop 2, ml_skip 5 (filtered out of the wrapper). */
#include "mylib.h"

#include <stdio.h>

static int twice(int x)
{
    return 2 * x;
}

int main(void)
{
    int s = 0;
    for (int i = 0; i < 10; i++)
        s += ml_add(i, 1);
    for (int i = 0; i < 3; i++) {
        ml_pair p = ml_make_pair(i, 7);
        s += p.a * p.b;
    }
    for (int i = 0; i < 4; i++)
        s += ml_apply(twice, i);
    s += ml_apply_t(twice, 5);
    s += ml_sum(3, 1, 2, 3);
    const char *names[] = {"x", NULL};
    double v[3] = {0, 0, 0};
    for (int i = 0; i < 2; i++)
        ml_noop(names, v);
    for (int i = 0; i < 5; i++)
        s += ml_skip(i);
    printf("sum %d v0 %g\n", s, v[0]);
    return 0;
}
