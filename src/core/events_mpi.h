/* SPDX-License-Identifier: BSD-3-Clause */
/* events_mpi.h: core events of message passing (point-to-point, requests, probes,
 * collectives, one-sided, communicator life cycle). Called by the MPI adapter with
 * process-local definition ids (see defs/defs_mpi.h) and ranks within the communicator. */
#ifndef SCOREP_EVENTS_MPI_H
#define SCOREP_EVENTS_MPI_H

#include "core/events.h"
#include "core/location.h"
#include "substrates/substrates.h"

#include <stdint.h>

/* Collective operation kinds: the values of OTF2_CollectiveOp. */
typedef enum {
    SCOREP_COLL_BARRIER = 0,
    SCOREP_COLL_BCAST = 1,
    SCOREP_COLL_GATHER = 2,
    SCOREP_COLL_GATHERV = 3,
    SCOREP_COLL_SCATTER = 4,
    SCOREP_COLL_SCATTERV = 5,
    SCOREP_COLL_ALLGATHER = 6,
    SCOREP_COLL_ALLGATHERV = 7,
    SCOREP_COLL_ALLTOALL = 8,
    SCOREP_COLL_ALLTOALLV = 9,
    SCOREP_COLL_ALLTOALLW = 10,
    SCOREP_COLL_ALLREDUCE = 11,
    SCOREP_COLL_REDUCE = 12,
    SCOREP_COLL_REDUCE_SCATTER = 13,
    SCOREP_COLL_SCAN = 14,
    SCOREP_COLL_EXSCAN = 15,
    SCOREP_COLL_REDUCE_SCATTER_BLOCK = 16,
    SCOREP_COLL_CREATE_HANDLE = 17,
    SCOREP_COLL_DESTROY_HANDLE = 18,
    SCOREP_COLL_ALLOCATE = 19,
    SCOREP_COLL_DEALLOCATE = 20,
    SCOREP_COLL_CREATE_HANDLE_AND_ALLOCATE = 21,
    SCOREP_COLL_DESTROY_HANDLE_AND_DEALLOCATE = 22
} scorep_collective_op;

#define SCOREP_NO_ROOT UINT32_MAX

/* The point-to-point events are inline (always: GCC made out-of-line copies of some once the
 * MPI adapter's hooks were inlined into its wrappers): they are on the path of every message.
 * raw: the timer value (scorep_timer_ticks) that stamps the event, read by the caller, which
 * stamps the Leave of its call with it too (scorep_event_leave_raw); or SCOREP_TS_NEXT: one
 * tick after the location's previous event, without reading the timer (a send, a persistent
 * request's start, a non-blocking collective's request: recorded right after the Enter of
 * their call, before MPI can deliver anything). Profiling reads no time for these events. */
#define SCOREP_TS_NEXT 0

/* The time substrate plugins get: the trace record's when tracing, else the caller's
 * reading of the timer after its PMPI call. */
static inline uint64_t scorep_event_mpi_plugin_time(scorep_location *l, uint64_t raw)
{
    return l->tracing ? l->last_ts : scorep_location_now(l, raw);
}

/* What a send and a receive (blocking or not) record: the byte count of the profile's
 * current call path, and when tracing the message record, written whole (request: the
 * request id of a non-blocking one, else 0; handle: the Mprobe message handle of a receive,
 * else 0). The caller has checked that recording is on and marks the event in progress
 * (SCOREP_LOCATION_EVENT). */
static inline void scorep_event_mpi_transfer(scorep_location *l, uint64_t raw, uint32_t type,
                                             int sent, uint32_t comm, uint32_t peer, uint32_t tag,
                                             uint64_t bytes, uint64_t msg_id, uint64_t request,
                                             uint64_t handle)
{
    if (l->profiling && l->profile.cur) {
        if (sent)
            l->profile.cur->bytes_sent += bytes;
        else
            l->profile.cur->bytes_received += bytes;
    }
    if (l->tracing)
        scorep_buffer_mpi_message(&l->buffer, scorep_location_now(l, raw), type, comm, peer, tag,
                                  bytes, request, msg_id, handle);
}

