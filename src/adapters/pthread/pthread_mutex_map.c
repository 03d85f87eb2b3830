/* SPDX-License-Identifier: BSD-3-Clause */
/* pthread_mutex_map.c: mutex address -> record, an open-addressing table read without locks.
 * Entries are published by a release store of the key after the record is set; a destroyed
 * mutex's slot becomes a tombstone that a later insertion may reuse. A table half full (live
 * entries and tombstones) is replaced by one twice as large holding the live entries; old
 * tables are kept (their sizes sum to less than the current one), so a reader never sees freed
 * memory. Changes are rare (first lock of a mutex, init, destroy) and take a spin lock of their
 * own, not a pthread mutex: the map is used from inside the mutex wrappers. */
#include "adapters/pthread/pthread_mutex_map.h"

#include <sched.h>
#include <stdlib.h>

#define EMPTY 0
#define TOMBSTONE 1

typedef struct {
    uintptr_t key;
    pthread_mutex_rec *rec;
} slot;

typedef struct table {
    slot *s;
    uint32_t mask, used; /* used: live entries and tombstones */
    struct table *older;
} table;

static table *current;
static int change_lock;
static uint32_t next_id;

static void lock_changes(void)
{
    while (__atomic_exchange_n(&change_lock, 1, __ATOMIC_ACQUIRE))
        sched_yield(); /* held only for a table insertion or a replacement */
}

static void unlock_changes(void)
{
    __atomic_store_n(&change_lock, 0, __ATOMIC_RELEASE);
}

static inline uint32_t hash(uintptr_t k)
{
    return (uint32_t)(((uint64_t)k * 0x9e3779b97f4a7c15ull) >> 40);
}

static slot *find_slot(const table *t, uintptr_t key)
{
    if (!t)
        return NULL;
    for (uint32_t i = hash(key) & t->mask;; i = (i + 1) & t->mask) {
        uintptr_t k = __atomic_load_n(&t->s[i].key, __ATOMIC_ACQUIRE);
        if (k == key)
            return &t->s[i];
        if (k == EMPTY)
            return NULL;
    }
}

pthread_mutex_rec *pthread_mutex_find(const void *addr)
{
    slot *s = find_slot(__atomic_load_n(&current, __ATOMIC_ACQUIRE), (uintptr_t)addr);
    return s ? __atomic_load_n(&s->rec, __ATOMIC_ACQUIRE) : NULL;
}

/* under change_lock; the key is not in T */
static void put(table *t, uintptr_t key, pthread_mutex_rec *rec)
{
    uint32_t i = hash(key) & t->mask;
    while (t->s[i].key != EMPTY && t->s[i].key != TOMBSTONE)
        i = (i + 1) & t->mask;
    t->used += t->s[i].key == EMPTY;
    __atomic_store_n(&t->s[i].rec, rec, __ATOMIC_RELAXED);
    __atomic_store_n(&t->s[i].key, key, __ATOMIC_RELEASE);
}

/* under change_lock: room for one more entry; -1 when out of memory */
static int make_room(void)
{
    table *old = current;
    if (old && (old->used + 1) * 2 <= old->mask + 1)
        return 0;
    uint32_t cap = old ? (old->mask + 1) * 2 : 1024;
    table *t = malloc(sizeof *t);
    if (!t || !(t->s = calloc(cap, sizeof *t->s))) {
        free(t);
        return -1;
    }
    t->mask = cap - 1;
    t->used = 0;
    t->older = old;
    for (uint32_t i = 0; old && i <= old->mask; i++)
        if (old->s[i].key != EMPTY && old->s[i].key != TOMBSTONE)
            put(t, old->s[i].key, old->s[i].rec);
    __atomic_store_n(&current, t, __ATOMIC_RELEASE);
    return 0;
}

pthread_mutex_rec *pthread_mutex_get(const void *addr)
{
    pthread_mutex_rec *r = pthread_mutex_find(addr);
    if (r)
        return r;
    lock_changes();
    slot *s = find_slot(current, (uintptr_t)addr);
    if (s) {
        r = s->rec;
    } else if ((r = calloc(1, sizeof *r)) != NULL) {
        if (make_room() == 0) {
            r->id = next_id++;
            put(current, (uintptr_t)addr, r);
        } else {
            free(r);
            r = NULL;
        }
    }
    unlock_changes();
    return r;
}

void pthread_mutex_forget(const void *addr)
{
    lock_changes();
    slot *s = find_slot(current, (uintptr_t)addr);
    if (s) {
        pthread_mutex_rec *r = s->rec;
        __atomic_store_n(&s->key, (uintptr_t)TOMBSTONE, __ATOMIC_RELEASE);
        free(r); /* using a destroyed mutex is undefined: no thread still uses the record */
    }
    unlock_changes();
}
