/* SPDX-License-Identifier: BSD-3-Clause */
/* events_mpi.c: records message-passing events into the trace buffer (class MPI) and
 * their byte counts into the profile (bytes_sent, bytes_received, bytes_put, bytes_get).
 * The blocking send and receive are inline in events_mpi.h. */
#include "core/events_mpi.h"
#include "core/events.h"

static bool tracing_now(const scorep_location *l)
{
    return l && scorep_location_recording(l) && l->tracing;
}

/* A record stamped now (the timer is read only when l traces). */
static buf_mpi_rec *rec(scorep_location *l, uint32_t type)
{
    return tracing_now(l) ? scorep_buffer_mpi(&l->buffer, scorep_event_time(l), type) : NULL;
}

/* raw: a timer value the caller read, or SCOREP_TS_NEXT */
static buf_mpi_rec *rec_at(scorep_location *l, uint64_t raw, uint32_t type)
{
    return tracing_now(l) ? scorep_buffer_mpi(&l->buffer, scorep_location_now(l, raw), type) : NULL;
}

/* Substrate plugins take the event (substrates.h); its timestamp is the trace record's, or
 * one of its own when l does not trace (raw as for rec_at; 0 for rec's "now"). */
static bool plugged(const scorep_location *l)
{
    return l && __builtin_expect(l->substrates_on, 0) && scorep_location_recording(l);
}

static uint64_t plug_ts(scorep_location *l, uint64_t raw, bool now)
{
    if (l->tracing)
        return l->last_ts;
    return now ? scorep_event_time(l) : scorep_location_now(l, raw);
}

static pnode *profile_node(scorep_location *l)
{
    if (!l || !scorep_location_recording(l) || !l->profiling)
        return NULL;
    return l->profile.cur;
}

static void count_bytes(scorep_location *l, uint64_t sent, uint64_t received)
{
    pnode *n = profile_node(l);
    if (n) {
        n->bytes_sent += sent;
        n->bytes_received += received;
    }
}

static void message(scorep_location *l, uint64_t raw, uint32_t type, uint32_t comm, uint32_t peer,
                    uint32_t tag, uint64_t bytes, uint64_t request, uint64_t msg_id,
                    uint64_t handle)
{
    buf_mpi_rec *r = rec_at(l, raw, type);
    if (r) {
        r->comm = comm;
        r->peer = peer;
        r->tag = tag;
        r->bytes = bytes;
        r->request = request;
        r->msg_id = msg_id;
        r->handle = handle;
    }
}

static void request_only(scorep_location *l, uint64_t raw, uint32_t type, uint64_t request)
{
    buf_mpi_rec *r = rec_at(l, raw, type);
    if (r)
        r->request = request;
    if (plugged(l)) {
        scorep_substrates_request_event which =
            type == BUF_MPI_ISEND_COMPLETE  ? SCOREP_SUBSTRATES_MPI_ISEND_COMPLETE
            : type == BUF_MPI_IRECV_REQUEST ? SCOREP_SUBSTRATES_MPI_IRECV_REQUEST
            : type == BUF_MPI_REQUEST_TEST  ? SCOREP_SUBSTRATES_MPI_REQUEST_TESTED
                                            : SCOREP_SUBSTRATES_MPI_REQUEST_CANCELLED;
        scorep_substrates_mpi_request(l, plug_ts(l, raw, false), which, request);
    }
}

void scorep_event_mpi_request_test(scorep_location *l, uint64_t raw, uint64_t request)
{
    SCOREP_LOCATION_EVENT(l);
    request_only(l, raw, BUF_MPI_REQUEST_TEST, request);
}

void scorep_event_mpi_request_cancelled(scorep_location *l, uint64_t raw, uint64_t request)
{
    SCOREP_LOCATION_EVENT(l);
    request_only(l, raw, BUF_MPI_REQUEST_CANCELLED, request);
}

