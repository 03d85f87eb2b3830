/* SPDX-License-Identifier: BSD-3-Clause */
/* user_adapter.c: the C functions behind the SCOREP_USER_* macros (Score-P's names). Handles
 * are created once (under a lock) and then used without one. */
#include "adapters/user/user_adapter.h"
#include "adapters/user/user_selective.h"
#include "core/events.h"
#include "core/rewind.h"
#include "runtime/runtime.h"
#include "sampling/sampling.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define API __attribute__((visibility("default")))

static pthread_mutex_t user_lock = PTHREAD_MUTEX_INITIALIZER;

static scorep_role role_of(SCOREP_User_RegionType t)
{
    if (t & SCOREP_USER_REGION_TYPE_PHASE)
        return SCOREP_ROLE_PHASE;
    if (t & SCOREP_USER_REGION_TYPE_DYNAMIC)
        return SCOREP_ROLE_DYNAMIC;
    if (t & SCOREP_USER_REGION_TYPE_LOOP)
        return SCOREP_ROLE_LOOP;
    if (t & SCOREP_USER_REGION_TYPE_FUNCTION)
        return SCOREP_ROLE_FUNCTION;
    return SCOREP_ROLE_CODE;
}

static struct SCOREP_User_Region *new_region(const char *name, SCOREP_User_RegionType type,
                                             const char *file, uint32_t line)
{
    struct SCOREP_User_Region *r = malloc(sizeof *r);
    if (!r)
        return NULL;
    if (!name)
        name = "<unnamed>";
    /* regions by name and Fortran regions come with file "" : no source location */
    if (file && !*file)
        file = NULL;
    /* the definition is the runtime's work: a sample here is no call of the program's */
    int mark = scorep_sampling_runtime_begin(scorep_tls_location);
    r->region = scorep_defs_region(name, NULL, file, (int)line, (int)line, SCOREP_PARADIGM_USER,
                                   role_of(type));
    scorep_sampling_runtime_end(scorep_tls_location, mark);
    bool filtered =
        r->region == SCOREP_INVALID_ID ||
        (scorep_active_filter && scorep_filter_excluded(scorep_active_filter, file, name, name));
    /* as in Score-P, a filtered region is never selected */
    r->selection = filtered ? NULL : scorep_selective_find(name);
    r->dynamic = (type & SCOREP_USER_REGION_TYPE_DYNAMIC) != 0;
    r->kind = filtered                                 ? SCOREP_USER_FILTERED
              : r->selection                           ? SCOREP_USER_SELECTED
              : (type & SCOREP_USER_REGION_TYPE_DYNAMIC) ? SCOREP_USER_DYNAMIC
                                                       : SCOREP_USER_PLAIN;
    return r;
}

API void SCOREP_User_RegionInit(SCOREP_User_RegionHandle *handle, const char **lastFileName,
                                SCOREP_SourceFileHandle *lastFile, const char *name,
                                const SCOREP_User_RegionType regionType, const char *fileName,
                                const uint32_t lineNo)
{
    (void)lastFileName;
    (void)lastFile;
    if (!scorep_runtime_init() || __atomic_load_n(handle, __ATOMIC_ACQUIRE))
        return;
    /* a global handle may be begun by several threads at once: one of them defines it */
    pthread_mutex_lock(&user_lock);
    if (!*handle)
        __atomic_store_n(handle, new_region(name, regionType, fileName, lineNo), __ATOMIC_RELEASE);
    pthread_mutex_unlock(&user_lock);
}

/* A plain handle on a thread that records already takes the core's fast path
 * (core/events.h, scorep_event_enter_measured: the compiler hooks' path, issue #31), a tail
 * call of its mode's function, which takes the general path itself for the fast path's
 * exceptions (metric sources, substrate plugins, a new profile node or trace page, ...);
 * every other case is a tail call of the general functions below: a thread's first event,
 * and the filtered, selected and dynamic handles, the selected regions' events being made in
 * user_selective.c, the dynamic ones' (an instance per visit) in core/events.c. */
