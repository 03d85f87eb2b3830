/* SPDX-License-Identifier: BSD-3-Clause */
/* atomic_file.c: temporary file, rename at the end, removal on error or signal
 * (atomic_file.h). */
#include "base/atomic_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file a signal removes; set only while one is open. */
static const char *volatile pending;

static void remove_pending(int sig)
{
    const char *p = pending;
    if (p)
        unlink(p); /* async-signal-safe, as are signal() and raise() */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void watch_signals(const char *tmp)
{
    /* SIGXFSZ: a write past the file size limit (ulimit -f) ends the tool there */
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ};
    pending = tmp;
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        signal(sigs[i], remove_pending);
}

static void release(scorep_atomic_file *f)
{
    if (f->signals)
        pending = NULL; /* before the free: a late signal must not read a freed name */
    f->signals = 0;
    free(f->tmp);
    free(f->path);
    f->tmp = f->path = NULL;
    f->fp = NULL;
}

/* The process's umask, read without changing it where Linux tells it (4.7 and later): the
 * runtime writes at finalize while the program's other threads may still create files, and
 * umask(0) would give them a mode of 0666 for that moment. */
static mode_t process_umask(void)
{
    FILE *st = fopen("/proc/self/status", "r");
    char line[128];
    unsigned mask = 0;
    bool found = false;
    while (st && !found && fgets(line, sizeof line, st))
        found = sscanf(line, "Umask: %o", &mask) == 1;
    if (st)
        fclose(st);
    if (found)
        return (mode_t)mask;
    mode_t m = umask(0); /* older kernels: the brief set and reset is the only way */
    umask(m);
    return m;
}

static int create(scorep_atomic_file *f)
{
    int fd = mkstemp(f->tmp);
    if (fd < 0)
        return -1;
    if (fchmod(fd, 0666 & ~process_umask()) == 0 && (f->fp = fdopen(fd, "w")) != NULL)
        return 0;
    int e = errno;
    close(fd);
    unlink(f->tmp);
    errno = e;
    return -1;
}

int scorep_atomic_open(scorep_atomic_file *f, const char *path, unsigned flags, char *err,
                       size_t errlen)
{
    size_t n = strlen(path) + sizeof ".tmp.XXXXXX";
    f->fp = NULL;
    f->signals = 0;
    f->path = strdup(path);
    f->tmp = malloc(n);
    if (f->path && f->tmp) {
        snprintf(f->tmp, n, "%s.tmp.XXXXXX", path);
        if (create(f) == 0) {
            if ((f->signals = (flags & SCOREP_ATOMIC_REMOVE_ON_SIGNAL) != 0))
                watch_signals(f->tmp);
            return 0;
        }
    } else
        errno = ENOMEM;
    snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
    release(f);
    return -1;
}

int scorep_atomic_commit(scorep_atomic_file *f, char *err, size_t errlen)
{
    errno = 0;
    int bad = fflush(f->fp) != 0 || ferror(f->fp);
    int e = errno;
    if (fclose(f->fp) != 0 && !bad)
        bad = 1, e = errno;
    if (!bad && rename(f->tmp, f->path) != 0)
        bad = 2, e = errno;
    if (bad) {
        snprintf(err, errlen, "%s: %s%s", f->path,
                 bad == 2 ? "cannot rename the temporary file: " : "",
                 e ? strerror(e) : "write error");
        unlink(f->tmp);
    }
    release(f);
    return bad ? -1 : 0;
}

void scorep_atomic_abort(scorep_atomic_file *f)
{
    if (f->fp)
        fclose(f->fp);
    if (f->tmp)
        unlink(f->tmp);
    release(f);
}
