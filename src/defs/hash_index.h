/* SPDX-License-Identifier: BSD-3-Clause */
/* hash_index.h: an open-addressing index from hashes to dense ids (0, 1, 2, ...). The
 * caller keeps the entries; the index only stores ids and asks the caller for equality and
 * for an entry's hash when it grows. Used by every deduplicating table of the finalize. */
#ifndef SCOREP_HASH_INDEX_H
#define SCOREP_HASH_INDEX_H

#include <stdint.h>

typedef struct {
    uint32_t *slots; /* ids, UINT32_MAX = empty */
    uint32_t cap;    /* a power of two */
} hash_index;

typedef uint64_t (*hash_index_hash_fn)(void *ctx, uint32_t id);
typedef int (*hash_index_equal_fn)(void *ctx, uint32_t id);

/* Makes room for one more entry when n entries are indexed (keeps the load under 1/2).
 * 0, or -1 when out of memory (the index is unchanged). */
int hash_index_reserve(hash_index *x, uint32_t n, hash_index_hash_fn hash, void *ctx);
/* The id whose entry equal() accepts among those with hash h, or UINT32_MAX; *slot is where
 * a new entry with this hash goes (call hash_index_reserve first). */
uint32_t hash_index_find(const hash_index *x, uint64_t h, hash_index_equal_fn equal, void *ctx,
                         uint32_t *slot);
static inline void hash_index_set(hash_index *x, uint32_t slot, uint32_t id)
{
    x->slots[slot] = id;
}
void hash_index_free(hash_index *x);

#endif
