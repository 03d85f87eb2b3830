/* SPDX-License-Identifier: BSD-3-Clause */
/* twofiles_main.c: with twofiles_lib.c, a program whose regions come from two source files
 * (for file-name filter rules): main_fn and lib_fn are each called 100 times. */
#include <stdio.h>

int lib_fn(int x);

__attribute__((noinline)) int main_fn(int x)
{
    return x + 1;
}

int main(void)
{
    long s = 0;
    for (int i = 0; i < 100; i++)
        s += main_fn(i) + lib_fn(i);
    printf("sum %ld\n", s);
    return 0;
}
