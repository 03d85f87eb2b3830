/* SPDX-License-Identifier: BSD-3-Clause */
/* varlib.c: the library of varlib.h (test_libwrap.sh). */
#include "varlib.h"
#include <stdio.h>

static int calls;

int vl_vlog(const char *fmt, va_list ap)
{
    calls++;
    return vprintf(fmt, ap);
}

int vl_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vl_vlog(fmt, ap);
    va_end(ap);
    return n;
}

int vl_count(void)
{
    return calls;
}
