/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_request_table.h: the table of the requests the adapter follows, keyed by the value of
 * their MPI_Request handle, and the free list their records come from. No fixed limit.
 *
 * - Open addressing keyed by the handle value (Open MPI's requests are pointers: one multiply
 *   hashes them), linear probing; a slot holds the handle and the oldest record of it.
 * - Records of one handle form a FIFO (oldest first): Open MPI hands out one shared, already
 *   completed request object (ompi_request_empty) for every send that completed when it
 *   started, so one handle value may stand for many outstanding requests.
 * - The Wait/Test wrappers take the records of their requests out before the PMPI call and put
 *   back those that did not complete; a slot whose records are all taken keeps its key
 *   (dormant), so putting back, and the next request MPI hands out at the same address, find
 *   it without a new slot. Dormant slots are dropped when the table is rebuilt (when keys
 *   fill 5/8 of it; at least 64 slots, twice the live keys), which also shrinks it after a
 *   burst of outstanding requests.
 * - Records (104 bytes) come from a free list refilled 64 at a time; only
 *   the fields a request kind uses are written, nothing is cleared.
 * - Below MPI_THREAD_MULTIPLE MPI calls never overlap: one table, no lock. Under
 *   MPI_THREAD_MULTIPLE 64 shards (by hash), each with its own mutex, table and free list;
 *   as the records are out of the table while their Wait/Test runs, a handle value MPI
 *   recycles meanwhile (another thread's new request) never meets the old record.
 * - Below MPI_THREAD_MULTIPLE the operations of the non-blocking message path (insert, take,
 *   put back, free) are inline (end of this file): a non-blocking message pair makes six of
 *   them, and the calls cost more than the work; anything else (a new slot, a rebuild, an
 *   empty free list, the shared table) is the out-of-line function of the same name + _slow.
 * The inline part needs the record: include mpi_request.h, which includes this file after
 * defining it. */
#ifndef SCOREP_MPI_REQUEST_TABLE_H
#define SCOREP_MPI_REQUEST_TABLE_H

#ifndef SCOREP_MPI_REQUEST_H
#error "include adapters/mpi/mpi_request.h (it includes the request table after the record)"
#endif

#include <mpi.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct scorep_mpi_req;

/* shared: threads may use the table at once (MPI_THREAD_MULTIPLE). Called at MPI_Init. */
void scorep_mpi_rtab_init(int shared);
/* A record for a new request with this handle, the newest of its handle, with handle set and
 * no other field written; NULL when memory is exhausted. Below MPI_THREAD_MULTIPLE it is in
 * the table at once; in a shared table it enters the table only with rtab_publish, once its
 * creator has written it: Open MPI hands every thread the same handle value for a send that
 * completed when it started, and another thread's Wait/Test on that value would otherwise
 * take a record still holding the fields of its previous request (its communicator too,
 * whose reference it would drop a second time). */
static inline struct scorep_mpi_req *scorep_mpi_rtab_insert(MPI_Request handle);
/* The last step of a new record (rtab_insert): 0, or -1 when memory for a larger table is
 * exhausted (the record is then not in the table). Nothing to do below MPI_THREAD_MULTIPLE. */
static inline int scorep_mpi_rtab_publish(struct scorep_mpi_req *r);
/* The oldest record of the handle, or NULL. */
struct scorep_mpi_req *scorep_mpi_rtab_find(MPI_Request handle);
/* Takes the oldest record of the handle out of the table (NULL if none). It goes back with
 * rtab_put_back or to the free list with rtab_free. */
static inline struct scorep_mpi_req *scorep_mpi_rtab_take(MPI_Request handle);
/* Puts a taken record back, in front of the other records of its handle. -1 (and the record
 * is not in the table) only when memory for a larger table is exhausted. */
int scorep_mpi_rtab_put_back(struct scorep_mpi_req *r);
/* The Wait/Test calls: takes the oldest record of each handle (recs[i], NULL for
 * MPI_REQUEST_NULL and unknown handles; a handle given twice gets its two oldest records) and
 * notes in where[i] where it was, so that rtab_put_back_at puts it back without a second
 * lookup (below MPI_THREAD_MULTIPLE nothing can change the table in between: no request is
 * created while a Wait/Test runs). Returns the number of records taken. */
static inline int scorep_mpi_rtab_take_n(int n, const MPI_Request handles[],
                                         struct scorep_mpi_req *recs[], void *where[]);
static inline int scorep_mpi_rtab_put_back_at(struct scorep_mpi_req *r, void *where);
/* A taken (or just inserted and taken) record back to the free list. */
static inline void scorep_mpi_rtab_free(struct scorep_mpi_req *r);

/* Sizes for the benchmarks and the tests: slots of the table(s), keys in them, records
 * allocated, bytes of slots and records. */
typedef struct {
    size_t slots, keys, live, records, bytes;
} scorep_mpi_rtab_stats;
void scorep_mpi_rtab_get_stats(scorep_mpi_rtab_stats *s);

/* ---- the table's state and the inline fast paths --------------------------------------- */

/* A slot: the key is the handle value with the top bit flipped, so that 0 (calloc'ed) means
 * empty and no handle value (pointer or small integer) collides with it. */
typedef struct {
    uintptr_t key;
    struct scorep_mpi_req *head; /* oldest record of the handle; NULL: dormant */
} scorep_mpi_rtab_slot;

typedef struct {
    pthread_mutex_t lock; /* taken only when the table is shared */
    scorep_mpi_rtab_slot *slots;
    size_t mask; /* capacity - 1 */
    size_t keys; /* slots with a key, dormant ones included */
    struct scorep_mpi_req *free;
    size_t records; /* allocated */
} scorep_mpi_rtab_shard;

enum { SCOREP_MPI_RTAB_SHARDS = 64 };
typedef struct {
    int shared;
    scorep_mpi_rtab_shard shards[SCOREP_MPI_RTAB_SHARDS];
} scorep_mpi_rtab_state;
extern SCOREP_MPI_HIDDEN scorep_mpi_rtab_state scorep_mpi_rtab;

/* the out-of-line paths */
struct scorep_mpi_req *scorep_mpi_rtab_insert_slow(MPI_Request handle);
struct scorep_mpi_req *scorep_mpi_rtab_take_slow(MPI_Request handle);
int scorep_mpi_rtab_publish_slow(struct scorep_mpi_req *r);
int scorep_mpi_rtab_put_back_slow(struct scorep_mpi_req *r);
void scorep_mpi_rtab_free_slow(struct scorep_mpi_req *r);

#define SCOREP_MPI_RTAB_EMPTY ((uintptr_t)0)
static inline uintptr_t scorep_mpi_rtab_key(MPI_Request h)
{
    return (uintptr_t)h ^ ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1));
}

