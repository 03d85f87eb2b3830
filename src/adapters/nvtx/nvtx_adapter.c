/* SPDX-License-Identifier: BSD-3-Clause */
/* nvtx_adapter.c: NVTX ranges and marks as user regions (libscorep-rt-nvtx), attached through
 * NVTX's injection interface: NVTX calls InitializeInjectionNvtx2 (the library named by
 * NVTX_INJECTION64_PATH; when the library is linked into the program, its constructor sets
 * that variable to its own path unless the user set it), and the library writes its
 * functions into the slots of NVTX's CORE and CORE2 callback tables
 * (nvtx3/nvtxDetail/nvtxTypes.h).
 *
 * Recorded: nvtxRangePush/Pop (A, W, Ex; domains too) as Enter/Leave of a region named by
 * the message, on the calling thread; nvtxRangeStart/End the same when the range ends on the
 * thread that started it while it is the innermost open NVTX range (others are counted and
 * reported at exit: regions must nest); nvtxMark as a visit of zero length. Regions of a named
 * domain are called "DOMAIN: message". Paradigm USER, role FUNCTION (docs/cuda.md, "NVTX"). */
#include "core/events.h"
#include "runtime/runtime.h"
#include "base/log.h"

#include <nvtx3/nvToolsExt.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define EXPORT __attribute__((visibility("default")))

/* ------------------------------------------------------------ names */
/* A domain or a registered string: what the handle NVTX gives back points to. */
typedef struct {
    char *name;
} named;

/* UTF-8 of a wide string (no locale involved); malloc'ed or NULL. */
static char *utf8(const wchar_t *w)
{
    size_t n = wcslen(w);
    char *s = malloc(4 * n + 1), *o = s;
    if (!s)
        return NULL;
    for (; *w; w++) {
        uint32_t c = (uint32_t)*w;
        if (c < 0x80) {
            *o++ = (char)c;
        } else if (c < 0x800) {
            *o++ = (char)(0xC0 | c >> 6);
            *o++ = (char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            *o++ = (char)(0xE0 | c >> 12);
            *o++ = (char)(0x80 | (c >> 6 & 0x3F));
            *o++ = (char)(0x80 | (c & 0x3F));
        } else {
            *o++ = (char)(0xF0 | (c >> 18 & 0x07));
            *o++ = (char)(0x80 | (c >> 12 & 0x3F));
            *o++ = (char)(0x80 | (c >> 6 & 0x3F));
            *o++ = (char)(0x80 | (c & 0x3F));
        }
    }
    *o = 0;
    return s;
}

/* The region of (domain, message). A per-thread cache keyed by the message's address (and
 * checked by content: messages may live in reused buffers) keeps defs' lock off the
 * repeated path. */
typedef struct {
    const void *domain;
    const char *ptr;
    char *copy;
    uint32_t region;
} name_cache;
#define CACHE 64
static __thread name_cache cache[CACHE];

static uint32_t define(const named *domain, const char *msg)
{
    char buf[512];
    const char *name = msg;
    if (domain) {
        snprintf(buf, sizeof buf, "%s: %s", domain->name, msg);
        name = buf;
    }
    return scorep_defs_region(name, NULL, "NVTX", 0, 0, SCOREP_PARADIGM_USER,
                              SCOREP_ROLE_FUNCTION);
}

static uint32_t region_of(const named *domain, const char *msg)
{
    if (!msg)
        msg = "<unnamed NVTX range>";
    size_t h = ((uintptr_t)msg >> 3 ^ (uintptr_t)domain >> 4) & (CACHE - 1);
    name_cache *c = &cache[h];
    if (c->ptr == msg && c->domain == domain && strcmp(c->copy, msg) == 0)
        return c->region;
    uint32_t id = define(domain, msg);
    char *copy = id != SCOREP_INVALID_ID ? strdup(msg) : NULL;
    if (copy) {
        free(c->copy);
        *c = (name_cache){domain, msg, copy, id};
    }
    return id;
}

static uint32_t region_of_attr(const named *domain, const nvtxEventAttributes_t *a)
{
    if (!a)
        return region_of(domain, NULL);
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        return region_of(domain, a->message.ascii);
    case NVTX_MESSAGE_TYPE_UNICODE: {
        char *s = a->message.unicode ? utf8(a->message.unicode) : NULL;
        uint32_t id = s ? define(domain, s) : region_of(domain, NULL);
        free(s);
        return id;
    }
    case NVTX_MESSAGE_TYPE_REGISTERED: {
        const named *r = (const named *)a->message.registered;
        return region_of(domain, r ? r->name : NULL);
    }
    default:
        return region_of(domain, NULL);
    }
}

