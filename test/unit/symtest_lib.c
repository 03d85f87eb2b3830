/* SPDX-License-Identifier: BSD-3-Clause */
/* symtest_lib.c: shared library linked by test_symbols; its global and static functions
 * must resolve to their names and declaration lines despite ASLR. */
#include <stddef.h>

int symtest_lib_global(int x);
int (*symtest_lib_static_fn(int *line))(int);
int (*symtest_lib_global_fn(void))(int);

const int symtest_lib_global_line = __LINE__ + 1;
int symtest_lib_global(int x)
{
    return 3 * x + 1;
}

static const int static_line = __LINE__ + 1;
static int symtest_lib_static(int x)
{
    return 5 * x + 2;
}

/* Hands the static function and its line to the test, which cannot name either. */
int (*symtest_lib_static_fn(int *line))(int)
{
    *line = static_line;
    return &symtest_lib_static;
}

/* The library's own view of its global function: a canonical PLT entry of a non-PIE
 * executable that takes the function's address too, as -finstrument-functions passes it. */
int (*symtest_lib_global_fn(void))(int)
{
    return &symtest_lib_global;
}

/* The source path as the compiler saw it, which DWARF records relative to the build dir. */
const char symtest_lib_file[] = __FILE__;
