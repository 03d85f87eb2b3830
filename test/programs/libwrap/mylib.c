/* SPDX-License-Identifier: BSD-3-Clause */
/* mylib.c: the library of mylib.h (built shared and static by test_libwrap.sh). */
#include "mylib.h"

#include <stdarg.h>

int ml_add(int a, int b)
{
    return a + b;
}

ml_pair ml_make_pair(int a, int b)
{
    ml_pair p = {a, b};
    return p;
}

int ml_apply(int (*f)(int), int x)
{
    return f(x);
}

int ml_apply_t(ml_fn f, int x)
{
    return ml_add(f(x), 1);
}

int ml_sum(int n, ...)
{
    va_list ap;
    int s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

void ml_noop(const char *const *names, double v[3])
{
    v[0] = names[0][0];
}

int ml_skip(int x)
{
    return x - 1;
}
