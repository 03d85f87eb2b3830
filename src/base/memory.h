/* SPDX-License-Identifier: BSD-3-Clause */
/* memory.h: the measurement memory budget (SCOREP_TOTAL_MEMORY), handed out in pages of
 * SCOREP_PAGE_SIZE without locks: one atomic compare-and-swap per page. */
#ifndef SCOREP_BASE_MEMORY_H
#define SCOREP_BASE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* Whether total and page_size make a pool this process can have: the page no larger than the
 * total, the total within memory and swap and the process's cgroup limit.
 * 0, or -1 with a message naming the variables and what to choose in err. */
int scorep_memory_check(uint64_t total, uint64_t page_size, char *err, size_t errlen);
/* Reserves total bytes of address space (committed lazily by the kernel). 0 or -1. */
int scorep_memory_init(uint64_t total, uint64_t page_size);
/* A zero-filled page of scorep_memory_page_size() bytes for a location that took `held`
 * pages before, or NULL when the budget is spent. The last eighth of the pool (the reserve)
 * goes only to locations holding less than an eighth of what is left of it, so that a thread
 * that starts after the others used up the pool still gets pages for its events (its
 * OpenMP team and parallel-region records), and reduces or flushes within them. */
void *scorep_memory_page(uint64_t held);
size_t scorep_memory_page_size(void);
/* Sets the reserve (n_pages / 8 after init) to `pages`; 0: none, the pool is first come,
 * first served (SCOREP_TEST_MEMORY_RESERVE, unit tests). */
void scorep_memory_set_reserve(uint64_t pages);
uint64_t scorep_memory_pages_used(void);
uint64_t scorep_memory_pages_total(void);

#endif
