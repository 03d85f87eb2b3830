/* SPDX-License-Identifier: BSD-3-Clause */
// cxx.cc: C++ test program: templates, overloads, a class method and exceptions.
#include <cstdio>
#include <stdexcept>

namespace demo
{
template <typename T> __attribute__((noinline)) T twice(T v)
{
    return v + v;
}
__attribute__((noinline)) int overload(int x)
{
    return x + 1;
}
__attribute__((noinline)) double overload(double x)
{
    return x + 0.5;
}
struct Box {
    int v;
    __attribute__((noinline)) int get() const
    {
        return v;
    }
};
__attribute__((noinline)) void thrower(int i)
{
    if (i % 2)
        throw std::runtime_error("odd");
}
} // namespace demo

int main()
{
    long s = 0;
    for (int i = 0; i < 10; i++)
        s += demo::twice<int>(i);
    for (int i = 0; i < 5; i++)
        s += (long)demo::twice<double>(i);
    for (int i = 0; i < 7; i++)
        s += demo::overload(i) + (long)demo::overload(1.0 * i);
    demo::Box b{3};
    for (int i = 0; i < 4; i++) {
        b.v = i; // a new value each time: gcc may not merge the calls of get(), which is pure
        s += b.get();
    }
    int caught = 0;
    for (int i = 0; i < 6; i++) {
        try {
            demo::thrower(i);
        } catch (const std::exception &) {
            caught++;
        }
    }
    std::printf("sum %ld caught %d\n", s, caught);
    return 0;
}
