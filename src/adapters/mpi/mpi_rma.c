/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_rma.c: one-sided communication. Window creation and MPI_Win_free are RMA
 * collectives (RmaCollectiveBegin/End with CREATE_HANDLE[_AND_ALLOCATE] or
 * DESTROY_HANDLE[_AND_DEALLOCATE]) around RmaWinCreate/RmaWinDestroy; MPI_Win_fence is one
 * with BARRIER. Put/Get/Accumulate-type operations record RmaPut, RmaGet or RmaAtomic with a
 * per-process matching id; those without a request share one per target and completion kind
 * until a synchronisation closes it (Score-P's implicit requests) and complete as the
 * request-based ones at the synchronisations; the request-based ones as Score-P: RmaOpCompleteNonBlocking when their request completes
 * (or a synchronisation completes them first), RmaOpCompleteRemote at MPI_Win_flush(_all) and
 * MPI_Win_unlock(_all) (an MPI_Rget's already with its request's completion, as Score-P's
 * combined completion). Locks
 * record RmaRequestLock / RmaReleaseLock (lock_all: remote = all ranks, UINT32_MAX),
 * post/start/complete/wait/test RmaGroupSync with the group's definition, MPI_Win_sync
 * RmaSync. Sync levels: post MEMORY, start PROCESS, complete/wait/test/fence
 * PROCESS|MEMORY, create/free PROCESS. */
#include "adapters/memory/memory_track.h"
#include "adapters/mpi/mpi_adapter.h"
#include "adapters/mpi/mpi_hooks.h"
#include "adapters/mpi/mpi_map.h"
#include "core/events_mpi.h"
#include "defs/defs_mpi.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static scorep_mpi_rmap wins = SCOREP_MPI_RMAP_INIT;
static uint64_t rma_counter, lock_counter;

#define ALL_RANKS UINT32_MAX
#define SYNC_FULL ((scorep_rma_sync_level)(SCOREP_RMA_SYNC_PROCESS | SCOREP_RMA_SYNC_MEMORY))

uint64_t scorep_mpi_next_rma_id(void)
{
    return __atomic_add_fetch(&rma_counter, 1, __ATOMIC_RELAXED);
}

scorep_mpi_win *scorep_mpi_win_get(MPI_Win win)
{
    return win == MPI_WIN_NULL ? NULL : scorep_mpi_rmap_get(&wins, (uintptr_t)win);
}

static int push(scorep_mpi_rma_pending **a, size_t *n, size_t *cap, int target, uint64_t id)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        scorep_mpi_rma_pending *p = realloc(*a, c * sizeof *p);
        if (!p)
            return -1;
        *a = p;
        *cap = c;
    }
    (*a)[(*n)++] = (scorep_mpi_rma_pending){target, id};
    return 0;
}

/* the window's creation and release synchronise processes (Score-P's level for them) */
void scorep_mpi_pre_rma_coll_begin(scorep_mpi_frame *f)
{
    scorep_event_rma_collective_begin(f->l, SCOREP_RMA_SYNC_PROCESS);
}

/* a fence synchronises processes and memory, as its end records */
void scorep_mpi_pre_rma_fence_begin(scorep_mpi_frame *f)
{
    scorep_event_rma_collective_begin(f->l, SYNC_FULL);
}

void scorep_mpi_post_win_new(scorep_mpi_frame *f, int ret, MPI_Comm comm, MPI_Win *win,
                             int allocated)
{
    scorep_collective_op op =
        allocated ? SCOREP_COLL_CREATE_HANDLE_AND_ALLOCATE : SCOREP_COLL_CREATE_HANDLE;
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    scorep_mpi_win *w =
        ret == MPI_SUCCESS && *win != MPI_WIN_NULL && c ? calloc(1, sizeof *w) : NULL;
    uint32_t id = SCOREP_INVALID_ID;
    if (ret == MPI_SUCCESS && c) {
        /* every member of comm takes part, even if a calloc failed */
        uint64_t key = c->rank == 0 ? scorep_mpi_new_key() : 0;
        PMPI_Bcast(&key, 1, MPI_UINT64_T, 0, comm);
        if (w) {
            w->handle = *win;
            w->comm_id = c->id;
            w->rank = c->rank;
            w->allocated = allocated;
            w->post_group = w->start_group = SCOREP_INVALID_ID;
            pthread_mutex_init(&w->lock, NULL);
            w->id = id = scorep_defs_win(key, "", c->id);
            scorep_mpi_win *old = scorep_mpi_rmap_put(&wins, (uintptr_t)*win, w);
            if (old == w) {
                pthread_mutex_destroy(&w->lock);
                free(w);
            } else if (old) {
                free(old->impl);
                free(old->locks);
                free(old->rreqs);
                free(old);
            }
        }
    }
    if (id != SCOREP_INVALID_ID)
        scorep_event_rma_win_create(f->l, id);
    scorep_event_rma_collective_end(f->l, op, SCOREP_RMA_SYNC_PROCESS, id, SCOREP_NO_ROOT, 0, 0);
}

