/* SPDX-License-Identifier: BSD-3-Clause */
/* compiler_adapter.c: the -finstrument-functions hooks. A function address maps to a region
 * through a lock-free open-addressing table; names, file:line and the filter decision are
 * worked out once per function, under a lock, on its first call. */
#include "adapters/memory/memory_track.h"
#include "symbols/symbols.h"
#include "adapters/compiler/plugin_region.h"
#include "core/events.h"
#include "runtime/runtime.h"
#include "sampling/sampling.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define FN_FILTERED (UINT32_MAX - 1)
#define FN_MISS UINT32_MAX
/* or'ed into a table entry's region: the region is throttled (its calls are only counted) */
#define FN_THROTTLED 0x40000000u

typedef struct {
    uintptr_t addr; /* written last, with release order: readers see complete entries */
    uint32_t region;
} fn_entry;

typedef struct {
    fn_entry *e;
    uint32_t mask, used;
} fn_table;

enum { INITIAL_SLOTS = 1 << 14 };
static fn_entry initial_slots[INITIAL_SLOTS];
static fn_table initial_table = {initial_slots, INITIAL_SLOTS - 1, 0};
static fn_table *table = &initial_table;
static pthread_mutex_t define_lock = PTHREAD_MUTEX_INITIALIZER;

static inline uint32_t fn_hash(uintptr_t a)
{
    return (uint32_t)((a * 0x9e3779b97f4a7c15ull) >> 40);
}

static inline uint32_t fn_lookup(const fn_table *t, uintptr_t a)
{
    for (uint32_t i = fn_hash(a) & t->mask;; i = (i + 1) & t->mask) {
        uintptr_t k = __atomic_load_n(&t->e[i].addr, __ATOMIC_ACQUIRE);
        if (k == a)
            return t->e[i].region;
        if (k == 0)
            return FN_MISS;
    }
}

static void fn_insert(fn_table *t, uintptr_t a, uint32_t region)
{
    uint32_t i = fn_hash(a) & t->mask;
    while (t->e[i].addr)
        i = (i + 1) & t->mask;
    t->e[i].region = region;
    __atomic_store_n(&t->e[i].addr, a, __ATOMIC_RELEASE);
    t->used++;
}

/* Readers may still use the old table; it is never freed (a few KiB per doubling). */
static void fn_grow(void)
{
    fn_table *old = table, *t = malloc(sizeof *t);
    uint32_t cap = (old->mask + 1) * 2;
    if (!t || !(t->e = calloc(cap, sizeof *t->e))) {
        free(t);
        return;
    }
    t->mask = cap - 1;
    t->used = 0;
    for (uint32_t i = 0; i <= old->mask; i++)
        if (old->e[i].addr)
            fn_insert(t, old->e[i].addr, old->e[i].region);
    __atomic_store_n(&table, t, __ATOMIC_RELEASE);
}

/* Functions the compiler outlined for OpenMP constructs: the OMPT adapter shows the
 * constructs themselves, so these would only add a level of noise to every call path. */
static bool outlined_by_openmp(const char *name)
{
    return name && (strncmp(name, ".omp_outlined.", 14) == 0 || strstr(name, "._omp_fn.") ||
                    strncmp(name, "__omp_offloading_", 17) == 0);
}

static uint32_t define_region(uintptr_t a)
{
    scorep_symbol sym = {0};
    uint32_t region = FN_FILTERED;
    if (scorep_symbols_in_runtime(a))
        return FN_FILTERED; /* never measure the measurement */
    if (scorep_symbols_resolve(a, &sym) == 0 || sym.name) {
        bool excluded =
            outlined_by_openmp(sym.mangled) ||
            (scorep_active_filter &&
             scorep_filter_excluded(scorep_active_filter, sym.file, sym.name, sym.mangled));
        if (!excluded) {
            uint32_t r = scorep_defs_region(sym.name, sym.mangled, sym.file, sym.line, sym.line,
                                            SCOREP_PARADIGM_COMPILER, SCOREP_ROLE_FUNCTION);
            if (r != SCOREP_INVALID_ID)
                region = r;
        }
    }
    scorep_symbol_clear(&sym);
    return region;
}

