/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_p2p.h: the hooks of sends and receives (blocking and non-blocking), inline: they run
 * in every message's wrapper, where an out-of-line call cost its own stack frame and the
 * reloading of its arguments (docs/mpi.md, "The message path inlined"). mpi_p2p.c has the
 * others. Included by mpi_hooks.h after the hooks' contexts. */
#ifndef SCOREP_MPI_P2P_H
#define SCOREP_MPI_P2P_H

#ifndef SCOREP_MPI_HOOKS_H
#error "include adapters/mpi/mpi_hooks.h (it includes this file after the contexts)"
#endif

#include "adapters/mpi/mpi_adapter.h"
#include "adapters/mpi/mpi_comm.h"
#include "adapters/mpi/mpi_msgid.h"
#include "adapters/mpi/mpi_request.h"
#include "core/events_mpi.h"

/* A send is recorded before the call (it must precede its receive), so arguments MPI
 * rejects (with MPI_ERRORS_RETURN the program goes on) must not record a message that never
 * leaves, nor take a message id: the checks of MPI_Send's own argument errors. */
static inline int scorep_mpi_valid_send(const scorep_mpi_comm *c, int count, int dest, int tag)
{
    /* the ranks a send may name: remote_size is the size of an intracommunicator
     * (mpi_comm.c, define_named), so no test of is_inter */
    return count >= 0 && tag >= 0 && dest >= 0 && dest < c->remote_size;
}

static inline __attribute__((always_inline)) void scorep_mpi_pre_send(scorep_mpi_frame *f,
                                                                      int count, MPI_Datatype type,
                                                                      int dest, int tag,
                                                                      MPI_Comm comm)
{
    scorep_mpi_comm *c = dest == MPI_PROC_NULL ? NULL : scorep_mpi_comm_get(comm);
    if (!c || !scorep_mpi_valid_send(c, count, dest, tag)) {
        scorep_mpi_enter_open(f);
        return;
    }
    uint64_t id = scorep_mpi_msgid_send_if(c, dest, tag);
    uint64_t bytes = scorep_mpi_type_bytes(count, type);
    /* MPI_Send: its Enter and MpiSend in one step (f->open, scorep_mpi_begin_hot_open) */
    if (f->open && scorep_event_mpi_enter_send_fast(f->l, f->region, BUF_MPI_SEND, c->id,
                                                    (uint32_t)dest, (uint32_t)tag, bytes, 0, id)) {
        f->open = 0;
        return;
    }
    scorep_mpi_enter_open(f);
    scorep_event_mpi_send(f->l, SCOREP_TS_NEXT, c->id, (uint32_t)dest, (uint32_t)tag, bytes, id);
}

static inline __attribute__((always_inline)) void scorep_mpi_post_recv(scorep_mpi_frame *f, int ret,
                                                                       int source, int tag,
                                                                       MPI_Comm comm,
                                                                       MPI_Status *status)
{
    /* a receive from MPI_PROC_NULL returns source MPI_PROC_NULL in its status (the MPI
     * standard, "Null Processes"): the status's test is the argument's too, and the wrapper
     * keeps neither source nor tag across the PMPI call (issue #31: a register saved and a
     * compare fewer) */
    (void)source;
    (void)tag;
    if (!scorep_mpi_received(ret) || status->MPI_SOURCE == MPI_PROC_NULL)
        return;
    uint64_t raw = scorep_mpi_now(f); /* the message arrived: before the bookkeeping */
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    if (!c)
        return;
    uint64_t id = scorep_mpi_msgid_recv_if(c, status->MPI_SOURCE, status->MPI_TAG);
    uint64_t bytes = scorep_mpi_status_bytes(status);
    /* MpiRecv and the Leave in one step: then the end has nothing left to record */
    if (f->record && scorep_event_mpi_recv_leave_fast(f->l, f->region, raw, c->id,
                                                      (uint32_t)status->MPI_SOURCE,
                                                      (uint32_t)status->MPI_TAG, bytes, id)) {
        f->record = 0;
        return;
    }
    scorep_event_mpi_recv(f->l, raw, c->id, (uint32_t)status->MPI_SOURCE, (uint32_t)status->MPI_TAG,
                          bytes, id, 0);
}

/* A record for a new send request (non-blocking or persistent; msg_id: a persistent one's is
 * taken at each start), published. Inlined: a call with nine arguments costs more than the
 * work. */
static inline __attribute__((always_inline)) void
scorep_mpi_send_request(scorep_mpi_frame *f, scorep_mpi_comm *c, uint64_t bytes, int dest, int tag,
                        MPI_Request request, uint32_t flags, uint64_t id, uint64_t msg_id)
{
    scorep_mpi_req *r = scorep_mpi_req_create_id(
        request, SCOREP_MPI_REQ_SEND, flags | (f->record ? SCOREP_MPI_REQ_EVENTS : 0), id);
    if (!r)
        return;
    scorep_mpi_comm_ref(c);
    r->comm = c;
    r->peer = dest;
    r->tag = tag;
    r->bytes = bytes;
    r->msg_id = msg_id;
    scorep_mpi_req_publish(r);
}

