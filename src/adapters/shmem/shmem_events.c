/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_events.c: the events of the OpenSHMEM adapter. Puts, gets and atomics are RMA
 * operations on the window that stands for the symmetric heap; blocking ones complete
 * (RmaOpCompleteBlocking) when the call returns, *_nbi ones (RmaOpCompleteNonBlocking) at the
 * next quiet, barrier or finalize of the thread that issued them. Collectives are RMA
 * collectives on the window of their active set; locks are RMA lock events on the heap's
 * window (remote: all PEs, id: the lock's symmetric address; a successful shmem_test_lock is
 * an RmaRequestLock, a failed one an RmaTryLock, as Score-P); waits for a change of local memory (shmem_wait*) record RmaWaitChange. */
#include "adapters/shmem/shmem_adapter.h"
#include "defs/defs_mpi.h"

#include <pshmem.h>
#include <pthread.h>
#include <stdlib.h>

/* Matching ids per thread (location): blocking operations count up from 1, non-blocking
 * ones from NBI_BIT | 1, so the outstanding ones are the range (nbi_done, nbi_next]. */
#define NBI_BIT (1ull << 63)
static __thread uint64_t op_next, nbi_next, nbi_done __attribute__((tls_model("initial-exec")));

#define ALL_PES UINT32_MAX
#define SYNC_FULL ((scorep_rma_sync_level)(SCOREP_RMA_SYNC_PROCESS | SCOREP_RMA_SYNC_MEMORY))

static uint32_t remote(int pe)
{
    return pe < 0 ? ALL_PES : (uint32_t)pe;
}

void scorep_shmem_put(scorep_shmem_frame *f, int pe, uint64_t bytes)
{
    f->id = ++op_next;
    scorep_event_rma_put(f->l, scorep_shmem_world_win, remote(pe), bytes, f->id);
}

void scorep_shmem_get(scorep_shmem_frame *f, int pe, uint64_t bytes)
{
    f->id = ++op_next;
    scorep_event_rma_get(f->l, scorep_shmem_world_win, remote(pe), bytes, f->id);
}

void scorep_shmem_put_nbi(scorep_shmem_frame *f, int pe, uint64_t bytes)
{
    f->id = NBI_BIT | ++nbi_next;
    scorep_event_rma_put(f->l, scorep_shmem_world_win, remote(pe), bytes, f->id);
}

void scorep_shmem_get_nbi(scorep_shmem_frame *f, int pe, uint64_t bytes)
{
    f->id = NBI_BIT | ++nbi_next;
    scorep_event_rma_get(f->l, scorep_shmem_world_win, remote(pe), bytes, f->id);
}

void scorep_shmem_atomic(scorep_shmem_frame *f, scorep_rma_atomic_type type, int pe, uint64_t sent,
                         uint64_t received)
{
    f->id = ++op_next;
    scorep_event_rma_atomic(f->l, scorep_shmem_world_win, remote(pe), type, sent, received, f->id);
}

void scorep_shmem_complete(scorep_shmem_frame *f)
{
    scorep_event_rma_op_complete_blocking(f->l, scorep_shmem_world_win, f->id);
}

/* shmem_ctx_quiet completes the operations of one context only; the adapter does not track
 * contexts, so it completes all of the thread's (an early completion, never a lost one). */
void scorep_shmem_quiet(scorep_shmem_frame *f)
{
    for (uint64_t i = nbi_done + 1; i <= nbi_next; i++)
        scorep_event_rma_op_complete_non_blocking(f->l, scorep_shmem_world_win, NBI_BIT | i);
    nbi_done = nbi_next;
}

void scorep_shmem_coll_begin(scorep_shmem_frame *f)
{
    /* Score-P's level for the SHMEM collectives' begin (the op is not known yet) */
    scorep_event_rma_collective_begin(f->l, SYNC_FULL);
}

static scorep_rma_sync_level level(scorep_collective_op op)
{
    return op == SCOREP_COLL_BARRIER ? SYNC_FULL : SCOREP_RMA_SYNC_PROCESS;
}

void scorep_shmem_coll_end(scorep_shmem_frame *f, scorep_collective_op op, int start, int logstride,
                           int size, int root, uint64_t sent, uint64_t received)
{
    scorep_event_rma_collective_end(f->l, op, level(op),
                                    scorep_shmem_window(start, logstride, size),
                                    root < 0 ? SCOREP_NO_ROOT : (uint32_t)root, sent, received);
}

