/* SPDX-License-Identifier: BSD-3-Clause */
// nvtx_prog.cc: NVTX's C++ interface (nvtx3.hpp) with known counts (test_nvtx.sh): a scoped
// range in a function called 5 times, inside a scoped range of a custom domain, and marks.
#include <nvtx3/nvtx3.hpp>

#include <cstdio>

struct app_domain {
    static constexpr char const *name{"app"};
};

/* noinline: a call path node of its own (the plugins leave a function inlined everywhere out) */
__attribute__((noinline)) static void step(int i)
{
    nvtx3::scoped_range r{"step"};
    if (i % 2 == 0)
        nvtx3::mark("even");
}

int main()
{
    {
        nvtx3::scoped_range_in<app_domain> all{"all steps"};
        for (int i = 0; i < 5; i++)
            step(i);
    }
    std::puts("nvtx done");
    return 0;
}