static uint32_t region_of_w(const wchar_t *w)
{
    char *s = w ? utf8(w) : NULL;
    uint32_t id = s ? define(NULL, s) : region_of(NULL, NULL);
    free(s);
    return id;
}

/* ---------------------------------------------------- per-thread stack */
/* The open NVTX ranges of this thread, innermost last: region and range id (0: pushed). */
typedef struct {
    uint32_t region;
    uint64_t id;
} open_range;
static __thread open_range *stack;
static __thread uint32_t depth, cap;
static uint64_t next_id = 1, unmatched;

static int push(uint32_t region, uint64_t id)
{
    scorep_location *l = scorep_location_get();
    if (!l || region == SCOREP_INVALID_ID)
        return -1;
    if (depth == cap) {
        uint32_t c = cap ? cap * 2 : 32;
        open_range *s = realloc(stack, c * sizeof *s);
        if (!s)
            return -1;
        stack = s;
        cap = c;
    }
    stack[depth++] = (open_range){region, id};
    scorep_event_enter(l, region);
    return (int)depth - 1;
}

static int pop(void)
{
    scorep_location *l = scorep_location_get();
    if (depth == 0 || !l) {
        __atomic_add_fetch(&unmatched, 1, __ATOMIC_RELAXED);
        return -1;
    }
    scorep_event_leave(l, stack[--depth].region);
    return (int)depth;
}

static void mark(uint32_t region)
{
    scorep_location *l = scorep_location_get();
    if (!l || region == SCOREP_INVALID_ID)
        return;
    scorep_event_enter(l, region);
    scorep_event_leave(l, region);
}

static nvtxRangeId_t start(uint32_t region)
{
    uint64_t id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    return push(region, id) < 0 ? 0 : id;
}

static void end(nvtxRangeId_t id)
{
    if (id && depth > 0 && stack[depth - 1].id == id) {
        pop();
        return;
    }
    __atomic_add_fetch(&unmatched, 1, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------- the callbacks */
static void mark_a(const char *m)
{
    mark(region_of(NULL, m));
}
static void mark_w(const wchar_t *m)
{
    mark(region_of_w(m));
}
static void mark_ex(const nvtxEventAttributes_t *a)
{
    mark(region_of_attr(NULL, a));
}
static nvtxRangeId_t start_a(const char *m)
{
    return start(region_of(NULL, m));
}
static nvtxRangeId_t start_w(const wchar_t *m)
{
    return start(region_of_w(m));
}
static nvtxRangeId_t start_ex(const nvtxEventAttributes_t *a)
{
    return start(region_of_attr(NULL, a));
}
static int push_a(const char *m)
{
    return push(region_of(NULL, m), 0);
}
static int push_w(const wchar_t *m)
{
    return push(region_of_w(m), 0);
}
static int push_ex(const nvtxEventAttributes_t *a)
{
    return push(region_of_attr(NULL, a), 0);
}
static void d_mark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    mark(region_of_attr((const named *)d, a));
}
static nvtxRangeId_t d_start_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    return start(region_of_attr((const named *)d, a));
}
static void d_end(nvtxDomainHandle_t d, nvtxRangeId_t id)
{
    (void)d;
    end(id);
}
static int d_push_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    return push(region_of_attr((const named *)d, a), 0);
}
static int d_pop(nvtxDomainHandle_t d)
{
    (void)d;
    return pop();
}

static named *new_named(char *name)
{
    named *n = name ? malloc(sizeof *n) : NULL;
    if (n)
        n->name = name;
    else
        free(name);
    return n;
}
static nvtxDomainHandle_t domain_a(const char *name)
{
    return (nvtxDomainHandle_t)new_named(strdup(name ? name : "<unnamed domain>"));
}
static nvtxDomainHandle_t domain_w(const wchar_t *name)
{
    return (nvtxDomainHandle_t)new_named(name ? utf8(name) : strdup("<unnamed domain>"));
}
static nvtxStringHandle_t string_a(nvtxDomainHandle_t d, const char *s)
{
    (void)d;
    return (nvtxStringHandle_t)new_named(strdup(s ? s : ""));
}
static nvtxStringHandle_t string_w(nvtxDomainHandle_t d, const wchar_t *s)
{
    (void)d;
    return (nvtxStringHandle_t)new_named(s ? utf8(s) : strdup(""));
}
/* A domain's handle stays valid (its regions may still be open); nothing to free. */
static void domain_destroy(nvtxDomainHandle_t d)
{
    (void)d;
}