void scorep_event_mpi_probe(scorep_location *l, uint32_t comm, uint32_t source, uint32_t tag,
                            uint64_t bytes, uint64_t handle, uint64_t msg_id)
{
    SCOREP_LOCATION_EVENT(l);
    message(l, scorep_timer_ticks(), BUF_MPI_PROBE, comm, source, tag, bytes, 0, msg_id, handle);
}

void scorep_event_mpi_collective_begin(scorep_location *l)
{
    SCOREP_LOCATION_EVENT(l);
    rec(l, BUF_MPI_COLL_BEGIN);
    if (plugged(l))
        scorep_substrates_mpi_collective_begin(l, plug_ts(l, 0, true));
}

static void collective(scorep_location *l, uint32_t type, uint32_t op, uint32_t comm, uint32_t root,
                       uint64_t sent, uint64_t received, uint64_t request)
{
    buf_mpi_rec *r = rec(l, type);
    if (r) {
        r->tag = op;
        r->comm = comm;
        r->peer = root;
        r->bytes = sent;
        r->bytes2 = received;
        r->request = request;
    }
    count_bytes(l, sent, received);
}

void scorep_event_mpi_collective_end(scorep_location *l, scorep_collective_op op, uint32_t comm,
                                     uint32_t root, uint64_t sent, uint64_t received)
{
    SCOREP_LOCATION_EVENT(l);
    collective(l, BUF_MPI_COLL_END, op, comm, root, sent, received, 0);
    if (plugged(l))
        scorep_substrates_mpi_collective_end(l, plug_ts(l, 0, true), comm, root, (int)op, sent,
                                             received);
}

void scorep_event_mpi_nbc_request(scorep_location *l, uint64_t raw, uint64_t request)
{
    SCOREP_LOCATION_EVENT(l);
    buf_mpi_rec *r = rec_at(l, raw, BUF_MPI_NBC_REQUEST);
    if (r)
        r->request = request;
    if (plugged(l))
        scorep_substrates_mpi_nbc_request(l, plug_ts(l, raw, false), request);
}

void scorep_event_mpi_nbc_complete(scorep_location *l, scorep_collective_op op, uint32_t comm,
                                   uint32_t root, uint64_t sent, uint64_t received,
                                   uint64_t request)
{
    SCOREP_LOCATION_EVENT(l);
    collective(l, BUF_MPI_NBC_COMPLETE, op, comm, root, sent, received, request);
    if (plugged(l))
        scorep_substrates_mpi_nbc_complete(l, plug_ts(l, 0, true), comm, root, (int)op, sent,
                                           received, request);
}

static void comm_only(scorep_location *l, uint32_t type, uint32_t comm)
{
    buf_mpi_rec *r = rec(l, type);
    if (r)
        r->comm = comm;
}

void scorep_event_mpi_comm_create(scorep_location *l, uint32_t comm)
{
    SCOREP_LOCATION_EVENT(l);
    comm_only(l, BUF_MPI_COMM_CREATE, comm);
    if (plugged(l))
        scorep_substrates_comm(l, plug_ts(l, 0, true), true, comm);
}

void scorep_event_mpi_comm_destroy(scorep_location *l, uint32_t comm)
{
    SCOREP_LOCATION_EVENT(l);
    comm_only(l, BUF_MPI_COMM_DESTROY, comm);
    if (plugged(l))
        scorep_substrates_comm(l, plug_ts(l, 0, true), false, comm);
}

/* ----------------------------------------------------------------- one-sided */
void scorep_event_rma_win_create(scorep_location *l, uint32_t win)
{
    SCOREP_LOCATION_EVENT(l);
    comm_only(l, BUF_RMA_WIN_CREATE, win);
    if (plugged(l))
        scorep_substrates_rma_win(l, plug_ts(l, 0, true), true, win);
}

