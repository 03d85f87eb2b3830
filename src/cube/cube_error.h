/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_error.h: how the Cube library reports an error: a message formatted into the
 * caller's buffer (err, errlen), which may be NULL when the caller does not want it. */
#ifndef SCOREP_CUBE_ERROR_H
#define SCOREP_CUBE_ERROR_H

#include <stddef.h>

void cube_set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