/* The name as MPI keeps it (truncated to MPI_MAX_OBJECT_NAME - 1 characters) */
void scorep_mpi_post_win_set_name(scorep_mpi_frame *f, int ret, MPI_Win win, const char *name)
{
    (void)f;
    (void)name;
    scorep_mpi_win *w = ret == MPI_SUCCESS ? scorep_mpi_win_get(win) : NULL;
    char kept[MPI_MAX_OBJECT_NAME + 1] = "";
    int len = 0;
    if (w && w->id != SCOREP_INVALID_ID && PMPI_Win_get_name(win, kept, &len) == MPI_SUCCESS)
        scorep_defs_win_set_name(w->id, kept);
}

/* SCOREP_MPI_MEMORY_RECORDING: the memory of a window MPI_Win_allocate(_shared) made (its
 * base, recorded as an allocation there) is released by MPI_Win_free: before the call, the
 * address may be handed out again after it. Score-P records the allocation only (its
 * windows' memory stays "leaked"). */
static uint64_t free_window_memory(scorep_mpi_frame *f, MPI_Win win)
{
    void *base = NULL;
    int flag = 0;
    if (!scorep_mpi_memory_on() || PMPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag) != MPI_SUCCESS ||
        !flag)
        return 0;
    return scorep_memory_free(f->l, SCOREP_ALLOC_MPI, base);
}

void scorep_mpi_pre_win_free(scorep_mpi_frame *f, scorep_mpi_ctx_win *ctx, MPI_Win *win)
{
    ctx->win = win && *win != MPI_WIN_NULL ? scorep_mpi_rmap_remove(&wins, (uintptr_t)*win) : NULL;
    ctx->freed = ctx->win && ctx->win->allocated ? free_window_memory(f, *win) : 0;
    scorep_event_rma_collective_begin(f->l, SCOREP_RMA_SYNC_PROCESS);
}

void scorep_mpi_post_win_free(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_win *ctx)
{
    (void)ret;
    scorep_mpi_win *w = ctx->win;
    if (ctx->freed && f->record) /* Score-P's DEALLOCATION_SIZE, on the Leave */
        scorep_event_attr(f->l, f->region, false, BUF_ATTR_DEALLOCATION_SIZE, ctx->freed);
    if (!w) {
        scorep_event_rma_collective_end(f->l, SCOREP_COLL_DESTROY_HANDLE, SCOREP_RMA_SYNC_PROCESS,
                                        SCOREP_INVALID_ID, SCOREP_NO_ROOT, 0, 0);
        return;
    }
    /* nothing completes here: MPI requires the epochs closed (Score-P records nothing either) */
    scorep_event_rma_collective_end(
        f->l, w->allocated ? SCOREP_COLL_DESTROY_HANDLE_AND_DEALLOCATE : SCOREP_COLL_DESTROY_HANDLE,
        SCOREP_RMA_SYNC_PROCESS, w->id, SCOREP_NO_ROOT, 0, 0);
    scorep_event_rma_win_destroy(f->l, w->id);
    /* freed: a reader can no longer hold it (the program has stopped using the window) */
    pthread_mutex_destroy(&w->lock);
    free(w->impl);
    free(w->locks);
    free(w->rreqs);
    free(w);
}

/* ---- operations ---------------------------------------------------------------------- */

/* The window of an operation on a real target, or NULL. */
static scorep_mpi_win *target_win(int ret, int target, MPI_Win win)
{
    if (ret != MPI_SUCCESS || target == MPI_PROC_NULL)
        return NULL;
    return scorep_mpi_win_get(win);
}

