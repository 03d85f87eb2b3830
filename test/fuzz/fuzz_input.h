/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_input.h: what the harnesses of file readers share: a private temporary path in
 * $TMPDIR (default /tmp), and one input written whole to a fresh file there. */
#ifndef SCOREP_FUZZ_INPUT_H
#define SCOREP_FUZZ_INPUT_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* PATH (LEN bytes) := "$TMPDIR/NAME_XXXXXX", the template mkstemp/mkdtemp fill in */
static inline void fuzz_tmp_template(char *path, size_t len, const char *name)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, len, "%s/%s_XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
}

/* writes DATA (SIZE bytes) to a new file named in PATH (LEN bytes) after NAME; 0, or -1 when
 * it cannot (nothing is left behind then) */
static inline int fuzz_input_file(const uint8_t *data, size_t size, char *path, size_t len,
                                  const char *name)
{
    fuzz_tmp_template(path, len, name);
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    int ok = write(fd, data, size) == (ssize_t)size;
    close(fd);
    if (!ok)
        unlink(path);
    return ok ? 0 : -1;
}
#endif