static inline uint64_t scorep_mpi_rtab_hash(uintptr_t key)
{
    uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 32);
}

static inline scorep_mpi_rtab_slot *scorep_mpi_rtab_lookup(const scorep_mpi_rtab_shard *s,
                                                           uintptr_t k, uint64_t h)
{
    if (__builtin_expect(s->slots == NULL, 0))
        return NULL;
    for (size_t i = h & s->mask;; i = (i + 1) & s->mask) {
        if (s->slots[i].key == k)
            return &s->slots[i];
        if (s->slots[i].key == SCOREP_MPI_RTAB_EMPTY)
            return NULL;
    }
}

/* The oldest record of the slot's handle, unlinked. */
static inline struct scorep_mpi_req *scorep_mpi_rtab_pop(scorep_mpi_rtab_slot *sl)
{
    struct scorep_mpi_req *r = sl->head;
    if (r) {
        sl->head = r->same;
        if (r->same)
            r->same->last = r->last;
        r->same = NULL;
    }
    return r;
}

/* r becomes the oldest record of the slot's handle. */
static inline void scorep_mpi_rtab_push_front(scorep_mpi_rtab_slot *sl, struct scorep_mpi_req *r)
{
    struct scorep_mpi_req *first = sl->head;
    r->same = first;
    r->last = first ? first->last : r;
    sl->head = r;
}

/* r (of handle) becomes the newest record of the slot's handle. */
static inline void scorep_mpi_rtab_push_back(scorep_mpi_rtab_slot *sl, struct scorep_mpi_req *r,
                                             MPI_Request handle)
{
    r->handle = handle;
    r->same = NULL;
    if (sl->head) {
        sl->head->last->same = r;
        sl->head->last = r;
    } else {
        sl->head = r;
        r->last = r;
    }
}

