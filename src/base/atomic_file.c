/* SPDX-License-Identifier: BSD-3-Clause */
/* atomic_file.c: temporary file, rename at the end, removal on error or signal
 * (atomic_file.h). */
#include "base/atomic_file.h"

#include <errno.h>
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

static int create(scorep_atomic_file *f)
{
    int fd = mkstemp(f->tmp);
    if (fd < 0)
        return -1;
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) == 0 && (f->fp = fdopen(fd, "w")) != NULL)
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
