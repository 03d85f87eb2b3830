/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_wait.h: the completion of requests and the hooks of the Wait and Test families, inline:
 * they run in the wrappers of the message path (spec item 'hot'), where the out-of-line
 * hooks cost their calls, the reloading of their arguments and registers saved for the rare
 * kinds (docs/mpi.md, "The non-blocking path inlined", "Test, Waitany and Waitsome").
 * mpi_request.c has their rare paths (contexts of more than SCOREP_MPI_CTX_STACK requests,
 * errors, MPI_THREAD_MULTIPLE). Included by mpi_hooks.h after the contexts. */
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
/* the handles of more than SCOREP_MPI_CTX_STACK requests saved (scorep_mpi_ctx_save) */
void scorep_mpi_ctx_save_large(scorep_mpi_ctx_reqs *ctx, int count, MPI_Request requests_[]);
/* The records of the saved handles taken after the call, as ctx_open takes them before it:
 * the rare cases then run the code of the records taken (mpi_request.c). */
void scorep_mpi_ctx_take_saved(scorep_mpi_ctx_reqs *ctx);
/* RequestTest of a request a Test call found incomplete (SCOREP_MPI_ENABLE_GROUPS xreqtest) */
void scorep_mpi_req_tested(scorep_mpi_frame *f, scorep_mpi_req *r);
/* the post hooks with the records taken (before the call, or by ctx_take_saved after it) */
void scorep_mpi_post_testall_taken(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx,
                                   int *flag, MPI_Status statuses[]);
void scorep_mpi_post_any_taken(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx, int *index,
                               int flag, MPI_Status *status);
void scorep_mpi_post_some_taken(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx,
                                int *outcount, int indices[], MPI_Status statuses[], bool test);

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
    ctx->saved = NULL;
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

/* ---- handles saved: MPI_Test, MPI_Testany, MPI_Testall, MPI_Testsome, MPI_Waitany,
 * MPI_Waitsome ---------------------------------------------------------------------------
 * Below MPI_THREAD_MULTIPLE these calls take no record before the call: they copy the
 * handles (MPI sets those of completed requests to MPI_REQUEST_NULL), and after the call look
 * up, by the copy, the record of each request the call reports complete and complete it
 * (non-persistent: it leaves the table). The records of the others never leave the table: a
 * Test that finds nothing costs the copy. The same records as ctx_open's take:
 * - nothing changes the table during the call (no request is created in a Wait/Test below
 *   MPI_THREAD_MULTIPLE), so a look-up after it finds what a take before it would;
 * - a handle value given more than once stands for one MPI object (Open MPI's
 *   ompi_request_empty), complete for all of them or none: completed in ascending index
 *   order, each occurrence finds the oldest record left, as the take of each in turn would;
 * - on MPI_SUCCESS MPI releases only requests it reports complete.
 * Anything else (another return value, indices not ascending, a handle given twice to
 * Testany/Waitany, RequestTest events: SCOREP_MPI_ENABLE_GROUPS xreqtest) takes the records
 * of the copy after the call (scorep_mpi_ctx_take_saved) and runs the code of the records
 * taken, as under MPI_THREAD_MULTIPLE, where the records are taken before the call (a thread
 * takes its own, and a handle value recycled by another thread meanwhile never meets them:
 * docs/mpi.md). */

/* Whether a Test call that found requests incomplete records their RequestTest events */
static inline bool scorep_mpi_tests_recorded(const scorep_mpi_frame *f)
{
    return f->record && scorep_mpi_group_on(SCOREP_MPI_G_XREQTEST);
}

/* Before the call: the handles copied (statuses: substituted for MPI_STATUSES_IGNORE, as the
 * requests tracked are not known yet; NULL: a call with one status), or under
 * MPI_THREAD_MULTIPLE the records taken (ctx_open). */
static inline __attribute__((always_inline)) void scorep_mpi_ctx_save(scorep_mpi_ctx_reqs *ctx,
                                                                      int count,
                                                                      MPI_Request requests_[],
                                                                      MPI_Status **statuses)
{
    if (__builtin_expect(scorep_mpi_rtab.shared, 0)) {
        scorep_mpi_ctx_open(ctx, count, requests_);
        if (statuses)
            scorep_mpi_ctx_statuses(ctx, statuses);
        return;
    }
    ctx->tracked = 0;
    ctx->statuses = NULL;
    if (__builtin_expect(count > SCOREP_MPI_CTX_STACK, 0)) {
        scorep_mpi_ctx_save_large(ctx, count, requests_);
        if (statuses && *statuses == MPI_STATUSES_IGNORE && ctx->count > 0)
            scorep_mpi_ctx_statuses_large(ctx, statuses);
        return;
    }
    ctx->count = count > 0 ? count : 0;
    ctx->handles = requests_;
    ctx->scratch = 0;
    ctx->recs = ctx->recs_stack;
    ctx->where = ctx->where_stack;
    ctx->saved = ctx->saved_stack;
    for (int i = 0; i < ctx->count; i++)
        ctx->saved_stack[i] = requests_[i];
    if (statuses && *statuses == MPI_STATUSES_IGNORE) {
        ctx->statuses = ctx->statuses_stack;
        *statuses = ctx->statuses;
    }
}

