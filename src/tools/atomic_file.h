/* SPDX-License-Identifier: BSD-3-Clause */
/* atomic_file.h: the tools' output files written completely or not at all: a temporary
 * file next to the target, renamed over it at the end, removed on error or on a signal. */
#ifndef SCOREP_ATOMIC_FILE_H
#define SCOREP_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

/* One file being written; the tools write one at a time (the signal handler removes the
 * temporary file of the latest atomic_file_open that is not yet committed or aborted). */
typedef struct {
    char *path; /* the target */
    char *tmp;  /* PATH.tmp.XXXXXX, in the target's directory so that rename() is atomic */
    FILE *fp;   /* write here */
} atomic_file;

/* Creates the temporary file with the permissions a new file gets (0666 less the umask).
 * SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ remove it until it is committed or aborted.
 * 0, or -1 with "PATH: cannot create: REASON" in err. */
int atomic_file_open(atomic_file *f, const char *path, char *err, size_t errlen);
/* Flushes and closes the temporary file and renames it to the target. On any error the
 * temporary file is removed and the target left as it was. Frees f's members either way.
 * 0, or -1 with "PATH: REASON" in err. */
int atomic_file_commit(atomic_file *f, char *err, size_t errlen);
/* Closes and removes the temporary file (an error while writing); frees f's members. */
void atomic_file_abort(atomic_file *f);

#endif
