/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_wait.h: the completion of requests and the hooks of MPI_Wait and MPI_Waitall, inline:
 * they run in the wrappers of the message path (spec item 'hot'), where the out-of-line
 * hooks cost their calls, the reloading of their arguments and registers saved for the rare
 * kinds (docs/mpi.md, "The non-blocking path inlined"). mpi_request.c has the other
 * Wait/Test hooks, which share these functions. Included by mpi_hooks.h after the contexts. */
#ifndef SCOREP_MPI_WAIT_H
#define SCOREP_MPI_WAIT_H

#ifndef SCOREP_MPI_HOOKS_H
#error "include adapters/mpi/mpi_hooks.h (it includes this file after the contexts)"
#endif

#include "adapters/mpi/mpi_adapter.h"
#include "adapters/mpi/mpi_msgid.h"
#include "adapters/mpi/mpi_request.h"
#include "core/events_mpi.h"

/* Completion of any request: cancelled ones, collectives, RMA, idup, I/O (mpi_request.c). */
void scorep_mpi_req_completed_any(scorep_mpi_frame *f, scorep_mpi_req *r, MPI_Status *st);
/* ctx_open and ctx_close of more than SCOREP_MPI_CTX_STACK requests (their arrays) */
void scorep_mpi_ctx_open_large(scorep_mpi_ctx_reqs *ctx, int count, MPI_Request requests_[]);
void scorep_mpi_ctx_statuses_large(scorep_mpi_ctx_reqs *ctx, MPI_Status **statuses);
void scorep_mpi_ctx_close_large(scorep_mpi_ctx_reqs *ctx);

/* The message id of a completed receive; no call when the id was taken at posting (a receive
 * with source and tag given) below MPI_THREAD_MULTIPLE, or when the process does not trace. */
static inline __attribute__((always_inline)) uint64_t
scorep_mpi_recv_completed_id(scorep_mpi_req *r, const MPI_Status *st)
{
    if (!scorep_mpi_msgids)
        return 0;
    if ((r->flags & SCOREP_MPI_REQ_HAS_ID) && scorep_mpi_thread_level != MPI_THREAD_MULTIPLE)
        return r->msg_id;
    return scorep_mpi_msgid_recv_completed(r->comm, r, st);
}

/* A send or receive that completed and was not cancelled: its event on l (NULL: its creation
 * was not recorded), a receive's message id taken or forgotten. */
static inline __attribute__((always_inline)) void
scorep_mpi_p2p_completed(scorep_mpi_frame *f, scorep_mpi_req *r, MPI_Status *st, scorep_location *l)
{
    if (r->kind == SCOREP_MPI_REQ_SEND) {
        if (l)
            scorep_event_mpi_isend_complete(l, scorep_mpi_now(f), r->id);
    } else if (st && st->MPI_SOURCE != MPI_PROC_NULL) {
        uint64_t id = scorep_mpi_recv_completed_id(r, st);
        if (l)
            scorep_event_mpi_irecv(l, scorep_mpi_now(f), r->comm->id, (uint32_t)st->MPI_SOURCE,
                                   (uint32_t)st->MPI_TAG, scorep_mpi_status_bytes(st), r->id, id,
                                   r->msg_handle);
    } else {
        scorep_mpi_msgid_recv_forget(r->comm, r);
    }
}

/* The request completed with this status (for persistent ones: became inactive): the usual
 * case, a send or receive that was not cancelled, inline; everything else out of line. */
static inline __attribute__((always_inline)) void
scorep_mpi_req_completed_inline(scorep_mpi_frame *f, scorep_mpi_req *r, MPI_Status *st)
{
    uint32_t flags = r->flags;
    if (__builtin_expect(!(flags & SCOREP_MPI_REQ_ACTIVE), 0))
        return;
    if (__builtin_expect((flags & SCOREP_MPI_REQ_CANCEL) ||
                             (r->kind != SCOREP_MPI_REQ_SEND && r->kind != SCOREP_MPI_REQ_RECV),
                         0)) {
        scorep_mpi_req_completed_any(f, r, st);
        return;
    }
    scorep_mpi_p2p_completed(f, r, st, (flags & SCOREP_MPI_REQ_EVENTS) ? f->l : NULL);
    if (flags & SCOREP_MPI_REQ_PERSISTENT)
        r->flags = flags & ~(SCOREP_MPI_REQ_ACTIVE | SCOREP_MPI_REQ_CANCEL | SCOREP_MPI_REQ_HAS_ID);
    else
        scorep_mpi_req_destroy(r);
}

/* Takes the records of all requests out of the table before the call (a handle value may
 * appear more than once: each occurrence gets its own record). */
