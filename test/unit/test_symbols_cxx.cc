/* SPDX-License-Identifier: BSD-3-Clause */
// test_symbols_cxx.cc: the resolver (symbols.c) demangles C++ names through the program's own
// __cxa_demangle: template instances, overloads and members, with their declaration lines.
extern "C" {
#include "symbols/symbols.h"
}

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace ns
{

const int add_line = __LINE__ + 1;
template <typename T> __attribute__((noinline)) T add(T a, T b)
{
    return a + b;
}

const int over_int_line = __LINE__ + 1;
__attribute__((noinline)) int over(int x)
{
    return x + 1;
}

const int over_double_line = __LINE__ + 1;
__attribute__((noinline)) double over(double x)
{
    return x * 2.0;
}

const int inside_line = __LINE__ + 2;
struct counter {
    static int inside(int x)
    {
        return x - 1;
    }                        // defined in the class: clang nests its DIE
    static int twice(int x); // declared here, defined below: the definition's line counts
};

const int twice_line = __LINE__ + 1;
int counter::twice(int x)
{
    return 2 * x;
}

} // namespace ns

static int failures;

static void check(const char *what, std::uintptr_t addr, const char *name, const char *mangled,
                  int line)
{
    scorep_symbol sym;
    int rc = scorep_symbols_resolve(addr, &sym);
    const char *base = sym.file != nullptr ? std::strrchr(sym.file, '/') : nullptr;
    if (rc != 0 || std::strcmp(sym.name, name) != 0 || std::strcmp(sym.mangled, mangled) != 0 ||
        base == nullptr || std::strcmp(base, "/test_symbols_cxx.cc") != 0 || sym.line != line) {
        std::fprintf(stderr,
                     "%s: got rc %d '%s' '%s' %s:%d, want '%s' '%s' test_symbols_cxx.cc:%d\n", what,
                     rc, sym.name, sym.mangled, sym.file ? sym.file : "(null)", sym.line, name,
                     mangled, line);
        failures++;
    }
    scorep_symbol_clear(&sym);
}

int main()
{
    // Call through volatile pointers so that every function exists out of line.
    int (*volatile add_int)(int, int) = ns::add<int>;
    double (*volatile add_double)(double, double) = ns::add<double>;
    int (*volatile over_int)(int) = ns::over;
    double (*volatile over_double)(double) = ns::over;
    int (*volatile twice)(int) = ns::counter::twice;
    int (*volatile inside)(int) = ns::counter::inside;
    std::string sum = std::to_string(add_int(1, 2) + add_double(0.5, 0.5) + over_int(1) +
                                     over_double(1.0) + twice(3) + inside(2));
    if (sum != "15.000000") {
        std::fprintf(stderr, "calls: got %s\n", sum.c_str());
        failures++;
    }
    check("add<int>", (std::uintptr_t)add_int, "int ns::add<int>(int, int)",
          "_ZN2ns3addIiEET_S1_S1_", ns::add_line);
    check("add<double>", (std::uintptr_t)add_double, "double ns::add<double>(double, double)",
          "_ZN2ns3addIdEET_S1_S1_", ns::add_line);
    check("over(int)", (std::uintptr_t)over_int, "ns::over(int)", "_ZN2ns4overEi",
          ns::over_int_line);
    check("over(double)", (std::uintptr_t)over_double, "ns::over(double)", "_ZN2ns4overEd",
          ns::over_double_line);
    check("counter::twice", (std::uintptr_t)twice, "ns::counter::twice(int)",
          "_ZN2ns7counter5twiceEi", ns::twice_line);
    check("counter::inside", (std::uintptr_t)inside, "ns::counter::inside(int)",
          "_ZN2ns7counter6insideEi", ns::inside_line);
    scorep_symbols_finalize();
    return failures == 0 ? 0 : 1;
}