/* blocking send; msg_id: the n-th message on (comm, sender, receiver, tag) */
static inline __attribute__((always_inline)) void
scorep_event_mpi_send(scorep_location *l, uint64_t raw, uint32_t comm, uint32_t dest, uint32_t tag,
                      uint64_t bytes, uint64_t msg_id)
{
    SCOREP_LOCATION_EVENT(l);
    if (__builtin_expect(!scorep_location_recording(l), 0))
        return;
    scorep_event_mpi_transfer(l, raw, BUF_MPI_SEND, 1, comm, dest, tag, bytes, msg_id, 0, 0);
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_mpi_send(l, scorep_event_mpi_plugin_time(l, raw), comm, dest, tag, bytes);
}

/* handle: Mprobe/Improbe message handle the receive consumed (0 for plain receives) */
static inline __attribute__((always_inline)) void
scorep_event_mpi_recv(scorep_location *l, uint64_t raw, uint32_t comm, uint32_t source,
                      uint32_t tag, uint64_t bytes, uint64_t msg_id, uint64_t handle)
{
    SCOREP_LOCATION_EVENT(l);
    if (__builtin_expect(!scorep_location_recording(l), 0))
        return;
    scorep_event_mpi_transfer(l, raw, BUF_MPI_RECV, 0, comm, source, tag, bytes, msg_id, 0,
                              handle);
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_mpi_recv(l, scorep_event_mpi_plugin_time(l, raw), comm, source, tag,
                                   bytes);
}

/* non-blocking point-to-point; request: a per-process request id (never 0); raw: the timer
 * value the caller read after its PMPI call (see above), shared by all events of the call.
 * Inline as the blocking ones: a non-blocking message has four of them on its path, and a
 * profile records only the byte counts of two. */
static inline __attribute__((always_inline)) void
scorep_event_mpi_isend(scorep_location *l, uint64_t raw, uint32_t comm, uint32_t dest, uint32_t tag,
                       uint64_t bytes, uint64_t request, uint64_t msg_id)
{
    SCOREP_LOCATION_EVENT(l);
    if (__builtin_expect(!scorep_location_recording(l), 0))
        return;
    scorep_event_mpi_transfer(l, raw, BUF_MPI_ISEND, 1, comm, dest, tag, bytes, msg_id, request,
                              0);
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_mpi_isend(l, scorep_event_mpi_plugin_time(l, raw), comm, dest, tag,
                                    bytes, request);
}

/* A record that carries only a request id (completion of a send, posting of a receive);
 * which: the substrate plugins' request event. A profile has nothing to record for it: then
 * no busy mark either (the location's flags are read before it; l is not NULL). */
static inline __attribute__((always_inline)) void
scorep_event_mpi_request_only(scorep_location *l, uint64_t raw, uint32_t type,
                              scorep_substrates_request_event which, uint64_t request)
{
    if (!l->tracing && !l->substrates_on)
        return;
    SCOREP_LOCATION_EVENT_NONNULL(l);
    if (__builtin_expect(scorep_location_recording(l), 1)) {
        if (l->tracing)
            scorep_buffer_mpi_message(&l->buffer, scorep_location_now(l, raw), type, 0, 0, 0, 0,
                                      request, 0, 0);
        if (l->substrates_on)
            scorep_substrates_mpi_request(l, scorep_event_mpi_plugin_time(l, raw), which, request);
    }
}

static inline __attribute__((always_inline)) void
scorep_event_mpi_isend_complete(scorep_location *l, uint64_t raw, uint64_t request)
{
    scorep_event_mpi_request_only(l, raw, BUF_MPI_ISEND_COMPLETE,
                                  SCOREP_SUBSTRATES_MPI_ISEND_COMPLETE, request);
}

