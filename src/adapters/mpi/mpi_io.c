/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_io.c: MPI-IO as I/O records (paradigm MPI-IO): a handle per MPI_File_open (its file,
 * its communicator), IoCreateHandle/IoDestroyHandle, IoOperationBegin/Complete around the
 * blocking reads and writes (collective flag for _all and _ordered; bytes transferred from
 * the status), the non-blocking ones (begin and issued at the call, complete when the
 * request completes in a Wait or Test), the split collectives (begin and issued at _begin,
 * complete at _end), IoSeek, flushes for MPI_File_sync. MPI_File -> handle (and the split
 * collective in progress): an open-addressing table written at open and close, read
 * without a lock. */
#include "adapters/mpi/mpi_comm.h"
#include "adapters/mpi/mpi_hooks.h"
#include "core/events_io.h"
#include "runtime/runtime.h"
#include "core/subsystem.h"
#include "defs/defs_io.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FILE_SLOTS = 4096 }; /* open MPI files at a time; more are regions only */
#define TOMBSTONE ((uintptr_t)1)
static struct {
    uintptr_t key; /* the MPI_File, 0 free, TOMBSTONE removed */
    uint32_t handle;
    uint32_t split_op;     /* the split collective in progress: its scorep_io_op */
    uint64_t split_match;  /* and its matching id, 0 for none */
} files[FILE_SLOTS];
static uint64_t n_opened;

static size_t slot_of(uintptr_t k)
{
    return (size_t)((k >> 4) * 0x9e3779b97f4a7c15ull >> 52) % FILE_SLOTS;
}

/* the slot of fh, or -1 */
static long file_slot(MPI_File fh)
{
    uintptr_t k = (uintptr_t)fh;
    for (size_t i = slot_of(k), n = 0; n < FILE_SLOTS; i = (i + 1) % FILE_SLOTS, n++) {
        uintptr_t s = __atomic_load_n(&files[i].key, __ATOMIC_ACQUIRE);
        if (s == 0)
            return -1;
        if (s == k)
            return (long)i;
    }
    return -1;
}

static uint32_t handle_of(MPI_File fh)
{
    long i = file_slot(fh);
    return i < 0 ? SCOREP_INVALID_ID : __atomic_load_n(&files[i].handle, __ATOMIC_ACQUIRE);
}