/* The matching id of an operation without a request to target, as Score-P: the id of the
 * window's open entry for (target, combined), else a new one (its entry created; without
 * memory the operation completes nowhere, as before a synchronisation could see it). */
static uint64_t implicit_id(scorep_mpi_win *w, int target, bool combined)
{
    uint64_t id = 0;
    pthread_mutex_lock(&w->lock);
    for (size_t i = 0; i < w->nimpl; i++)
        if (w->impl[i].target == target && w->impl[i].combined == combined) {
            id = w->impl[i].id;
            break;
        }
    if (!id) {
        id = scorep_mpi_next_rma_id();
        if (w->nimpl == w->capimpl) {
            size_t c = w->capimpl ? 2 * w->capimpl : 8;
            scorep_mpi_rma_rreq *p = realloc(w->impl, c * sizeof *p);
            if (p) {
                w->impl = p;
                w->capimpl = c;
            }
        }
        if (w->nimpl < w->capimpl)
            w->impl[w->nimpl++] = (scorep_mpi_rma_rreq){target, id, combined, 0, 0, 1, NULL};
    }
    pthread_mutex_unlock(&w->lock);
    return id;
}

/* ---- request-based operations (Score-P's scorep_mpi_rma_request) ---------------------- */

/* The entry of a live request's operation, or NULL; under w->lock. O(1): the record keeps
 * its entry's index (rma_slot), updated whenever rreq_compact moves the entry; the id check
 * guards against a record whose window was freed and replaced. */
static scorep_mpi_rma_rreq *rreq_of(scorep_mpi_win *w, const scorep_mpi_req *r)
{
    size_t i = r->rma_slot;
    if (i < w->nrreqs && w->rreqs[i].id == r->matching_id)
        return &w->rreqs[i];
    return NULL;
}

/* An entry both closed and with its request completed is dead: counted here, dropped by
 * the next compaction; under w->lock */
static void rreq_check_dead(scorep_mpi_win *w, scorep_mpi_rma_rreq *e)
{
    if (e->closed && e->req_done)
        w->deadrreqs++;
}

/* Drops the dead entries, keeping issue order and the live records' rma_slot; under
 * w->lock. O(n): run by the synchronisations (which visit every entry anyway) and when half
 * the entries are dead, so amortised O(1) per operation. */
static void rreq_compact(scorep_mpi_win *w)
{
    size_t keep = 0;
    for (size_t i = 0; i < w->nrreqs; i++) {
        scorep_mpi_rma_rreq *e = &w->rreqs[i];
        if (e->closed && e->req_done)
            continue;
        if (keep != i) {
            w->rreqs[keep] = *e;
            if (w->rreqs[keep].req)
                w->rreqs[keep].req->rma_slot = keep;
        }
        keep++;
    }
    w->nrreqs = keep;
    w->deadrreqs = 0;
}

static void rreq_maybe_compact(scorep_mpi_win *w)
{
    if (w->deadrreqs > 16 && 2 * w->deadrreqs >= w->nrreqs)
        rreq_compact(w);
}

/* What a synchronisation records for the open request-based operations to target (all:
 * -1), as Score-P's three completions: STANDARD (flush_local, a successful MPI_Win_test):
 * the local completion if not yet, and for an MPI_Rget the remote one; STANDARD_CLOSE
 * (fence, complete, wait) the same, then nothing more for them; FULL (flush, unlock) the
 * local completion if not yet and the remote one. */
typedef enum { RREQ_STANDARD, RREQ_STANDARD_CLOSE, RREQ_FULL } rreq_completion;

/* One array's part of it; under w->lock */
static void entries_complete(scorep_mpi_frame *f, scorep_mpi_win *w, scorep_mpi_rma_rreq *a,
                             size_t n, int target, rreq_completion how)
{
    for (size_t i = 0; i < n; i++) {
        scorep_mpi_rma_rreq *e = &a[i];
        if (e->closed || (target >= 0 && e->target != target))
            continue;
        if (!e->local_done) {
            scorep_event_rma_op_complete_non_blocking(f->l, w->id, e->id);
            e->local_done = 1;
            if (e->combined && how != RREQ_FULL) {
                scorep_event_rma_op_complete_remote(f->l, w->id, e->id);
                e->closed = 1;
            }
        }
        if (how == RREQ_FULL)
            scorep_event_rma_op_complete_remote(f->l, w->id, e->id);
        if (how != RREQ_STANDARD)
            e->closed = 1;
    }
}

