/* SPDX-License-Identifier: BSD-3-Clause */
// memory_cxx.cc: C++ new and delete with known sizes for test_memory.sh: plain, array,
// nothrow, aligned and sized forms; what is leaked is fixed (comments). The output is the
// same with and without measurement.
#include <cstdio>
#include <new>

#define NOINLINE __attribute__((noinline))

struct Obj {
    long v[6]; // 48 bytes
};

struct alignas(64) Wide {
    char c[128]; // 128 bytes, 64-aligned: operator new(size_t, std::align_val_t)
};

void *keep[4]; // global: the compiler may not elide the leaked allocations
static long sum;

// new Obj (48) deleted (sized delete with -fsized-deallocation, the default of C++14)
NOINLINE void objects()
{
    Obj *o = new Obj();
    o->v[5] = 5;
    sum += o->v[5];
    delete o;
}

// new int[25] (100 bytes), leaked
NOINLINE void leak_array()
{
    int *a = new int[25]();
    a[24] = 24;
    sum += a[24];
    keep[0] = a;
}

// new (std::nothrow) char[64], leaked
NOINLINE void leak_nothrow()
{
    char *c = new (std::nothrow) char[64];
    c[63] = 1;
    sum += c[63];
    keep[1] = c;
}

// new Wide (128, aligned) deleted; new Wide[2] (256, aligned) leaked
NOINLINE void aligned()
{
    Wide *w = new Wide();
    w->c[0] = 3;
    sum += w->c[0];
    delete w;
    keep[2] = new Wide[2];
}

// a failing new: std::bad_alloc propagates through the wrapper, nothing is allocated
NOINLINE void too_big()
{
    try {
        volatile unsigned long huge = ~0ul / 4;
        char *p = new char[huge];
        keep[3] = p;
    } catch (const std::bad_alloc &) {
        sum += 1000;
    }
}

int main()
{
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    objects();
    leak_array();
    leak_nothrow();
    aligned();
    too_big();
    std::printf("sum %ld\n", sum);
    return 0;
}
