/* SPDX-License-Identifier: BSD-3-Clause */
/* events_io.h: core events of I/O (POSIX, ISO C, MPI-IO): handle life cycle, operations
 * with the bytes requested and transferred, seeks. Called by the I/O adapter and the MPI
 * adapter with process-local handle ids (defs/defs_io.h) between the Enter and Leave of the
 * I/O call. Trace: OTF2 I/O records; profile: io_bytes_read / io_bytes_written per call path
 * (Score-P's metric names). */
#ifndef SCOREP_EVENTS_IO_H
#define SCOREP_EVENTS_IO_H

#include "core/location.h"

#include <stdint.h>

/* OTF2_IoOperationMode */
typedef enum { SCOREP_IO_OP_READ = 0, SCOREP_IO_OP_WRITE = 1, SCOREP_IO_OP_FLUSH = 2 } scorep_io_op;
/* OTF2_IoOperationFlag */
enum {
    SCOREP_IO_OP_FLAG_NONE = 0,
    SCOREP_IO_OP_FLAG_NON_BLOCKING = 1,
    SCOREP_IO_OP_FLAG_COLLECTIVE = 2
};
/* Set once a non-blocking IoOperationBegin went into a trace buffer of this process: the
 * trace writer then holds its locations' ends back until all are read, to cancel the
 * requests that no location completed (trace_otf2.c). scorep-recover sets it for the pieces
 * it writes. */
extern int scorep_io_nonblocking_traced;

/* bytes transferred when the call failed or the amount is not known (OTF2's undefined) */
#define SCOREP_IO_UNKNOWN_BYTES UINT64_MAX

/* access: OTF2_IoAccessMode; creation, status: OTF2_IoCreationFlag, OTF2_IoStatusFlag */
void scorep_event_io_create_handle(scorep_location *l, uint32_t handle, uint32_t access,
                                   uint32_t creation, uint32_t status);
void scorep_event_io_destroy_handle(scorep_location *l, uint32_t handle);
void scorep_event_io_duplicate_handle(scorep_location *l, uint32_t old_handle, uint32_t new_handle,
                                      uint32_t status);
/* whence: OTF2_IoSeekOption; result: the new offset, SCOREP_IO_UNKNOWN_BYTES if unknown */
void scorep_event_io_seek(scorep_location *l, uint32_t handle, int64_t offset, uint32_t whence,
                          uint64_t result);
void scorep_event_io_operation_begin(scorep_location *l, uint32_t handle, scorep_io_op op,
                                     uint32_t flags, uint64_t requested, uint64_t matching_id);
/* a non-blocking operation was issued (its begin recorded before the call) */
void scorep_event_io_operation_issued(scorep_location *l, uint32_t handle, uint64_t matching_id);
/* a non-blocking operation was tested and is not complete yet (aio_error: EINPROGRESS) */
void scorep_event_io_operation_test(scorep_location *l, uint32_t handle, uint64_t matching_id);
/* a non-blocking operation was cancelled (aio_cancel); it has no completion */
void scorep_event_io_operation_cancelled(scorep_location *l, uint32_t handle, uint64_t matching_id);
/* the handle's status flags (OTF2_IoStatusFlag) were changed (fcntl F_SETFL) */
void scorep_event_io_change_status_flags(scorep_location *l, uint32_t handle, uint32_t status);
/* a file was deleted (unlink, remove, ...) through I/O paradigm `paradigm` */
void scorep_event_io_delete_file(scorep_location *l, uint32_t paradigm, uint32_t file);
/* a lock on the handle's file or stream (lockf, flockfile, ...), Score-P's IoAcquireLock,
 * IoReleaseLock and IoTryLock (an attempt that did not get it); type: OTF2_LockType
 * (SCOREP_IO_LOCK_EXCLUSIVE, SCOREP_IO_LOCK_SHARED) */
enum { SCOREP_IO_LOCK_EXCLUSIVE = 0, SCOREP_IO_LOCK_SHARED = 1 };
typedef enum { SCOREP_IO_LOCK_ACQUIRE, SCOREP_IO_LOCK_RELEASE, SCOREP_IO_LOCK_TRY } scorep_io_lock_event;
void scorep_event_io_lock(scorep_location *l, scorep_io_lock_event which, uint32_t handle,
                          uint32_t type);
/* op again: the profile counts the transferred bytes of reads and writes. error: 0, or for a
 * failed call (transferred SCOREP_IO_UNKNOWN_BYTES) its errno (POSIX, ISO C) or MPI error
 * code (MPI-IO): the trace's attribute io_error. SCOREP_IO_UNKNOWN_BYTES with error 0: the
 * operation succeeded but its size is not known (fscanf): an operation without bytes. */
void scorep_event_io_operation_complete(scorep_location *l, uint32_t handle, scorep_io_op op,
                                        uint64_t transferred, uint64_t matching_id, uint32_t error);

/* The per-file summary of this process (what scorep-report shows without a trace): bytes and
 * operations per handle are counted at every completion, whatever is recorded otherwise; at
 * finalize they are written, summed per (I/O paradigm, file), to
 * <experiment directory>/io_summary.<rank>.tsv (format: docs/io.md). */
void scorep_io_write_summary(const char *dir, int rank);
/* The same for the experiment directory and this process's rank: the finalize phase of the
 * subsystem that an I/O adapter registers (adapters/io, adapters/mpi), once per process:
 * scorep_io_summary_claim() is 1 for the first caller only. */
void scorep_io_summary_finalize(void);
int scorep_io_summary_claim(void);

#endif
