/* SPDX-License-Identifier: BSD-3-Clause */
/* memory.c: page pool over one anonymous mapping of SCOREP_TOTAL_MEMORY bytes. */
#include "base/memory.h"

#include <sys/mman.h>

static char *base;
static uint64_t page_size, n_pages;
static uint64_t next_page;

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
    return 0;
}

void *scorep_memory_page(void)
{
    uint64_t i = __atomic_fetch_add(&next_page, 1, __ATOMIC_RELAXED);
    if (i >= n_pages)
        return NULL;
    return base + i * page_size;
}

size_t scorep_memory_page_size(void)
{
    return page_size;
}

uint64_t scorep_memory_pages_used(void)
{
    uint64_t u = __atomic_load_n(&next_page, __ATOMIC_RELAXED);
    return u < n_pages ? u : n_pages;
}

uint64_t scorep_memory_pages_total(void)
{
    return n_pages;
}