/* ------------------------------------------------------------ attaching */
static void report(void)
{
    uint64_t n = __atomic_load_n(&unmatched, __ATOMIC_RELAXED);
    if (n)
        scorep_warn("NVTX: %llu range ends or pops matched no open range of their thread "
                    "(ranges ended on another thread or out of order are not recorded)",
                    (unsigned long long)n);
}

static void set(NvtxFunctionTable t, unsigned size, unsigned id, NvtxFunctionPointer f)
{
    if (id < size && t[id])
        *t[id] = f;
}

static int attach(NvtxGetExportTableFunc_t get)
{
    const NvtxExportTableCallbacks *cb =
        get ? (const NvtxExportTableCallbacks *)get(NVTX_ETID_CALLBACKS) : NULL;
    NvtxFunctionTable core = NULL, core2 = NULL;
    unsigned n1 = 0, n2 = 0;
    if (!cb || cb->struct_size < sizeof *cb || !cb->GetModuleFunctionTable ||
        !cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &n1) ||
        !cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &n2) || !core || !core2)
        return 0;
    if (!scorep_runtime_init())
        return 0; /* the measurement is off: NVTX calls stay no-ops */
    set(core, n1, NVTX_CBID_CORE_MarkEx, (NvtxFunctionPointer)mark_ex);
    set(core, n1, NVTX_CBID_CORE_MarkA, (NvtxFunctionPointer)mark_a);
    set(core, n1, NVTX_CBID_CORE_MarkW, (NvtxFunctionPointer)mark_w);
    set(core, n1, NVTX_CBID_CORE_RangeStartEx, (NvtxFunctionPointer)start_ex);
    set(core, n1, NVTX_CBID_CORE_RangeStartA, (NvtxFunctionPointer)start_a);
    set(core, n1, NVTX_CBID_CORE_RangeStartW, (NvtxFunctionPointer)start_w);
    set(core, n1, NVTX_CBID_CORE_RangeEnd, (NvtxFunctionPointer)end);
    set(core, n1, NVTX_CBID_CORE_RangePushEx, (NvtxFunctionPointer)push_ex);
    set(core, n1, NVTX_CBID_CORE_RangePushA, (NvtxFunctionPointer)push_a);
    set(core, n1, NVTX_CBID_CORE_RangePushW, (NvtxFunctionPointer)push_w);
    set(core, n1, NVTX_CBID_CORE_RangePop, (NvtxFunctionPointer)pop);
    set(core2, n2, NVTX_CBID_CORE2_DomainMarkEx, (NvtxFunctionPointer)d_mark_ex);
    set(core2, n2, NVTX_CBID_CORE2_DomainRangeStartEx, (NvtxFunctionPointer)d_start_ex);
    set(core2, n2, NVTX_CBID_CORE2_DomainRangeEnd, (NvtxFunctionPointer)d_end);
    set(core2, n2, NVTX_CBID_CORE2_DomainRangePushEx, (NvtxFunctionPointer)d_push_ex);
    set(core2, n2, NVTX_CBID_CORE2_DomainRangePop, (NvtxFunctionPointer)d_pop);
    set(core2, n2, NVTX_CBID_CORE2_DomainRegisterStringA, (NvtxFunctionPointer)string_a);
    set(core2, n2, NVTX_CBID_CORE2_DomainRegisterStringW, (NvtxFunctionPointer)string_w);
    set(core2, n2, NVTX_CBID_CORE2_DomainCreateA, (NvtxFunctionPointer)domain_a);
    set(core2, n2, NVTX_CBID_CORE2_DomainCreateW, (NvtxFunctionPointer)domain_w);
    set(core2, n2, NVTX_CBID_CORE2_DomainDestroy, (NvtxFunctionPointer)domain_destroy);
    if (scorep_runtime_at_finalize(report) != 0)
        scorep_warn("NVTX: unmatched range ends are not reported at exit");
    return 1;
}

/* NVTX_INJECTION64_PATH=libscorep-rt-nvtx.so */
EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
    return attach(get);
}

/* Found in the process by NVTX builds with NVTX_SUPPORT_ALREADY_INJECTED_LIBRARY (off in
 * NVTX's default load sequence, hence the constructor below). */
EXPORT int InitializeInjectionNvtx2Preinject(NvtxGetExportTableFunc_t get)
{
    return attach(get);
}

/* Linked or preloaded: name this library to NVTX, which reads the variable at the program's
 * first NVTX call and then finds this (already loaded) library by its path. */
__attribute__((constructor)) static void name_self(void)
{
    Dl_info info;
    if (!getenv("NVTX_INJECTION64_PATH") && dladdr((void *)name_self, &info) && info.dli_fname &&
        info.dli_fname[0] == '/')
        setenv("NVTX_INJECTION64_PATH", info.dli_fname, 0);
}
