/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_msgid.c: the per-communicator message counters and the queue of deferred receives
 * (the rules are in mpi_msgid.h). Under MPI_THREAD_MULTIPLE everything runs under the
 * communicator's lock; at lower thread levels MPI calls never overlap, so no lock is taken. */
#include "adapters/mpi/mpi_msgid.h"
#include "adapters/mpi/mpi_comm.h"
#include "adapters/mpi/mpi_request.h"

#include <stdlib.h>

#define NO_KEY SCOREP_MPI_NO_KEY

/* Only MPI_THREAD_MULTIPLE lets two threads be inside MPI (and so inside these counters) at
 * once; below it the application serialises its MPI calls and with them our bookkeeping, and
 * the message-id path stays free of locks. */
static inline void comm_lock(scorep_mpi_comm *c)
{
    if (scorep_mpi_thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_lock(&c->lock);
}

static inline void comm_unlock(scorep_mpi_comm *c)
{
    if (scorep_mpi_thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_unlock(&c->lock);
}

/* Message ids are recorded in traces only: a process that does not trace keeps no counters
 * (set once at MPI_Init, before any message). */
int scorep_mpi_msgids;

static uint64_t pack(int peer, int tag)
{
    return (uint64_t)(uint32_t)peer << 32 | (uint32_t)tag;
}

static size_t slot_hash(uint64_t k)
{
    k *= 0x9e3779b97f4a7c15ull;
    return (size_t)(k ^ (k >> 31));
}

void scorep_mpi_counters_init(scorep_mpi_counters *c)
{
    *c = (scorep_mpi_counters){.fast_key = NO_KEY};
}

void scorep_mpi_counters_free(scorep_mpi_counters *c)
{
    free(c->keys);
    free(c->next);
    free(c->returned);
    scorep_mpi_counters_init(c);
}

/* The inline path's counter (mpi_msgid.h, scorep_mpi_counters_fast), after every change of
 * the counters or of the communicator's queue of deferred receives (pend: not empty; always
 * 0 for the send side): the slot found last, unless ids were given back or receives wait.
 * Under MPI_THREAD_MULTIPLE never set (the counters need the lock there). */
static void fast_set(scorep_mpi_counters *c, int pend)
{
    if (scorep_mpi_thread_level == MPI_THREAD_MULTIPLE)
        return;
    if (c->keys && c->nreturned == 0 && !pend) {
        c->fast_key = c->keys[c->last];
        c->fast_next = &c->next[c->last];
    } else {
        c->fast_key = NO_KEY;
        c->fast_next = NULL;
    }
}

static void send_fast_set(scorep_mpi_comm *c)
{
    fast_set(&c->send, 0);
}

static void recv_fast_set(scorep_mpi_comm *c)
{
    fast_set(&c->recv, c->pend_head != NULL);
}

static int counters_grow(scorep_mpi_counters *c)
{
    size_t cap = c->cap ? c->cap * 2 : 16;
    uint64_t *keys = malloc(cap * sizeof *keys), *next = malloc(cap * sizeof *next);
    if (!keys || !next) {
        free(keys);
        free(next);
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        keys[i] = NO_KEY;
    for (size_t i = 0; i < c->cap; i++) {
        if (c->keys[i] == NO_KEY)
            continue;
        size_t j = slot_hash(c->keys[i]) & (cap - 1);
        while (keys[j] != NO_KEY)
            j = (j + 1) & (cap - 1);
        keys[j] = c->keys[i];
        next[j] = c->next[i];
    }
    free(c->keys);
    free(c->next);
    c->keys = keys;
    c->next = next;
    c->cap = cap;
    return 0;
}

/* The counter of (peer, tag): the next id to hand out, 1 for a new pair. NULL without memory.
 * The slot found last is tried first (a program talks to the same peer with the same tag
 * many times in a row); a slot index from before a growth just fails the key check. */
static uint64_t *counter(scorep_mpi_counters *c, int peer, int tag)
{
    uint64_t k = pack(peer, tag);
    if (__builtin_expect(c->keys != NULL && c->keys[c->last] == k, 1))
        return &c->next[c->last];
    if ((c->used + 1) * 2 > c->cap && counters_grow(c) != 0)
        return NULL;
    size_t i = slot_hash(k) & (c->cap - 1);
    while (c->keys[i] != k) {
        if (c->keys[i] == NO_KEY) {
            c->keys[i] = k;
            c->next[i] = 1;
            c->used++;
            break;
        }
        i = (i + 1) & (c->cap - 1);
    }
    c->last = i;
    return &c->next[i];
}

/* The smallest returned id of (peer, tag), or 0 */
static uint64_t returned_min(const scorep_mpi_counters *c, uint64_t k, size_t *at)
{
    uint64_t best = 0;
    for (size_t i = 0; i < c->nreturned; i++) {
        if (c->returned[2 * i] == k && (best == 0 || c->returned[2 * i + 1] < best)) {
            best = c->returned[2 * i + 1];
            *at = i;
        }
    }
    return best;
}

static uint64_t take(scorep_mpi_counters *c, int peer, int tag)
{
    if (c->nreturned) {
        size_t at = 0;
        uint64_t id = returned_min(c, pack(peer, tag), &at);
        if (id) {
            c->nreturned--;
            c->returned[2 * at] = c->returned[2 * c->nreturned];
            c->returned[2 * at + 1] = c->returned[2 * c->nreturned + 1];
            return id;
        }
    }
    uint64_t *n = counter(c, peer, tag);
    return n ? (*n)++ : 0;
}

static uint64_t peek(scorep_mpi_counters *c, int peer, int tag)
{
    size_t at;
    uint64_t id = c->nreturned ? returned_min(c, pack(peer, tag), &at) : 0;
    if (id)
        return id;
    uint64_t *n = counter(c, peer, tag);
    return n ? *n : 0;
}

static void give_back(scorep_mpi_counters *c, int peer, int tag, uint64_t id)
{
    if (!id)
        return;
    uint64_t *n = counter(c, peer, tag);
    if (n && *n == id + 1) { /* the last one handed out */
        (*n)--;
        return;
    }
    if (c->nreturned == c->capreturned) {
        size_t cap = c->capreturned ? c->capreturned * 2 : 4;
        uint64_t *r = realloc(c->returned, cap * 2 * sizeof *r);
        if (!r)
            return;
        c->returned = r;
        c->capreturned = cap;
    }
    c->returned[2 * c->nreturned] = pack(peer, tag);
    c->returned[2 * c->nreturned + 1] = id;
    c->nreturned++;
}

/* ---- the deferred receives ----------------------------------------------------------- */

static void unqueue(scorep_mpi_comm *c, scorep_mpi_req *r)
{
    if (!(r->flags & SCOREP_MPI_REQ_DEFERRED))
        return;
    if (r->pprev)
        r->pprev->pnext = r->pnext;
    else
        c->pend_head = r->pnext;
    if (r->pnext)
        r->pnext->pprev = r->pprev;
    else
        c->pend_tail = r->pprev;
    r->pprev = r->pnext = NULL;
    r->flags &= ~SCOREP_MPI_REQ_DEFERRED;
}

/* Gives ids to the deferred receives posted before 'stop' whose requests are already
 * complete, in posting order. Not under MPI_THREAD_MULTIPLE: another thread may be
 * completing (and freeing) those requests. */
static void resolve(scorep_mpi_comm *c, scorep_mpi_req *stop)
{
    if (scorep_mpi_thread_level == MPI_THREAD_MULTIPLE)
        return;
    for (scorep_mpi_req *e = c->pend_head, *next; e && e != stop; e = next) {
        next = e->pnext;
        int flag = 0;
        MPI_Status st;
        if (PMPI_Request_get_status(e->handle, &flag, &st) != MPI_SUCCESS || !flag)
            continue;
        int cancelled = 0;
        if (e->flags & SCOREP_MPI_REQ_CANCEL)
            PMPI_Test_cancelled(&st, &cancelled);
        unqueue(c, e);
        if (!cancelled && st.MPI_SOURCE != MPI_PROC_NULL) {
            e->msg_id = take(&c->recv, st.MPI_SOURCE, st.MPI_TAG);
            e->flags |= SCOREP_MPI_REQ_HAS_ID;
        }
    }
}

uint64_t scorep_mpi_msgid_send(scorep_mpi_comm *c, int dest, int tag)
{
    if (!scorep_mpi_msgids)
        return 0;
    comm_lock(c);
    uint64_t id = take(&c->send, dest, tag);
    send_fast_set(c);
    comm_unlock(c);
    return id;
}

void scorep_mpi_msgid_send_cancelled(scorep_mpi_comm *c, int dest, int tag, uint64_t id)
{
    if (!scorep_mpi_msgids)
        return;
    comm_lock(c);
    give_back(&c->send, dest, tag, id);
    send_fast_set(c);
    comm_unlock(c);
}

void scorep_mpi_msgid_recv_posted(scorep_mpi_comm *c, scorep_mpi_req *r)
{
    if (!scorep_mpi_msgids)
        return;
    comm_lock(c);
    if (r->peer != MPI_ANY_SOURCE && r->tag != MPI_ANY_TAG && !c->pend_head) {
        r->msg_id = take(&c->recv, r->peer, r->tag);
        r->flags |= SCOREP_MPI_REQ_HAS_ID;
    } else {
        r->flags |= SCOREP_MPI_REQ_DEFERRED;
        r->pnext = NULL;
        r->pprev = c->pend_tail;
        if (c->pend_tail)
            c->pend_tail->pnext = r;
        else
            c->pend_head = r;
        c->pend_tail = r;
    }
    recv_fast_set(c);
    comm_unlock(c);
}

uint64_t scorep_mpi_msgid_recv_completed(scorep_mpi_comm *c, scorep_mpi_req *r,
                                         const MPI_Status *st)
{
    if (!scorep_mpi_msgids)
        return 0;
    comm_lock(c);
    if (!(r->flags & SCOREP_MPI_REQ_HAS_ID)) {
        resolve(c, r);
        unqueue(c, r);
        r->msg_id = take(&c->recv, st->MPI_SOURCE, st->MPI_TAG);
        r->flags |= SCOREP_MPI_REQ_HAS_ID;
        recv_fast_set(c);
    }
    uint64_t id = r->msg_id;
    comm_unlock(c);
    return id;
}

void scorep_mpi_msgid_recv_cancelled(scorep_mpi_comm *c, scorep_mpi_req *r)
{
    if (!scorep_mpi_msgids)
        return;
    comm_lock(c);
    unqueue(c, r);
    if (r->flags & SCOREP_MPI_REQ_HAS_ID)
        give_back(&c->recv, r->peer, r->tag, r->msg_id);
    r->flags &= ~SCOREP_MPI_REQ_HAS_ID;
    recv_fast_set(c);
    comm_unlock(c);
}

void scorep_mpi_msgid_recv_forget(scorep_mpi_comm *c, scorep_mpi_req *r)
{
    if (!(r->flags & SCOREP_MPI_REQ_DEFERRED))
        return;
    comm_lock(c);
    unqueue(c, r);
    recv_fast_set(c);
    comm_unlock(c);
}

uint64_t scorep_mpi_msgid_recv(scorep_mpi_comm *c, int source, int tag)
{
    if (!scorep_mpi_msgids)
        return 0;
    comm_lock(c);
    if (c->pend_head)
        resolve(c, NULL);
    uint64_t id = take(&c->recv, source, tag);
    recv_fast_set(c);
    comm_unlock(c);
    return id;
}

uint64_t scorep_mpi_msgid_peek(scorep_mpi_comm *c, int source, int tag)
{
    if (!scorep_mpi_msgids)
        return 0;
    comm_lock(c);
    if (c->pend_head)
        resolve(c, NULL);
    uint64_t id = peek(&c->recv, source, tag);
    recv_fast_set(c);
    comm_unlock(c);
    return id;
}
