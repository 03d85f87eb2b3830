/* SPDX-License-Identifier: BSD-3-Clause */
/* floor_hooks.c: the theoretical floor of -finstrument-functions measurement. The hooks
 * only read the TSC and store one 16-byte record {tsc, fn} per enter and per exit, the
 * record size of the trace buffer's region records. Linked into the program itself (no PLT).
 *
 * Two floors, chosen at compile time:
 *  - default: a 1 MiB per-thread ring (wrapping) that stays in the caches: the floor of a
 *    traced call whose trace stays in the caches;
 *  - FLOOR_LINEAR: one linear buffer of FLOOR_TRACE_BYTES bytes (environment), mapped and
 *    populated at start as the runtime's page pool is (base/memory.c: MAP_POPULATE, huge
 *    pages advised), written once from its start: the floor of a trace of that size, whose
 *    every line is new memory (the bench sizes it to the trace: 32 bytes per call). Single
 *    threaded (tiny.c); a full buffer starts again at its beginning. */
#include <stdint.h>

typedef struct {
    uint64_t tsc;
    void *fn;
} floor_rec;

#ifndef FLOOR_LINEAR
enum { FLOOR_RECS = 1 << 16 }; /* 1 MiB per thread */

static __thread floor_rec floor_ring[FLOOR_RECS] __attribute__((tls_model("initial-exec")));
static __thread uint32_t floor_pos __attribute__((tls_model("initial-exec")));
#else
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

static floor_rec *floor_base, *floor_cur, *floor_end;

/* Before main: the buffer, mapped and populated; no page fault inside the timed loop. */
__attribute__((constructor, no_instrument_function)) static void floor_map(void)
{
    const char *s = getenv("FLOOR_TRACE_BYTES");
    char *end = NULL;
    unsigned long long bytes = s ? strtoull(s, &end, 10) : 0;
    if (!s || *end || bytes < sizeof(floor_rec)) {
        fprintf(stderr, "floor_hooks: set FLOOR_TRACE_BYTES to the trace's size in bytes\n");
        exit(1);
    }
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED) {
        perror("floor_hooks: mmap of FLOOR_TRACE_BYTES");
        exit(1);
    }
    madvise(p, bytes, MADV_HUGEPAGE); /* as base/memory.c: advice only */
    floor_base = floor_cur = p;
    floor_end = floor_base + bytes / sizeof(floor_rec);
}
#endif

__attribute__((no_instrument_function, always_inline)) static inline void floor_record(void *fn)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
#ifndef FLOOR_LINEAR
    uint32_t p = floor_pos;
    floor_ring[p].tsc = ((uint64_t)hi << 32) | lo;
    floor_ring[p].fn = fn;
    floor_pos = (p + 1) & (FLOOR_RECS - 1);
#else
    floor_rec *r = floor_cur;
    if (__builtin_expect(r == floor_end, 0))
        r = floor_base;
    r->tsc = ((uint64_t)hi << 32) | lo;
    r->fn = fn;
    floor_cur = r + 1;
#endif
}

__attribute__((no_instrument_function)) void __cyg_profile_func_enter(void *fn, void *site)
{
    (void)site;
    floor_record(fn);
}

__attribute__((no_instrument_function)) void __cyg_profile_func_exit(void *fn, void *site)
{
    (void)site;
    floor_record(fn);
}
