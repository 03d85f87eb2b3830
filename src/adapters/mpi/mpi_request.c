/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_request.c: completion of requests (their records' table: mpi_request_table.c) and the
 * hooks of the Wait/Test families (MPI_STATUS(ES)_IGNORE included), MPI_Start(all),
 * MPI_Cancel, MPI_Request_free, MPI_Request_get_status. */
#include "adapters/mpi/mpi_request.h"
#include "adapters/mpi/mpi_hooks.h"
#include "core/events_mpi.h"

#include <stdlib.h>

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

/* The message id of a completed receive; no call when the id was taken at posting (a receive
 * with source and tag given) below MPI_THREAD_MULTIPLE, or when the process does not trace. */
static inline uint64_t recv_completed_id(scorep_mpi_req *r, const MPI_Status *st)
{
    if (!scorep_mpi_msgids)
        return 0;
    if ((r->flags & SCOREP_MPI_REQ_HAS_ID) && scorep_mpi_thread_level != MPI_THREAD_MULTIPLE)
        return r->msg_id;
    return scorep_mpi_msgid_recv_completed(r->comm, r, st);
}

/* A send or receive that completed and was not cancelled: its event on l (NULL: its creation
 * was not recorded), a receive's message id taken or forgotten. */
/* always inline: the Wait/Test fast path (completed) stays one function, as when written out */
static inline __attribute__((always_inline)) void
p2p_completed(scorep_mpi_frame *f, scorep_mpi_req *r, MPI_Status *st, scorep_location *l)
{
    if (r->kind == SCOREP_MPI_REQ_SEND) {
        if (l)
            scorep_event_mpi_isend_complete(l, scorep_mpi_now(f), r->id);
    } else if (st && st->MPI_SOURCE != MPI_PROC_NULL) {
        uint64_t id = recv_completed_id(r, st);
        if (l)
            scorep_event_mpi_irecv(l, scorep_mpi_now(f), r->comm->id, (uint32_t)st->MPI_SOURCE,
                                   (uint32_t)st->MPI_TAG, scorep_mpi_status_bytes(st), r->id, id,
                                   r->msg_handle);
    } else {
        scorep_mpi_msgid_recv_forget(r->comm, r);
    }
}

/* Completion of any request: cancelled ones, collectives, RMA, idup, I/O (out of line). */
static __attribute__((noinline)) void completed_any(scorep_mpi_frame *f, scorep_mpi_req *r,
                                                    MPI_Status *st)
{
    scorep_location *l = (r->flags & SCOREP_MPI_REQ_EVENTS) ? f->l : NULL;
    int was_cancelled = cancelled(r, st);
    switch (r->kind) {
    case SCOREP_MPI_REQ_SEND:
    case SCOREP_MPI_REQ_RECV:
        if (!was_cancelled) {
            p2p_completed(f, r, st, l);
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
    case SCOREP_MPI_REQ_RMA:
        if (l)
            scorep_mpi_rma_request_completed(f, r);
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

/* The usual completion, inline in the Wait/Test hooks: a send or receive that was not
 * cancelled; everything else goes to completed_any. */
static inline void completed(scorep_mpi_frame *f, scorep_mpi_req *r, MPI_Status *st)
{
    uint32_t flags = r->flags;
    if (__builtin_expect(!(flags & SCOREP_MPI_REQ_ACTIVE), 0))
        return;
    if (__builtin_expect((flags & SCOREP_MPI_REQ_CANCEL) ||
                             (r->kind != SCOREP_MPI_REQ_SEND && r->kind != SCOREP_MPI_REQ_RECV),
                         0)) {
        completed_any(f, r, st);
        return;
    }
    p2p_completed(f, r, st, (flags & SCOREP_MPI_REQ_EVENTS) ? f->l : NULL);
    if (flags & SCOREP_MPI_REQ_PERSISTENT)
        r->flags = flags & ~(SCOREP_MPI_REQ_ACTIVE | SCOREP_MPI_REQ_CANCEL | SCOREP_MPI_REQ_HAS_ID);
    else
        scorep_mpi_req_destroy(r);
}

void scorep_mpi_req_completed(scorep_mpi_frame *f, scorep_mpi_req *r, MPI_Status *st)
{
    if (r)
        completed(f, r, st);
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
 * MPI_THREAD_MULTIPLE one pair of arrays, grown to the largest count seen and kept (no
 * allocation per call); under MPI_THREAD_MULTIPLE, or should it be in use, allocated per
 * call. */
static struct {
    scorep_mpi_req **recs;
    void **where;
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
        MPI_Status *statuses = malloc(cap * sizeof *statuses);
        if (!recs || !where || !statuses) {
            free(recs);
            free(where);
            free(statuses);
            return 0;
        }
        free(scratch.recs);
        free(scratch.where);
        free(scratch.statuses);
        scratch.recs = recs;
        scratch.where = where;
        scratch.statuses = statuses;
        scratch.cap = cap;
    }
    scratch.busy = 1;
    return 1;
}

/* Takes the records of all requests out of the table before the call (a handle value may
 * appear more than once: each occurrence gets its own record). */
static void ctx_open(scorep_mpi_ctx_reqs *ctx, int count, MPI_Request requests_[])
{
    ctx->count = count > 0 ? count : 0;
    ctx->handles = requests_;
    ctx->tracked = 0;
    ctx->statuses = NULL;
    ctx->scratch = 0;
    if (ctx->count <= SCOREP_MPI_CTX_STACK) {
        ctx->recs = ctx->recs_stack;
        ctx->where = ctx->where_stack;
    } else if ((ctx->scratch = scratch_claim((size_t)ctx->count)) != 0) {
        ctx->recs = scratch.recs;
        ctx->where = scratch.where;
    } else {
        /* one block: the records, then where they were */
        ctx->recs = malloc((size_t)ctx->count * (sizeof *ctx->recs + sizeof *ctx->where));
        ctx->where = ctx->recs ? (void **)(ctx->recs + ctx->count) : NULL;
    }
    if (!ctx->recs) {
        ctx->count = 0;
        return;
    }
    ctx->tracked = scorep_mpi_rtab_take_n(ctx->count, requests_, ctx->recs, ctx->where);
}

/* Substitutes statuses for MPI_STATUSES_IGNORE when there is something to follow. */
static void ctx_statuses(scorep_mpi_ctx_reqs *ctx, MPI_Status **statuses)
{
    if (!ctx->tracked || *statuses != MPI_STATUSES_IGNORE)
        return;
    ctx->statuses = ctx->count <= SCOREP_MPI_CTX_STACK ? ctx->statuses_stack
                    : ctx->scratch                     ? scratch.statuses
                                   : malloc((size_t)ctx->count * sizeof *ctx->statuses);
    if (ctx->statuses)
        *statuses = ctx->statuses;
}

/* Puts a record of the context back into the table, unless MPI set the handle to
 * MPI_REQUEST_NULL: then the request is gone even when the call did not report it complete
 * (it ended with an error; Open MPI also releases a persistent request that failed), and its
 * record goes too, before a new request can reuse the handle value. */
static inline void put_back_record(scorep_mpi_ctx_reqs *ctx, int i)
{
    if (ctx->handles[i] == MPI_REQUEST_NULL ||
        scorep_mpi_rtab_put_back_at(ctx->recs[i], ctx->where[i]) != 0)
        scorep_mpi_req_destroy(ctx->recs[i]);
    ctx->recs[i] = NULL;
}

static void put_back(scorep_mpi_ctx_reqs *ctx, int i)
{
    put_back_record(ctx, i);
    ctx->tracked--;
}

/* Puts back the records that are still alive (not completed, or persistent), keeping the
 * order of records with equal handles. */
static void ctx_close(scorep_mpi_ctx_reqs *ctx)
{
    for (int i = ctx->count, left = ctx->tracked; left > 0 && i-- > 0;) {
        if (ctx->recs[i]) {
            put_back_record(ctx, i);
            left--;
        }
    }
    ctx->tracked = 0;
    if (ctx->scratch) {
        scratch.busy = 0;
    } else if (ctx->count > SCOREP_MPI_CTX_STACK) {
        /* up to SCOREP_MPI_CTX_STACK requests the arrays are the context's own (ctx_open,
         * ctx_statuses): nothing to free, and no test of each on the path of a Wait */
        if (ctx->recs && ctx->recs != ctx->recs_stack)
            free(ctx->recs);
        if (ctx->statuses && ctx->statuses != ctx->statuses_stack)
            free(ctx->statuses);
    }
    ctx->recs = NULL;
    ctx->statuses = NULL;
}

/* Completion of the request at index i; a released record leaves the context. */
static void complete_at(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx, int i, MPI_Status *st)
{
    scorep_mpi_req *r = ctx->recs[i];
    if (!r)
        return;
    if (!(r->flags & SCOREP_MPI_REQ_PERSISTENT)) {
        ctx->recs[i] = NULL;
        ctx->tracked--;
    }
    completed(f, r, st);
}

static MPI_Status *status_at(MPI_Status statuses[], int i)
{
    return statuses == MPI_STATUSES_IGNORE ? NULL : &statuses[i];
}

static void all_tested(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx)
{
    for (int i = 0; i < ctx->count; i++)
        scorep_mpi_req_tested(f, ctx->recs[i]);
}

__attribute__((flatten)) void scorep_mpi_pre_wait(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx,
                                                  MPI_Request *request)
{
    (void)f;
    ctx_open(ctx, 1, request);
}

__attribute__((flatten)) void scorep_mpi_post_wait(scorep_mpi_frame *f, int ret,
                                                   scorep_mpi_ctx_reqs *ctx, MPI_Request *request,
                                                   MPI_Status *status)
{
    (void)request;
    if (scorep_mpi_received(ret) && ctx->tracked)
        complete_at(f, ctx, 0, status);
    ctx_close(ctx);
}

void scorep_mpi_pre_test(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx, MPI_Request *request)
{
    (void)f;
    ctx_open(ctx, 1, request);
}

void scorep_mpi_post_test(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx,
                          MPI_Request *request, int *flag, MPI_Status *status)
{
    (void)request;
    if (scorep_mpi_received(ret) && ctx->tracked) {
        if (*flag)
            complete_at(f, ctx, 0, status);
        else
            scorep_mpi_req_tested(f, ctx->recs[0]);
    }
    ctx_close(ctx);
}

/* completion of every tracked request of an 'all' call; with MPI_ERR_IN_STATUS only of
 * those whose status says success */
static void complete_all(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx,
                         MPI_Status statuses[])
{
    /* count and recs in registers: complete_at changes neither (it clears recs[i]) */
    const int n = ctx->count;
    scorep_mpi_req **const recs = ctx->recs;
    for (int i = 0; i < n; i++) {
        if (!recs[i])
            continue;
        MPI_Status *st = status_at(statuses, i);
        if (ret == MPI_ERR_IN_STATUS && (!st || !scorep_mpi_received(st->MPI_ERROR)))
            continue;
        complete_at(f, ctx, i, st);
    }
}

__attribute__((flatten)) void scorep_mpi_pre_waitall(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx,
                                                     int count, MPI_Request requests_[],
                                                     MPI_Status **statuses)
{
    (void)f;
    ctx_open(ctx, count, requests_);
    ctx_statuses(ctx, statuses);
}

__attribute__((flatten)) void scorep_mpi_post_waitall(scorep_mpi_frame *f, int ret,
                                                      scorep_mpi_ctx_reqs *ctx, int count,
                                                      MPI_Request requests_[],
                                                      MPI_Status statuses[])
{
    (void)count;
    (void)requests_;
    if ((ret == MPI_SUCCESS || ret == MPI_ERR_IN_STATUS) && ctx->tracked)
        complete_all(f, ret, ctx, statuses);
    ctx_close(ctx);
}

void scorep_mpi_pre_testall(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx, int count,
                            MPI_Request requests_[], MPI_Status **statuses)
{
    (void)f;
    ctx_open(ctx, count, requests_);
    ctx_statuses(ctx, statuses);
}

void scorep_mpi_post_testall(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx, int count,
                             MPI_Request requests_[], int *flag, MPI_Status statuses[])
{
    (void)count;
    (void)requests_;
    if ((ret == MPI_SUCCESS || ret == MPI_ERR_IN_STATUS) && ctx->tracked) {
        if (*flag)
            complete_all(f, ret, ctx, statuses);
        else
            all_tested(f, ctx);
    }
    ctx_close(ctx);
}

void scorep_mpi_pre_waitany(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx, int count,
                            MPI_Request requests_[])
{
    (void)f;
    ctx_open(ctx, count, requests_);
}

void scorep_mpi_post_waitany(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx, int count,
                             MPI_Request requests_[], int *index, MPI_Status *status)
{
    (void)count;
    (void)requests_;
    if (scorep_mpi_received(ret) && ctx->tracked && *index != MPI_UNDEFINED && *index >= 0 &&
        *index < ctx->count)
        complete_at(f, ctx, *index, status);
    ctx_close(ctx);
}

void scorep_mpi_pre_testany(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx, int count,
                            MPI_Request requests_[])
{
    (void)f;
    ctx_open(ctx, count, requests_);
}

void scorep_mpi_post_testany(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx, int count,
                             MPI_Request requests_[], int *index, int *flag, MPI_Status *status)
{
    (void)count;
    (void)requests_;
    if (scorep_mpi_received(ret) && ctx->tracked) {
        if (*flag && *index != MPI_UNDEFINED && *index >= 0 && *index < ctx->count)
            complete_at(f, ctx, *index, status);
        else if (!*flag)
            all_tested(f, ctx);
    }
    ctx_close(ctx);
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
        MPI_Status *st = status_at(statuses, i);
        if (ret == MPI_ERR_IN_STATUS && (!st || !scorep_mpi_received(st->MPI_ERROR)))
            continue;
        complete_at(f, ctx, k, st);
        if (ctx->recs[k]) /* persistent: not 'still pending' for xreqtest */
            put_back(ctx, k);
    }
}

void scorep_mpi_pre_some(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx, int count,
                         MPI_Request requests_[], MPI_Status **statuses)
{
    (void)f;
    ctx_open(ctx, count, requests_);
    ctx_statuses(ctx, statuses);
}

void scorep_mpi_post_waitsome(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx, int count,
                              MPI_Request requests_[], int *outcount, int indices[],
                              MPI_Status statuses[])
{
    (void)count;
    (void)requests_;
    if ((ret == MPI_SUCCESS || ret == MPI_ERR_IN_STATUS) && ctx->tracked)
        complete_some(f, ret, ctx, *outcount, indices, statuses);
    ctx_close(ctx);
}

void scorep_mpi_post_testsome(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx, int count,
                              MPI_Request requests_[], int *outcount, int indices[],
                              MPI_Status statuses[])
{
    (void)count;
    (void)requests_;
    if ((ret == MPI_SUCCESS || ret == MPI_ERR_IN_STATUS) && ctx->tracked) {
        complete_some(f, ret, ctx, *outcount, indices, statuses);
        if (*outcount != MPI_UNDEFINED)
            all_tested(f, ctx); /* the ones still set did not complete */
    }
    ctx_close(ctx);
}
