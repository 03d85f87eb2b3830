/* SPDX-License-Identifier: BSD-3-Clause */
/* hash_index.c: see hash_index.h. */
#include "defs/hash_index.h"

#include <stdlib.h>
#include <string.h>

int hash_index_reserve(hash_index *x, uint32_t n, hash_index_hash_fn hash, void *ctx)
{
    if ((n + 1) * 2 <= x->cap)
        return 0;
    uint32_t cap = x->cap ? x->cap * 2 : 256;
    while ((n + 1) * 2 > cap)
        cap *= 2;
    uint32_t *s = malloc(cap * sizeof *s);
    if (!s)
        return -1;
    memset(s, 0xff, cap * sizeof *s);
    for (uint32_t id = 0; id < n; id++) {
        uint32_t j = (uint32_t)hash(ctx, id) & (cap - 1);
        while (s[j] != UINT32_MAX)
            j = (j + 1) & (cap - 1);
        s[j] = id;
    }
    free(x->slots);
    x->slots = s;
    x->cap = cap;
    return 0;
}

uint32_t hash_index_find(const hash_index *x, uint64_t h, hash_index_equal_fn equal, void *ctx,
                         uint32_t *slot)
{
    uint32_t j = (uint32_t)h & (x->cap - 1);
    for (; x->slots[j] != UINT32_MAX; j = (j + 1) & (x->cap - 1))
        if (equal(ctx, x->slots[j])) {
            *slot = j;
            return x->slots[j];
        }
    *slot = j;
    return UINT32_MAX;
}

void hash_index_free(hash_index *x)
{
    free(x->slots);
    x->slots = NULL;
    x->cap = 0;
}
