/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_tmp.h: the C unit tests' temporary files and directories go to $TMPDIR (/tmp when it
 * is unset or empty, as POSIX's default), under a template that mkstemp/mkdtemp fill in. */
#ifndef UNIT_TMP_H
#define UNIT_TMP_H

#include <stdio.h>
#include <stdlib.h>

/* BUF (LEN bytes) := "$TMPDIR/NAME.XXXXXX" */
static inline void unit_tmp_template(char *buf, size_t len, const char *name)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(buf, len, "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
}

#endif
