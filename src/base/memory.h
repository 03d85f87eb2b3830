/* SPDX-License-Identifier: BSD-3-Clause */
/* memory.h: the measurement memory budget (SCOREP_TOTAL_MEMORY), handed out in pages of
 * SCOREP_PAGE_SIZE without locks: one atomic increment per page. */
#ifndef SCOREP_BASE_MEMORY_H
#define SCOREP_BASE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* Reserves total bytes of address space (committed lazily by the kernel). 0 or -1. */
int scorep_memory_init(uint64_t total, uint64_t page_size);
/* A zero-filled page of scorep_memory_page_size() bytes, or NULL when the budget is spent. */
void *scorep_memory_page(void);
size_t scorep_memory_page_size(void);
uint64_t scorep_memory_pages_used(void);
uint64_t scorep_memory_pages_total(void);

#endif
