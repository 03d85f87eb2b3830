/* SPDX-License-Identifier: BSD-3-Clause */
/* grow.h: growing an array by doubling, new elements zeroed: the one copy for every layer
 * (trace loaders, the OTF2 writer's deferred definitions, the system-tree walk, the OpenMP
 * adapter's per-thread stacks); the Cube library keeps its own (cube.h). */
#ifndef SCOREP_BASE_GROW_H
#define SCOREP_BASE_GROW_H

#include <stdlib.h>
#include <string.h>

/* Makes *arr (capacity *cap elements of size bytes) hold at least need elements: doubles from
 * 16, zeroes the new ones. 0, or -1 with *arr and *cap untouched when memory runs out or the
 * size would overflow. */
static inline int scorep_grow(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > ((size_t)-1 >> 1) / (size ? size : 1))
            return -1;
        c *= 2;
    }
    void *n = realloc(*arr, c * size);
    if (!n)
        return -1;
    memset((char *)n + *cap * size, 0, (c - *cap) * size);
    *arr = n;
    *cap = c;
    return 0;
}

#endif
