/* SPDX-License-Identifier: BSD-3-Clause */
/* memory.c: page pool over one anonymous mapping of SCOREP_TOTAL_MEMORY bytes. */
#include "base/memory.h"

#include <sys/mman.h>

static char *base;
static uint64_t page_size, n_pages;
static uint64_t next_page;
/* the last pages of the pool, kept for locations that hold few pages (threads that start
 * after others used up the rest): scorep_memory_page */
static uint64_t reserve;
enum { RESERVE_SHARE = 16 };

int scorep_memory_init(uint64_t total, uint64_t psize)
{
    if (psize < 512)
        psize = 512;
    psize = (psize + 63) & ~(uint64_t)63;
    n_pages = total / psize;
    page_size = psize;
    if (n_pages == 0)
        return -1;
    void *p = mmap(NULL, n_pages * psize, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    /* No page faults on the hot path: the pool is populated at start (the budget is the
     * user's choice, and Score-P reserves it up front as well); huge pages where the
     * kernel has them. The advice is only advice; failure changes nothing. */
    madvise(p, n_pages * psize, MADV_HUGEPAGE);
    base = p;
    next_page = 0;
    reserve = n_pages / 8;
    return 0;
}

void *scorep_memory_page(uint64_t held)
{
    uint64_t i = __atomic_load_n(&next_page, __ATOMIC_RELAXED);
    do {
        if (i >= n_pages)
            return NULL;
        /* In the reserve, a location gets its first RESERVE_SHARE pages (a page per call
         * level and event class, so that it can reduce and flush), then pages while it
         * holds less than an eighth of those still free: many late threads share it. */
        uint64_t left = n_pages - i;
        if (left <= reserve && held >= RESERVE_SHARE && held * 8 >= left)
            return NULL;
    } while (
        !__atomic_compare_exchange_n(&next_page, &i, i + 1, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return base + i * page_size;
}

void scorep_memory_set_reserve(uint64_t pages)
{
    reserve = pages < n_pages ? pages : n_pages;
}

size_t scorep_memory_page_size(void)
{
    return page_size;
}

uint64_t scorep_memory_pages_used(void)
{
    return __atomic_load_n(&next_page, __ATOMIC_RELAXED);
}

uint64_t scorep_memory_pages_total(void)
{
    return n_pages;
}
