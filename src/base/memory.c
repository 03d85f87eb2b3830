/* SPDX-License-Identifier: BSD-3-Clause */
/* memory.c: page pool over one anonymous mapping of SCOREP_TOTAL_MEMORY bytes. */
#include "base/memory.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>

static char *base;
static uint64_t page_size, n_pages;
static uint64_t next_page;
/* the last pages of the pool, kept for locations that hold few pages (threads that start
 * after others used up the rest): scorep_memory_page */
static uint64_t reserve;
enum { RESERVE_SHARE = 16 };

/* The page size the pool uses for a requested one: at least 512 bytes, a multiple of 64
 * (UINT64_MAX when rounding up would overflow: larger than any budget). */
static uint64_t effective_page_size(uint64_t psize)
{
    if (psize < 512)
        return 512;
    return psize > UINT64_MAX - 63 ? UINT64_MAX : (psize + 63) & ~(uint64_t)63;
}

/* The memory limit of this process's cgroup (v2 memory.max, v1 memory.limit_in_bytes), or
 * UINT64_MAX when there is none or it cannot be read. The pool is populated in full at start,
 * so a budget above the limit gets the process killed by the kernel before main, without a
 * word; this lets the start say so instead. */
static uint64_t cgroup_limit(void)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (f == NULL)
        return UINT64_MAX;
    uint64_t limit = UINT64_MAX;
    char line[4096];
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (c2 == NULL)
            continue;
        *c2 = '\0';
        const char *ctrl = c1 + 1, *path = c2 + 1;
        bool v2 = *ctrl == '\0', v1 = false;
        for (const char *w = ctrl; !v2 && *w; w += strcspn(w, ","), w += *w == ',')
            v1 |= strncmp(w, "memory", 6) == 0 && (w[6] == ',' || w[6] == '\0');
        if (!v1 && !v2)
            continue;
        /* the cgroup's own directory, else the mount's root (a container sees its cgroup as
         * the root, while /proc/self/cgroup may name the path on the host) */
        const char *files[][2] = {{"/sys/fs/cgroup/memory", "memory.limit_in_bytes"},
                                  {"/sys/fs/cgroup", "memory.max"},
                                  {"/sys/fs/cgroup/unified", "memory.max"}};
        for (int i = v1 ? 0 : 1; i < (v1 ? 1 : 3); i++) {
            for (int root = 0; root < 2; root++) {
                char file[4096 + 64];
                snprintf(file, sizeof file, "%s%s/%s", files[i][0], root ? "" : path,
                         files[i][1]);
                FILE *g = fopen(file, "r");
                uint64_t v;
                if (g == NULL)
                    continue;
                if (fscanf(g, "%" SCNu64, &v) == 1 && v < limit)
                    limit = v; /* "max" (v2) does not scan: no limit */
                fclose(g);
                root = 2;
            }
        }
    }
    fclose(f);
    return limit;
}

int scorep_memory_check(uint64_t total, uint64_t psize, char *err, size_t errlen)
{
    uint64_t eff = effective_page_size(psize);
    if (psize > total) {
        snprintf(err, errlen,
                 "SCOREP_PAGE_SIZE=%" PRIu64 " bytes is larger than SCOREP_TOTAL_MEMORY=%" PRIu64
                 " bytes: the trace memory would hold no page; choose a smaller "
                 "SCOREP_PAGE_SIZE (default 8K) or a larger SCOREP_TOTAL_MEMORY",
                 psize, total);
        return -1;
    }
    if (total < eff) {
        snprintf(err, errlen,
                 "SCOREP_TOTAL_MEMORY=%" PRIu64 " bytes is smaller than one page of %" PRIu64
                 " bytes (SCOREP_PAGE_SIZE, at least 512); choose a larger value, e.g. 16M",
                 total, eff);
        return -1;
    }
    struct sysinfo si;
    uint64_t ram = UINT64_MAX, cg = cgroup_limit();
    if (sysinfo(&si) == 0 && si.mem_unit > 0)
        ram = ((uint64_t)si.totalram + (uint64_t)si.totalswap) * si.mem_unit;
    uint64_t limit = cg < ram ? cg : ram;
    if (total > limit) {
        snprintf(err, errlen,
                 "SCOREP_TOTAL_MEMORY=%" PRIu64 " bytes is more than this process can have (%" PRIu64
                 " bytes: %s); the trace memory is taken in full at the start, so the kernel "
                 "would kill the program; choose a smaller value (each process of a job takes "
                 "it)",
                 total, limit, cg < ram ? "the memory limit of its cgroup" : "memory and swap");
        return -1;
    }
    return 0;
}

int scorep_memory_init(uint64_t total, uint64_t psize)
{
    psize = effective_page_size(psize);
    if (psize > total)
        return -1;
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
