/* SPDX-License-Identifier: BSD-3-Clause */
// ctfilter_main.cc: functions that test_filter_compile.sh's filter excludes at compile time
// (by name pattern, by mangled name, by file) or keeps; each is called exactly 10 times.
#include <cstdio>

extern "C" int skipfile_work(int x); // ctfilter_skip.c: excluded by a file rule

namespace calc
{
__attribute__((noinline)) int add_one(int x)
{
    return x + 1;
} // EXCLUDE calc::*
__attribute__((noinline)) int add_two(int x)
{
    return x + 2;
} // INCLUDE calc::add_two(int)
} // namespace calc

// twice<int> is excluded by its mangled name, twice<double> is not
template <typename T> __attribute__((noinline)) T twice(T x)
{
    return x * 2;
}

__attribute__((noinline)) static int helper_one(int x)
{
    return x - 1;
} // EXCLUDE helper_*
__attribute__((noinline)) int helper_keep(int x)
{
    return x - 2;
} // INCLUDE helper_keep*

int main()
{
    volatile int sum = 0;
    volatile double dsum = 0;
    for (int i = 0; i < 10; i++) {
        sum = sum + calc::add_one(i) + calc::add_two(i) + twice(i) + helper_one(i) +
              helper_keep(i) + skipfile_work(i);
        dsum = dsum + twice(0.5 * i);
    }
    std::printf("sum=%d dsum=%g\n", sum, dsum);
    return 0;
}
