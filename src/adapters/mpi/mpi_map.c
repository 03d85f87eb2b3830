/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_map.c: the read-mostly map (lock-free lookups) and the sharded map of the MPI adapter.
 * See mpi_map.h for the rules that make them safe. */
#include "adapters/mpi/mpi_map.h"

#include <stdlib.h>
#include <string.h>

/* ---- rmap ---------------------------------------------------------------------------- */

/* Slot keys 0 and 1 mean empty and removed. Handles are stored with the top bit flipped,
 * so no handle value (pointer or small integer) can collide with them. */
enum { EMPTY = 0, TOMB = 1 };
#define KEY_OF(h) ((uintptr_t)(h) ^ ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1)))

typedef struct {
    uintptr_t key;
    void *value;
} rslot;

struct scorep_mpi_rtable {
    size_t mask;
    rslot slots[];
};

static size_t hash_key(uintptr_t k)
{
    uint64_t h = (uint64_t)k * 0x9e3779b97f4a7c15ull;
    return (size_t)(h ^ (h >> 29));
}

void *scorep_mpi_rmap_get(scorep_mpi_rmap *m, uintptr_t handle)
{
    scorep_mpi_rtable *t = __atomic_load_n(&m->table, __ATOMIC_ACQUIRE);
    if (!t)
        return NULL;
    uintptr_t k = KEY_OF(handle);
    for (size_t i = hash_key(k) & t->mask;; i = (i + 1) & t->mask) {
        uintptr_t s = __atomic_load_n(&t->slots[i].key, __ATOMIC_ACQUIRE);
        if (s == k)
            return __atomic_load_n(&t->slots[i].value, __ATOMIC_RELAXED);
        if (s == EMPTY)
            return NULL;
    }
}

static scorep_mpi_rtable *new_table(size_t cap)
{
    scorep_mpi_rtable *t = calloc(1, sizeof *t + cap * sizeof(rslot));
    if (t)
        t->mask = cap - 1;
    return t;
}

/* Copies the live entries into a new table (twice as large when more than a quarter full)
 * and publishes it. The old one stays allocated for readers still inside it. */
static int rebuild(scorep_mpi_rmap *m)
{
    scorep_mpi_rtable *old = m->table;
    size_t cap = old ? old->mask + 1 : 64;
    if (old && m->used * 4 >= cap)
        cap *= 2;
    scorep_mpi_rtable *t = new_table(cap);
    if (!t)
        return -1;
    if (old) {
        for (size_t i = 0; i <= old->mask; i++) {
            uintptr_t k = old->slots[i].key;
            if (k == EMPTY || k == TOMB)
                continue;
            size_t j = hash_key(k) & t->mask;
            while (t->slots[j].key != EMPTY)
                j = (j + 1) & t->mask;
            t->slots[j] = old->slots[i];
        }
    }
    m->tombs = 0;
    __atomic_store_n(&m->table, t, __ATOMIC_RELEASE);
    return 0;
}

void *scorep_mpi_rmap_put(scorep_mpi_rmap *m, uintptr_t handle, void *value)
{
    uintptr_t k = KEY_OF(handle);
    void *prev = NULL;
    pthread_mutex_lock(&m->lock);
    scorep_mpi_rtable *t = m->table;
    if ((!t || (m->used + m->tombs + 1) * 4 > (t->mask + 1) * 3) && rebuild(m) != 0) {
        pthread_mutex_unlock(&m->lock);
        return value;
    }
    t = m->table;
    size_t free_slot = SIZE_MAX, i = hash_key(k) & t->mask;
    for (;; i = (i + 1) & t->mask) {
        uintptr_t s = t->slots[i].key;
        if (s == k) {
            prev = t->slots[i].value;
            __atomic_store_n(&t->slots[i].value, value, __ATOMIC_RELEASE);
            pthread_mutex_unlock(&m->lock);
            return prev;
        }
        if (s == TOMB && free_slot == SIZE_MAX)
            free_slot = i;
        if (s == EMPTY)
            break;
    }
    if (free_slot == SIZE_MAX)
        free_slot = i;
    else
        m->tombs--;
    __atomic_store_n(&t->slots[free_slot].value, value, __ATOMIC_RELAXED);
    __atomic_store_n(&t->slots[free_slot].key, k, __ATOMIC_RELEASE);
    m->used++;
    pthread_mutex_unlock(&m->lock);
    return NULL;
}

