/* SPDX-License-Identifier: BSD-3-Clause */
/* libwrap_adapter.c: the part of user library wrapping (scorep-libwrap-init, docs/libwrap.md)
 * that lives in libscorep-rt: a wrapped function's region (defined on its first call, as
 * Score-P defines it: paradigm libwrap, role wrapper, the header as its file), its enter and
 * leave on the user regions' fast path, and the real function of run-time wrapping. */
#include "adapters/io/io_adapter.h"
#include "core/events.h"
#include "runtime/runtime.h"

#include <scorep/SCOREP_Libwrap_rt.h>

#include <pthread.h>
#include <string.h>

#define API __attribute__((visibility("default")))

static pthread_mutex_t define_lock = PTHREAD_MUTEX_INITIALIZER;

/* Set while this thread defines a region: a wrapped function called by the definition (the
 * runtime's own use of a wrapped library) is only passed through, never recursed into. */
static __thread int defining __attribute__((tls_model("initial-exec")));

static __attribute__((noinline, cold)) uint32_t define(scorep_libwrap_fn *fn)
{
    if (defining)
        return SCOREP_LIBWRAP_OFF;
    defining = 1;
    uint32_t state = SCOREP_LIBWRAP_OFF;
    if (scorep_runtime_init()) {
        pthread_mutex_lock(&define_lock);
        state = __atomic_load_n(&fn->state, __ATOMIC_ACQUIRE);
        if (state == 0) {
            uint32_t id = scorep_defs_region(fn->name, fn->symbol, fn->file, fn->line, 0,
                                             SCOREP_PARADIGM_LIBWRAP, SCOREP_ROLE_WRAPPER);
            /* as in Score-P: the filter sees the header, the name and the symbol */
            bool filtered = id == SCOREP_INVALID_ID ||
                            (scorep_active_filter &&
                             scorep_filter_excluded(scorep_active_filter, fn->file, fn->name,
                                                    fn->symbol));
            state = filtered ? SCOREP_LIBWRAP_OFF : id + 2;
            __atomic_store_n(&fn->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&define_lock);
    }
    defining = 0;
    return state;
}

static __attribute__((noinline)) uint32_t enter_general(uint32_t region)
{
    scorep_location *l = scorep_location_slow(); /* a thread's first event */
    if (!l)
        return 0;
    scorep_event_enter_general(l, region, 0);
    return region + 1;
}

API uint32_t scorep_libwrap_enter(scorep_libwrap_fn *fn, const void *caller)
{
    uint32_t state = __atomic_load_n(&fn->state, __ATOMIC_ACQUIRE);
    if (__builtin_expect(state == 0, 0))
        state = define(fn);
    if (state == SCOREP_LIBWRAP_OFF || defining)
        return 0;
    /* run-time wrapping intercepts every caller: the measurement's own calls are not the
     * program's (a table lookup per call site, see scorep_io_own_code) */
    if (caller && scorep_io_own_code(caller))
        return 0;
    uint32_t region = state - 2;
    scorep_location *l = scorep_tls_location;
    if (__builtin_expect(l != NULL, 1)) {
        scorep_event_enter_measured(l, region, 0);
        return region + 1;
    }
    return enter_general(region);
}

API void scorep_libwrap_leave(uint32_t token)
{
    scorep_location *l = scorep_tls_location;
    if (__builtin_expect(token != 0 && l != NULL, 1))
        scorep_event_leave_measured(l, token - 1);
}

API void scorep_libwrap_no_real(const char *symbol, const char *wrapper)
{
    scorep_fatal("library wrapper '%s': no definition of %s after the wrapper (is the "
                     "wrapped library loaded? it must come after the wrapper in the link or "
                     "in LD_PRELOAD)",
                 wrapper, symbol);
}