static inline __attribute__((always_inline)) void
scorep_event_mpi_irecv_request(scorep_location *l, uint64_t raw, uint64_t request)
{
    scorep_event_mpi_request_only(l, raw, BUF_MPI_IRECV_REQUEST,
                                  SCOREP_SUBSTRATES_MPI_IRECV_REQUEST, request);
}

static inline __attribute__((always_inline)) void
scorep_event_mpi_irecv(scorep_location *l, uint64_t raw, uint32_t comm, uint32_t source,
                       uint32_t tag, uint64_t bytes, uint64_t request, uint64_t msg_id,
                       uint64_t handle)
{
    SCOREP_LOCATION_EVENT(l);
    if (__builtin_expect(!scorep_location_recording(l), 0))
        return;
    scorep_event_mpi_transfer(l, raw, BUF_MPI_IRECV, 0, comm, source, tag, bytes, msg_id,
                              request, handle);
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_mpi_irecv(l, scorep_event_mpi_plugin_time(l, raw), comm, source, tag,
                                    bytes, request);
}
/* The fast paths of the message path (issue #31): a send's Enter with its MpiSend or
 * MpiIsend, a blocking receive's MpiRecv with its Leave, each in one step: one busy mark,
 * one gate test, one slot test per stream, for a location in the mode given (profiling,
 * tracing or both: its events_fast byte, so no metric sources and no substrate plugins),
 * in the common case of the compiler hooks' fast paths (events.h, scorep_event_enter_fast_as
 * and _leave_fast_as: no throttle update pending, l records, the inline timer, room in the
 * call stack and in the pages of the depth's stream and of the MPI class's). Every test
 * before the first change: otherwise they return false having changed nothing, and the
 * caller records the events one by one. The records, the profile and the call stack are
 * those of scorep_event_enter, scorep_event_mpi_send (stamped SCOREP_TS_NEXT) and
 * scorep_event_mpi_recv + scorep_event_leave_raw, timestamps included. */

/* message: with the send's record (type: BUF_MPI_SEND with request 0, or BUF_MPI_ISEND with
 * its request id), else the Enter alone (any wrapped call's: the compiler hooks' fast
 * Enter, but a profile node found through next_hit too); events.h's fast Enter */
static inline __attribute__((always_inline)) bool
scorep_event_mpi_enter_send_fast_as(scorep_location *l, uint32_t region, uint32_t type,
                                    uint32_t comm, uint32_t dest, uint32_t tag, uint64_t bytes,
                                    uint64_t request, uint64_t msg_id, const bool message,
                                    const bool profiling, const bool tracing)
{
    const scorep_event_fast_msg msg = {type, comm, dest, tag, bytes, request, msg_id};
    return scorep_event_enter_fast_msg_as(l, region, 0, message ? &msg : NULL, true, profiling,
                                          tracing);
}

/* The same in l's mode (scorep_location_events_fast): each mode's code compiled on its own;
 * false (nothing changed) for mode 0. */
static inline __attribute__((always_inline)) bool
scorep_event_mpi_enter_send_fast(scorep_location *l, uint32_t region, uint32_t type,
                                 uint32_t comm, uint32_t dest, uint32_t tag, uint64_t bytes,
                                 uint64_t request, uint64_t msg_id)
{
    uint32_t mode = scorep_location_events_fast(l);
    if (mode == SCOREP_EVENTS_FAST_PROFILE)
        return scorep_event_mpi_enter_send_fast_as(l, region, type, comm, dest, tag, bytes,
                                                   request, msg_id, true, true, false);
    if (mode == SCOREP_EVENTS_FAST_TRACE)
        return scorep_event_mpi_enter_send_fast_as(l, region, type, comm, dest, tag, bytes,
                                                   request, msg_id, true, false, true);
    return mode == SCOREP_EVENTS_FAST_BOTH &&
           scorep_event_mpi_enter_send_fast_as(l, region, type, comm, dest, tag, bytes, request,
                                               msg_id, true, true, true);
}

