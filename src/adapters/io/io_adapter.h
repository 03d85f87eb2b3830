/* SPDX-License-Identifier: BSD-3-Clause */
/* io_adapter.h: what the generated POSIX and ISO C I/O wrappers (libscorep-rt-io-posix,
 * libscorep-rt-io-isoc; build-aux/gen-io-wrappers) call in libscorep-rt: the guard that
 * decides whether a call is recorded, its region, and the handle events. Every handle of a
 * descriptor or stream lives in a per-descriptor array: lookups take no lock. */
#ifndef SCOREP_IO_ADAPTER_H
#define SCOREP_IO_ADAPTER_H

#include "core/events_io.h"
#include "base/settings.h"
#include "core/location.h"
#include "defs/defs.h"
#include "defs/defs_io.h"

#include <stdint.h>
#include <stdio.h>

struct aiocb;

#define SCOREP_IO_API __attribute__((visibility("default")))

/* one wrapped function: its name, paradigm and region role (the generated table) */
typedef struct {
    const char *name;
    uint32_t paradigm; /* scorep_io_paradigm */
    uint32_t role;     /* scorep_role: file io, file io metadata or wrapper */
    uint32_t *region;  /* cache: region id + 1, 0 = not defined yet */
} scorep_io_fn;

/* the state of one recorded call */
typedef struct {
    scorep_location *l;
    uint32_t region;
    uint32_t paradigm;
    uint32_t handle; /* SCOREP_INVALID_ID: none */
    uint64_t matching;
} scorep_io_frame;

/* Whether this call is recorded: the measurement runs, the paradigm is on, the call is not
 * made inside another wrapper or by the runtime itself (caller: the return address). On 1
 * the region is entered; scorep_io_end must follow. */
/* Whether the code at caller (a return address) is the measurement's own (libscorep-rt and
 * the libraries it uses): a lock-free table of call sites, dladdr on a site's first call.
 * Also the library wrappers' guard (src/adapters/libwrap). */
int scorep_io_own_code(const void *caller);
SCOREP_IO_API int scorep_io_begin(scorep_io_frame *f, const scorep_io_fn *fn, const void *caller);
/* The wrappers' pass-through, inline before scorep_io_begin: with the measurement off
 * (before init, after finalize) or SCOREP_IO_POSIX=false a wrapped call costs two loads
 * and a branch, not a call into libscorep-rt (scorep_io_begin checks them again). */
static inline int scorep_io_wanted(void)
{
    return scorep_measurement_on() && scorep_cfg.io_posix;
}
SCOREP_IO_API void scorep_io_end(scorep_io_frame *f);

/* descriptor/stream handles (fd: the descriptor; ISO C: fileno of the stream) */
SCOREP_IO_API void scorep_io_created(scorep_io_frame *f, int fd, const char *path, int oflags);
SCOREP_IO_API void scorep_io_closing(scorep_io_frame *f, int fd);
SCOREP_IO_API void scorep_io_closed(scorep_io_frame *f, int fd, int ok);
/* closedir: as closing, for a descriptor that has a handle already (a directory's usually
 * has none: opendir is not wrapped, as in Score-P) */
SCOREP_IO_API void scorep_io_closing_known(scorep_io_frame *f, int fd);
/* a lock event (events_io.h scorep_io_lock_event, exclusive) on fd's handle */
SCOREP_IO_API void scorep_io_lock(scorep_io_frame *f, int fd, scorep_io_lock_event which);
/* flock(2) on fd with operation op: the release before the call, the acquire or try after it
 * (shared for LOCK_SH) */
SCOREP_IO_API void scorep_io_flock_before(scorep_io_frame *f, int fd, int op);
SCOREP_IO_API void scorep_io_flock_after(scorep_io_frame *f, int fd, int op, int ret);
SCOREP_IO_API void scorep_io_duplicated(scorep_io_frame *f, int oldfd, int newfd, int ok);
/* an operation on fd: begin before the call, complete after it (transferred: bytes or
 * SCOREP_IO_UNKNOWN_BYTES when it failed) */
SCOREP_IO_API void scorep_io_op_begin(scorep_io_frame *f, int fd, scorep_io_op op, uint64_t bytes);
SCOREP_IO_API void scorep_io_op_end(scorep_io_frame *f, uint64_t transferred);
SCOREP_IO_API void scorep_io_seek(scorep_io_frame *f, int fd, int64_t offset, int whence,
                                  uint64_t result);
/* transferred bytes of an operation that succeeded without a known size (fscanf) */
#define SCOREP_IO_UNSIZED_BYTES (UINT64_MAX - 1)

/* fcntl: F_DUPFD/F_DUPFD_CLOEXEC duplicate the handle, F_SETFL changes its status flags */
SCOREP_IO_API void scorep_io_fcntl(scorep_io_frame *f, int fd, int cmd, intptr_t arg, int ret);
/* sync: a flush of everything, on the handle "sync - commit buffer cache to disk" */
SCOREP_IO_API void scorep_io_flush_all_begin(scorep_io_frame *f);
/* unlink, unlinkat, remove: the file (resolved before the call; SCOREP_INVALID_ID: not
 * known), deleted when ok holds */
SCOREP_IO_API uint32_t scorep_io_file_of(const char *path);
SCOREP_IO_API void scorep_io_deleted(scorep_io_frame *f, uint32_t file, int ok);
/* POSIX AIO (matching id: the aiocb's address, as Score-P): aio_read/aio_write/aio_fsync
 * begin a non-blocking operation before the call and issue it after (ok: the call
 * succeeded); aio_error tests it (EINPROGRESS) or completes it (bytes: what aio_return will
 * return), aio_return completes it if aio_error did not, aio_cancel cancels it; lio_listio
 * begins every read and write of the list (blocking with LIO_WAIT) */
SCOREP_IO_API void scorep_io_aio_begin(scorep_io_frame *f, const struct aiocb *cb, scorep_io_op op);
SCOREP_IO_API void scorep_io_aio_issued(scorep_io_frame *f, const struct aiocb *cb, scorep_io_op op,
                                        int ok);
SCOREP_IO_API void scorep_io_aio_error(scorep_io_frame *f, const struct aiocb *cb, int ret);
SCOREP_IO_API void scorep_io_aio_return(scorep_io_frame *f, const struct aiocb *cb, long ret);
SCOREP_IO_API void scorep_io_aio_cancel(scorep_io_frame *f, int fd, const struct aiocb *cb, int ret);
SCOREP_IO_API void scorep_io_lio_begin(scorep_io_frame *f, int mode, struct aiocb *const list[],
                                       int n);
SCOREP_IO_API void scorep_io_lio_end(scorep_io_frame *f, int mode, struct aiocb *const list[], int n,
                                     int ret);
/* ISO C: the mode string of fopen as open(2) flags */
SCOREP_IO_API int scorep_io_mode_flags(const char *mode);
/* the descriptor of a stream without locking it, -1 for none */
SCOREP_IO_API int scorep_io_stream_fd(FILE *fp);

#endif
