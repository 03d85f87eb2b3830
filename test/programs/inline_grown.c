/* SPDX-License-Identifier: BSD-3-Clause */
// inline_grown.c (test_instrument_kept.sh): mix(), 30 statements without loop or call, called
// twice per iteration of main's loop, which gcc -O2 inlines (static inline, hot); the GCC
// plugin's instrumentation must leave that decision as it is (#31, docs/user-guide.md).
// main ends in exit(): a function that never returns is measured too.
#include <stdio.h>
#include <stdlib.h>

static inline unsigned long mix(const unsigned long *a, const unsigned long *b)
{
    unsigned long t0 = a[0] * b[1] - a[2] * b[0];
    unsigned long t1 = a[1] * b[4] - a[7] * b[1];
    unsigned long t2 = a[2] * b[7] - a[4] * b[2];
    unsigned long t3 = a[3] * b[2] - a[1] * b[3];
    unsigned long t4 = a[4] * b[5] - a[6] * b[4];
    unsigned long t5 = a[5] * b[0] - a[3] * b[5];
    unsigned long t6 = a[6] * b[3] - a[0] * b[6];
    unsigned long t7 = a[7] * b[6] - a[5] * b[7];
    unsigned long t8 = a[0] * b[1] - a[2] * b[0];
    unsigned long t9 = a[1] * b[4] - a[7] * b[1];
    unsigned long t10 = a[2] * b[7] - a[4] * b[2];
    unsigned long t11 = a[3] * b[2] - a[1] * b[3];
    unsigned long t12 = a[4] * b[5] - a[6] * b[4];
    unsigned long t13 = a[5] * b[0] - a[3] * b[5];
    unsigned long t14 = a[6] * b[3] - a[0] * b[6];
    unsigned long t15 = a[7] * b[6] - a[5] * b[7];
    unsigned long t16 = a[0] * b[1] - a[2] * b[0];
    unsigned long t17 = a[1] * b[4] - a[7] * b[1];
    unsigned long t18 = a[2] * b[7] - a[4] * b[2];
    unsigned long t19 = a[3] * b[2] - a[1] * b[3];
    unsigned long t20 = a[4] * b[5] - a[6] * b[4];
    unsigned long t21 = a[5] * b[0] - a[3] * b[5];
    unsigned long t22 = a[6] * b[3] - a[0] * b[6];
    unsigned long t23 = a[7] * b[6] - a[5] * b[7];
    unsigned long t24 = a[0] * b[1] - a[2] * b[0];
    unsigned long t25 = a[1] * b[4] - a[7] * b[1];
    unsigned long t26 = a[2] * b[7] - a[4] * b[2];
    unsigned long t27 = a[3] * b[2] - a[1] * b[3];
    unsigned long t28 = a[4] * b[5] - a[6] * b[4];
    unsigned long t29 = a[5] * b[0] - a[3] * b[5];
    return t0 ^ t1 ^ t2 ^ t3 ^ t4 ^ t5 ^ t6 ^ t7 ^ t8 ^ t9 ^ t10 ^ t11 ^ t12 ^ t13 ^ t14 ^
           t15 ^ t16 ^ t17 ^ t18 ^ t19 ^ t20 ^ t21 ^ t22 ^ t23 ^ t24 ^ t25 ^ t26 ^ t27 ^ t28 ^
           t29;
}

// argc (1 without arguments) keeps gcc from computing the result at compile time
int main(int argc, char **argv)
{
    (void)argv;
    unsigned long a[8], b[8], acc = 0;
    for (int i = 0; i < 8; i++) {
        a[i] = (unsigned long)(i + argc);
        b[i] = (unsigned long)(2 * i + 2 + argc);
    }
    for (int r = 0; r < 100; r++) {
        acc += mix(a, b) ^ mix(b, a);
        a[r & 7] += 1;
    }
    printf("%lu\n", acc);
    exit(0);
}