/* The operations without a request first (Score-P's skip list orders a target's implicit
 * entry before its requests), each array in issue order; closed implicit entries go (a later
 * operation to their target takes a new matching id). */
static void rreq_complete(scorep_mpi_frame *f, scorep_mpi_win *w, int target, rreq_completion how)
{
    pthread_mutex_lock(&w->lock);
    entries_complete(f, w, w->impl, w->nimpl, target, how);
    size_t keep = 0;
    for (size_t i = 0; i < w->nimpl; i++)
        if (!w->impl[i].closed)
            w->impl[keep++] = w->impl[i];
    w->nimpl = keep;
    entries_complete(f, w, w->rreqs, w->nrreqs, target, how);
    rreq_compact(w);
    pthread_mutex_unlock(&w->lock);
}

/* request-based operations complete with their request */
static void rma_request(scorep_mpi_frame *f, scorep_mpi_win *w, int target, uint64_t id,
                        bool combined, MPI_Request *request)
{
    scorep_mpi_req *r =
        scorep_mpi_req_create(*request, SCOREP_MPI_REQ_RMA, f->record ? SCOREP_MPI_REQ_EVENTS : 0);
    if (!r)
        return;
    r->win = w->id;
    r->matching_id = id;
    r->rma_win = w->handle;
    pthread_mutex_lock(&w->lock);
    rreq_maybe_compact(w);
    if (w->nrreqs == w->caprreqs) {
        size_t c = w->caprreqs ? 2 * w->caprreqs : 16;
        scorep_mpi_rma_rreq *p = realloc(w->rreqs, c * sizeof *p);
        if (p) {
            w->rreqs = p;
            w->caprreqs = c;
        }
    }
    /* without memory the operation is not tracked: its request's completion records the
     * local completion alone */
    if (w->nrreqs >= w->caprreqs) {
        pthread_mutex_unlock(&w->lock);
        scorep_mpi_req_publish(r);
        return;
    }
    r->rma_slot = w->nrreqs;
    w->rreqs[w->nrreqs++] = (scorep_mpi_rma_rreq){target, id, combined, 0, 0, 0, r};
    /* published under the lock (it takes the table's lock: never held while taking a
     * window's), so that no compaction writes to r should the publication drop it */
    if (!scorep_mpi_req_publish(r)) { /* r is gone: its entry waits for a synchronisation */
        w->rreqs[w->nrreqs - 1].req = NULL;
        w->rreqs[w->nrreqs - 1].req_done = 1;
    }
    pthread_mutex_unlock(&w->lock);
}

/* Score-P's request completion: the local completion unless a synchronisation recorded it,
 * and an MPI_Rget's remote one (unless closed). events false: the state only (the request
 * was created while not recording; its window's entry must go all the same). */
void scorep_mpi_rma_request_completed(scorep_mpi_frame *f, scorep_mpi_req *r, bool events)
{
    scorep_mpi_win *w = scorep_mpi_win_get(r->rma_win);
    bool tracked = false;
    if (w && w->id == r->win) {
        pthread_mutex_lock(&w->lock);
        scorep_mpi_rma_rreq *e = rreq_of(w, r);
        if (e) {
            tracked = true;
            if (!e->local_done) {
                if (events)
                    scorep_event_rma_op_complete_non_blocking(f->l, r->win, r->matching_id);
                e->local_done = 1;
                if (!e->closed && e->combined) {
                    if (events)
                        scorep_event_rma_op_complete_remote(f->l, r->win, r->matching_id);
                    e->closed = 1;
                }
            }
            e->req_done = 1;
            e->req = NULL;
            rreq_check_dead(w, e);
            rreq_maybe_compact(w);
        }
        pthread_mutex_unlock(&w->lock);
    }
    if (!tracked && events) /* not tracked (no memory, or its window is gone) */
        scorep_event_rma_op_complete_non_blocking(f->l, r->win, r->matching_id);
}

/* MPI_Request_free of an RMA request: its completion will not be seen, so its entry goes at
 * the next synchronisation that closes it (flush, unlock, fence, complete, wait), which
 * records what is left of its completion as for any open operation. */
