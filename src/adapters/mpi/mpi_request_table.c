/* mpi_request_table.c: the request table (open addressing by handle value, a FIFO of records
 * per handle, dormant slots) and the free list of request records; mpi_request_table.h says
 * why each part is as it is. */
#include "adapters/mpi/mpi_request_table.h"
#include "adapters/mpi/mpi_request.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

/* Slot keys are handle values with the top bit flipped, so that 0 (calloc'ed) means empty
 * and no handle value (pointer or small integer) collides with it. */
#define EMPTY ((uintptr_t)0)
#define KEY_OF(h) ((uintptr_t)(h) ^ ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1)))

typedef struct {
    uintptr_t key;
    scorep_mpi_req *head; /* oldest record of the handle; NULL: dormant */
} slot;

typedef struct {
    pthread_mutex_t lock; /* taken only when the table is shared */
    slot *slots;
    size_t mask; /* capacity - 1 */
    size_t keys; /* slots with a key, dormant ones included */
    scorep_mpi_req *free;
    size_t records; /* allocated */
} shard;

#define SHARDS 64
enum { MIN_SLOTS = 64, SLAB = 64 };

static struct {
    int shared;
    shard shards[SHARDS];
} tab = {.shards = {[0 ... SHARDS - 1] = {.lock = PTHREAD_MUTEX_INITIALIZER}}};

static inline uint64_t hash_of(uintptr_t key)
{
    uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 32);
}

/* The shard of a key, locked when the table is shared. Below MPI_THREAD_MULTIPLE one shard. */
static inline shard *open_shard(uint64_t h)
{
    if (__builtin_expect(!tab.shared, 1))
        return &tab.shards[0];
    shard *s = &tab.shards[h >> 58];
    pthread_mutex_lock(&s->lock);
    return s;
}

static inline void close_shard(shard *s)
{
    if (__builtin_expect(tab.shared, 0))
        pthread_mutex_unlock(&s->lock);
}

void scorep_mpi_rtab_init(int shared)
{
    tab.shared = shared;
}

static inline slot *lookup(shard *s, uintptr_t k, uint64_t h)
{
    if (__builtin_expect(s->slots == NULL, 0))
        return NULL;
    for (size_t i = h & s->mask;; i = (i + 1) & s->mask) {
        if (s->slots[i].key == k)
            return &s->slots[i];
        if (s->slots[i].key == EMPTY)
            return NULL;
    }
}

/* Copies the slots that hold records into a new table at least twice as large as they need
 * (dormant slots go), and frees the old one. -1 without memory (the old table stays). */
static int rebuild(shard *s)
{
    size_t live = 0, cap = MIN_SLOTS;
    for (size_t i = 0; s->slots && i <= s->mask; i++)
        live += s->slots[i].head != NULL;
    while (cap < (live + 1) * 2)
        cap *= 2;
    slot *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; s->slots && i <= s->mask; i++) {
        if (!s->slots[i].head)
            continue;
        size_t j = hash_of(s->slots[i].key) & (cap - 1);
        while (t[j].key != EMPTY)
            j = (j + 1) & (cap - 1);
        t[j] = s->slots[i];
    }
    free(s->slots);
    s->slots = t;
    s->mask = cap - 1;
    s->keys = live;
    return 0;
}

/* The slot of the key, a new (dormant) one if there is none; NULL only when the table is
 * full and cannot grow. The table is rebuilt when keys fill 5/8 of it (at most about two
 * probes per lookup); a full table keeps one empty slot, which ends every probe. */
static slot *lookup_or_add(shard *s, uintptr_t k, uint64_t h)
{
    slot *sl = lookup(s, k, h);
    if (__builtin_expect(sl != NULL, 1))
        return sl;
    if ((s->keys + 1) * 8 > (s->slots ? s->mask + 1 : 0) * 5)
        (void)rebuild(s); /* without memory the old table goes on while it has room */
    if (!s->slots || s->keys + 2 > s->mask + 1)
        return NULL;
    size_t i = h & s->mask;
    while (s->slots[i].key != EMPTY)
        i = (i + 1) & s->mask;
    s->slots[i].key = k;
    s->slots[i].head = NULL;
    s->keys++;
    return &s->slots[i];
}

/* A free record; the free list is refilled SLAB records at a time. */
static scorep_mpi_req *alloc_record(shard *s)
{
    scorep_mpi_req *r = s->free;
    if (__builtin_expect(r != NULL, 1)) {
        s->free = r->same;
        return r;
    }
    scorep_mpi_req *slab = malloc(SLAB * sizeof *slab);
    if (!slab)
        return NULL;
    for (int i = 1; i < SLAB - 1; i++)
        slab[i].same = &slab[i + 1];
    slab[SLAB - 1].same = NULL;
    s->free = &slab[1];
    s->records += SLAB;
    return &slab[0];
}