/* The Enter of a wrapped call without a message */
static inline __attribute__((always_inline)) bool scorep_event_mpi_enter_fast(scorep_location *l,
                                                                             uint32_t region)
{
    uint32_t mode = scorep_location_events_fast(l);
    if (mode == SCOREP_EVENTS_FAST_PROFILE)
        return scorep_event_mpi_enter_send_fast_as(l, region, 0, 0, 0, 0, 0, 0, 0, false, true,
                                                   false);
    if (mode == SCOREP_EVENTS_FAST_TRACE)
        return scorep_event_mpi_enter_send_fast_as(l, region, 0, 0, 0, 0, 0, 0, 0, false, false,
                                                   true);
    return mode == SCOREP_EVENTS_FAST_BOTH &&
           scorep_event_mpi_enter_send_fast_as(l, region, 0, 0, 0, 0, 0, 0, 0, false, true, true);
}

/* A message's record with the Leave, in one step: a blocking receive (BUF_MPI_RECV,
 * scorep_event_mpi_recv_leave_fast) or a request's completion in MPI_Wait: BUF_MPI_IRECV
 * (comm, source, tag, bytes, msg_id: the received message; the profile's bytes received) or
 * BUF_MPI_ISEND_COMPLETE (request only; a profile records nothing for it: the Leave alone).
 * The records, the profile and the call stack are those of scorep_event_mpi_recv,
 * scorep_event_mpi_irecv (handle 0) or scorep_event_mpi_isend_complete, then
 * scorep_event_leave_raw. */
static inline __attribute__((always_inline)) bool
scorep_event_mpi_complete_leave_fast_as(scorep_location *l, uint32_t region, uint64_t raw,
                                        uint32_t type, uint32_t comm, uint32_t source,
                                        uint32_t tag, uint64_t bytes, uint64_t request,
                                        uint64_t msg_id, const bool profiling, const bool tracing)
{
    const scorep_event_fast_msg msg = {type, comm, source, tag, bytes, request, msg_id};
    const bool message = tracing || type != BUF_MPI_ISEND_COMPLETE;
    return scorep_event_leave_fast_msg_as(l, region, raw, true, message ? &msg : NULL, profiling,
                                          tracing);
}

static inline __attribute__((always_inline)) bool
scorep_event_mpi_complete_leave_fast(scorep_location *l, uint32_t region, uint64_t raw,
                                     uint32_t type, uint32_t comm, uint32_t source, uint32_t tag,
                                     uint64_t bytes, uint64_t request, uint64_t msg_id)
{
    uint32_t mode = scorep_location_events_fast(l);
    if (mode == SCOREP_EVENTS_FAST_PROFILE)
        return scorep_event_mpi_complete_leave_fast_as(l, region, raw, type, comm, source, tag,
                                                       bytes, request, msg_id, true, false);
    if (mode == SCOREP_EVENTS_FAST_TRACE)
        return scorep_event_mpi_complete_leave_fast_as(l, region, raw, type, comm, source, tag,
                                                       bytes, request, msg_id, false, true);
    return mode == SCOREP_EVENTS_FAST_BOTH &&
           scorep_event_mpi_complete_leave_fast_as(l, region, raw, type, comm, source, tag,
                                                   bytes, request, msg_id, true, true);
}

/* MpiRecv and the Leave of a blocking receive, raw: the receive's timer reading
 * (scorep_mpi_now); MpiRecv at the location's time for it, the Leave one tick later when
 * tracing (at that time in a profile, which stamps no message); handle 0 (no Mprobe
 * message) */
static inline __attribute__((always_inline)) bool
scorep_event_mpi_recv_leave_fast(scorep_location *l, uint32_t region, uint64_t raw, uint32_t comm,
                                 uint32_t source, uint32_t tag, uint64_t bytes, uint64_t msg_id)
{
    return scorep_event_mpi_complete_leave_fast(l, region, raw, BUF_MPI_RECV, comm, source, tag,
                                                bytes, 0, msg_id);
}

