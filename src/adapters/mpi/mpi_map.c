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

void scorep_mpi_smap_init(scorep_mpi_smap *m, size_t node_size)
{
    if (m->initialised)
        return;
    m->node_size = node_size;
    for (int i = 0; i < SCOREP_MPI_SHARDS; i++)
        pthread_mutex_init(&m->shards[i].lock, NULL);
    m->initialised = 1;
}

static scorep_mpi_shard *shard_of(scorep_mpi_smap *m, uintptr_t key)
{
    return &m->shards[(hash_key(key) >> 20) % SCOREP_MPI_SHARDS];
}

static size_t bucket_of(const scorep_mpi_shard *s, uintptr_t key)
{
    return hash_key(key) & (s->nbuckets - 1);
}

/* Doubles the bucket array when the chains get long; on failure the old array stays. */
static void grow(scorep_mpi_shard *s)
{
    size_t n = s->nbuckets ? s->nbuckets * 2 : 16;
    scorep_mpi_snode **b = calloc(n, sizeof *b);
    if (!b)
        return;
    scorep_mpi_snode **old = s->buckets;
    size_t oldn = s->nbuckets;
    s->buckets = b;
    s->nbuckets = n;
    /* keep the newest-first order of equal keys: move chains back to front */
    for (size_t i = 0; i < oldn; i++) {
        scorep_mpi_snode *rev = NULL;
        for (scorep_mpi_snode *e = old[i], *next; e; e = next) {
            next = e->next;
            e->next = rev;
            rev = e;
        }
        for (scorep_mpi_snode *e = rev, *next; e; e = next) {
            next = e->next;
            size_t j = bucket_of(s, e->key);
            e->next = b[j];
            b[j] = e;
        }
    }
    free(old);
}

void *scorep_mpi_smap_insert(scorep_mpi_smap *m, uintptr_t key)
{
    scorep_mpi_shard *s = shard_of(m, key);
    pthread_mutex_lock(&s->lock);
    if (s->count >= s->nbuckets * 2)
        grow(s);
    if (!s->buckets) {
        pthread_mutex_unlock(&s->lock);
        return NULL;
    }
    scorep_mpi_snode *e = s->free_list;
    if (e)
        s->free_list = e->next;
    else if (!(e = malloc(m->node_size))) {
        pthread_mutex_unlock(&s->lock);
        return NULL;
    }
    memset(e, 0, m->node_size);
    e->key = key;
    size_t j = bucket_of(s, key);
    e->next = s->buckets[j];
    s->buckets[j] = e;
    s->count++;
    pthread_mutex_unlock(&s->lock);
    return e;
}

void *scorep_mpi_smap_find(scorep_mpi_smap *m, uintptr_t key)
{
    scorep_mpi_shard *s = shard_of(m, key);
    scorep_mpi_snode *e = NULL;
    pthread_mutex_lock(&s->lock);
    if (s->buckets)
        for (e = s->buckets[bucket_of(s, key)]; e && e->key != key; e = e->next)
            ;
    pthread_mutex_unlock(&s->lock);
    return e;
}

static int unlink_node(scorep_mpi_shard *s, scorep_mpi_snode *n)
{
    if (!s->buckets)
        return 0;
    for (scorep_mpi_snode **p = &s->buckets[bucket_of(s, n->key)]; *p; p = &(*p)->next) {
        if (*p == n) {
            *p = n->next;
            s->count--;
            return 1;
        }
    }
    return 0;
}

void *scorep_mpi_smap_take(scorep_mpi_smap *m, uintptr_t key)
{
    scorep_mpi_shard *s = shard_of(m, key);
    scorep_mpi_snode *e = NULL;
    pthread_mutex_lock(&s->lock);
    if (s->buckets) {
        for (scorep_mpi_snode **p = &s->buckets[bucket_of(s, key)]; *p; p = &(*p)->next) {
            if ((*p)->key == key) {
                e = *p;
                *p = e->next;
                s->count--;
                break;
            }
        }
    }
    pthread_mutex_unlock(&s->lock);
    return e;
}

void scorep_mpi_smap_release(scorep_mpi_smap *m, void *node)
{
    scorep_mpi_snode *n = node;
    scorep_mpi_shard *s = shard_of(m, n->key);
    pthread_mutex_lock(&s->lock);
    if (unlink_node(s, n)) {
        n->next = s->free_list;
        s->free_list = n;
    }
    pthread_mutex_unlock(&s->lock);
}

void scorep_mpi_smap_free(scorep_mpi_smap *m, void *node)
{
    scorep_mpi_snode *n = node;
    scorep_mpi_shard *s = shard_of(m, n->key);
    pthread_mutex_lock(&s->lock);
    n->next = s->free_list;
    s->free_list = n;
    pthread_mutex_unlock(&s->lock);
}