static void insert(MPI_File fh, uint32_t handle)
{
    uintptr_t k = (uintptr_t)fh;
    for (size_t i = slot_of(k), n = 0; n < FILE_SLOTS; i = (i + 1) % FILE_SLOTS, n++) {
        uintptr_t s = __atomic_load_n(&files[i].key, __ATOMIC_ACQUIRE);
        if ((s == 0 || s == TOMBSTONE || s == k) &&
            __atomic_compare_exchange_n(&files[i].key, &s, k, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            files[i].split_match = 0;
            __atomic_store_n(&files[i].handle, handle, __ATOMIC_RELEASE);
            return;
        }
    }
    scorep_warn_once("MPI-IO: more than 4096 files open at once; the others are regions only");
}

static void remove_file(uintptr_t k)
{
    for (size_t i = slot_of(k), n = 0; n < FILE_SLOTS; i = (i + 1) % FILE_SLOTS, n++) {
        uintptr_t s = __atomic_load_n(&files[i].key, __ATOMIC_ACQUIRE);
        if (s == 0)
            return;
        if (s == k) {
            __atomic_store_n(&files[i].handle, SCOREP_INVALID_ID, __ATOMIC_RELEASE);
            __atomic_store_n(&files[i].key, TOMBSTONE, __ATOMIC_RELEASE);
            return;
        }
    }
}

/* the per-file summary is written at finalize (core/events_io.c), also without the POSIX and
 * ISO C wrappers */
static const scorep_subsystem io_summary = {.name = "I/O summary (MPI-IO)",
                                            .finalize = scorep_io_summary_finalize};

void scorep_mpi_post_file_open(scorep_mpi_frame *f, int ret, MPI_Comm comm, const char *filename,
                               int amode, MPI_File *fh)
{
    if (!f->record || ret != MPI_SUCCESS || !filename)
        return;
    if (scorep_io_summary_claim() && scorep_runtime_register(&io_summary) != 0)
        scorep_warn_once("MPI-IO: cannot register the summary; no io_summary file is written");
    char resolved[PATH_MAX], name[48];
    const char *path = filename;
    const char *colon = strchr(filename, ':'); /* ROMIO's "ufs:path" prefixes */
    if (colon && colon - filename < 16 && colon[1] != '\0')
        path = colon + 1;
    if (realpath(path, resolved))
        path = resolved;
    snprintf(name, sizeof name, "MPI_File %llu",
             (unsigned long long)__atomic_add_fetch(&n_opened, 1, __ATOMIC_RELAXED));
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    uint32_t access = (amode & MPI_MODE_RDONLY) ? 0 : (amode & MPI_MODE_WRONLY) ? 1 : 2;
    scorep_io_handle_def key = {name, scorep_defs_io_file(path),     SCOREP_IO_MPIIO,
                                0,    c ? c->id : SCOREP_INVALID_ID, 0};
    uint32_t h = key.file == SCOREP_INVALID_ID ? SCOREP_INVALID_ID : scorep_defs_io_handle(&key);
    if (h == SCOREP_INVALID_ID)
        return;
    insert(*fh, h);
    uint32_t creation = ((amode & MPI_MODE_CREATE) ? 1u : 0) | ((amode & MPI_MODE_EXCL) ? 8u : 0);
    uint32_t status =
        ((amode & MPI_MODE_APPEND) ? 2u : 0) | ((amode & MPI_MODE_DELETE_ON_CLOSE) ? 256u : 0);
    scorep_event_io_create_handle(f->l, h, access, creation, status);
}

void scorep_mpi_pre_file_close(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File *fh)
{
    c->handle = SCOREP_INVALID_ID;
    c->matching = fh ? (uint64_t)(uintptr_t)*fh : 0;
    if (f->record && fh)
        c->handle = handle_of(*fh);
}

void scorep_mpi_post_file_close(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_file *c)
{
    if (ret != MPI_SUCCESS || c->handle == SCOREP_INVALID_ID)
        return;
    remove_file((uintptr_t)c->matching);
    scorep_event_io_destroy_handle(f->l, c->handle);
}

static uint64_t next_matching(void)
{
    static uint64_t n;
    return __atomic_add_fetch(&n, 1, __ATOMIC_RELAXED);
}

/* The begin of a read or write of count elements of type; flags: blocking or not. */
static void begin_data_op(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File fh, int count,
                          MPI_Datatype type, int op, int collective, uint32_t flags)
{
    c->handle = f->record ? handle_of(fh) : SCOREP_INVALID_ID;
    if (c->handle == SCOREP_INVALID_ID)
        return;
    int size = 0;
    if (count < 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS || size < 0)
        size = 0;
    c->op = op ? SCOREP_IO_OP_WRITE : SCOREP_IO_OP_READ;
    c->matching = next_matching();
    scorep_event_io_operation_begin(f->l, c->handle, (scorep_io_op)c->op,
                                    flags | (collective ? SCOREP_IO_OP_FLAG_COLLECTIVE : 0),
                                    (uint64_t)count * (uint64_t)size, c->matching);
}

void scorep_mpi_pre_file_op(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File fh, int count,
                            MPI_Datatype type, int op, int collective)
{
    begin_data_op(f, c, fh, count, type, op, collective, SCOREP_IO_OP_FLAG_NONE);
}

void scorep_mpi_post_file_op(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_file *c,
                             MPI_Status *status)
{
    if (c->handle == SCOREP_INVALID_ID)
        return;
    uint64_t done = ret == MPI_SUCCESS ? scorep_mpi_status_bytes(status) : SCOREP_IO_UNKNOWN_BYTES;
    scorep_event_io_operation_complete(f->l, c->handle, (scorep_io_op)c->op, done, c->matching,
                                       ret == MPI_SUCCESS ? 0 : (uint32_t)ret);
}

void scorep_mpi_pre_file_sync(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File fh)
{
    c->handle = f->record ? handle_of(fh) : SCOREP_INVALID_ID;
    if (c->handle == SCOREP_INVALID_ID)
        return;
    c->op = SCOREP_IO_OP_FLUSH;
    c->matching = next_matching();
    scorep_event_io_operation_begin(f->l, c->handle, SCOREP_IO_OP_FLUSH,
                                    SCOREP_IO_OP_FLAG_COLLECTIVE, 0, c->matching);
}

void scorep_mpi_post_file_sync(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_file *c)
{
    if (c->handle != SCOREP_INVALID_ID)
        scorep_event_io_operation_complete(f->l, c->handle, SCOREP_IO_OP_FLUSH,
                                           ret == MPI_SUCCESS ? 0 : SCOREP_IO_UNKNOWN_BYTES,
                                           c->matching, ret == MPI_SUCCESS ? 0 : (uint32_t)ret);
}

void scorep_mpi_pre_file_iop(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File fh, int count,
                             MPI_Datatype type, int op, int collective)
{
    begin_data_op(f, c, fh, count, type, op, collective, SCOREP_IO_OP_FLAG_NON_BLOCKING);
}

void scorep_mpi_post_file_iop(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_file *c,
                              MPI_Request *request)
{
    if (c->handle == SCOREP_INVALID_ID)
        return;
    scorep_mpi_req *r =
        ret == MPI_SUCCESS && request
            ? scorep_mpi_req_create(*request, SCOREP_MPI_REQ_IO, SCOREP_MPI_REQ_EVENTS)
            : NULL;
    if (r) {
        r->win = c->handle;
        r->io_op = c->op;
        r->matching_id = c->matching;
    }
    if (!r || !scorep_mpi_req_publish(r)) { /* failed (or no memory to follow it): it ends here */
        scorep_event_io_operation_complete(f->l, c->handle, (scorep_io_op)c->op,
                                           SCOREP_IO_UNKNOWN_BYTES, c->matching,
                                           ret == MPI_SUCCESS ? 0 : (uint32_t)ret);
        return;
    }
    scorep_event_io_operation_issued(f->l, c->handle, c->matching);
}

void scorep_mpi_file_request_completed(scorep_mpi_frame *f, scorep_mpi_req *r, MPI_Status *st,
                                       int cancelled)
{
    uint64_t done = st && !cancelled ? scorep_mpi_status_bytes(st) : SCOREP_IO_UNKNOWN_BYTES;
    scorep_event_io_operation_complete(f->l, r->win, (scorep_io_op)r->io_op, done, r->matching_id,
                                       0);
}

/* offsets are in etype units of the view; the resulting byte offset is not asked for (one
 * more MPI call), so it is unknown */
void scorep_mpi_post_file_seek(scorep_mpi_frame *f, int ret, MPI_File fh, MPI_Offset offset,
                               int whence)
{
    uint32_t h = f->record && ret == MPI_SUCCESS ? handle_of(fh) : SCOREP_INVALID_ID;
    if (h == SCOREP_INVALID_ID)
        return;
    uint32_t w = whence == MPI_SEEK_SET ? 0 : whence == MPI_SEEK_CUR ? 1 : 2;
    scorep_event_io_seek(f->l, h, (int64_t)offset, w, SCOREP_IO_UNKNOWN_BYTES);
}

void scorep_mpi_pre_file_split_begin(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File fh,
                                     int count, MPI_Datatype type, int op)
{
    begin_data_op(f, c, fh, count, type, op, 1, SCOREP_IO_OP_FLAG_NON_BLOCKING);
}

void scorep_mpi_post_file_split_begin(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_file *c,
                                      MPI_File fh)
{
    if (c->handle == SCOREP_INVALID_ID)
        return;
    long i = ret == MPI_SUCCESS ? file_slot(fh) : -1;
    if (i < 0) { /* failed: the operation ends here */
        scorep_event_io_operation_complete(f->l, c->handle, (scorep_io_op)c->op,
                                           SCOREP_IO_UNKNOWN_BYTES, c->matching,
                                           ret == MPI_SUCCESS ? 0 : (uint32_t)ret);
        return;
    }
    files[i].split_op = c->op;
    __atomic_store_n(&files[i].split_match, c->matching, __ATOMIC_RELEASE);
    scorep_event_io_operation_issued(f->l, c->handle, c->matching);
}

void scorep_mpi_pre_file_split_end(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File fh)
{
    c->handle = SCOREP_INVALID_ID;
    long i = f->record ? file_slot(fh) : -1;
    uint64_t m = i < 0 ? 0 : __atomic_exchange_n(&files[i].split_match, 0, __ATOMIC_ACQ_REL);
    if (!m) /* no split collective begun while recording */
        return;
    c->handle = __atomic_load_n(&files[i].handle, __ATOMIC_ACQUIRE);
    c->op = files[i].split_op;
    c->matching = m;
}

void scorep_mpi_post_file_split_end(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_file *c,
                                    MPI_Status *status)
{
    scorep_mpi_post_file_op(f, ret, c, status);
}
