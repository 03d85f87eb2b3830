/* plugin_adapter.c: the runtime side of `scorep-cc --instrument=plugin`: registers the GCC
 * plugin's region descriptors on first use, enters/leaves them, and gives throttled regions
 * a per-thread counter slot so that their calls cost an inline increment and no call. */
#include "adapters/compiler/plugin_region.h"
#include "core/events.h"
#include "core/runtime.h"

#include <pthread.h>

__thread uint64_t scorep_throttle_pending[1 + SCOREP_PLUGIN_SLOTS]
    __attribute__((tls_model("initial-exec")));

static pthread_mutex_t plugin_lock = PTHREAD_MUTEX_INITIALIZER;
static scorep_plugin_region *registered; /* every descriptor seen, under plugin_lock */
/* region of each throttled slot (1..SLOTS-1); written before any descriptor names the slot */
static uint32_t slot_region[SCOREP_PLUGIN_SLOTS];
static uint32_t slots_used = 1; /* slot 0 is the mask word */

static uint32_t slot_of(uint32_t region)
{
    for (uint32_t s = 1; s < slots_used; s++)
        if (slot_region[s] == region)
            return s;
    return 0;
}

static bool excluded(const scorep_plugin_region *d)
{
    return scorep_active_filter &&
           scorep_filter_excluded(scorep_active_filter, d->file, d->name, d->mangled);
}

/* First call of this descriptor: the region is defined by name, file and line, so the
 * descriptors of one inline function in several translation units share one region. */
static uint32_t plugin_register(scorep_plugin_region *d)
{
    pthread_mutex_lock(&plugin_lock);
    uint32_t h = d->handle;
    if (h == 0) {
        uint32_t r = excluded(d) ? SCOREP_INVALID_ID
                                 : scorep_defs_region(d->name, d->mangled, d->file, (int)d->line,
                                                      (int)d->line, SCOREP_PARADIGM_COMPILER,
                                                      SCOREP_ROLE_FUNCTION);
        h = r == SCOREP_INVALID_ID ? SCOREP_PLUGIN_FILTERED : r + 1;
        uint32_t slot = r == SCOREP_INVALID_ID ? SCOREP_PLUGIN_DISCARD : slot_of(r);
        if (slot)
            __atomic_store_n(&d->flags, SCOREP_PLUGIN_SKIP | slot, __ATOMIC_RELEASE);
        d->next = registered;
        registered = d;
        __atomic_store_n(&d->handle, h, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&plugin_lock);
    return h;
}

__attribute__((visibility("default"))) void scorep_plugin_enter(scorep_plugin_region *d)
{
    scorep_location *l = scorep_tls_location;
    if (__builtin_expect(!l, 0) && !(l = scorep_location_slow()))
        return;
    uint32_t h = __atomic_load_n(&d->handle, __ATOMIC_ACQUIRE);
    if (__builtin_expect(h == 0, 0))
        h = plugin_register(d);
    if (h != SCOREP_PLUGIN_FILTERED)
        scorep_event_enter_sp(l, h - 1, 0); /* sp 0: the inserted cleanup leaves on unwinding */
}

__attribute__((visibility("default"))) void scorep_plugin_leave(scorep_plugin_region *d)
{
    scorep_location *l = scorep_tls_location;
    uint32_t h = __atomic_load_n(&d->handle, __ATOMIC_ACQUIRE);
    if (__builtin_expect(l != NULL, 1) && h != 0 && h != SCOREP_PLUGIN_FILTERED)
        scorep_event_leave(l, h - 1);
}

/* Called by the compiler adapter's throttle hook (rare: once per region). Without a free
 * slot the region's plugin calls stay measured: slower, never a wrong count. */
void scorep_plugin_throttle(uint32_t region)
{
    pthread_mutex_lock(&plugin_lock);
    uint32_t slot = slot_of(region);
    for (scorep_plugin_region *d = registered; d; d = d->next) {
        if (d->handle != region + 1)
            continue;
        if (!slot && slots_used < SCOREP_PLUGIN_SLOTS) {
            slot = slots_used;
            __atomic_store_n(&slot_region[slot], region, __ATOMIC_RELEASE);
            __atomic_store_n(&slots_used, slots_used + 1, __ATOMIC_RELEASE);
        }
        if (slot)
            __atomic_store_n(&d->flags, SCOREP_PLUGIN_SKIP | slot, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&plugin_lock);
}

/* Mask bit b stands for slot b, bit 0 for the discard slot (slot & 63 in the inline code).
 * Calls made while this thread records nothing are dropped, as the hooks' path drops them;
 * the state can only have changed at an event, and every event settles first. */
void scorep_throttle_pending_flush(void)
{
    scorep_location *l = scorep_tls_location;
    if (!l)
        return; /* kept until the thread has a location (its first measured event) */
    uint64_t mask = scorep_throttle_pending[0];
    scorep_throttle_pending[0] = 0;
    bool count = scorep_location_recording(l) && l->profiling;
    while (mask) {
        uint32_t b = (uint32_t)__builtin_ctzll(mask);
        mask &= mask - 1;
        uint32_t s = b ? b : SCOREP_PLUGIN_DISCARD;
        uint64_t n = scorep_throttle_pending[s];
        scorep_throttle_pending[s] = 0;
        if (count && n && s != SCOREP_PLUGIN_DISCARD)
            scorep_profile_throttled_slow(&l->profile,
                                          __atomic_load_n(&slot_region[s], __ATOMIC_ACQUIRE), n);
    }
}