static __attribute__((noinline, cold)) void enter_special(const SCOREP_User_RegionHandle h,
                                                          uintptr_t sp)
{
    scorep_location *l;
    sp &= ~SCOREP_SP_TAG_MASK; /* the plain regions' tag: these take their own */
    if (h->kind == SCOREP_USER_SELECTED && (l = scorep_location_get()))
        scorep_selective_region_enter(l, h->selection, h->region, sp, h->dynamic);
    else if (h->kind == SCOREP_USER_DYNAMIC && (l = scorep_location_get()))
        scorep_event_enter_dynamic(l, h->region, scorep_sp_tagged(sp, SCOREP_SP_USER_DYNAMIC));
}

static __attribute__((noinline, cold)) void leave_special(const SCOREP_User_RegionHandle h,
                                                          scorep_location *l)
{
    if (h->kind == SCOREP_USER_SELECTED)
        scorep_selective_region_leave(l, h->selection, h->region, h->dynamic);
    else if (h->kind == SCOREP_USER_DYNAMIC)
        scorep_event_leave_dynamic(l, h->region);
}

/* tail calls only, so that neither these nor the API functions save registers for them */
static __attribute__((noinline)) void enter_general(const SCOREP_User_RegionHandle h,
                                                    uintptr_t sp)
{
    scorep_location *l;
    if (!h)
        return;
    if (h->kind != SCOREP_USER_PLAIN)
        enter_special(h, sp);
    else if ((l = scorep_location_slow()))
        scorep_event_enter_general(l, h->region, sp); /* a thread's first event */
}

static __attribute__((noinline)) void leave_general(const SCOREP_User_RegionHandle h,
                                                    scorep_location *l)
{
    if (h && l)
        leave_special(h, l);
}

/* sp: where the region was begun, the stack pointer of the program's function that called
 * the API (the API function's CFA, as the compiler hooks record theirs, tagged
 * SCOREP_SP_USER: SCOREP_USER_BEGIN_SP): a longjmp or a C++
 * handler that abandons that frame leaves the region (core/events.c, scorep_event_unwind_to;
 * docs/design.md, "Jumps out of calls"). The dynamic and selected kinds record it tagged
 * (enter_special): their leave is not the plain one, the walk makes theirs. 0: unknown, the
 * walk stops at the region. */
static inline __attribute__((always_inline)) void region_enter(const SCOREP_User_RegionHandle h,
                                                               uintptr_t sp)
{
    scorep_location *l = scorep_tls_location;
    if (__builtin_expect(h != NULL && h->kind == SCOREP_USER_PLAIN && l != NULL, 1))
        scorep_event_enter_measured(l, h->region, sp);
    else
        enter_general(h, sp);
}

/* SCOREP_User_RegionBegin's seventh argument is on the stack on x86-64: its CFA is up to 16
 * below the frame's (user_adapter.h, SCOREP_USER_STACK_ARGS). scorep-rt's header calls
 * scorep_rt_user_region_begin instead, with five arguments, exact; this is for objects
 * built with other headers. */
#define BEGIN_STACK_ARGS SCOREP_USER_STACK_ARGS

void scorep_user_region_enter(const SCOREP_User_RegionHandle h, uintptr_t sp)
{
    region_enter(h, sp);
}

/* A handle that is still invalid while the measurement runs was never initialised: Score-P's
 * Fortran adapter aborts the program then; this runtime says so once and records nothing for it. */