/* The completion of the request at index k by its saved handle: its oldest record, looked up
 * now; non-persistent, or persistent and released by MPI (handle now MPI_REQUEST_NULL, as
 * ctx_put_back_record), it leaves the table; a persistent one completes in place. */
static inline __attribute__((always_inline)) void
scorep_mpi_saved_complete_at(scorep_mpi_frame *f, const scorep_mpi_ctx_reqs *ctx, int k,
                             MPI_Status *st)
{
    MPI_Request h = ctx->saved[k];
    if (h == MPI_REQUEST_NULL)
        return;
    scorep_mpi_rtab_slot *sl = scorep_mpi_rtab_slot_of(h);
    scorep_mpi_req *r = sl ? sl->head : NULL;
    if (!r)
        return;
    if (__builtin_expect(!(r->flags & SCOREP_MPI_REQ_PERSISTENT), 1)) {
        scorep_mpi_rtab_pop(sl);
        scorep_mpi_req_completed_inline(f, r, st);
    } else if (ctx->handles[k] == MPI_REQUEST_NULL) {
        scorep_mpi_rtab_pop(sl);
        scorep_mpi_req_completed_inline(f, r, st);
        scorep_mpi_req_destroy(r);
    } else {
        scorep_mpi_req_completed_inline(f, r, st);
    }
}

/* indices[0..n) ascending and below count (n: a call's outcount) */
static inline bool scorep_mpi_indices_ascending(int n, const int indices[], int count)
{
    for (int p = 0, prev = -1; p < n; prev = indices[p++])
        if (indices[p] <= prev || indices[p] >= count)
            return false;
    return true;
}

/* Whether the handle at index k appears before it in the saved handles (Testany, Waitany:
 * the take before the call gave such an occurrence the next record of the handle) */
static inline bool scorep_mpi_saved_repeated(const scorep_mpi_ctx_reqs *ctx, int k)
{
    for (int j = 0; j < k; j++)
        if (ctx->saved[j] == ctx->saved[k])
            return true;
    return false;
}

/* MPI_Test: below MPI_THREAD_MULTIPLE the handle only; under it the record taken (as
 * MPI_Wait's; a context of its own, so that MPI_Wait's stays two registers) */
static inline __attribute__((always_inline)) void
scorep_mpi_pre_test(scorep_mpi_frame *f, scorep_mpi_ctx_test *ctx, MPI_Request *request)
{
    (void)f;
    ctx->handle = *request;
    ctx->r = NULL;
    if (__builtin_expect(scorep_mpi_rtab.shared, 0))
        (void)scorep_mpi_rtab_take_n(1, request, &ctx->r, &ctx->where);
}

/* The record taken (MPI_THREAD_MULTIPLE): completed, tested, put back or dropped as before */
static inline void scorep_mpi_post_test_taken(scorep_mpi_frame *f, int ret,
                                              scorep_mpi_ctx_test *ctx, MPI_Request *request,
                                              int *flag, MPI_Status *status)
{
    scorep_mpi_req *r = ctx->r;
    if (!r)
        return;
    if (scorep_mpi_received(ret)) {
        if (*flag) {
            const uint32_t flags = r->flags; /* r may go */
            scorep_mpi_req_completed_inline(f, r, status);
            if (!(flags & SCOREP_MPI_REQ_PERSISTENT))
                return;
        } else {
            scorep_mpi_req_tested(f, r);
        }
    }
    if (*request == MPI_REQUEST_NULL || scorep_mpi_rtab_put_back_at(r, ctx->where) != 0)
        scorep_mpi_req_destroy(r);
}

/* A Test that found the request incomplete returns at the first test unless it records
 * RequestTest or MPI released the request. One that completed a non-persistent send or
 * receive writes its event and the Leave in one step where it can, as MPI_Wait. The
 * wrapper's status is never MPI_STATUS_IGNORE (spec item status). */
