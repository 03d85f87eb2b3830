/* SPDX-License-Identifier: BSD-3-Clause */
/* symtest_dl.c: module that test_symbols dlopen's after its first resolution, so that the
 * resolver has to notice a library mapped after its module list was read. */

int symtest_dl_function(int x);

const int symtest_dl_line = __LINE__ + 1;
int symtest_dl_function(int x)
{
    return 7 * x + 3;
}

/* The source path as the compiler saw it, which DWARF records relative to the build dir. */
const char symtest_dl_file[] = __FILE__;
