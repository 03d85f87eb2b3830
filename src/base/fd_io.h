/* SPDX-License-Identifier: BSD-3-Clause */
/* fd_io.h: whole reads and writes on a file descriptor (retrying short transfers and EINTR),
 * shared by the trace flush (core/flush.c) and the socket mesh of scorep-recover
 * (ipc/ipc_mesh.c). */
#ifndef SCOREP_BASE_FD_IO_H
#define SCOREP_BASE_FD_IO_H
#include <errno.h>
#include <stddef.h>
#include <unistd.h>

/* writes LEN bytes of P to FD; 0, or -1 on an error or a descriptor that takes nothing */
static inline int scorep_write_all(int fd, const void *p, size_t len)
{
    const char *c = p;
    while (len > 0) {
        ssize_t n = write(fd, c, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        c += n;
        len -= (size_t)n;
    }
    return 0;
}

/* reads LEN bytes from FD into P; 0, or -1 on an error or an early end of file */
static inline int scorep_read_all(int fd, void *p, size_t len)
{
    char *c = p;
    while (len > 0) {
        ssize_t n = read(fd, c, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        c += n;
        len -= (size_t)n;
    }
    return 0;
}
#endif
