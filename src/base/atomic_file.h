/* SPDX-License-Identifier: BSD-3-Clause */
/* atomic_file.h: an output file written completely or not at all: a temporary file next to
 * the target, renamed over it at the end, removed on error (and, for a tool, on a signal).
 * The one copy for the tools and the runtime; the Cube library (src/cube) keeps its own, as
 * it links nothing from src/base (cube.h). */
#ifndef SCOREP_BASE_ATOMIC_FILE_H
#define SCOREP_BASE_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

/* One file being written. With SCOREP_ATOMIC_REMOVE_ON_SIGNAL one at a time: the signal
 * handler removes the temporary file of the latest such open not yet committed or aborted. */
typedef struct {
    char *path;  /* the target */
    char *tmp;   /* PATH.tmp.XXXXXX, in the target's directory so that rename() is atomic */
    FILE *fp;    /* write here */
    int signals; /* the signal handler watches tmp */
} scorep_atomic_file;

enum {
    /* SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ remove the temporary file and end the
     * process: for a tool's main output only (a library must not take a program's signals) */
    SCOREP_ATOMIC_REMOVE_ON_SIGNAL = 1
};

/* Creates the temporary file with the permissions a new file gets (0666 less the umask).
 * flags: 0 or SCOREP_ATOMIC_REMOVE_ON_SIGNAL. 0, or -1 with "PATH: cannot create: REASON"
 * in err. */
int scorep_atomic_open(scorep_atomic_file *f, const char *path, unsigned flags, char *err,
                       size_t errlen);
/* Flushes and closes the temporary file and renames it to the target. On any error the
 * temporary file is removed and the target left as it was. Frees f's members either way.
 * 0, or -1 with "PATH: REASON" in err. */
int scorep_atomic_commit(scorep_atomic_file *f, char *err, size_t errlen);
/* Closes and removes the temporary file (an error while writing); frees f's members. */
void scorep_atomic_abort(scorep_atomic_file *f);

#endif
