/* SPDX-License-Identifier: BSD-3-Clause */
// main.cc: the C++ program of the CMake example: 10 work_step, 4 demo::scale(int) calls.
#include <cstdio>

#include "work.h"

namespace demo
{
__attribute__((noinline)) int scale(int x)
{
    return 3 * x;
}
} // namespace demo

int main()
{
    int sum = 0;
    for (int i = 0; i < 10; i++)
        sum += work_step(i);
    for (int i = 0; i < 4; i++)
        sum += demo::scale(i);
    std::printf("sum %d\n", sum);
    return 0;
}