void scorep_mpi_rma_request_freed(scorep_mpi_req *r)
{
    scorep_mpi_win *w = scorep_mpi_win_get(r->rma_win);
    if (!w || w->id != r->win)
        return;
    pthread_mutex_lock(&w->lock);
    scorep_mpi_rma_rreq *e = rreq_of(w, r);
    if (e) {
        e->req_done = 1;
        e->req = NULL;
        rreq_check_dead(w, e);
    }
    pthread_mutex_unlock(&w->lock);
}

static uint64_t put(scorep_mpi_frame *f, scorep_mpi_win *w, int count, MPI_Datatype type,
                    int target, uint64_t id)
{
    id = id ? id : scorep_mpi_next_rma_id();
    scorep_event_rma_put(f->l, w->id, (uint32_t)target, scorep_mpi_type_bytes(count, type), id);
    return id;
}

static uint64_t get(scorep_mpi_frame *f, scorep_mpi_win *w, int count, MPI_Datatype type,
                    int target, uint64_t id)
{
    id = id ? id : scorep_mpi_next_rma_id();
    scorep_event_rma_get(f->l, w->id, (uint32_t)target, scorep_mpi_type_bytes(count, type), id);
    return id;
}

/* (id 0: a new one, for a request-based operation) */
static uint64_t atomic_op(scorep_mpi_frame *f, scorep_mpi_win *w, int target,
                          scorep_rma_atomic_type type, uint64_t sent, uint64_t received,
                          uint64_t id)
{
    id = id ? id : scorep_mpi_next_rma_id();
    scorep_event_rma_atomic(f->l, w->id, (uint32_t)target, type, sent, received, id);
    return id;
}

void scorep_mpi_post_rma_put(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type, int target,
                             MPI_Win win)
{
    scorep_mpi_win *w = target_win(ret, target, win);
    if (w)
        put(f, w, count, type, target, implicit_id(w, target, false));
}

void scorep_mpi_post_rma_get(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type, int target,
                             MPI_Win win)
{
    scorep_mpi_win *w = target_win(ret, target, win);
    if (w)
        get(f, w, count, type, target, implicit_id(w, target, true));
}

void scorep_mpi_post_rma_accumulate(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                                    int target, MPI_Win win)
{
    scorep_mpi_win *w = target_win(ret, target, win);
    if (w)
        atomic_op(f, w, target, SCOREP_RMA_ATOMIC_ACCUMULATE, scorep_mpi_type_bytes(count, type),
                  0, implicit_id(w, target, false));
}

void scorep_mpi_post_rma_get_accumulate(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                                        int result_count, MPI_Datatype result_type, int target,
                                        MPI_Win win)
{
    scorep_mpi_win *w = target_win(ret, target, win);
    if (w)
        atomic_op(f, w, target, SCOREP_RMA_ATOMIC_FETCH_AND_ACCUMULATE,
                  scorep_mpi_type_bytes(count, type),
                  scorep_mpi_type_bytes(result_count, result_type), implicit_id(w, target, false));
}

void scorep_mpi_post_rma_fetch_and_op(scorep_mpi_frame *f, int ret, MPI_Datatype type, int target,
                                      MPI_Win win)
{
    scorep_mpi_win *w = target_win(ret, target, win);
    uint64_t b = scorep_mpi_type_bytes(1, type);
    if (w)
        atomic_op(f, w, target, SCOREP_RMA_ATOMIC_FETCH_AND_ACCUMULATE, b, b,
                  implicit_id(w, target, false));
}

void scorep_mpi_post_rma_compare_and_swap(scorep_mpi_frame *f, int ret, MPI_Datatype type,
                                          int target, MPI_Win win)
{
    scorep_mpi_win *w = target_win(ret, target, win);
    uint64_t b = scorep_mpi_type_bytes(1, type);
    if (w) /* sends the new value and the compare value, receives the old value */
        atomic_op(f, w, target, SCOREP_RMA_ATOMIC_COMPARE_AND_SWAP, 2 * b, b,
                  implicit_id(w, target, false));
}

void scorep_mpi_post_rma_rput(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                              int target, MPI_Win win, MPI_Request *request)
{
    scorep_mpi_win *w = target_win(ret, target, win);
    if (w)
        rma_request(f, w, target, put(f, w, count, type, target, 0), false, request);
}