void scorep_shmem_coll_world_end(scorep_shmem_frame *f, scorep_collective_op op, uint64_t sent,
                                 uint64_t received)
{
    scorep_event_rma_collective_end(f->l, op, level(op), scorep_shmem_world_win, SCOREP_NO_ROOT,
                                    sent, received);
}

void scorep_shmem_lock_acquired(scorep_shmem_frame *f, const volatile void *lock)
{
    scorep_event_rma_acquire_lock(f->l, scorep_shmem_world_win, ALL_PES, (uintptr_t)lock,
                                  SCOREP_LOCK_EXCLUSIVE);
}

/* Score-P records RmaRequestLock, not RmaAcquireLock, for a successful shmem_test_lock */
void scorep_shmem_lock_granted(scorep_shmem_frame *f, const volatile void *lock)
{
    scorep_event_rma_request_lock(f->l, scorep_shmem_world_win, ALL_PES, (uintptr_t)lock,
                                  SCOREP_LOCK_EXCLUSIVE);
}

void scorep_shmem_lock_tried(scorep_shmem_frame *f, const volatile void *lock)
{
    scorep_event_rma_try_lock(f->l, scorep_shmem_world_win, ALL_PES, (uintptr_t)lock,
                              SCOREP_LOCK_EXCLUSIVE);
}

void scorep_shmem_wait_change(scorep_shmem_frame *f)
{
    scorep_event_rma_wait_change(f->l, scorep_shmem_world_win);
}

void scorep_shmem_lock_release(scorep_shmem_frame *f, const volatile void *lock)
{
    scorep_event_rma_release_lock(f->l, scorep_shmem_world_win, ALL_PES, (uintptr_t)lock);
}

/* ------------------------------------------------------------ windows of active sets */
/* Keys: "SH" in the top 16 bits, then start (20 bits), logstride (5), size (20): apart from
 * MPI's communicator keys (creator rank << 32 | counter) for fewer than 0x5348 << 16 ranks. */
#define SET_KEY(s, l, n)                                                                           \
    ((0x5348ull << 48) | ((uint64_t)(s) << 25) | ((uint64_t)(l) << 20) | (uint64_t)(n))
enum { SET_CACHE = 64, SET_LIMIT = 1 << 20 };

static struct {
    uint64_t key;
    uint32_t win;
} set_cache[SET_CACHE];
static uint32_t set_cached;
static pthread_mutex_t set_lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t define_set(uint64_t key, int start, int logstride, int size)
{
    uint32_t *members = malloc((size_t)size * sizeof *members);
    if (!members)
        return SCOREP_INVALID_ID;
    for (int i = 0; i < size; i++)
        members[i] = (uint32_t)start + ((uint32_t)i << logstride);
    int world = start == 0 && logstride == 0 && size == pshmem_n_pes();
    scorep_comm_def d = {key,
                         world ? "SHMEM world" : "SHMEM active set",
                         (uint32_t)size,
                         members,
                         0,
                         NULL,
                         SCOREP_COMM_KEY_NONE,
                         0,
                         0};
    uint32_t comm = scorep_defs_comm(&d);
    free(members);
    if (comm == SCOREP_INVALID_ID)
        return SCOREP_INVALID_ID;
    return scorep_defs_win(key, world ? "SHMEM symmetric heap" : "SHMEM active set", comm);
}

uint32_t scorep_shmem_window(int start, int logstride, int size)
{
    if (start < 0 || start >= SET_LIMIT || logstride < 0 || logstride > 31 || size <= 0 ||
        size >= SET_LIMIT)
        return SCOREP_INVALID_ID;
    uint64_t key = SET_KEY(start, logstride, size);
    uint32_t n = __atomic_load_n(&set_cached, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; i < n; i++)
        if (set_cache[i].key == key)
            return set_cache[i].win;
    /* first use of this set (or more sets than cached): define it; defs return the same id
     * for the same key */
    pthread_mutex_lock(&set_lock);
    uint32_t win = define_set(key, start, logstride, size);
    n = set_cached;
    if (win != SCOREP_INVALID_ID && n < SET_CACHE) {
        set_cache[n].key = key;
        set_cache[n].win = win;
        __atomic_store_n(&set_cached, n + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&set_lock);
    return win;
}