void *scorep_mpi_rmap_remove(scorep_mpi_rmap *m, uintptr_t handle)
{
    uintptr_t k = KEY_OF(handle);
    void *value = NULL;
    pthread_mutex_lock(&m->lock);
    scorep_mpi_rtable *t = m->table;
    if (t) {
        for (size_t i = hash_key(k) & t->mask;; i = (i + 1) & t->mask) {
            uintptr_t s = t->slots[i].key;
            if (s == k) {
                value = t->slots[i].value;
                __atomic_store_n(&t->slots[i].key, (uintptr_t)TOMB, __ATOMIC_RELEASE);
                m->used--;
                m->tombs++;
                break;
            }
            if (s == EMPTY)
                break;
        }
    }
    pthread_mutex_unlock(&m->lock);
    return value;
}

/* ---- smap ---------------------------------------------------------------------------- */

void scorep_mpi_smap_init(scorep_mpi_smap *m, size_t node_size, int shared)
{
    if (m->initialised)
        return;
    m->node_size = node_size;
    m->shared = shared;
    for (int i = 0; i < SCOREP_MPI_SHARDS; i++)
        pthread_mutex_init(&m->shards[i].lock, NULL);
    m->initialised = 1;
}

static scorep_mpi_shard *shard_of(scorep_mpi_smap *m, uintptr_t key)
{
    return &m->shards[(hash_key(key) >> 20) % SCOREP_MPI_SHARDS];
}

/* The shard locks are taken only when threads may use the map at once (m->shared). */
static void shard_lock(const scorep_mpi_smap *m, scorep_mpi_shard *s)
{
    if (m->shared)
        pthread_mutex_lock(&s->lock);
}

static void shard_unlock(const scorep_mpi_smap *m, scorep_mpi_shard *s)
{
    if (m->shared)
        pthread_mutex_unlock(&s->lock);
}

static size_t bucket_of(const scorep_mpi_shard *s, uintptr_t key)
{
    return hash_key(key) & (s->nbuckets - 1);
}

/* Doubles the bucket array when the chains get long; on failure the old array stays. */
static void grow(scorep_mpi_shard *s)
{
    size_t n = s->nbuckets ? s->nbuckets * 2 : 16;
    scorep_mpi_skey **b = calloc(n, sizeof *b);
    if (!b)
        return;
    scorep_mpi_skey **old = s->buckets;
    size_t oldn = s->nbuckets;
    s->buckets = b;
    s->nbuckets = n;
    for (size_t i = 0; i < oldn; i++) {
        for (scorep_mpi_skey *k = old[i], *next; k; k = next) {
            next = k->next;
            size_t j = bucket_of(s, k->key);
            k->next = b[j];
            b[j] = k;
        }
    }
    free(old);
}

/* The key's FIFO head; created when create is set (NULL without memory). */
static scorep_mpi_skey *key_of(scorep_mpi_shard *s, uintptr_t key, int create)
{
    if (!s->buckets) {
        if (!create)
            return NULL;
        grow(s);
        if (!s->buckets)
            return NULL;
    }
    scorep_mpi_skey *k = s->buckets[bucket_of(s, key)];
    while (k && k->key != key)
        k = k->next;
    if (k || !create)
        return k;
    if (s->count >= s->nbuckets * 2)
        grow(s);
    if ((k = s->free_keys) != NULL)
        s->free_keys = k->next;
    else if (!(k = malloc(sizeof *k)))
        return NULL;
    k->key = key;
    k->first = k->last = NULL;
    size_t j = bucket_of(s, key);
    k->next = s->buckets[j];
    s->buckets[j] = k;
    s->count++;
    return k;
}