/* A record for a new receive request (non-blocking or persistent), not yet published: the
 * caller calls scorep_mpi_req_publish once it has written the rest (the message id). */
static inline __attribute__((always_inline)) scorep_mpi_req *
scorep_mpi_recv_request(scorep_mpi_frame *f, int source, int tag, MPI_Comm comm,
                        MPI_Request request, uint32_t flags)
{
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    if (!c)
        return NULL;
    scorep_mpi_req *r = scorep_mpi_req_create(request, SCOREP_MPI_REQ_RECV,
                                              flags | (f->record ? SCOREP_MPI_REQ_EVENTS : 0));
    if (!r)
        return NULL;
    scorep_mpi_comm_ref(c);
    r->comm = c;
    r->peer = source;
    r->tag = tag;
    return r;
}

/* MpiIsend before the call, with the request id and message id the record gets after it */
static inline __attribute__((always_inline)) void
scorep_mpi_pre_isend(scorep_mpi_frame *f, scorep_mpi_ctx_start *ctx, int count, MPI_Datatype type,
                     int dest, int tag, MPI_Comm comm)
{
    ctx->id = 0;
    scorep_mpi_comm *c = dest == MPI_PROC_NULL ? NULL : scorep_mpi_comm_get(comm);
    if (!c || !scorep_mpi_valid_send(c, count, dest, tag)) {
        scorep_mpi_enter_open(f);
        return;
    }
    ctx->id = scorep_mpi_next_request_id();
    ctx->comm = c;
    ctx->peer = dest;
    ctx->tag = tag;
    ctx->bytes = scorep_mpi_type_bytes(count, type);
    ctx->msg_id = scorep_mpi_msgid_send_if(c, dest, tag);
    /* MPI_Isend: its Enter and MpiIsend in one step (f->open, as MPI_Send's) */
    if (f->open && scorep_event_mpi_enter_send_fast(f->l, f->region, BUF_MPI_ISEND, c->id,
                                                    (uint32_t)dest, (uint32_t)tag, ctx->bytes,
                                                    ctx->id, ctx->msg_id)) {
        f->open = 0;
        return;
    }
    scorep_mpi_enter_open(f);
    if (f->record)
        scorep_event_mpi_isend(f->l, SCOREP_TS_NEXT, c->id, (uint32_t)dest, (uint32_t)tag,
                               ctx->bytes, ctx->id, ctx->msg_id);
}

/* The request's record; a call that failed all the same started nothing: its message id
 * goes back and its request is marked cancelled. */
static inline __attribute__((always_inline)) void
scorep_mpi_post_isend(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_start *ctx, MPI_Request *request)
{
    if (!ctx->id)
        return;
    if (ret != MPI_SUCCESS) {
        scorep_mpi_msgid_send_cancelled(ctx->comm, ctx->peer, ctx->tag, ctx->msg_id);
        if (f->record)
            scorep_event_mpi_request_cancelled(f->l, scorep_mpi_now(f), ctx->id);
        return;
    }
    scorep_mpi_send_request(f, ctx->comm, ctx->bytes, ctx->peer, ctx->tag, *request, 0, ctx->id,
                            ctx->msg_id);
}

/* A posted receive takes its message id (mpi_msgid.h): inline, as a blocking receive's, when
 * the counter of its source and tag is the fast one (a wildcard never is); else out of line. */
static inline __attribute__((always_inline)) void scorep_mpi_recv_posted(scorep_mpi_req *r)
{
    scorep_mpi_comm *c = r->comm;
    if (!scorep_mpi_counters_fast(&c->recv, r->peer, r->tag)) {
        scorep_mpi_msgid_recv_posted(c, r);
        return;
    }
    r->msg_id = (*c->recv.fast_next)++;
    r->flags |= SCOREP_MPI_REQ_HAS_ID;
}

static inline __attribute__((always_inline)) void scorep_mpi_post_irecv(scorep_mpi_frame *f,
                                                                        int ret, int source,
                                                                        int tag, MPI_Comm comm,
                                                                        MPI_Request *request)
{
    if (ret != MPI_SUCCESS || source == MPI_PROC_NULL)
        return;
    scorep_mpi_req *r = scorep_mpi_recv_request(f, source, tag, comm, *request, 0);
    if (!r)
        return;
    scorep_event_mpi_irecv_request(f->l, scorep_mpi_now(f), r->id);
    if (scorep_mpi_msgids)
        scorep_mpi_recv_posted(r);
    scorep_mpi_req_publish(r);
}

#endif
