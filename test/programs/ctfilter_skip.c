/* SPDX-License-Identifier: BSD-3-Clause */
/* ctfilter_skip.c: a C file that test_filter_compile.sh's filter excludes by its file name. */
__attribute__((noinline)) int skipfile_work(int x)
{
    return 3 * x;
}
