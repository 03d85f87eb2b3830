/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_error.c: the one error-message helper of the Cube library's reader, writer, tar
 * and distributed engine (cube_error.h). */
#include "cube/cube_error.h"

#include <stdarg.h>
#include <stdio.h>

void cube_set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (err == NULL || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}
