// SPDX-License-Identifier: BSD-3-Clause
// cxxlib.cc: the library of cxxlib.h (test_libwrap_cxx.sh). No function calls another
// exported one, so link-time and run-time wrapping record the same calls.
#include "cxxlib.h"

namespace geo {
static int live;
int add(int a, int b) { return a + b; }
real add(real a, real b) { return a + b; }
Counter::Counter(int start) : n_(start) { live++; }
Counter::~Counter() { live--; }
void Counter::bump(int by) { n_ += by; }
int Counter::value() const { return n_; }
int Counter::instances() { return live; }
bool Counter::operator==(const Counter &other) const { return n_ == other.n_; }
int Counter::apply(int (*f)(int)) const { return f(n_); }
std::string Counter::label() const { return "n=" + std::to_string(n_); }
void Counter::reset() { n_ = 0; }
void fail(int code) { throw code; }
template <> int twice<int>(int v) { return 2 * v; }
int sum(int n, ...)
{
    int s = 0;
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}
int vsum(int n, va_list ap)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    return s;
}
} // namespace geo

extern "C" int cx_plain(int v) { return v + 1; }