void scorep_event_rma_win_destroy(scorep_location *l, uint32_t win)
{
    SCOREP_LOCATION_EVENT(l);
    comm_only(l, BUF_RMA_WIN_DESTROY, win);
    if (plugged(l))
        scorep_substrates_rma_win(l, plug_ts(l, 0, true), false, win);
}

static void rma(scorep_location *l, uint32_t type, uint32_t win, uint32_t remote, uint32_t kind,
                uint64_t bytes, uint64_t bytes2, uint64_t id)
{
    buf_mpi_rec *r = rec(l, type);
    if (r) {
        r->comm = win;
        r->peer = remote;
        r->tag = kind;
        r->bytes = bytes;
        r->bytes2 = bytes2;
        r->request = id;
    }
}

static void count_rma(scorep_location *l, uint64_t put, uint64_t get)
{
    pnode *n = profile_node(l);
    if (n) {
        n->bytes_put += put;
        n->bytes_get += get;
    }
}

void scorep_event_rma_put(scorep_location *l, uint32_t win, uint32_t remote, uint64_t bytes,
                          uint64_t matching_id)
{
    SCOREP_LOCATION_EVENT(l);
    rma(l, BUF_RMA_PUT, win, remote, 0, bytes, 0, matching_id);
    count_rma(l, bytes, 0);
    if (plugged(l))
        scorep_substrates_rma_transfer(l, plug_ts(l, 0, true), true, win, remote, bytes,
                                       matching_id);
}

void scorep_event_rma_get(scorep_location *l, uint32_t win, uint32_t remote, uint64_t bytes,
                          uint64_t matching_id)
{
    SCOREP_LOCATION_EVENT(l);
    rma(l, BUF_RMA_GET, win, remote, 0, bytes, 0, matching_id);
    count_rma(l, 0, bytes);
    if (plugged(l))
        scorep_substrates_rma_transfer(l, plug_ts(l, 0, true), false, win, remote, bytes,
                                       matching_id);
}

void scorep_event_rma_atomic(scorep_location *l, uint32_t win, uint32_t remote,
                             scorep_rma_atomic_type type, uint64_t sent, uint64_t received,
                             uint64_t matching_id)
{
    SCOREP_LOCATION_EVENT(l);
    rma(l, BUF_RMA_ATOMIC, win, remote, type, sent, received, matching_id);
    count_rma(l, sent, received);
    if (plugged(l))
        scorep_substrates_rma_atomic(l, plug_ts(l, 0, true), win, remote, type, sent, received,
                                     matching_id);
}

void scorep_event_rma_op_complete_blocking(scorep_location *l, uint32_t win, uint64_t matching_id)
{
    SCOREP_LOCATION_EVENT(l);
    rma(l, BUF_RMA_OP_COMPLETE_BLOCKING, win, 0, 0, 0, 0, matching_id);
    if (plugged(l))
        scorep_substrates_rma_op_complete(l, plug_ts(l, 0, true), true, win, matching_id);
}

void scorep_event_rma_op_complete_non_blocking(scorep_location *l, uint32_t win,
                                               uint64_t matching_id)
{
    SCOREP_LOCATION_EVENT(l);
    rma(l, BUF_RMA_OP_COMPLETE_NON_BLOCKING, win, 0, 0, 0, 0, matching_id);
    if (plugged(l))
        scorep_substrates_rma_op_complete(l, plug_ts(l, 0, true), false, win, matching_id);
}

void scorep_event_rma_collective_begin(scorep_location *l, scorep_rma_sync_level level)
{
    SCOREP_LOCATION_EVENT(l);
    rec(l, BUF_RMA_COLL_BEGIN); /* OTF2's RmaCollectiveBegin has no level */
    if (plugged(l))
        scorep_substrates_rma_collective_begin(l, plug_ts(l, 0, true), level);
}