/* The Leave of a call whose post hook read the timer (raw) for events of its own (MPI_Irecv,
 * MPI_Wait, MPI_Waitall): the Leave alone at the location's time for raw, as
 * scorep_event_leave_raw's; events.h's fast Leave */
static inline __attribute__((always_inline)) bool
scorep_event_mpi_leave_raw_fast(scorep_location *l, uint32_t region, uint64_t raw)
{
    uint32_t mode = scorep_location_events_fast(l);
    if (mode == SCOREP_EVENTS_FAST_PROFILE)
        return scorep_event_leave_fast_msg_as(l, region, raw, true, NULL, true, false);
    if (mode == SCOREP_EVENTS_FAST_TRACE)
        return scorep_event_leave_fast_msg_as(l, region, raw, true, NULL, false, true);
    return mode == SCOREP_EVENTS_FAST_BOTH &&
           scorep_event_leave_fast_msg_as(l, region, raw, true, NULL, true, true);
}

/* The Leave of a wrapped call without a post hook's reading: the compiler hooks' fast Leave
 * (events.h) in l's mode, inline (libscorep-rt's out-of-line copies are hidden); false
 * (nothing changed) where the caller takes the general Leave. */
static inline __attribute__((always_inline)) bool scorep_event_mpi_leave_fast(scorep_location *l,
                                                                             uint32_t region)
{
    uint32_t mode = scorep_location_events_fast(l);
    if (mode == SCOREP_EVENTS_FAST_PROFILE)
        return scorep_event_leave_fast_as(l, region, true, false);
    if (mode == SCOREP_EVENTS_FAST_TRACE)
        return scorep_event_leave_fast_as(l, region, false, true);
    return mode == SCOREP_EVENTS_FAST_BOTH && scorep_event_leave_fast_as(l, region, true, true);
}

void scorep_event_mpi_request_test(scorep_location *l, uint64_t raw, uint64_t request);
void scorep_event_mpi_request_cancelled(scorep_location *l, uint64_t raw, uint64_t request);
/* A successful probe: written as attributes of the Leave of the probing call.
 * handle: 0 for Probe/Iprobe, 1, 2, ... per process for Mprobe/Improbe. */
void scorep_event_mpi_probe(scorep_location *l, uint32_t comm, uint32_t source, uint32_t tag,
                            uint64_t bytes, uint64_t handle, uint64_t msg_id);

/* collectives; root is the rank in comm, or SCOREP_NO_ROOT */
void scorep_event_mpi_collective_begin(scorep_location *l);
void scorep_event_mpi_collective_end(scorep_location *l, scorep_collective_op op, uint32_t comm,
                                     uint32_t root, uint64_t sent, uint64_t received);
void scorep_event_mpi_nbc_request(scorep_location *l, uint64_t raw, uint64_t request);
void scorep_event_mpi_nbc_complete(scorep_location *l, scorep_collective_op op, uint32_t comm,
                                   uint32_t root, uint64_t sent, uint64_t received,
                                   uint64_t request);

/* communicator life cycle (comm: defs id) */
void scorep_event_mpi_comm_create(scorep_location *l, uint32_t comm);
void scorep_event_mpi_comm_destroy(scorep_location *l, uint32_t comm);