static inline __attribute__((always_inline)) void
scorep_mpi_ctx_open(scorep_mpi_ctx_reqs *ctx, int count, MPI_Request requests_[])
{
    if (__builtin_expect(count > SCOREP_MPI_CTX_STACK, 0)) {
        scorep_mpi_ctx_open_large(ctx, count, requests_);
        return;
    }
    ctx->count = count > 0 ? count : 0;
    ctx->handles = requests_;
    ctx->statuses = NULL;
    ctx->scratch = 0;
    ctx->recs = ctx->recs_stack;
    ctx->where = ctx->where_stack;
    ctx->tracked = scorep_mpi_rtab_take_n(ctx->count, requests_, ctx->recs, ctx->where);
}

/* Substitutes statuses for MPI_STATUSES_IGNORE when there is something to follow. */
static inline __attribute__((always_inline)) void scorep_mpi_ctx_statuses(scorep_mpi_ctx_reqs *ctx,
                                                                          MPI_Status **statuses)
{
    if (!ctx->tracked || *statuses != MPI_STATUSES_IGNORE)
        return;
    if (__builtin_expect(ctx->count > SCOREP_MPI_CTX_STACK, 0)) {
        scorep_mpi_ctx_statuses_large(ctx, statuses);
        return;
    }
    ctx->statuses = ctx->statuses_stack;
    *statuses = ctx->statuses;
}

/* Puts a record of the context back into the table, unless MPI set the handle to
 * MPI_REQUEST_NULL: then the request is gone even when the call did not report it complete
 * (it ended with an error; Open MPI also releases a persistent request that failed), and its
 * record goes too, before a new request can reuse the handle value. */
static inline void scorep_mpi_ctx_put_back_record(scorep_mpi_ctx_reqs *ctx, int i)
{
    if (ctx->handles[i] == MPI_REQUEST_NULL ||
        scorep_mpi_rtab_put_back_at(ctx->recs[i], ctx->where[i]) != 0)
        scorep_mpi_req_destroy(ctx->recs[i]);
    ctx->recs[i] = NULL;
}

/* Puts back the records that are still alive (not completed, or persistent), keeping the
 * order of records with equal handles. Up to SCOREP_MPI_CTX_STACK requests the arrays are
 * the context's own (ctx_open, ctx_statuses): nothing to free, and no test of each on the
 * path of a Wait. */
static inline __attribute__((always_inline)) void scorep_mpi_ctx_close(scorep_mpi_ctx_reqs *ctx)
{
    if (__builtin_expect(ctx->count > SCOREP_MPI_CTX_STACK, 0)) {
        scorep_mpi_ctx_close_large(ctx);
        return;
    }
    for (int i = ctx->count, left = ctx->tracked; left > 0 && i-- > 0;) {
        if (ctx->recs[i]) {
            scorep_mpi_ctx_put_back_record(ctx, i);
            left--;
        }
    }
    ctx->tracked = 0;
}

/* Whether the completion of r in a call that ends right after it takes the one step of
 * scorep_mpi_wait_completed_leave (flags: r's, read before the completion) */
static inline __attribute__((always_inline)) bool scorep_mpi_wait_usual(const scorep_mpi_frame *f,
                                                                        const scorep_mpi_req *r,
                                                                        uint32_t flags,
                                                                        const MPI_Status *st)
{
    const uint32_t usual = SCOREP_MPI_REQ_ACTIVE | SCOREP_MPI_REQ_EVENTS;
    return (flags & (usual | SCOREP_MPI_REQ_CANCEL | SCOREP_MPI_REQ_PERSISTENT)) == usual &&
           f->record && st && (r->kind == SCOREP_MPI_REQ_SEND || r->kind == SCOREP_MPI_REQ_RECV);
}

/* The usual completion in MPI_Wait, and of the last request of an MPI_Waitall: a
 * non-persistent send or receive, not cancelled, whose start was recorded, in a recorded
 * call, with a status (scorep_mpi_wait_usual). Its event and the call's Leave in one step where
 * l's mode allows (scorep_event_mpi_complete_leave_fast; f->record 0: the end has nothing
 * left to record), else one by one as scorep_mpi_p2p_completed; then the record goes. */
static inline __attribute__((always_inline)) void
scorep_mpi_wait_completed_leave(scorep_mpi_frame *f, scorep_mpi_req *r, MPI_Status *st)
{
    if (r->kind == SCOREP_MPI_REQ_SEND) {
        uint64_t raw = scorep_mpi_now(f);
        if (scorep_event_mpi_complete_leave_fast(f->l, f->region, raw, BUF_MPI_ISEND_COMPLETE, 0, 0,
                                                 0, 0, r->id, 0))
            f->record = 0;
        else
            scorep_event_mpi_isend_complete(f->l, raw, r->id);
    } else if (st->MPI_SOURCE != MPI_PROC_NULL) {
        uint64_t id = scorep_mpi_recv_completed_id(r, st); /* once: it may take a queued id */
        uint64_t raw = scorep_mpi_now(f), bytes = scorep_mpi_status_bytes(st);
        if (r->msg_handle == 0 &&
            scorep_event_mpi_complete_leave_fast(f->l, f->region, raw, BUF_MPI_IRECV, r->comm->id,
                                                 (uint32_t)st->MPI_SOURCE, (uint32_t)st->MPI_TAG,
                                                 bytes, r->id, id))
            f->record = 0;
        else
            scorep_event_mpi_irecv(f->l, raw, r->comm->id, (uint32_t)st->MPI_SOURCE,
                                   (uint32_t)st->MPI_TAG, bytes, r->id, id, r->msg_handle);
    } else {
        scorep_mpi_msgid_recv_forget(r->comm, r);
    }
    scorep_mpi_req_destroy(r);
}