static __attribute__((noinline, cold)) void enter_uninitialised(void)
{
    static int said;
    if (scorep_runtime_init() && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        scorep_warn("SCOREP_USER_REGION_ENTER on a region handle that was never initialised: "
                    "use SCOREP_USER_REGION_INIT or SCOREP_USER_REGION_BEGIN first; the region "
                    "is not recorded");
}

API void SCOREP_User_RegionEnter(const SCOREP_User_RegionHandle h)
{
    /* the warning out of line: the enter stays a leaf that keeps nothing in saved registers */
    if (__builtin_expect(!h, 0)) {
        enter_uninitialised();
        return;
    }
    region_enter(h, SCOREP_USER_BEGIN_SP(0));
}

/* a handle's first begin: defined, then entered (out of line: the begins after it stay a leaf) */
static __attribute__((noinline)) void begin_first(SCOREP_User_RegionHandle *handle,
                                                  const char **lastFileName,
                                                  SCOREP_SourceFileHandle *lastFile,
                                                  const char *name,
                                                  const SCOREP_User_RegionType regionType,
                                                  const char *fileName, const uint32_t lineNo,
                                                  uintptr_t sp)
{
    SCOREP_User_RegionInit(handle, lastFileName, lastFile, name, regionType, fileName, lineNo);
    region_enter(__atomic_load_n(handle, __ATOMIC_ACQUIRE), sp);
}

API void SCOREP_User_RegionBegin(SCOREP_User_RegionHandle *handle, const char **lastFileName,
                                 SCOREP_SourceFileHandle *lastFile, const char *name,
                                 const SCOREP_User_RegionType regionType, const char *fileName,
                                 const uint32_t lineNo)
{
    SCOREP_User_RegionHandle h = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (__builtin_expect(!h, 0)) {
        begin_first(handle, lastFileName, lastFile, name, regionType, fileName, lineNo,
                    SCOREP_USER_BEGIN_SP(BEGIN_STACK_ARGS));
        return;
    }
    region_enter(h, SCOREP_USER_BEGIN_SP(BEGIN_STACK_ARGS));
}

API void scorep_rt_user_region_begin(SCOREP_User_RegionHandle *handle, const char *name,
                                     const SCOREP_User_RegionType regionType,
                                     const char *fileName, const uint32_t lineNo)
{
    SCOREP_User_RegionHandle h = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (__builtin_expect(!h, 0)) {
        begin_first(handle, NULL, NULL, name, regionType, fileName, lineNo,
                    SCOREP_USER_BEGIN_SP(0));
        return;
    }
    region_enter(h, SCOREP_USER_BEGIN_SP(0));
}

API void SCOREP_User_RegionEnd(const SCOREP_User_RegionHandle h)
{
    scorep_location *l = scorep_tls_location;
    if (__builtin_expect(h != NULL && h->kind == SCOREP_USER_PLAIN && l != NULL, 1))
        scorep_event_leave_measured(l, h->region);
    else
        leave_general(h, l);
}

/* ------------------------------------------------------------ rewind regions */
/* Score-P selects rewind regions like the others. */
/* Score-P records the group in the region's definition; scorep-rt's definitions have no
 * region groups, so the call is accepted and changes nothing. */
API void SCOREP_User_RegionSetGroup(const SCOREP_User_RegionHandle h, const char *groupName)
{
    (void)h;
    (void)groupName;
}

API void SCOREP_User_RewindRegionEnter(const SCOREP_User_RegionHandle h)
{
    scorep_location *l;
    if (h && h->kind != SCOREP_USER_FILTERED && (l = scorep_location_get())) {
        if (h->kind == SCOREP_USER_SELECTED)
            scorep_selective_enter(l, h->selection);
        scorep_rewind_point(l, h->region);
    }
}

API void SCOREP_User_RewindRegionBegin(SCOREP_User_RegionHandle *handle, const char **lastFileName,
                                       SCOREP_SourceFileHandle *lastFile, const char *name,
                                       const SCOREP_User_RegionType regionType,
                                       const char *fileName, const uint32_t lineNo)
{
    if (!__atomic_load_n(handle, __ATOMIC_ACQUIRE))
        SCOREP_User_RegionInit(handle, lastFileName, lastFile, name, regionType, fileName, lineNo);
    SCOREP_User_RewindRegionEnter(*handle);
}

API void SCOREP_User_RewindRegionEnd(const SCOREP_User_RegionHandle h, const bool value)
{
    scorep_location *l = scorep_tls_location;
    if (h && h->kind != SCOREP_USER_FILTERED && l) {
        scorep_rewind_check(l, h->region, value);
        if (h->kind == SCOREP_USER_SELECTED)
            scorep_selective_leave(l, h->selection);
    }
}

/* ------------------------------------------------------- online-access phases */
API void SCOREP_User_OaPhaseBegin(SCOREP_User_RegionHandle *handle, const char **lastFileName,
                                  SCOREP_SourceFileHandle *lastFile, const char *name,
                                  const SCOREP_User_RegionType regionType, const char *fileName,
                                  const uint32_t lineNo)
{
    SCOREP_User_RegionBegin(handle, lastFileName, lastFile, name, regionType, fileName, lineNo);
}

API void SCOREP_User_OaPhaseEnd(const SCOREP_User_RegionHandle handle)
{
    SCOREP_User_RegionEnd(handle);
}

/* ------------------------------------------------------------ regions by name */
typedef struct by_name {
    struct by_name *next;
    struct SCOREP_User_Region *region;
    char name[];
} by_name;

enum { BY_NAME_BUCKETS = 1024 };
static by_name *by_name_table[BY_NAME_BUCKETS];

static unsigned name_bucket(const char *s)
{
    unsigned h = 5381;
    while (*s)
        h = h * 33 + (unsigned char)*s++;
    return h % BY_NAME_BUCKETS;
}

/* Entries are only ever prepended (release store under the lock) and never removed, so
 * lookups walk the chains without the lock: a region begun by name again costs no lock. */
static struct SCOREP_User_Region *lookup(const char *name, unsigned b)
{
    for (by_name *e = __atomic_load_n(&by_name_table[b], __ATOMIC_ACQUIRE); e; e = e->next)
        if (strcmp(e->name, name) == 0)
            return e->region;
    return NULL;
}

static struct SCOREP_User_Region *insert_locked(const char *name, unsigned b,
                                                SCOREP_User_RegionType type, const char *file,
                                                uint32_t line)
{
    size_t len = strlen(name);
    by_name *e = malloc(sizeof *e + len + 1);
    if (!e || !(e->region = new_region(name, type, file, line))) {
        free(e);
        return NULL;
    }
    memcpy(e->name, name, len + 1);
    e->next = by_name_table[b];
    __atomic_store_n(&by_name_table[b], e, __ATOMIC_RELEASE);
    return e->region;
}

struct SCOREP_User_Region *scorep_user_region_by_name(const char *name, SCOREP_User_RegionType type,
                                                      const char *file, uint32_t line)
{
    if (!name || !scorep_runtime_init())
        return NULL;
    unsigned b = name_bucket(name);
    struct SCOREP_User_Region *r = lookup(name, b);
    if (r)
        return r;
    pthread_mutex_lock(&user_lock);
    r = lookup(name, b); /* another thread may have defined it meanwhile */
    if (!r)
        r = insert_locked(name, b, type, file, line);
    pthread_mutex_unlock(&user_lock);
    return r;
}

struct SCOREP_User_Region *scorep_user_region_find(const char *name)
{
    return name ? lookup(name, name_bucket(name)) : NULL;
}

API void SCOREP_User_RegionByNameBegin(const char *name, const SCOREP_User_RegionType regionType,
                                       const char *fileName, const uint32_t lineNo)
{
    region_enter(scorep_user_region_by_name(name, regionType, fileName, lineNo),
                 SCOREP_USER_BEGIN_SP(0));
}

void scorep_user_region_by_name_begin(const char *name, SCOREP_User_RegionType type,
                                      const char *file, uint32_t line, uintptr_t sp)
{
    region_enter(scorep_user_region_by_name(name, type, file, line), sp);
}

API void SCOREP_User_RegionByNameEnd(const char *name)
{
    if (scorep_tls_location)
        SCOREP_User_RegionEnd(scorep_user_region_find(name));
}

/* --------------------------------------------------------------- parameters */
/* The handle holds the parameter's definition id; (uint64_t)-1 = not yet defined. */
static uint32_t param_id(SCOREP_User_ParameterHandle *h, const char *name, scorep_param_type t)
{
    SCOREP_User_ParameterHandle v = __atomic_load_n(h, __ATOMIC_ACQUIRE);
    if (v != (SCOREP_User_ParameterHandle)SCOREP_USER_INVALID_PARAMETER)
        return (uint32_t)v;
    uint32_t id = scorep_defs_parameter(name ? name : "<unnamed>", t);
    if (id != SCOREP_INVALID_ID)
        __atomic_store_n(h, (SCOREP_User_ParameterHandle)id, __ATOMIC_RELEASE);
    return id;
}

API void SCOREP_User_ParameterInt64(SCOREP_User_ParameterHandle *h, const char *name, int64_t v)
{
    scorep_location *l = scorep_location_get();
    uint32_t id;
    if (l && (id = param_id(h, name, SCOREP_PARAM_INT64)) != SCOREP_INVALID_ID)
        scorep_event_parameter_int(l, id, v);
}

API void SCOREP_User_ParameterUint64(SCOREP_User_ParameterHandle *h, const char *name, uint64_t v)
{
    scorep_location *l = scorep_location_get();
    uint32_t id;
    if (l && (id = param_id(h, name, SCOREP_PARAM_UINT64)) != SCOREP_INVALID_ID)
        scorep_event_parameter_uint(l, id, v);
}

API void SCOREP_User_ParameterString(SCOREP_User_ParameterHandle *h, const char *name,
                                     const char *v)
{
    scorep_location *l = scorep_location_get();
    uint32_t id, s;
    if (l && (id = param_id(h, name, SCOREP_PARAM_STRING)) != SCOREP_INVALID_ID &&
        (s = scorep_defs_string(v ? v : "")) != SCOREP_INVALID_ID)
        scorep_event_parameter_string(l, id, s);
}

/* ------------------------------------------------------------------ metrics */
API void SCOREP_User_InitMetric(SCOREP_SamplingSetHandle *h, const char *name, const char *unit,
                                const SCOREP_User_MetricType type, const int8_t context)
{
    if (!scorep_runtime_init() || *h != SCOREP_INVALID_SAMPLING_SET)
        return;
    scorep_metric_type t = type == SCOREP_USER_METRIC_TYPE_INT64    ? SCOREP_METRIC_INT64
                           : type == SCOREP_USER_METRIC_TYPE_UINT64 ? SCOREP_METRIC_UINT64
                                                                    : SCOREP_METRIC_DOUBLE;
    uint32_t id = scorep_defs_metric(name ? name : "<unnamed>", unit, t,
                                     context == SCOREP_USER_METRIC_CONTEXT_CALLPATH);
    if (id != SCOREP_INVALID_ID)
        *h = id + 1;
}

static void trigger(SCOREP_SamplingSetHandle h, uint64_t bits, double d)
{
    scorep_location *l;
    if (h != SCOREP_INVALID_SAMPLING_SET && (l = scorep_location_get()))
        scorep_event_metric(l, h - 1, bits, d);
}

API void SCOREP_User_TriggerMetricInt64(SCOREP_SamplingSetHandle h, int64_t v)
{
    trigger(h, (uint64_t)v, (double)v);
}

API void SCOREP_User_TriggerMetricUint64(SCOREP_SamplingSetHandle h, uint64_t v)
{
    trigger(h, v, (double)v);
}

API void SCOREP_User_TriggerMetricDouble(SCOREP_SamplingSetHandle h, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    trigger(h, bits, v);
}

/* ---------------------------------------------------------------- recording */
API void SCOREP_User_EnableRecording(void)
{
    scorep_event_recording(scorep_location_get(), true);
}

API void SCOREP_User_DisableRecording(void)
{
    scorep_event_recording(scorep_location_get(), false);
}

API bool SCOREP_User_RecordingEnabled(void)
{
    return scorep_location_get() != NULL && scorep_recording_on();
}