void scorep_mpi_post_rma_rget(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                              int target, MPI_Win win, MPI_Request *request)
{
    scorep_mpi_win *w = target_win(ret, target, win);
    if (w)
        rma_request(f, w, target, get(f, w, count, type, target, 0), true, request);
}

void scorep_mpi_post_rma_raccumulate(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                                     int target, MPI_Win win, MPI_Request *request)
{
    scorep_mpi_win *w = target_win(ret, target, win);
    if (w)
        rma_request(f, w, target,
                    atomic_op(f, w, target, SCOREP_RMA_ATOMIC_ACCUMULATE,
                              scorep_mpi_type_bytes(count, type), 0, 0),
                    false, request);
}

void scorep_mpi_post_rma_rget_accumulate(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                                         int result_count, MPI_Datatype result_type, int target,
                                         MPI_Win win, MPI_Request *request)
{
    scorep_mpi_win *w = target_win(ret, target, win);
    if (w)
        rma_request(f, w, target,
                    atomic_op(f, w, target, SCOREP_RMA_ATOMIC_FETCH_AND_ACCUMULATE,
                              scorep_mpi_type_bytes(count, type),
                              scorep_mpi_type_bytes(result_count, result_type), 0),
                    false, request);
}

/* ---- synchronisation ----------------------------------------------------------------- */

void scorep_mpi_post_win_fence(scorep_mpi_frame *f, int ret, MPI_Win win)
{
    scorep_mpi_win *w = scorep_mpi_win_get(win);
    if (w && ret == MPI_SUCCESS)
        rreq_complete(f, w, -1, RREQ_STANDARD_CLOSE);
    scorep_event_rma_collective_end(f->l, SCOREP_COLL_BARRIER, SYNC_FULL,
                                    w ? w->id : SCOREP_INVALID_ID, SCOREP_NO_ROOT, 0, 0);
}

void scorep_mpi_post_win_lock(scorep_mpi_frame *f, int ret, int lock_type, int rank, MPI_Win win)
{
    scorep_mpi_win *w = ret == MPI_SUCCESS ? scorep_mpi_win_get(win) : NULL;
    if (!w || rank == MPI_PROC_NULL)
        return;
    uint64_t id = __atomic_add_fetch(&lock_counter, 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&w->lock);
    push(&w->locks, &w->nlocks, &w->caplocks, rank, id);
    pthread_mutex_unlock(&w->lock);
    scorep_event_rma_request_lock(f->l, w->id, (uint32_t)rank, id,
                                  lock_type == MPI_LOCK_EXCLUSIVE ? SCOREP_LOCK_EXCLUSIVE
                                                                  : SCOREP_LOCK_SHARED);
}

/* the lock id of target (-1: lock_all), removed; 0 if unknown */
static uint64_t unlock_id(scorep_mpi_win *w, int target)
{
    uint64_t id = 0;
    pthread_mutex_lock(&w->lock);
    for (size_t i = w->nlocks; i-- > 0;) {
        if (w->locks[i].target == target) {
            id = w->locks[i].id;
            w->locks[i] = w->locks[--w->nlocks];
            break;
        }
    }
    pthread_mutex_unlock(&w->lock);
    return id;
}

void scorep_mpi_post_win_unlock(scorep_mpi_frame *f, int ret, int rank, MPI_Win win)
{
    scorep_mpi_win *w = ret == MPI_SUCCESS ? scorep_mpi_win_get(win) : NULL;
    if (!w || rank == MPI_PROC_NULL)
        return;
    rreq_complete(f, w, rank, RREQ_FULL);
    scorep_event_rma_release_lock(f->l, w->id, (uint32_t)rank, unlock_id(w, rank));
}

void scorep_mpi_post_win_lock_all(scorep_mpi_frame *f, int ret, MPI_Win win)
{
    scorep_mpi_win *w = ret == MPI_SUCCESS ? scorep_mpi_win_get(win) : NULL;
    if (!w)
        return;
    uint64_t id = __atomic_add_fetch(&lock_counter, 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&w->lock);
    push(&w->locks, &w->nlocks, &w->caplocks, -1, id);
    pthread_mutex_unlock(&w->lock);
    scorep_event_rma_request_lock(f->l, w->id, ALL_RANKS, id, SCOREP_LOCK_SHARED);
}

