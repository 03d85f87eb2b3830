/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_map.c: the sharded address table of memory_map.h. Linear probing with backward-
 * shift deletion (no tombstones, so lookups of untracked addresses stay short); a shard
 * doubles under its own lock. Storage comes from mmap: the table must not call malloc,
 * which is the function being measured. */
#include "adapters/memory/memory_map.h"
#include "base/arch.h"

#include <sched.h>
#include <string.h>
#include <sys/mman.h>

struct scorep_alloc_shard {
    int lock;
    uint32_t cap, used; /* cap: power of two, 0 until the first insert */
    scorep_alloc_rec *slots;
} __attribute__((aligned(64))); /* one cache line per shard: no false sharing */

enum { INITIAL_CAP = 256 };

static inline uint64_t hash_addr(uintptr_t a)
{
    uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

/* Held for a few probes. A holder preempted on an oversubscribed machine must not make the
 * others spin out their time slices: after a short spin they yield. */
static inline void lock(scorep_alloc_shard *s)
{
    int spins = 0;
    while (__atomic_exchange_n(&s->lock, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&s->lock, __ATOMIC_RELAXED)) {
            if (++spins < 100)
                scorep_cpu_relax();
            else
                sched_yield();
        }
}

static inline void unlock(scorep_alloc_shard *s)
{
    __atomic_store_n(&s->lock, 0, __ATOMIC_RELEASE);
}

static void *map_pages(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static scorep_alloc_shard *shards(scorep_alloc_map *m)
{
    scorep_alloc_shard *s = __atomic_load_n(&m->shards, __ATOMIC_ACQUIRE);
    if (s)
        return s;
    scorep_alloc_shard *n = map_pages(SCOREP_ALLOC_SHARDS * sizeof *n);
    if (!n)
        return NULL;
    scorep_alloc_shard *expected = NULL;
    if (!__atomic_compare_exchange_n(&m->shards, &expected, n, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        munmap(n, SCOREP_ALLOC_SHARDS * sizeof *n);
        return expected;
    }
    return n;
}

static scorep_alloc_shard *shard_of(scorep_alloc_map *m, uint64_t h)
{
    scorep_alloc_shard *s = shards(m);
    return s ? &s[h >> 56] : NULL;
}

/* the slot of addr, or the empty slot where it would go */
static uint32_t probe(const scorep_alloc_shard *s, uintptr_t addr, uint64_t h)
{
    uint32_t mask = s->cap - 1, i = (uint32_t)h & mask;
    while (s->slots[i].addr && s->slots[i].addr != addr)
        i = (i + 1) & mask;
    return i;
}

static bool grow(scorep_alloc_shard *s)
{
    uint32_t cap = s->cap ? s->cap * 2 : INITIAL_CAP;
    scorep_alloc_rec *slots = map_pages((size_t)cap * sizeof *slots);
    if (!slots)
        return false;
    scorep_alloc_rec *old = s->slots;
    uint32_t old_cap = s->cap;
    s->slots = slots;
    s->cap = cap;
    for (uint32_t i = 0; i < old_cap; i++)
        if (old[i].addr)
            s->slots[probe(s, old[i].addr, hash_addr(old[i].addr))] = old[i];
    if (old)
        munmap(old, (size_t)old_cap * sizeof *old);
    return true;
}

bool scorep_alloc_map_put(scorep_alloc_map *m, const scorep_alloc_rec *rec)
{
    uint64_t h = hash_addr(rec->addr);
    scorep_alloc_shard *s = shard_of(m, h);
    if (!s) {
        __atomic_fetch_add(&m->lost, 1, __ATOMIC_RELAXED);
        return false;
    }
    lock(s);
    if ((s->used + 1) * 2 > s->cap && !grow(s)) {
        unlock(s);
        __atomic_fetch_add(&m->lost, 1, __ATOMIC_RELAXED);
        return false;
    }
    uint32_t i = probe(s, rec->addr, h);
    s->used += s->slots[i].addr == 0;
    s->slots[i] = *rec;
    unlock(s);
    return true;
}

bool scorep_alloc_map_take(scorep_alloc_map *m, uintptr_t addr, scorep_alloc_rec *out)
{
    uint64_t h = hash_addr(addr);
    scorep_alloc_shard *s = shard_of(m, h);
    if (!s)
        return false;
    lock(s);
    if (s->cap == 0) {
        unlock(s);
        return false;
    }
    uint32_t mask = s->cap - 1, i = probe(s, addr, h);
    if (s->slots[i].addr == 0) {
        unlock(s);
        return false;
    }
    *out = s->slots[i];
    /* backward shift: move later members of the cluster into the hole when their home
     * slot does not lie cyclically in (hole, j] */
    uint32_t hole = i, j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (s->slots[j].addr == 0)
            break;
        uint32_t home = (uint32_t)hash_addr(s->slots[j].addr) & mask;
        bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!stays) {
            s->slots[hole] = s->slots[j];
            hole = j;
        }
    }
    s->slots[hole].addr = 0;
    s->used--;
    unlock(s);
    return true;
}

void scorep_alloc_map_each(scorep_alloc_map *m, void (*fn)(const scorep_alloc_rec *, void *),
                           void *arg)
{
    if (!m->shards)
        return;
    for (int k = 0; k < SCOREP_ALLOC_SHARDS; k++) {
        const scorep_alloc_shard *s = &m->shards[k];
        for (uint32_t i = 0; i < s->cap; i++)
            if (s->slots[i].addr)
                fn(&s->slots[i], arg);
    }
}

uint64_t scorep_alloc_map_count(const scorep_alloc_map *m)
{
    uint64_t n = 0;
    for (int k = 0; m->shards && k < SCOREP_ALLOC_SHARDS; k++)
        n += m->shards[k].used;
    return n;
}