static inline __attribute__((always_inline)) void
scorep_mpi_post_test(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_test *ctx, MPI_Request *request,
                     int *flag, MPI_Status *status)
{
    if (__builtin_expect(scorep_mpi_rtab.shared, 0)) {
        scorep_mpi_post_test_taken(f, ret, ctx, request, flag, status);
        return;
    }
    const MPI_Request h = ctx->handle;
    if (h == MPI_REQUEST_NULL)
        return;
    const bool received = scorep_mpi_received(ret), done = received && *flag;
    const bool gone = *request == MPI_REQUEST_NULL;
    if (__builtin_expect(!done && !gone, 1) && !(received && scorep_mpi_tests_recorded(f)))
        return;
    scorep_mpi_rtab_slot *sl = scorep_mpi_rtab_slot_of(h);
    scorep_mpi_req *r = sl ? sl->head : NULL;
    if (!r)
        return;
    const uint32_t flags = r->flags;
    if (done && !(flags & SCOREP_MPI_REQ_PERSISTENT)) {
        scorep_mpi_rtab_pop(sl);
        if (__builtin_expect(scorep_mpi_wait_usual(f, r, flags, status), 1))
            scorep_mpi_wait_completed_leave(f, r, status);
        else
            scorep_mpi_req_completed_inline(f, r, status);
        return;
    }
    if (gone)
        scorep_mpi_rtab_pop(sl);
    if (done)
        scorep_mpi_req_completed_inline(f, r, status);
    else if (received)
        scorep_mpi_req_tested(f, r);
    if (gone)
        scorep_mpi_req_destroy(r);
}

static inline __attribute__((always_inline)) void
scorep_mpi_post_testall(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx, int count,
                        MPI_Request requests_[], int *flag, MPI_Status statuses[])
{
    (void)count;
    (void)requests_;
    if (__builtin_expect(ctx->saved != NULL, 1) && ret == MPI_SUCCESS &&
        (*flag || !scorep_mpi_tests_recorded(f))) {
        if (*flag) {
            for (int k = 0; k < ctx->count; k++)
                scorep_mpi_saved_complete_at(f, ctx, k, scorep_mpi_status_at(statuses, k));
        }
        scorep_mpi_ctx_close(ctx);
        return;
    }
    if (ctx->saved)
        scorep_mpi_ctx_take_saved(ctx);
    scorep_mpi_post_testall_taken(f, ret, ctx, flag, statuses);
}

/* MPI_Testany and MPI_Waitany (flag NULL) */
static inline __attribute__((always_inline)) void scorep_mpi_post_any(scorep_mpi_frame *f, int ret,
                                                                      scorep_mpi_ctx_reqs *ctx,
                                                                      int *index, const int *flag,
                                                                      MPI_Status *status)
{
    const int done = flag ? *flag : 1;
    if (__builtin_expect(ctx->saved != NULL, 1) && ret == MPI_SUCCESS) {
        const int k = *index;
        if (done && k != MPI_UNDEFINED && k >= 0 && k < ctx->count) {
            if (__builtin_expect(!scorep_mpi_saved_repeated(ctx, k), 1)) {
                scorep_mpi_saved_complete_at(f, ctx, k, status);
                scorep_mpi_ctx_close(ctx);
                return;
            }
        } else if (done || !scorep_mpi_tests_recorded(f)) {
            scorep_mpi_ctx_close(ctx);
            return;
        }
    }
    if (ctx->saved)
        scorep_mpi_ctx_take_saved(ctx);
    scorep_mpi_post_any_taken(f, ret, ctx, index, done, status);
}

/* MPI_Testany and MPI_Waitany: the handles, saved before the call (the post hook:
 * scorep_mpi_post_any, flag 0 for MPI_Waitany: mpi_functions.spec) */
static inline __attribute__((always_inline)) void scorep_mpi_pre_any(scorep_mpi_frame *f,
                                                                     scorep_mpi_ctx_reqs *ctx,
                                                                     int count,
                                                                     MPI_Request requests_[])
{
    (void)f;
    scorep_mpi_ctx_save(ctx, count, requests_, NULL);
}

/* MPI_Waitsome, MPI_Testsome and MPI_Testall: the requests and (replaced if ignored) statuses */
static inline __attribute__((always_inline)) void
scorep_mpi_pre_some(scorep_mpi_frame *f, scorep_mpi_ctx_reqs *ctx, int count,
                    MPI_Request requests_[], MPI_Status **statuses)
{
    (void)f;
    scorep_mpi_ctx_save(ctx, count, requests_, statuses);
}

/* test: Testsome (1; Waitsome 0: mpi_functions.spec), whose requests found incomplete may
 * record RequestTest */
static inline __attribute__((always_inline)) void
scorep_mpi_post_some(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_reqs *ctx, int *outcount,
                     int indices[], MPI_Status statuses[], const bool test)
{
    const int n = *outcount;
    if (__builtin_expect(ctx->saved != NULL, 1) && ret == MPI_SUCCESS &&
        (n == MPI_UNDEFINED || (!(test && scorep_mpi_tests_recorded(f)) &&
                                scorep_mpi_indices_ascending(n, indices, ctx->count)))) {
        for (int p = 0; n != MPI_UNDEFINED && p < n; p++)
            scorep_mpi_saved_complete_at(f, ctx, indices[p], scorep_mpi_status_at(statuses, p));
        scorep_mpi_ctx_close(ctx);
        return;
    }
    if (ctx->saved)
        scorep_mpi_ctx_take_saved(ctx);
    scorep_mpi_post_some_taken(f, ret, ctx, outcount, indices, statuses, test);
}

#endif