void scorep_mpi_post_win_unlock_all(scorep_mpi_frame *f, int ret, MPI_Win win)
{
    scorep_mpi_win *w = ret == MPI_SUCCESS ? scorep_mpi_win_get(win) : NULL;
    if (!w)
        return;
    rreq_complete(f, w, -1, RREQ_FULL);
    scorep_event_rma_release_lock(f->l, w->id, ALL_RANKS, unlock_id(w, -1));
}

static void flush(scorep_mpi_frame *f, int ret, int rank, MPI_Win win, rreq_completion how)
{
    scorep_mpi_win *w = ret == MPI_SUCCESS ? scorep_mpi_win_get(win) : NULL;
    if (w && rank != MPI_PROC_NULL)
        rreq_complete(f, w, rank, how);
}

/* flush: complete at the target; flush_local: locally only (an MPI_Rget: at the target too) */
void scorep_mpi_post_win_flush(scorep_mpi_frame *f, int ret, int rank, MPI_Win win)
{
    flush(f, ret, rank, win, RREQ_FULL);
}

void scorep_mpi_post_win_flush_all(scorep_mpi_frame *f, int ret, MPI_Win win)
{
    flush(f, ret, -1, win, RREQ_FULL);
}

void scorep_mpi_post_win_flush_local(scorep_mpi_frame *f, int ret, int rank, MPI_Win win)
{
    flush(f, ret, rank, win, RREQ_STANDARD);
}

void scorep_mpi_post_win_flush_local_all(scorep_mpi_frame *f, int ret, MPI_Win win)
{
    flush(f, ret, -1, win, RREQ_STANDARD);
}

void scorep_mpi_post_win_post(scorep_mpi_frame *f, int ret, MPI_Group group, MPI_Win win)
{
    scorep_mpi_win *w = ret == MPI_SUCCESS ? scorep_mpi_win_get(win) : NULL;
    if (!w)
        return;
    w->post_group = scorep_mpi_group_id(group);
    scorep_event_rma_group_sync(f->l, SCOREP_RMA_SYNC_MEMORY, w->id, w->post_group);
}

void scorep_mpi_post_win_start(scorep_mpi_frame *f, int ret, MPI_Group group, MPI_Win win)
{
    scorep_mpi_win *w = ret == MPI_SUCCESS ? scorep_mpi_win_get(win) : NULL;
    if (!w)
        return;
    w->start_group = scorep_mpi_group_id(group);
    scorep_event_rma_group_sync(f->l, SCOREP_RMA_SYNC_PROCESS, w->id, w->start_group);
}

void scorep_mpi_post_win_complete(scorep_mpi_frame *f, int ret, MPI_Win win)
{
    scorep_mpi_win *w = ret == MPI_SUCCESS ? scorep_mpi_win_get(win) : NULL;
    if (!w)
        return;
    rreq_complete(f, w, -1, RREQ_STANDARD_CLOSE);
    scorep_event_rma_group_sync(f->l, SYNC_FULL, w->id, w->start_group);
}

static void win_wait(scorep_mpi_frame *f, int ret, MPI_Win win, rreq_completion how)
{
    scorep_mpi_win *w = ret == MPI_SUCCESS ? scorep_mpi_win_get(win) : NULL;
    if (w) {
        rreq_complete(f, w, -1, how);
        scorep_event_rma_group_sync(f->l, SYNC_FULL, w->id, w->post_group);
    }
}

void scorep_mpi_post_win_wait(scorep_mpi_frame *f, int ret, MPI_Win win)
{
    win_wait(f, ret, win, RREQ_STANDARD_CLOSE);
}

/* a successful test: as MPI_Win_wait, but Score-P leaves the operations open */
void scorep_mpi_post_win_test(scorep_mpi_frame *f, int ret, MPI_Win win, int *flag)
{
    if (flag && *flag)
        win_wait(f, ret, win, RREQ_STANDARD);
}

void scorep_mpi_post_win_sync(scorep_mpi_frame *f, int ret, MPI_Win win)
{
    scorep_mpi_win *w = ret == MPI_SUCCESS ? scorep_mpi_win_get(win) : NULL;
    if (w)
        scorep_event_rma_sync(f->l, w->id, (uint32_t)w->rank, SCOREP_RMA_SYNC_TYPE_MEMORY);
}
