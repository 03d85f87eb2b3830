/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_map.h: address -> allocation record (size, allocating call path), the table the
 * memory adapter looks freed blocks up in. Sharded open addressing: an operation locks one
 * of 256 shards chosen by the address, for a few probes; no malloc (tables are mmap'ed). */
#ifndef SCOREP_MEMORY_MAP_H
#define SCOREP_MEMORY_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pnode;
struct scorep_location;

typedef struct {
    uintptr_t addr; /* 0: empty slot */
    uint64_t size;
    struct pnode *node;           /* profile call path that allocated it (NULL: none) */
    struct scorep_location *loc;  /* the location whose profile holds node */
} scorep_alloc_rec;

typedef struct scorep_alloc_shard scorep_alloc_shard;

#define SCOREP_ALLOC_SHARDS 256

typedef struct {
    scorep_alloc_shard *shards; /* SCOREP_ALLOC_SHARDS, mmap'ed on first use */
    uint64_t lost;              /* records that found no room (out of memory) */
} scorep_alloc_map;

/* Adds rec (rec->addr != 0); an existing record of the address is replaced (its block was
 * freed by a call that was not seen). false when memory ran out: the block is not tracked. */
bool scorep_alloc_map_put(scorep_alloc_map *m, const scorep_alloc_rec *rec);
/* Removes the record of addr into *out; false when addr is not tracked. */
bool scorep_alloc_map_take(scorep_alloc_map *m, uintptr_t addr, scorep_alloc_rec *out);
/* Calls fn for every record (not thread-safe: finalize only). */
void scorep_alloc_map_each(scorep_alloc_map *m, void (*fn)(const scorep_alloc_rec *, void *),
                           void *arg);
/* Number of records (not thread-safe). */
uint64_t scorep_alloc_map_count(const scorep_alloc_map *m);

#endif
