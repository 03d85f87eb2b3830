// SPDX-License-Identifier: BSD-3-Clause
// libwrap_bench_cxx.cc: the cost of a wrapped C++ library call (run_libwrap_bench.sh): N calls
// of lwbx::Acc::work(long) const, a one-statement member function of a shared library, on the
// thread's CPU clock: "ns_per_call <value>". Built with -DLWB_LIBRARY it is that library.
#include "lwbx.h" // written by run_libwrap_bench.sh
#ifdef LWB_LIBRARY
int lwbx::Acc::work(long i) const { return (int)(i & mask); }
#else
#include <cstdio>
#include <cstdlib>
#include <ctime>

volatile long bench_sink;

static double now_ns()
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000L;
    if (n <= 0)
        n = 1;
    lwbx::Acc acc;
    acc.mask = 7;
    long s = 0;
    double t0 = now_ns();
    for (long i = 0; i < n; i++)
        s += acc.work(i);
    double t1 = now_ns();
    bench_sink = s;
    std::printf("ns_per_call %.3f\n", (t1 - t0) / (double)n);
    return 0;
}
#endif
