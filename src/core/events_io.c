/* events_io.c: records I/O events into the trace buffer (class MPI records, fields below)
 * and the bytes read and written into the profile (see events_io.h).
 * Record fields: comm = handle, peer = access mode / operation mode / whence / new handle,
 * tag = creation flags / operation flags, bytes = requested bytes / seek offset,
 * bytes2 = transferred bytes / seek result, request = matching id, msg_id = status flags /
 * error of a failed operation. */
#include "core/events_io.h"
#include "core/events.h"

static buf_mpi_rec *rec(scorep_location *l, uint32_t type, uint32_t handle)
{
    if (!l || !scorep_location_recording(l) || !l->tracing)
        return NULL;
    buf_mpi_rec *r = scorep_buffer_mpi(&l->buffer, scorep_event_time(l), type);
    if (r)
        r->comm = handle;
    return r;
}

void scorep_event_io_create_handle(scorep_location *l, uint32_t handle, uint32_t access,
                                   uint32_t creation, uint32_t status)
{
    buf_mpi_rec *r = rec(l, BUF_IO_CREATE_HANDLE, handle);
    if (r) {
        r->peer = access;
        r->tag = creation;
        r->msg_id = status;
    }
}

void scorep_event_io_destroy_handle(scorep_location *l, uint32_t handle)
{
    rec(l, BUF_IO_DESTROY_HANDLE, handle);
}

void scorep_event_io_duplicate_handle(scorep_location *l, uint32_t old_handle, uint32_t new_handle,
                                      uint32_t status)
{
    buf_mpi_rec *r = rec(l, BUF_IO_DUPLICATE_HANDLE, old_handle);
    if (r) {
        r->peer = new_handle;
        r->msg_id = status;
    }
}

void scorep_event_io_seek(scorep_location *l, uint32_t handle, int64_t offset, uint32_t whence,
                          uint64_t result)
{
    buf_mpi_rec *r = rec(l, BUF_IO_SEEK, handle);
    if (r) {
        r->peer = whence;
        r->bytes = (uint64_t)offset;
        r->bytes2 = result;
    }
}

void scorep_event_io_operation_begin(scorep_location *l, uint32_t handle, scorep_io_op op,
                                     uint32_t flags, uint64_t requested, uint64_t matching_id)
{
    buf_mpi_rec *r = rec(l, BUF_IO_OPERATION_BEGIN, handle);
    if (r) {
        r->peer = op;
        r->tag = flags;
        r->bytes = requested;
        r->request = matching_id;
    }
}

void scorep_event_io_operation_issued(scorep_location *l, uint32_t handle, uint64_t matching_id)
{
    buf_mpi_rec *r = rec(l, BUF_IO_OPERATION_ISSUED, handle);
    if (r)
        r->request = matching_id;
}

/* Score-P's metrics: exclusive, bytes, on the call path of the I/O call */
static uint32_t bytes_metric(scorep_io_op op)
{
    static uint32_t ids[2]; /* id + 1 */
    uint32_t id = __atomic_load_n(&ids[op], __ATOMIC_ACQUIRE);
    if (id)
        return id - 1;
    scorep_metric_def key = {op == SCOREP_IO_OP_READ ? "io_bytes_read" : "io_bytes_written",
                             "bytes",
                             SCOREP_METRIC_UINT64,
                             true,
                             .description =
                                 op == SCOREP_IO_OP_READ ? "I/O bytes read" : "I/O bytes written",
                             .source = SCOREP_MSRC_OTHER,
                             .mode = 4 /* absolute point */,
                             .base = 1,
                             .recorder = SCOREP_MREC_USER};
    id = scorep_defs_metric_full(&key);
    if (id != SCOREP_INVALID_ID)
        __atomic_store_n(&ids[op], id + 1, __ATOMIC_RELEASE);
    return id;
}

void scorep_event_io_operation_complete(scorep_location *l, uint32_t handle, scorep_io_op op,
                                        uint64_t transferred, uint64_t matching_id, uint32_t error)
{
    buf_mpi_rec *r = rec(l, BUF_IO_OPERATION_COMPLETE, handle);
    if (r) {
        r->peer = op;
        r->bytes2 = transferred;
        r->request = matching_id;
        r->msg_id = error;
    }
    if (op == SCOREP_IO_OP_FLUSH || transferred == SCOREP_IO_UNKNOWN_BYTES || !l ||
        !scorep_location_recording(l) || !l->profiling)
        return;
    uint32_t m = bytes_metric(op);
    if (m != SCOREP_INVALID_ID)
        scorep_profile_metric(&l->profile, m, (double)transferred);
}