/* Removes an empty FIFO head from its bucket. */
static void drop_key(scorep_mpi_shard *s, scorep_mpi_skey *k)
{
    for (scorep_mpi_skey **p = &s->buckets[bucket_of(s, k->key)]; *p; p = &(*p)->next) {
        if (*p == k) {
            *p = k->next;
            s->count--;
            k->next = s->free_keys;
            s->free_keys = k;
            return;
        }
    }
}

/* Unlinks n from its FIFO; drops the FIFO head when it becomes empty. */
static void unlink_node(scorep_mpi_shard *s, scorep_mpi_snode *n)
{
    scorep_mpi_skey *k = n->head;
    if (!k)
        return;
    if (n->qprev)
        n->qprev->qnext = n->qnext;
    else
        k->first = n->qnext;
    if (n->qnext)
        n->qnext->qprev = n->qprev;
    else
        k->last = n->qprev;
    n->qprev = n->qnext = NULL;
    n->head = NULL;
    if (!k->first)
        drop_key(s, k);
}

void *scorep_mpi_smap_insert(scorep_mpi_smap *m, uintptr_t key)
{
    scorep_mpi_shard *s = shard_of(m, key);
    shard_lock(m, s);
    scorep_mpi_skey *k = key_of(s, key, 1);
    scorep_mpi_snode *n = NULL;
    if (k) {
        if ((n = s->free_nodes) != NULL)
            s->free_nodes = n->qnext;
        else
            n = malloc(m->node_size);
    }
    if (!n) {
        if (k && !k->first) /* the empty FIFO just created */
            drop_key(s, k);
        shard_unlock(m, s);
        return NULL;
    }
    memset(n, 0, m->node_size);
    n->key = key;
    n->head = k;
    n->qprev = k->last;
    if (k->last)
        k->last->qnext = n;
    else
        k->first = n;
    k->last = n;
    shard_unlock(m, s);
    return n;
}

void *scorep_mpi_smap_find(scorep_mpi_smap *m, uintptr_t key)
{
    scorep_mpi_shard *s = shard_of(m, key);
    shard_lock(m, s);
    scorep_mpi_skey *k = key_of(s, key, 0);
    scorep_mpi_snode *n = k ? k->first : NULL;
    shard_unlock(m, s);
    return n;
}

void *scorep_mpi_smap_take(scorep_mpi_smap *m, uintptr_t key)
{
    scorep_mpi_shard *s = shard_of(m, key);
    shard_lock(m, s);
    scorep_mpi_skey *k = key_of(s, key, 0);
    scorep_mpi_snode *n = k ? k->first : NULL;
    if (n)
        unlink_node(s, n);
    shard_unlock(m, s);
    return n;
}

void scorep_mpi_smap_put_back(scorep_mpi_smap *m, void *node)
{
    scorep_mpi_snode *n = node;
    if (n->head)
        return;
    scorep_mpi_shard *s = shard_of(m, n->key);
    shard_lock(m, s);
    scorep_mpi_skey *k = key_of(s, n->key, 1);
    if (k) {
        n->head = k;
        n->qprev = NULL;
        n->qnext = k->first;
        if (k->first)
            k->first->qprev = n;
        else
            k->last = n;
        k->first = n;
    } else { /* no memory for the key: the entry is lost */
        n->qnext = s->free_nodes;
        s->free_nodes = n;
    }
    shard_unlock(m, s);
}

void scorep_mpi_smap_release(scorep_mpi_smap *m, void *node)
{
    scorep_mpi_snode *n = node;
    scorep_mpi_shard *s = shard_of(m, n->key);
    shard_lock(m, s);
    unlink_node(s, n);
    n->qnext = s->free_nodes;
    s->free_nodes = n;
    shard_unlock(m, s);
}
