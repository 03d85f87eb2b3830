/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_request.c: completion of requests (their records' table: mpi_request_table.c), the rare
 * paths of the Wait/Test families (their hooks are inline: mpi_wait.h), MPI_Start(all),
 * MPI_Cancel, MPI_Request_free, MPI_Request_get_status. */
#include "adapters/mpi/mpi_request.h"
#include "adapters/mpi/mpi_hooks.h"
#include "core/events_mpi.h"

#include <stdlib.h>
#include <string.h>

uint64_t scorep_mpi_request_counter;

void scorep_mpi_request_init(void)
{
    scorep_mpi_rtab_init(scorep_mpi_thread_level == MPI_THREAD_MULTIPLE);
}

scorep_mpi_req *scorep_mpi_req_find(MPI_Request handle)
{
    if (handle == MPI_REQUEST_NULL)
        return NULL;
    return scorep_mpi_rtab_find(handle);
}

static scorep_mpi_req *take(MPI_Request handle)
{
    if (handle == MPI_REQUEST_NULL)
        return NULL;
    return scorep_mpi_rtab_take(handle);
}

static int cancelled(scorep_mpi_req *r, MPI_Status *st)
{
    int c = 0;
    if ((r->flags & SCOREP_MPI_REQ_CANCEL) && st)
        PMPI_Test_cancelled(st, &c);
    return c;
}

/* Completion of any request: cancelled ones, collectives, RMA, idup, I/O (mpi_wait.h). */
void scorep_mpi_req_completed_any(scorep_mpi_frame *f, scorep_mpi_req *r, MPI_Status *st)
{
    scorep_location *l = (r->flags & SCOREP_MPI_REQ_EVENTS) ? f->l : NULL;
    int was_cancelled = cancelled(r, st);
    switch (r->kind) {
    case SCOREP_MPI_REQ_SEND:
    case SCOREP_MPI_REQ_RECV:
        if (!was_cancelled) {
            scorep_mpi_p2p_completed(f, r, st, l);
            break;
        }
        if (r->kind == SCOREP_MPI_REQ_SEND)
            scorep_mpi_msgid_send_cancelled(r->comm, r->peer, r->tag, r->msg_id);
        else
            scorep_mpi_msgid_recv_cancelled(r->comm, r);
        if (l)
            scorep_event_mpi_request_cancelled(l, scorep_mpi_now(f), r->id);
        break;
    case SCOREP_MPI_REQ_COLL:
        if (was_cancelled) {
            if (l)
                scorep_event_mpi_request_cancelled(l, scorep_mpi_now(f), r->id);
        } else if (l) {
            scorep_event_mpi_nbc_complete(l, (scorep_collective_op)r->coll_op,
                                          r->comm ? r->comm->id : SCOREP_INVALID_ID, r->root,
                                          r->sent, r->received, r->id);
        }
        break;
    case SCOREP_MPI_REQ_RMA: /* also without events: its window's tracking ends */
        scorep_mpi_rma_request_completed(f, r, l != NULL);
        break;
    case SCOREP_MPI_REQ_IDUP:
        scorep_mpi_comm_idup_completed(f, r);
        break;
    case SCOREP_MPI_REQ_IO:
        if (l)
            scorep_mpi_file_request_completed(f, r, st, was_cancelled);
        break;
    }
    if (r->flags & SCOREP_MPI_REQ_PERSISTENT)
        r->flags &= ~(SCOREP_MPI_REQ_ACTIVE | SCOREP_MPI_REQ_CANCEL | SCOREP_MPI_REQ_HAS_ID);
    else
        scorep_mpi_req_destroy(r);
}

void scorep_mpi_req_completed(scorep_mpi_frame *f, scorep_mpi_req *r, MPI_Status *st)
{
    if (r)
        scorep_mpi_req_completed_inline(f, r, st);
}

void scorep_mpi_req_tested(scorep_mpi_frame *f, scorep_mpi_req *r)
{
    if (r && (r->flags & SCOREP_MPI_REQ_ACTIVE) && f->record &&
        scorep_mpi_group_on(SCOREP_MPI_G_XREQTEST))
        scorep_event_mpi_request_test(f->l, scorep_mpi_now(f), r->id);
}

void scorep_mpi_req_started(scorep_mpi_frame *f, scorep_mpi_req *r)
{
    if (!r || !(r->flags & SCOREP_MPI_REQ_PERSISTENT) || (r->flags & SCOREP_MPI_REQ_ACTIVE))
        return;
    r->flags |= SCOREP_MPI_REQ_ACTIVE;
    r->flags &= ~(SCOREP_MPI_REQ_CANCEL | SCOREP_MPI_REQ_HAS_ID | SCOREP_MPI_REQ_EVENTS);
    if (f->record)
        r->flags |= SCOREP_MPI_REQ_EVENTS;
    /* recorded before PMPI_Start(all): one tick after the Enter (or the previous start), no
     * timer read; the receive of a started send may complete before the call returns */
    if (r->kind == SCOREP_MPI_REQ_SEND) {
        r->msg_id = scorep_mpi_msgid_send(r->comm, r->peer, r->tag);
        if (f->record)
            scorep_event_mpi_isend(f->l, SCOREP_TS_NEXT, r->comm->id, (uint32_t)r->peer,
                                   (uint32_t)r->tag, r->bytes, r->id, r->msg_id);
    } else if (r->kind == SCOREP_MPI_REQ_RECV) {
        if (f->record)
            scorep_event_mpi_irecv_request(f->l, SCOREP_TS_NEXT, r->id);
        scorep_mpi_msgid_recv_posted(r->comm, r);
    }
}

/* The start failed: the request stays inactive, its message id goes back, and a recorded
 * start is marked cancelled (no message left with it). */
void scorep_mpi_req_not_started(scorep_mpi_frame *f, scorep_mpi_req *r)
{
    if (!r || !(r->flags & SCOREP_MPI_REQ_PERSISTENT) || !(r->flags & SCOREP_MPI_REQ_ACTIVE))
        return;
    if (r->kind == SCOREP_MPI_REQ_SEND)
        scorep_mpi_msgid_send_cancelled(r->comm, r->peer, r->tag, r->msg_id);
    else if (r->kind == SCOREP_MPI_REQ_RECV)
        scorep_mpi_msgid_recv_cancelled(r->comm, r);
    if (r->flags & SCOREP_MPI_REQ_EVENTS)
        scorep_event_mpi_request_cancelled(f->l, scorep_mpi_now(f), r->id);
    r->flags &= ~(SCOREP_MPI_REQ_ACTIVE | SCOREP_MPI_REQ_CANCEL | SCOREP_MPI_REQ_HAS_ID |
                  SCOREP_MPI_REQ_EVENTS);
}

/* ---- MPI_Start, MPI_Startall, MPI_Cancel, MPI_Request_free, MPI_Request_get_status ---- */

void scorep_mpi_pre_start(scorep_mpi_frame *f, MPI_Request *request)
{
    if (request)
        scorep_mpi_req_started(f, scorep_mpi_req_find(*request));
}

void scorep_mpi_post_start(scorep_mpi_frame *f, int ret, MPI_Request *request)
{
    if (ret != MPI_SUCCESS && request)
        scorep_mpi_req_not_started(f, scorep_mpi_req_find(*request));
}

void scorep_mpi_pre_startall(scorep_mpi_frame *f, int count, MPI_Request requests_[])
{
    for (int i = 0; requests_ && i < count; i++)
        scorep_mpi_req_started(f, scorep_mpi_req_find(requests_[i]));
}

/* MPI does not say which requests of a failed MPI_Startall started: all are taken back */
void scorep_mpi_post_startall(scorep_mpi_frame *f, int ret, int count, MPI_Request requests_[])
{
    if (ret == MPI_SUCCESS)
        return;
    for (int i = 0; requests_ && i < count; i++)
        scorep_mpi_req_not_started(f, scorep_mpi_req_find(requests_[i]));
}

void scorep_mpi_pre_cancel(scorep_mpi_frame *f, MPI_Request *request)
{
    (void)f;
    scorep_mpi_req *r = request ? scorep_mpi_req_find(*request) : NULL;
    if (r)
        r->flags |= SCOREP_MPI_REQ_CANCEL;
}

void scorep_mpi_pre_request_free(scorep_mpi_frame *f, MPI_Request *request)
{
    (void)f;
    scorep_mpi_req *r = request ? take(*request) : NULL;
    if (!r)
        return;
    /* an active request completes unobserved; its receive id is lost to the queue */
    if (r->kind == SCOREP_MPI_REQ_IDUP && (r->flags & SCOREP_MPI_REQ_ACTIVE))
        scorep_mpi_comm_idup_orphaned(r);
    if (r->kind == SCOREP_MPI_REQ_RMA)
        scorep_mpi_rma_request_freed(r);
    scorep_mpi_req_destroy(r);
}

void scorep_mpi_post_request_get_status(scorep_mpi_frame *f, int ret, MPI_Request request,
                                        int *flag, MPI_Status *status)
{
    (void)status;
    if (ret == MPI_SUCCESS && flag && !*flag)
        scorep_mpi_req_tested(f, scorep_mpi_req_find(request));
}

/* ---- Wait/Test families ---------------------------------------------------------------- */

/* The arrays of a Wait/Test call over more than SCOREP_MPI_CTX_STACK requests: below
 * MPI_THREAD_MULTIPLE one set of arrays, grown to the largest count seen and kept (no
 * allocation per call); under MPI_THREAD_MULTIPLE, or should it be in use, allocated per
 * call. */
static struct {
    scorep_mpi_req **recs;
    void **where;
    MPI_Request *saved;
    MPI_Status *statuses;
    size_t cap;
    int busy;
} scratch;

static int scratch_claim(size_t n)
{
    if (scorep_mpi_thread_level == MPI_THREAD_MULTIPLE || scratch.busy)
        return 0;
    if (n > scratch.cap) {
        size_t cap = scratch.cap ? scratch.cap : 64;
        while (cap < n)
            cap *= 2;
        scorep_mpi_req **recs = malloc(cap * sizeof *recs);
        void **where = malloc(cap * sizeof *where);
        MPI_Request *saved = malloc(cap * sizeof *saved);
        MPI_Status *statuses = malloc(cap * sizeof *statuses);
        if (!recs || !where || !saved || !statuses) {
            free(recs);
            free(where);
            free(saved);
            free(statuses);
            return 0;
        }
        free(scratch.recs);
        free(scratch.where);
        free(scratch.saved);
        free(scratch.statuses);
        scratch.recs = recs;
        scratch.where = where;
        scratch.saved = saved;
        scratch.statuses = statuses;
        scratch.cap = cap;
    }
    scratch.busy = 1;
    return 1;
}

/* More than SCOREP_MPI_CTX_STACK requests (mpi_wait.h's scorep_mpi_ctx_open): the arrays are
 * the shared scratch ones or allocated. */
void scorep_mpi_ctx_open_large(scorep_mpi_ctx_reqs *ctx, int count, MPI_Request requests_[])
{
    ctx->count = count;
    ctx->handles = requests_;
    ctx->saved = NULL;
    ctx->tracked = 0;
    ctx->statuses = NULL;
    if ((ctx->scratch = scratch_claim((size_t)count)) != 0) {
        ctx->recs = scratch.recs;
        ctx->where = scratch.where;
    } else {
        /* one block: the records, then where they were */
        ctx->recs = malloc((size_t)count * (sizeof *ctx->recs + sizeof *ctx->where));
        ctx->where = ctx->recs ? (void **)(ctx->recs + count) : NULL;
    }
    if (!ctx->recs) {
        ctx->count = 0;
        return;
    }
    ctx->tracked = scorep_mpi_rtab_take_n(count, requests_, ctx->recs, ctx->where);
}

/* More than SCOREP_MPI_CTX_STACK handles saved (mpi_wait.h's scorep_mpi_ctx_save, below
 * MPI_THREAD_MULTIPLE): the shared scratch arrays, or one allocated block (records, where
 * they were, saved handles) should they be in use. Without memory nothing is followed (count
 * 0), as ctx_open_large. */
void scorep_mpi_ctx_save_large(scorep_mpi_ctx_reqs *ctx, int count, MPI_Request requests_[])
{
    ctx->count = count;
    ctx->handles = requests_;
    if ((ctx->scratch = scratch_claim((size_t)count)) != 0) {
        ctx->recs = scratch.recs;
        ctx->where = scratch.where;
        ctx->saved = scratch.saved;
    } else {
        ctx->recs =
            malloc((size_t)count * (sizeof *ctx->recs + sizeof *ctx->where + sizeof *ctx->saved));
        ctx->where = ctx->recs ? (void **)(ctx->recs + count) : NULL;
        ctx->saved = ctx->recs ? (MPI_Request *)(ctx->where + count) : NULL;
    }
    if (!ctx->recs) {
        ctx->count = 0;
        ctx->saved = ctx->saved_stack;
        return;
    }
    memcpy(ctx->saved, requests_, (size_t)count * sizeof *requests_);
}

void scorep_mpi_ctx_take_saved(scorep_mpi_ctx_reqs *ctx)
{
    ctx->tracked = scorep_mpi_rtab_take_n(ctx->count, ctx->saved, ctx->recs, ctx->where);
}

void scorep_mpi_ctx_statuses_large(scorep_mpi_ctx_reqs *ctx, MPI_Status **statuses)
{
    ctx->statuses =
        ctx->scratch ? scratch.statuses : malloc((size_t)ctx->count * sizeof *ctx->statuses);
    if (ctx->statuses)
        *statuses = ctx->statuses;
}

void scorep_mpi_ctx_close_large(scorep_mpi_ctx_reqs *ctx)
{
    for (int i = ctx->count, left = ctx->tracked; left > 0 && i-- > 0;) {
        if (ctx->recs[i]) {
            scorep_mpi_ctx_put_back_record(ctx, i);
            left--;
        }
    }
    ctx->tracked = 0;
    if (ctx->scratch) {
        scratch.busy = 0;
    } else {
        free(ctx->recs);
        free(ctx->statuses);
    }
    ctx->recs = NULL;
    ctx->statuses = NULL;
}

static void put_back(scorep_mpi_ctx_reqs *ctx, int i)
{
    scorep_mpi_ctx_put_back_record(ctx, i);
    ctx->tracked--;
}

static void complete_at(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx, int i, MPI_Status *st)
{
    scorep_mpi_ctx_complete_at(f, ctx, i, st);
}

static void all_tested(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx)
{
    for (int i = 0; i < ctx->count; i++)
        scorep_mpi_req_tested(f, ctx->recs[i]);
}

/* The post hooks of Testall, Testany/Waitany and Testsome/Waitsome with the records taken
 * (mpi_wait.h: under MPI_THREAD_MULTIPLE before the call, else after it for the rare cases) */
void scorep_mpi_post_testall_taken(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx,
                                   int *flag, MPI_Status statuses[])
{
    if ((ret == MPI_SUCCESS || ret == MPI_ERR_IN_STATUS) && ctx->tracked) {
        if (*flag)
            scorep_mpi_ctx_complete_all(f, ret, ctx, statuses, false);
        else
            all_tested(f, ctx);
    }
    scorep_mpi_ctx_close(ctx);
}

/* flag: Testany's (Waitany: 1) */
void scorep_mpi_post_any_taken(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx, int *index,
                               int flag, MPI_Status *status)
{
    if (scorep_mpi_received(ret) && ctx->tracked) {
        if (flag && *index != MPI_UNDEFINED && *index >= 0 && *index < ctx->count)
            complete_at(f, ctx, *index, status);
        else if (!flag)
            all_tested(f, ctx);
    }
    scorep_mpi_ctx_close(ctx);
}

static void complete_some(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx, int outcount,
                          const int indices[], MPI_Status statuses[])
{
    if (outcount == MPI_UNDEFINED)
        return;
    for (int i = 0; i < outcount; i++) {
        int k = indices[i];
        if (k < 0 || k >= ctx->count || !ctx->recs[k])
            continue;
        MPI_Status *st = scorep_mpi_status_at(statuses, i);
        if (ret == MPI_ERR_IN_STATUS && (!st || !scorep_mpi_received(st->MPI_ERROR)))
            continue;
        complete_at(f, ctx, k, st);
        if (ctx->recs[k]) /* persistent: not 'still pending' for xreqtest */
            put_back(ctx, k);
    }
}

/* test: Testsome (the requests still held did not complete: RequestTest) */
void scorep_mpi_post_some_taken(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx,
                                int *outcount, int indices[], MPI_Status statuses[], bool test)
{
    if ((ret == MPI_SUCCESS || ret == MPI_ERR_IN_STATUS) && ctx->tracked) {
        complete_some(f, ret, ctx, *outcount, indices, statuses);
        if (test && *outcount != MPI_UNDEFINED)
            all_tested(f, ctx);
    }
    scorep_mpi_ctx_close(ctx);
}