static uint32_t fn_define(uintptr_t a)
{
    /* symbol lookup allocates in libdw and the decompression libraries it calls: the
     * runtime's work, not the program's (memory recording) */
    scorep_memory_guard++;
    /* and for sampling: a sample here is no call of the program's (sampling.h) */
    int mark = scorep_sampling_runtime_begin(scorep_tls_location);
    pthread_mutex_lock(&define_lock);
    uint32_t r = fn_lookup(table, a);
    if (r == FN_MISS) {
        r = define_region(a);
        if ((table->used + 1) * 2 > table->mask + 1)
            fn_grow();
        if (table->used + 2 < table->mask) /* keep one empty slot: lookups must end */
            fn_insert(table, a, r);
    }
    pthread_mutex_unlock(&define_lock);
    scorep_sampling_runtime_end(scorep_tls_location, mark);
    scorep_memory_guard--;
    return r;
}

/* This thread's cache of table entries: a measured function's in fn_addr / fn_region, a
 * throttled or filtered one's in fn_other_addr / fn_other_region, so that the hooks' hit of
 * fn_addr is a measured call without a test of the region: two instructions fewer per event
 * (issue #31, session 18); a throttled or filtered call tests the other entry second. */
static inline void fn_cache(scorep_location *l, uintptr_t a, uint32_t r)
{
    if (r < FN_THROTTLED) {
        l->fn_addr = a;
        l->fn_region = r;
    } else {
        l->fn_other_addr = a;
        l->fn_other_region = r;
    }
}

static inline uint32_t fn_region(scorep_location *l, void *fn)
{
    uintptr_t a = (uintptr_t)fn;
    if (l->fn_addr == a)
        return l->fn_region;
    if (l->fn_other_addr == a)
        return l->fn_other_region;
    uint32_t r = fn_lookup(__atomic_load_n(&table, __ATOMIC_ACQUIRE), a);
    if (__builtin_expect(r == FN_MISS, 0))
        r = fn_define(a);
    fn_cache(l, a, r);
    return r;
}

/* The profile's throttle hook, called at the leave that makes region throttled: marks the
 * region's table entries, this thread's cache and the plugin's descriptors; other threads see it at
 * their next table lookup. Rare (once per region), so a lock and a scan are fine. */
static void throttle_region(uint32_t region)
{
    pthread_mutex_lock(&define_lock);
    if (scorep_profile_throttle_param == UINT32_MAX)
        __atomic_store_n(&scorep_profile_throttle_param,
                         scorep_defs_parameter("scorep_throttled_from_visit", SCOREP_PARAM_UINT64),
                         __ATOMIC_RELEASE);
    fn_table *t = table;
    for (uint32_t i = 0; i <= t->mask; i++)
        if (__atomic_load_n(&t->e[i].addr, __ATOMIC_ACQUIRE) && t->e[i].region == region)
            __atomic_store_n(&t->e[i].region, region | FN_THROTTLED, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&define_lock);
    /* this thread's cache: the function moves to the throttled and filtered entry (fn_addr
     * holds measured functions only; 0 is no function) */
    scorep_location *l = scorep_tls_location;
    if (l && l->fn_addr && l->fn_region == region) {
        l->fn_other_addr = l->fn_addr;
        l->fn_other_region = region | FN_THROTTLED;
        l->fn_addr = 0;
    }
    scorep_plugin_throttle(region); /* the plugin's descriptors of the same region */
}

/* Installed always; SCOREP_THROTTLING=false leaves the profiles' throttle_calls at 0. */
__attribute__((constructor)) static void install_throttle_hook(void)
{
    scorep_profile_throttle_hook = throttle_region;
}

/* The region of fn when this thread's throttled and filtered entry or the table knows it,
 * else FN_MISS; no call. The hooks test fn_addr, the measured entry, first. */
static inline uint32_t fn_region_known(scorep_location *l, uintptr_t a)
{
    if (l->fn_other_addr == a)
        return l->fn_other_region;
    uint32_t r = fn_lookup(__atomic_load_n(&table, __ATOMIC_ACQUIRE), a);
    if (r != FN_MISS)
        fn_cache(l, a, r);
    return r;
}

/* Every call the hooks do not hand to the function of their location's mode (core/events.h,
 * scorep_event_enter_measured, which takes the general path itself for metric sources,
 * substrate plugins and the fast path's own exceptions): a thread's first event (l NULL), a
 * new function (r FN_MISS), throttled and filtered ones. l and r as the hook found them: no
 * second TLS load or lookup on the throttled calls' path. */
/* The general paths' region of fn (looked up when the hook had none) and their throttled and
 * filtered calls: true when the call is measured; a throttled one is counted here (its enter
 * or leave, as enter says). Inlined with enter constant: no cost beside the two copies. */
