/* SPDX-License-Identifier: BSD-3-Clause */
/* plugin_adapter.c: the runtime side of `scorep-cc --instrument=plugin`: registers the GCC
 * plugin's region descriptors on first use, enters/leaves them, and gives throttled regions
 * a per-thread counter slot (profile/throttle_pending.c) so that their calls cost an inline
 * increment and no call. */
#include "adapters/compiler/plugin_region.h"
#include "core/events.h"
#include "runtime/runtime.h"
#include "sampling/sampling.h"

#include <pthread.h>
#include <stddef.h>

_Static_assert(SCOREP_PLUGIN_SLOTS == SCOREP_THROTTLE_SLOTS &&
                   SCOREP_PLUGIN_DISCARD == SCOREP_THROTTLE_DISCARD,
               "plugin_region.h and profile/throttle_pending.h must agree on the slots");
#ifdef SCOREP_THROTTLE_TP_WORDS
_Static_assert(SCOREP_THROTTLE_BIT_SHIFT == SCOREP_PLUGIN_BIT_SHIFT_TP, "the plugins' mark bit");
#else
_Static_assert(SCOREP_THROTTLE_BIT_SHIFT == SCOREP_PLUGIN_BIT_SHIFT_INDEX, "the plugins' mark bit");
#endif
/* the layout both plugins build field for field (instrument.cc, scorep_llvm_plugin.cc) */
_Static_assert(offsetof(scorep_plugin_region, flags) == 32 && sizeof(scorep_plugin_region) == 48,
               "plugin_region.h: change the plugins' descriptor types with it");

static pthread_mutex_t plugin_lock = PTHREAD_MUTEX_INITIALIZER;
static scorep_plugin_region *registered; /* every descriptor seen, under plugin_lock */

static bool excluded(const scorep_plugin_region *d)
{
    return scorep_active_filter &&
           scorep_filter_excluded(scorep_active_filter, d->file, d->name, d->mangled);
}

/* First call of this descriptor: the region is defined by name, file and line, so the
 * descriptors of one inline function in several translation units share one region. */
static uint32_t plugin_register(scorep_plugin_region *d)
{
    /* the definition is the runtime's work before the first Enter: a sample here is no call
     * of the program's (sampling.h; until session 27 a sampled frame of the function itself
     * with __strdup below it, next to its instrumented call path) */
    int mark = scorep_sampling_runtime_begin(scorep_tls_location);
    pthread_mutex_lock(&plugin_lock);
    uint32_t h = d->handle;
    if (h == 0) {
        uint32_t r = excluded(d) ? SCOREP_INVALID_ID
                                 : scorep_defs_region(d->name, d->mangled, d->file, (int)d->line,
                                                      (int)d->line, SCOREP_PARADIGM_COMPILER,
                                                      SCOREP_ROLE_FUNCTION);
        h = r == SCOREP_INVALID_ID ? SCOREP_PLUGIN_FILTERED : r + 1;
        uint32_t slot = r == SCOREP_INVALID_ID ? SCOREP_PLUGIN_DISCARD : scorep_throttle_slot_of(r);
        if (slot)
            __atomic_store_n(&d->flags, scorep_throttle_slot_word(slot), __ATOMIC_RELEASE);
        d->next = registered;
        registered = d;
        __atomic_store_n(&d->handle, h, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&plugin_lock);
    scorep_sampling_runtime_end(scorep_tls_location, mark);
    return h;
}

/* The general path of a first call or a filtered region, out of line: the hook needs no
 * saved registers. */
__attribute__((noinline)) static void plugin_enter_general(scorep_plugin_region *d, uintptr_t sp)
{
    scorep_location *l = scorep_tls_location;
    if (__builtin_expect(!l, 0) && !(l = scorep_location_slow()))
        return;
    uint32_t h = __atomic_load_n(&d->handle, __ATOMIC_ACQUIRE);
    if (__builtin_expect(h == 0, 0))
        h = plugin_register(d);
    if (h != SCOREP_PLUGIN_FILTERED)
        scorep_event_enter_sp(l, h - 1, sp);
}

/* A measured call is a tail call of the function of l's mode (core/events.h,
 * scorep_event_enter_measured: the fast path, or the general one for metric sources,
 * substrate plugins and the fast path's own exceptions); a first call and a filtered
 * region one of plugin_enter_general. h - 1 is below SCOREP_PLUGIN_FILTERED - 1 exactly
 * for a registered, measured region. sp: the instrumented function's stack pointer at this
 * call (our CFA), as the -finstrument-functions hook records it: a longjmp out of the call
 * leaves it (longjmp.c; exceptions leave it through the inserted cleanup). On x86-64 one
 * lea more than the constant 0 stored before session 22 (docs/design.md, "Jumps out of
 * calls": the A/B figures). */
__attribute__((visibility("default"))) void scorep_plugin_enter(scorep_plugin_region *d)
{
    scorep_location *l = scorep_tls_location;
    uint32_t h = __atomic_load_n(&d->handle, __ATOMIC_ACQUIRE);
    uintptr_t sp = (uintptr_t)__builtin_dwarf_cfa();
    /* kept in its register, as the -finstrument-functions hook's: GCC otherwise computes it
     * a second time on the traced path */
    __asm__("" : "+r"(sp));
    if (__builtin_expect(l != NULL && h - 1 < SCOREP_PLUGIN_FILTERED - 1, 1))
        scorep_event_enter_measured(l, h - 1, sp);
    else
        plugin_enter_general(d, sp);
}

__attribute__((visibility("default"))) void scorep_plugin_leave(scorep_plugin_region *d)
{
    scorep_location *l = scorep_tls_location;
    uint32_t h = __atomic_load_n(&d->handle, __ATOMIC_ACQUIRE);
    if (__builtin_expect(l != NULL, 1) && h - 1 < SCOREP_PLUGIN_FILTERED - 1)
        scorep_event_leave_measured(l, h - 1);
}

/* Called by the compiler adapter's throttle hook (rare: once per region). Without a free
 * slot the region's plugin calls stay measured: slower, never a wrong count. */
void scorep_plugin_throttle(uint32_t region)
{
    pthread_mutex_lock(&plugin_lock);
    uint32_t slot = scorep_throttle_slot_of(region);
    for (scorep_plugin_region *d = registered; d; d = d->next) {
        if (d->handle != region + 1)
            continue;
        if (!slot)
            slot = scorep_throttle_slot_new(region);
        if (slot)
            __atomic_store_n(&d->flags, scorep_throttle_slot_word(slot), __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&plugin_lock);
}
