/* SPDX-License-Identifier: BSD-3-Clause */
/* cxxlib.h: a C++ library for test_libwrap_cxx.sh: a namespace, overloads, a class with
 * members Score-P wraps (constructor, destructor, const and static members, an operator) and
 * ones it does not (inline, private, a template; its explicit specialization is), an
 * exception, and a variadic function with its va_list twin. */
#ifndef CXXLIB_H
#define CXXLIB_H
#include <stdarg.h>
#include <string>

namespace geo {
typedef double real;
int add(int a, int b);
real add(real a, real b);

class Counter {
public:
    explicit Counter(int start);
    ~Counter();
    void bump(int by);
    int value() const;
    static int instances();
    bool operator==(const Counter &other) const;
    int apply(int (*f)(int)) const;
    std::string label() const; /* a class returned by value (hidden pointer before the object) */
    int inl() const { return n_; } /* inline: not wrapped */

private:
    void reset(); /* private: not wrapped */
    int n_;
};

template <typename T> T twice(T v) { return v + v; } /* a template: not wrapped */
template <> int twice<int>(int v);                     /* its specialization: wrapped */
void fail(int code);                                    /* throws code */
int sum(int n, ...);
int vsum(int n, va_list ap);
#ifdef CX_WITH_MISSING
int missing(int x); /* declared, never defined: make check reports it */
#endif
} // namespace geo

extern "C" int cx_plain(int v);
#endif