void scorep_event_rma_collective_end(scorep_location *l, scorep_collective_op op,
                                     scorep_rma_sync_level level, uint32_t win, uint32_t root,
                                     uint64_t sent, uint64_t received)
{
    SCOREP_LOCATION_EVENT(l);
    buf_mpi_rec *r = rec(l, BUF_RMA_COLL_END);
    if (r) {
        r->tag = op;
        r->handle = level;
        r->comm = win;
        r->peer = root;
        r->bytes = sent;
        r->bytes2 = received;
    }
    if (plugged(l))
        scorep_substrates_rma_collective_end(l, plug_ts(l, 0, true), (int)op, level, win, root,
                                             sent, received);
}

void scorep_event_rma_group_sync(scorep_location *l, scorep_rma_sync_level level, uint32_t win,
                                 uint32_t group)
{
    SCOREP_LOCATION_EVENT(l);
    rma(l, BUF_RMA_GROUP_SYNC, win, 0, level, group, 0, 0);
    if (plugged(l))
        scorep_substrates_rma_group_sync(l, plug_ts(l, 0, true), level, win, group);
}

void scorep_event_rma_request_lock(scorep_location *l, uint32_t win, uint32_t remote,
                                   uint64_t lock_id, scorep_lock_type type)
{
    SCOREP_LOCATION_EVENT(l);
    rma(l, BUF_RMA_REQUEST_LOCK, win, remote, type, 0, 0, lock_id);
    if (plugged(l))
        scorep_substrates_rma_lock(l, plug_ts(l, 0, true), 0, win, remote, lock_id, type);
}

void scorep_event_rma_acquire_lock(scorep_location *l, uint32_t win, uint32_t remote,
                                   uint64_t lock_id, scorep_lock_type type)
{
    SCOREP_LOCATION_EVENT(l);
    rma(l, BUF_RMA_ACQUIRE_LOCK, win, remote, type, 0, 0, lock_id);
    if (plugged(l))
        scorep_substrates_rma_lock(l, plug_ts(l, 0, true), 1, win, remote, lock_id, type);
}

void scorep_event_rma_release_lock(scorep_location *l, uint32_t win, uint32_t remote,
                                   uint64_t lock_id)
{
    SCOREP_LOCATION_EVENT(l);
    rma(l, BUF_RMA_RELEASE_LOCK, win, remote, 0, 0, 0, lock_id);
    if (plugged(l))
        scorep_substrates_rma_release_lock(l, plug_ts(l, 0, true), win, remote, lock_id);
}

void scorep_event_rma_sync(scorep_location *l, uint32_t win, uint32_t remote,
                           scorep_rma_sync_type type)
{
    SCOREP_LOCATION_EVENT(l);
    rma(l, BUF_RMA_SYNC, win, remote, type, 0, 0, 0);
    if (plugged(l))
        scorep_substrates_rma_sync(l, plug_ts(l, 0, true), win, remote, type);
}

void scorep_event_rma_try_lock(scorep_location *l, uint32_t win, uint32_t remote,
                               uint64_t lock_id, scorep_lock_type type)
{
    SCOREP_LOCATION_EVENT(l);
    rma(l, BUF_RMA_TRY_LOCK, win, remote, type, 0, 0, lock_id);
    if (plugged(l))
        scorep_substrates_rma_lock(l, plug_ts(l, 0, true), 2, win, remote, lock_id, type);
}

void scorep_event_rma_wait_change(scorep_location *l, uint32_t win)
{
    SCOREP_LOCATION_EVENT(l);
    comm_only(l, BUF_RMA_WAIT_CHANGE, win);
    if (plugged(l))
        scorep_substrates_rma_wait_change(l, plug_ts(l, 0, true), win);
}

void scorep_event_rma_op_complete_remote(scorep_location *l, uint32_t win, uint64_t matching_id)
{
    SCOREP_LOCATION_EVENT(l);
    rma(l, BUF_RMA_OP_COMPLETE_REMOTE, win, 0, 0, 0, 0, matching_id);
    if (plugged(l))
        scorep_substrates_rma_op_complete_remote(l, plug_ts(l, 0, true), win, matching_id);
}