static inline __attribute__((always_inline, no_instrument_function)) bool
measured_region(scorep_location *l, void *fn, uint32_t *r, const bool enter)
{
    if (__builtin_expect(*r == FN_MISS, 0))
        *r = fn_region(l, fn);
    if (__builtin_expect(*r < FN_THROTTLED, 1))
        return true;
    if (*r < FN_FILTERED) {
        if (enter)
            scorep_event_throttled_enter(l, *r & ~FN_THROTTLED);
        else
            scorep_event_throttled_leave(l, *r & ~FN_THROTTLED);
    }
    return false;
}

__attribute__((noinline, no_instrument_function)) static void
func_enter_general(scorep_location *l, void *fn, uint32_t r, uintptr_t sp)
{
    if (__builtin_expect(!l, 0)) {
        if (!(l = scorep_location_slow()))
            return;
        r = FN_MISS;
    }
    if (measured_region(l, fn, &r, true))
        scorep_event_enter_sp(l, r, sp);
}

__attribute__((noinline, no_instrument_function)) static void
func_exit_general(scorep_location *l, void *fn, uint32_t r)
{
    if (measured_region(l, fn, &r, false))
        scorep_event_leave_inline(l, r);
}

/* The hooks call nothing (no registers to save): a measured call is a tail call of its
 * mode's function (core/events.h, scorep_event_enter_measured), any other case one of the
 * general path. */
__attribute__((no_instrument_function, visibility("default"))) void
__cyg_profile_func_enter(void *fn, void *site)
{
    (void)site;
    /* the instrumented function's stack pointer: above our return address (the CFA); through
     * an empty asm, so that GCC keeps it in its register instead of computing it a second
     * time on the traced path (one instruction per call, issue #31, session 18) */
    uintptr_t sp = (uintptr_t)__builtin_dwarf_cfa();
    __asm__("" : "+r"(sp));
    scorep_location *l = scorep_tls_location;
    uint32_t r = FN_MISS;
    if (__builtin_expect(l != NULL, 1)) {
        if (__builtin_expect(l->fn_addr == (uintptr_t)fn, 1)) {
            scorep_event_enter_measured(l, l->fn_region, sp);
            return;
        }
        r = fn_region_known(l, (uintptr_t)fn);
        if (__builtin_expect(r < FN_THROTTLED, 1)) {
            scorep_event_enter_measured(l, r, sp);
            return;
        } else if (r < FN_FILTERED) {
            if (scorep_event_throttled_enter_fast(l, r & ~FN_THROTTLED))
                return;
        } else if (r == FN_FILTERED) {
            return;
        }
    }
    func_enter_general(l, fn, r, sp);
}

__attribute__((no_instrument_function, visibility("default"))) void
__cyg_profile_func_exit(void *fn, void *site)
{
    (void)site;
    scorep_location *l = scorep_tls_location;
    if (__builtin_expect(l == NULL, 0))
        return;
    if (__builtin_expect(l->fn_addr == (uintptr_t)fn, 1)) {
        scorep_event_leave_measured(l, l->fn_region);
        return;
    }
    uint32_t r = fn_region_known(l, (uintptr_t)fn);
    if (__builtin_expect(r < FN_THROTTLED, 1)) {
        scorep_event_leave_measured(l, r);
        return;
    } else if (r != FN_MISS) {
        /* filtered, or throttled and not the innermost call (scorep_event_throttled_leave):
         * nothing to do */
        uint32_t d = l->depth;
        if (r == FN_FILTERED || !d || l->stack_region[d - 1] != (r & ~FN_THROTTLED))
            return;
    }
    func_exit_general(l, fn, r);
}

/* clang's -finstrument-functions reports no exits for frames an exception unwinds (gcc
 * does). When a handler starts, every call deeper than the handler's frame is gone. */
typedef void *(*begin_catch_fn)(void *);

__attribute__((no_instrument_function, visibility("default"))) void *
__cxa_begin_catch(void *exception)
{
    static begin_catch_fn real;
    begin_catch_fn f = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (!f) {
        f = (begin_catch_fn)dlsym(RTLD_NEXT, "__cxa_begin_catch");
        __atomic_store_n(&real, f, __ATOMIC_RELEASE);
    }
    scorep_location *l = scorep_tls_location;
    if (l && scorep_measurement_on())
        /* the handler's stack pointer at this call: our CFA. Not the frame address + 16, which
         * is the CFA on x86-64 only (AArch64's frame record lies at the bottom of the frame:
         * there no frame was ever unwound, test_cxx.sh's clang++ thrower under qemu) */
        scorep_event_unwind_to(l, (uintptr_t)__builtin_dwarf_cfa());
    return f ? f(exception) : exception;
}
