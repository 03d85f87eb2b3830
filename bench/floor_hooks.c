/* SPDX-License-Identifier: BSD-3-Clause */
/* floor_hooks.c: the theoretical floor of -finstrument-functions measurement. The hooks
 * only read the TSC and store one 16-byte record {tsc, fn} into a preallocated per-thread
 * ring (wrapping), on enter and on exit. Linked into the program itself (no PLT). */
#include <stdint.h>

typedef struct {
    uint64_t tsc;
    void *fn;
} floor_rec;

enum { FLOOR_RECS = 1 << 16 }; /* 1 MiB per thread */

static __thread floor_rec floor_ring[FLOOR_RECS] __attribute__((tls_model("initial-exec")));
static __thread uint32_t floor_pos __attribute__((tls_model("initial-exec")));

__attribute__((no_instrument_function, always_inline)) static inline void floor_record(void *fn)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    uint32_t p = floor_pos;
    floor_ring[p].tsc = ((uint64_t)hi << 32) | lo;
    floor_ring[p].fn = fn;
    floor_pos = (p + 1) & (FLOOR_RECS - 1);
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
