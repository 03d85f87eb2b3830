/* SPDX-License-Identifier: BSD-3-Clause */
/* twofiles_lib.c: the second source file of twofiles_main.c; lib_fn calls lib_inner once. */
__attribute__((noinline)) static int lib_inner(int x)
{
    return 2 * x;
}

__attribute__((noinline)) int lib_fn(int x)
{
    return lib_inner(x) + 1;
}
