/* SPDX-License-Identifier: BSD-3-Clause */
/* defs_table.h: a growable, deduplicating table of definitions: entries never move, so
 * readers index it without a lock while writers append under one. */
#ifndef SCOREP_DEFS_TABLE_H
#define SCOREP_DEFS_TABLE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DEFS_CHUNK_BITS 10
#define DEFS_CHUNK_SIZE (1u << DEFS_CHUNK_BITS)
#define DEFS_MAX_CHUNKS (1u << 14) /* 16 M definitions per kind */

typedef struct {
    pthread_mutex_t lock;
    size_t entry_size;
    uint32_t count; /* published with release order after the entry is complete */
    char *chunks[DEFS_MAX_CHUNKS];
    /* hash index key -> id (open addressing, under the lock) */
    uint64_t *hash_keys;
    uint32_t *hash_ids;
    uint32_t hash_cap;
} defs_table;

#define DEFS_TABLE_INIT(type)                                                                      \
    {                                                                                              \
        PTHREAD_MUTEX_INITIALIZER, sizeof(type), 0, {0}, NULL, NULL, 0                             \
    }

/* Looks up the key (hash + equality callback); creates via init() when absent.
 * Returns the id or UINT32_MAX when out of memory. */
uint32_t defs_table_intern(defs_table *t, uint64_t hash, const void *key,
                           int (*equal)(const void *entry, const void *key),
                           int (*init)(void *entry, const void *key));
/* The same; *created (when not NULL) is set to true when the key was new. */
uint32_t defs_table_intern_new(defs_table *t, uint64_t hash, const void *key,
                               int (*equal)(const void *entry, const void *key),
                               int (*init)(void *entry, const void *key), bool *created);
void *defs_table_get(defs_table *t, uint32_t id);
uint32_t defs_table_count(defs_table *t);
uint64_t defs_hash_str(uint64_t h, const char *s);

#endif