/* Inline when the handle has a slot (Open MPI reuses the objects of completed requests: the
 * usual case) and the free list a record. */
static inline struct scorep_mpi_req *scorep_mpi_rtab_insert(MPI_Request handle)
{
    if (__builtin_expect(!scorep_mpi_rtab.shared, 1)) {
        scorep_mpi_rtab_shard *s = &scorep_mpi_rtab.shards[0];
        uintptr_t k = scorep_mpi_rtab_key(handle);
        scorep_mpi_rtab_slot *sl = scorep_mpi_rtab_lookup(s, k, scorep_mpi_rtab_hash(k));
        struct scorep_mpi_req *r = s->free;
        if (__builtin_expect(sl != NULL && r != NULL, 1)) {
            s->free = r->same;
            scorep_mpi_rtab_push_back(sl, r, handle);
            return r;
        }
    }
    return scorep_mpi_rtab_insert_slow(handle);
}

static inline int scorep_mpi_rtab_publish(struct scorep_mpi_req *r)
{
    if (__builtin_expect(!scorep_mpi_rtab.shared, 1))
        return 0;
    return scorep_mpi_rtab_publish_slow(r);
}

static inline struct scorep_mpi_req *scorep_mpi_rtab_take(MPI_Request handle)
{
    if (__builtin_expect(scorep_mpi_rtab.shared, 0))
        return scorep_mpi_rtab_take_slow(handle);
    uintptr_t k = scorep_mpi_rtab_key(handle);
    scorep_mpi_rtab_slot *sl =
        scorep_mpi_rtab_lookup(&scorep_mpi_rtab.shards[0], k, scorep_mpi_rtab_hash(k));
    return sl ? scorep_mpi_rtab_pop(sl) : NULL;
}

/* Below MPI_THREAD_MULTIPLE: the slot of the handle (its records: head, oldest first), or
 * NULL. The Test/Waitany/Waitsome calls look up only the requests that completed, after the
 * call (mpi_wait.h, "handles saved"). */
static inline scorep_mpi_rtab_slot *scorep_mpi_rtab_slot_of(MPI_Request handle)
{
    uintptr_t k = scorep_mpi_rtab_key(handle);
    return scorep_mpi_rtab_lookup(&scorep_mpi_rtab.shards[0], k, scorep_mpi_rtab_hash(k));
}

static inline int scorep_mpi_rtab_take_n(int n, const MPI_Request handles[],
                                         struct scorep_mpi_req *recs[], void *where[])
{
    int taken = 0;
    if (__builtin_expect(scorep_mpi_rtab.shared, 0)) {
        for (int i = 0; i < n; i++) {
            recs[i] = handles[i] == MPI_REQUEST_NULL ? NULL : scorep_mpi_rtab_take_slow(handles[i]);
            where[i] = NULL;
            taken += recs[i] != NULL;
        }
        return taken;
    }
    const scorep_mpi_rtab_shard *s = &scorep_mpi_rtab.shards[0];
    for (int i = 0; i < n; i++) {
        uintptr_t k = scorep_mpi_rtab_key(handles[i]);
        scorep_mpi_rtab_slot *sl = handles[i] == MPI_REQUEST_NULL
                                       ? NULL
                                       : scorep_mpi_rtab_lookup(s, k, scorep_mpi_rtab_hash(k));
        recs[i] = sl ? scorep_mpi_rtab_pop(sl) : NULL;
        where[i] = sl;
        taken += recs[i] != NULL;
    }
    return taken;
}

static inline int scorep_mpi_rtab_put_back_at(struct scorep_mpi_req *r, void *where)
{
    if (!where || scorep_mpi_rtab.shared)
        return scorep_mpi_rtab_put_back(r);
    scorep_mpi_rtab_push_front(where, r);
    return 0;
}

static inline void scorep_mpi_rtab_free(struct scorep_mpi_req *r)
{
    if (__builtin_expect(scorep_mpi_rtab.shared, 0)) {
        scorep_mpi_rtab_free_slow(r);
        return;
    }
    r->same = scorep_mpi_rtab.shards[0].free;
    scorep_mpi_rtab.shards[0].free = r;
}

#endif
