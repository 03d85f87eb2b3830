/* SPDX-License-Identifier: BSD-3-Clause */
/* defs_table.c: the deduplicating, append-only definition table behind defs.c. */
#include "defs/defs_table.h"

#include <stdlib.h>
#include <string.h>

uint64_t defs_hash_str(uint64_t h, const char *s)
{
    if (!s)
        return h * 1099511628211ull + 0x9e37;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (h ^ 0xff) * 1099511628211ull;
}

static int grow_hash(defs_table *t)
{
    uint32_t cap = t->hash_cap ? t->hash_cap * 2 : 1024;
    uint64_t *keys = calloc(cap, sizeof *keys);
    uint32_t *ids = malloc(cap * sizeof *ids);
    if (!keys || !ids) {
        free(keys);
        free(ids);
        return -1;
    }
    memset(ids, 0xff, cap * sizeof *ids);
    for (uint32_t i = 0; i < t->hash_cap; i++) {
        if (t->hash_ids[i] == UINT32_MAX)
            continue;
        uint32_t j = (uint32_t)t->hash_keys[i] & (cap - 1);
        while (ids[j] != UINT32_MAX)
            j = (j + 1) & (cap - 1);
        keys[j] = t->hash_keys[i];
        ids[j] = t->hash_ids[i];
    }
    free(t->hash_keys);
    free(t->hash_ids);
    t->hash_keys = keys;
    t->hash_ids = ids;
    t->hash_cap = cap;
    return 0;
}

void *defs_table_get(defs_table *t, uint32_t id)
{
    return t->chunks[id >> DEFS_CHUNK_BITS] + (size_t)(id & (DEFS_CHUNK_SIZE - 1)) * t->entry_size;
}

uint32_t defs_table_count(defs_table *t)
{
    return __atomic_load_n(&t->count, __ATOMIC_ACQUIRE);
}

static uint32_t append(defs_table *t, const void *key, int (*init)(void *, const void *))
{
    uint32_t id = t->count;
    uint32_t c = id >> DEFS_CHUNK_BITS;
    if (c >= DEFS_MAX_CHUNKS)
        return UINT32_MAX;
    if (!t->chunks[c] && !(t->chunks[c] = calloc(DEFS_CHUNK_SIZE, t->entry_size)))
        return UINT32_MAX;
    if (init(defs_table_get(t, id), key) != 0)
        return UINT32_MAX;
    __atomic_store_n(&t->count, id + 1, __ATOMIC_RELEASE);
    return id;
}

uint32_t defs_table_intern(defs_table *t, uint64_t hash, const void *key,
                           int (*equal)(const void *, const void *),
                           int (*init)(void *, const void *))
{
    return defs_table_intern_new(t, hash, key, equal, init, NULL);
}

uint32_t defs_table_intern_new(defs_table *t, uint64_t hash, const void *key,
                               int (*equal)(const void *, const void *),
                               int (*init)(void *, const void *), bool *created)
{
    uint32_t id = UINT32_MAX;
    pthread_mutex_lock(&t->lock);
    if ((t->count + 1) * 2 > t->hash_cap && grow_hash(t) != 0)
        goto out;
    uint32_t j = (uint32_t)hash & (t->hash_cap - 1);
    for (; t->hash_ids[j] != UINT32_MAX; j = (j + 1) & (t->hash_cap - 1)) {
        if (t->hash_keys[j] == hash && equal(defs_table_get(t, t->hash_ids[j]), key)) {
            id = t->hash_ids[j];
            goto out;
        }
    }
    id = append(t, key, init);
    if (id != UINT32_MAX) {
        if (created)
            *created = true;
        t->hash_keys[j] = hash;
        t->hash_ids[j] = id;
    }
out:
    pthread_mutex_unlock(&t->lock);
    return id;
}