/* Completion of the request at index i; a released record leaves the context. */
static inline __attribute__((always_inline)) void
scorep_mpi_ctx_complete_at(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx, int i, MPI_Status *st)
{
    scorep_mpi_req *r = ctx->recs[i];
    if (!r)
        return;
    if (!(r->flags & SCOREP_MPI_REQ_PERSISTENT)) {
        ctx->recs[i] = NULL;
        ctx->tracked--;
    }
    scorep_mpi_req_completed_inline(f, r, st);
}

static inline MPI_Status *scorep_mpi_status_at(MPI_Status statuses[], int i)
{
    return statuses == MPI_STATUSES_IGNORE ? NULL : &statuses[i];
}

/* completion of every tracked request of an 'all' call; with MPI_ERR_IN_STATUS only of
 * those whose status says success. fuse_last (MPI_Waitall): the last record the context
 * holds completes with the Leave where it can (scorep_mpi_wait_completed_leave). */
static inline __attribute__((always_inline)) void
scorep_mpi_ctx_complete_all(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx,
                            MPI_Status statuses[], const bool fuse_last)
{
    /* count and recs in registers: complete_at changes neither (it clears recs[i]) */
    const int n = ctx->count;
    scorep_mpi_req **const recs = ctx->recs;
    for (int i = 0; i < n; i++) {
        if (!recs[i])
            continue;
        MPI_Status *st = scorep_mpi_status_at(statuses, i);
        if (ret == MPI_ERR_IN_STATUS && (!st || !scorep_mpi_received(st->MPI_ERROR)))
            continue;
        if (fuse_last && ctx->tracked == 1 &&
            scorep_mpi_wait_usual(f, recs[i], recs[i]->flags, st)) {
            scorep_mpi_req *r = recs[i];
            recs[i] = NULL;
            ctx->tracked = 0;
            scorep_mpi_wait_completed_leave(f, r, st);
            break;
        }
        scorep_mpi_ctx_complete_at(f, ctx, i, st);
    }
}

/* ---- MPI_Wait, MPI_Waitall ------------------------------------------------------------- */

/* MPI_Wait: one request, no arrays (scorep_mpi_ctx_req) */
static inline __attribute__((always_inline)) void
scorep_mpi_pre_wait(scorep_mpi_frame *f, scorep_mpi_ctx_req *ctx, MPI_Request *request)
{
    (void)f;
    (void)scorep_mpi_rtab_take_n(1, request, &ctx->r, &ctx->where);
}

/* The request completed (non-persistent: its record goes), or its record goes back as
 * scorep_mpi_ctx_put_back_record puts it (a persistent request stays in the table). The
 * wrapper's status is never MPI_STATUS_IGNORE (spec item status). */
static inline __attribute__((always_inline)) void scorep_mpi_post_wait(scorep_mpi_frame *f, int ret,
                                                                       scorep_mpi_ctx_req *ctx,
                                                                       MPI_Request *request,
                                                                       MPI_Status *status)
{
    scorep_mpi_req *r = ctx->r;
    if (!r)
        return;
    const uint32_t flags = r->flags; /* r may go */
    if (__builtin_expect(scorep_mpi_received(ret), 1)) {
        if (__builtin_expect(scorep_mpi_wait_usual(f, r, flags, status), 1)) {
            scorep_mpi_wait_completed_leave(f, r, status);
            return;
        }
        scorep_mpi_req_completed_inline(f, r, status);
        if (!(flags & SCOREP_MPI_REQ_PERSISTENT))
            return;
    }
    if (*request == MPI_REQUEST_NULL || scorep_mpi_rtab_put_back_at(r, ctx->where) != 0)
        scorep_mpi_req_destroy(r);
}

static inline __attribute__((always_inline)) void
scorep_mpi_pre_waitall(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx, int count,
                       MPI_Request requests_[], MPI_Status **statuses)
{
    (void)f;
    scorep_mpi_ctx_open(ctx, count, requests_);
    scorep_mpi_ctx_statuses(ctx, statuses);
}

static inline __attribute__((always_inline)) void
scorep_mpi_post_waitall(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx, int count,
                        MPI_Request requests_[], MPI_Status statuses[])
{
    (void)count;
    (void)requests_;
    if ((ret == MPI_SUCCESS || ret == MPI_ERR_IN_STATUS) && ctx->tracked)
        scorep_mpi_ctx_complete_all(f, ret, ctx, statuses, true);
    scorep_mpi_ctx_close(ctx);
}

#endif
