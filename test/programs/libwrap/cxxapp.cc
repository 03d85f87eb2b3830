// SPDX-License-Identifier: BSD-3-Clause
// cxxapp.cc: calls cxxlib a known number of times (test_libwrap_cxx.sh counts each region's
// visits): add(int, int) 3, add(double, double) 2, Counter(int) 2, ~Counter() 2, bump 4,
// value 2, instances 1, operator== 1, apply 1, label 1, fail 1 (caught), sum 1,
// twice<int> 1, cx_plain 1.
#include "cxxlib.h"
#include <cstdio>

static int plus1(int v) { return v + 1; }

int main()
{
    long s = 0;
    for (int i = 0; i < 3; i++)
        s += geo::add(i, 1);
    s += (long)geo::add(1.5, 2.5) + (long)geo::add(0.5, 0.5);
    {
        geo::Counter c(5), d(9);
        for (int i = 0; i < 4; i++)
            c.bump(i);
        s += c.value() + d.value() + c.inl() + geo::Counter::instances();
        s += c == d;
        s += c.apply(plus1);
        s += (long)c.label().size() * 100; /* "n=11" */
    }
    try {
        geo::fail(7);
    } catch (int e) {
        s += e;
    }
    s += geo::sum(3, 1, 2, 3) + geo::twice(4) + cx_plain(1);
    std::printf("%ld\n", s);
    return 0;
}