/* The oldest record of the slot's handle, unlinked. */
static inline scorep_mpi_req *pop(slot *sl)
{
    scorep_mpi_req *r = sl->head;
    if (r) {
        sl->head = r->same;
        if (r->same)
            r->same->last = r->last;
        r->same = NULL;
    }
    return r;
}

/* r becomes the oldest record of the slot's handle. */
static inline void push_front(slot *sl, scorep_mpi_req *r)
{
    scorep_mpi_req *first = sl->head;
    r->same = first;
    r->last = first ? first->last : r;
    sl->head = r;
}

scorep_mpi_req *scorep_mpi_rtab_insert(MPI_Request handle)
{
    uintptr_t k = KEY_OF(handle);
    uint64_t h = hash_of(k);
    shard *s = open_shard(h);
    slot *sl = lookup_or_add(s, k, h);
    scorep_mpi_req *r = sl ? alloc_record(s) : NULL;
    if (r) {
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
    close_shard(s);
    return r;
}

scorep_mpi_req *scorep_mpi_rtab_find(MPI_Request handle)
{
    uintptr_t k = KEY_OF(handle);
    uint64_t h = hash_of(k);
    shard *s = open_shard(h);
    slot *sl = lookup(s, k, h);
    scorep_mpi_req *r = sl ? sl->head : NULL;
    close_shard(s);
    return r;
}

scorep_mpi_req *scorep_mpi_rtab_take(MPI_Request handle)
{
    uintptr_t k = KEY_OF(handle);
    uint64_t h = hash_of(k);
    shard *s = open_shard(h);
    slot *sl = lookup(s, k, h);
    scorep_mpi_req *r = sl ? pop(sl) : NULL;
    close_shard(s);
    return r;
}

int scorep_mpi_rtab_put_back(scorep_mpi_req *r)
{
    uintptr_t k = KEY_OF(r->handle);
    uint64_t h = hash_of(k);
    shard *s = open_shard(h);
    slot *sl = lookup_or_add(s, k, h);
    if (sl)
        push_front(sl, r);
    close_shard(s);
    return sl ? 0 : -1;
}

int scorep_mpi_rtab_take_n(int n, const MPI_Request handles[], scorep_mpi_req *recs[],
                           void *where[])
{
    int taken = 0;
    if (__builtin_expect(tab.shared, 0)) {
        for (int i = 0; i < n; i++) {
            recs[i] = handles[i] == MPI_REQUEST_NULL ? NULL : scorep_mpi_rtab_take(handles[i]);
            where[i] = NULL;
            taken += recs[i] != NULL;
        }
        return taken;
    }
    shard *s = &tab.shards[0];
    for (int i = 0; i < n; i++) {
        uintptr_t k = KEY_OF(handles[i]);
        slot *sl = handles[i] == MPI_REQUEST_NULL ? NULL : lookup(s, k, hash_of(k));
        recs[i] = sl ? pop(sl) : NULL;
        where[i] = sl;
        taken += recs[i] != NULL;
    }
    return taken;
}

int scorep_mpi_rtab_put_back_at(scorep_mpi_req *r, void *where)
{
    if (!where || tab.shared)
        return scorep_mpi_rtab_put_back(r);
    push_front(where, r);
    return 0;
}

void scorep_mpi_rtab_free(scorep_mpi_req *r)
{
    shard *s = open_shard(hash_of(KEY_OF(r->handle)));
    r->same = s->free;
    s->free = r;
    close_shard(s);
}

void scorep_mpi_rtab_get_stats(scorep_mpi_rtab_stats *st)
{
    *st = (scorep_mpi_rtab_stats){0};
    for (int i = 0; i < SHARDS; i++) {
        shard *s = &tab.shards[i];
        if (tab.shared)
            pthread_mutex_lock(&s->lock);
        size_t cap = s->slots ? s->mask + 1 : 0;
        for (size_t j = 0; j < cap; j++)
            st->live += s->slots[j].head != NULL;
        st->slots += cap;
        st->keys += s->keys;
        st->records += s->records;
        st->bytes += cap * sizeof(slot) + s->records * sizeof(scorep_mpi_req);
        if (tab.shared)
            pthread_mutex_unlock(&s->lock);
    }
}
