/* SPDX-License-Identifier: BSD-3-Clause */
/* log.c: the runtime's messages (log.h). */
#include "base/log.h"
#include "base/settings.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static void vmessage(const char *kind, const char *fmt, va_list ap)
{
    char buf[2048];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fprintf(stderr, "[scorep-rt] %s%s\n", kind, buf);
}

void scorep_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage("warning: ", fmt, ap);
    va_end(ap);
}

void scorep_warn_once(const char *msg)
{
    static int said;
    if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        scorep_warn("%s", msg);
}

void scorep_verbose(const char *fmt, ...)
{
    if (!scorep_cfg.verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    vmessage("", fmt, ap);
    va_end(ap);
}

void scorep_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage("error: ", fmt, ap);
    va_end(ap);
    fflush(stderr);
    _exit(1);
}