/* one-sided; win: defs id; remote: rank in the window's communicator */
typedef enum {
    SCOREP_RMA_SYNC_NONE = 0,
    SCOREP_RMA_SYNC_PROCESS = 1,
    SCOREP_RMA_SYNC_MEMORY = 2
} scorep_rma_sync_level; /* OTF2_RmaSyncLevel bits */
typedef enum { SCOREP_LOCK_EXCLUSIVE = 0, SCOREP_LOCK_SHARED = 1 } scorep_lock_type;
typedef enum {
    SCOREP_RMA_SYNC_TYPE_MEMORY = 0,
    SCOREP_RMA_SYNC_TYPE_NOTIFY_IN = 1,
    SCOREP_RMA_SYNC_TYPE_NOTIFY_OUT = 2
} scorep_rma_sync_type;
typedef enum {
    SCOREP_RMA_ATOMIC_ACCUMULATE = 0,
    SCOREP_RMA_ATOMIC_INCREMENT = 1,
    SCOREP_RMA_ATOMIC_TEST_AND_SET = 2,
    SCOREP_RMA_ATOMIC_COMPARE_AND_SWAP = 3,
    SCOREP_RMA_ATOMIC_SWAP = 4,
    SCOREP_RMA_ATOMIC_FETCH_AND_ADD = 5,
    SCOREP_RMA_ATOMIC_FETCH_AND_INCREMENT = 6,
    SCOREP_RMA_ATOMIC_FETCH_AND_ACCUMULATE = 7
} scorep_rma_atomic_type; /* OTF2_RmaAtomicType */

void scorep_event_rma_win_create(scorep_location *l, uint32_t win);
void scorep_event_rma_win_destroy(scorep_location *l, uint32_t win);
void scorep_event_rma_put(scorep_location *l, uint32_t win, uint32_t remote, uint64_t bytes,
                          uint64_t matching_id);
void scorep_event_rma_get(scorep_location *l, uint32_t win, uint32_t remote, uint64_t bytes,
                          uint64_t matching_id);
void scorep_event_rma_atomic(scorep_location *l, uint32_t win, uint32_t remote,
                             scorep_rma_atomic_type type, uint64_t sent, uint64_t received,
                             uint64_t matching_id);
void scorep_event_rma_op_complete_blocking(scorep_location *l, uint32_t win, uint64_t matching_id);
void scorep_event_rma_op_complete_non_blocking(scorep_location *l, uint32_t win,
                                               uint64_t matching_id);
/* level: the synchronisation the collective will carry (Score-P's RmaCollectiveBegin has it;
 * OTF2's record does not, only substrate plugins get it) */
void scorep_event_rma_collective_begin(scorep_location *l, scorep_rma_sync_level level);
void scorep_event_rma_collective_end(scorep_location *l, scorep_collective_op op,
                                     scorep_rma_sync_level level, uint32_t win, uint32_t root,
                                     uint64_t sent, uint64_t received);
/* group: defs group id (scorep_defs_group) */
void scorep_event_rma_group_sync(scorep_location *l, scorep_rma_sync_level level, uint32_t win,
                                 uint32_t group);
void scorep_event_rma_request_lock(scorep_location *l, uint32_t win, uint32_t remote,
                                   uint64_t lock_id, scorep_lock_type type);
void scorep_event_rma_acquire_lock(scorep_location *l, uint32_t win, uint32_t remote,
                                   uint64_t lock_id, scorep_lock_type type);
void scorep_event_rma_release_lock(scorep_location *l, uint32_t win, uint32_t remote,
                                   uint64_t lock_id);
void scorep_event_rma_sync(scorep_location *l, uint32_t win, uint32_t remote,
                           scorep_rma_sync_type type);
/* A lock attempt that did not get the lock (Score-P's RmaTryLock: shmem_test_lock failing) */
void scorep_event_rma_try_lock(scorep_location *l, uint32_t win, uint32_t remote,
                               uint64_t lock_id, scorep_lock_type type);
/* The start of a wait for a change of local window memory by another process
 * (Score-P's RmaWaitChange: shmem_wait, shmem_wait_until and their typed variants) */
void scorep_event_rma_wait_change(scorep_location *l, uint32_t win);
/* The operation matching_id has completed at its target (Score-P's RmaOpCompleteRemote:
 * the MPI adapter's request-based operations at MPI_Win_flush/unlock, an MPI_Rget's when its
 * request completes) */
void scorep_event_rma_op_complete_remote(scorep_location *l, uint32_t win, uint64_t matching_id);

#endif
