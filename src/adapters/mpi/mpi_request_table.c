/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_request_table.c: the request table (open addressing by handle value, a FIFO of records
 * per handle, dormant slots) and the free list of request records; mpi_request_table.h says
 * why each part is as it is. */
#include "adapters/mpi/mpi_request.h"
#include "core/location.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* short names inside this file */
typedef scorep_mpi_rtab_slot slot;
typedef scorep_mpi_rtab_shard shard;

enum { MIN_SLOTS = 64, SLAB = 64 };

scorep_mpi_rtab_state scorep_mpi_rtab = {
    .shards = {[0 ... SCOREP_MPI_RTAB_SHARDS - 1] = {.lock = PTHREAD_MUTEX_INITIALIZER}}};

/* The shard of a key, locked when the table is shared. Below MPI_THREAD_MULTIPLE one shard. */
static inline shard *open_shard(uint64_t h)
{
    if (__builtin_expect(!scorep_mpi_rtab.shared, 1))
        return &scorep_mpi_rtab.shards[0];
    shard *s = &scorep_mpi_rtab.shards[h >> 58];
    pthread_mutex_lock(&s->lock);
    return s;
}

static inline void close_shard(shard *s)
{
    if (__builtin_expect(scorep_mpi_rtab.shared, 0))
        pthread_mutex_unlock(&s->lock);
}

void scorep_mpi_rtab_init(int shared)
{
    scorep_mpi_rtab.shared = shared;
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
        size_t j = scorep_mpi_rtab_hash(s->slots[i].key) & (cap - 1);
        while (t[j].key != SCOREP_MPI_RTAB_EMPTY)
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
    slot *sl = scorep_mpi_rtab_lookup(s, k, h);
    if (__builtin_expect(sl != NULL, 1))
        return sl;
    if ((s->keys + 1) * 8 > (s->slots ? s->mask + 1 : 0) * 5)
        (void)rebuild(s); /* without memory the old table goes on while it has room */
    if (!s->slots || s->keys + 2 > s->mask + 1)
        return NULL;
    size_t i = h & s->mask;
    while (s->slots[i].key != SCOREP_MPI_RTAB_EMPTY)
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

scorep_mpi_req *scorep_mpi_rtab_insert_slow(MPI_Request handle)
{
    uintptr_t k = scorep_mpi_rtab_key(handle);
    uint64_t h = scorep_mpi_rtab_hash(k);
    shard *s = open_shard(h);
    scorep_mpi_req *r;
    if (scorep_mpi_rtab.shared) { /* into the table with rtab_publish, once written */
        r = alloc_record(s);
        if (r) {
            r->handle = handle;
            r->same = NULL;
            r->owner = scorep_tls_location;
        }
    } else {
        slot *sl = lookup_or_add(s, k, h);
        r = sl ? alloc_record(s) : NULL;
        if (r)
            scorep_mpi_rtab_push_back(sl, r, handle);
    }
    close_shard(s);
    return r;
}

/* r into the table: the newest record of its handle (a new request) or the oldest (one
 * put back); -1 (r not in the table) when memory for a larger table is exhausted */
static int add(scorep_mpi_req *r, bool newest)
{
    uintptr_t k = scorep_mpi_rtab_key(r->handle);
    uint64_t h = scorep_mpi_rtab_hash(k);
    shard *s = open_shard(h);
    slot *sl = lookup_or_add(s, k, h);
    if (sl && newest)
        scorep_mpi_rtab_push_back(sl, r, r->handle);
    else if (sl)
        scorep_mpi_rtab_push_front(sl, r);
    close_shard(s);
    return sl ? 0 : -1;
}

int scorep_mpi_rtab_publish_slow(scorep_mpi_req *r)
{
    return add(r, true);
}

scorep_mpi_req *scorep_mpi_rtab_find(MPI_Request handle)
{
    uintptr_t k = scorep_mpi_rtab_key(handle);
    uint64_t h = scorep_mpi_rtab_hash(k);
    shard *s = open_shard(h);
    slot *sl = scorep_mpi_rtab_lookup(s, k, h);
    scorep_mpi_req *r = sl ? sl->head : NULL;
    close_shard(s);
    return r;
}

/* Shared table: the oldest record of the slot's handle that this thread created, unlinked,
 * else the oldest. One handle value stands for several requests only when they completed at
 * once (Open MPI's ompi_request_empty); which of them a Wait completes does not change what
 * MPI did, but its completion belongs on the location that started it (OTF2 pairs a
 * request's events per location), and a thread waits for its own requests. */
static scorep_mpi_req *pop_own(slot *sl)
{
    const void *me = scorep_tls_location;
    scorep_mpi_req *prev = NULL, *r = sl->head;
    while (r && r->owner != me) {
        prev = r;
        r = r->same;
    }
    if (!r || !prev)
        return scorep_mpi_rtab_pop(sl);
    prev->same = r->same;
    if (sl->head->last == r)
        sl->head->last = prev;
    r->same = NULL;
    return r;
}

scorep_mpi_req *scorep_mpi_rtab_take_slow(MPI_Request handle)
{
    uintptr_t k = scorep_mpi_rtab_key(handle);
    uint64_t h = scorep_mpi_rtab_hash(k);
    shard *s = open_shard(h);
    slot *sl = scorep_mpi_rtab_lookup(s, k, h);
    scorep_mpi_req *r = !sl ? NULL : scorep_mpi_rtab.shared ? pop_own(sl) : scorep_mpi_rtab_pop(sl);
    close_shard(s);
    return r;
}

int scorep_mpi_rtab_put_back(scorep_mpi_req *r)
{
    return add(r, false);
}

void scorep_mpi_rtab_free_slow(scorep_mpi_req *r)
{
    shard *s = open_shard(scorep_mpi_rtab_hash(scorep_mpi_rtab_key(r->handle)));
    r->same = s->free;
    s->free = r;
    close_shard(s);
}

void scorep_mpi_rtab_get_stats(scorep_mpi_rtab_stats *st)
{
    *st = (scorep_mpi_rtab_stats){0};
    for (int i = 0; i < SCOREP_MPI_RTAB_SHARDS; i++) {
        shard *s = &scorep_mpi_rtab.shards[i];
        if (scorep_mpi_rtab.shared)
            pthread_mutex_lock(&s->lock);
        size_t cap = s->slots ? s->mask + 1 : 0;
        for (size_t j = 0; j < cap; j++)
            st->live += s->slots[j].head != NULL;
        st->slots += cap;
        st->keys += s->keys;
        st->records += s->records;
        st->bytes += cap * sizeof(slot) + s->records * sizeof(scorep_mpi_req);
        if (scorep_mpi_rtab.shared)
            pthread_mutex_unlock(&s->lock);
    }
}
