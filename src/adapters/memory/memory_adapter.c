/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_adapter.c: the shared half of libscorep-rt-memory: resolving the real allocation
 * functions (dlsym(RTLD_NEXT), with a static arena for what dlsym allocates meanwhile), the
 * regions, and the decision whether a call is recorded: not inside another wrapper (a
 * per-thread guard: operator new calls malloc), not when the measurement system itself
 * allocates (its code is recognised by the caller's address; a call that comes through
 * libc or the dynamic loader, such as strdup, is judged by the frame that called libc). */
#include "adapters/memory/memory_wrappers.h"
#include "base/arch.h"
#include "core/events.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <string.h>

void *scorep_mem_real[MEM_N];
/* found by the runtime (scorep_memory_check_adapter): this adapter is loaded */
const int scorep_memory_adapter_present = 1;

static const char *const symbols[MEM_N] = {
#define X(e, name, role, sym) sym,
    SCOREP_MEMORY_FUNCTIONS
#undef X
};

/* ------------------------------------------------------------ bootstrap */
_Alignas(64) char scorep_mem_boot_arena[SCOREP_MEM_BOOT_BYTES];
#define boot_arena scorep_mem_boot_arena
static size_t boot_used;

/* Every boot block has its size in the 16 bytes before it. */
void *scorep_mem_boot_alloc(size_t n, size_t align)
{
    if (align < 16)
        align = 16;
    for (;;) {
        size_t used = __atomic_load_n(&boot_used, __ATOMIC_RELAXED);
        size_t start = (used + 16 + align - 1) & ~(align - 1);
        if (start + n > sizeof boot_arena || start + n < start)
            return NULL;
        if (__atomic_compare_exchange_n(&boot_used, &used, start + n, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            *(size_t *)(boot_arena + start - 16) = n;
            return boot_arena + start;
        }
    }
}

size_t scorep_mem_boot_size(const void *p)
{
    return *(const size_t *)((const char *)p - 16);
}

/* RTLD_NEXT sees the global scope only: a libstdc++ that came with a library loaded
 * RTLD_LOCAL (a C++ extension module imported by Python) is found by its own handle */
static void *resolve_local(const char *sym)
{
    void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_NOLOAD);
    void *fn = h ? dlsym(h, sym) : NULL;
    if (h)
        dlclose(h);
    return fn;
}

/* memkind's hbw_* the same way: a libmemkind loaded by a library opened RTLD_LOCAL. Never
 * loaded here: a program without memkind does not need it (and never calls hbw_*). */
static void *resolve_memkind(const char *sym)
{
    void *h = dlopen("libmemkind.so.0", RTLD_LAZY | RTLD_NOLOAD);
    void *fn = h ? dlsym(h, sym) : NULL;
    if (h)
        dlclose(h);
    return fn;
}

void scorep_mem_resolve(void)
{
    for (int i = 0; i < MEM_N; i++) {
        if (__atomic_load_n(&scorep_mem_real[i], __ATOMIC_ACQUIRE))
            continue;
        void *fn = dlsym(RTLD_NEXT, symbols[i]);
        if (!fn && symbols[i][0] == '_' && symbols[i][1] == 'Z')
            fn = resolve_local(symbols[i]);
        if (!fn && i >= MEM_HBW_MALLOC)
            fn = resolve_memkind(symbols[i]);
        __atomic_store_n(&scorep_mem_real[i], fn, __ATOMIC_RELEASE);
    }
}

__attribute__((constructor)) static void resolve_at_load(void)
{
    scorep_memory_guard++;
    scorep_mem_resolve();
    scorep_memory_guard--;
}

/* ------------------------------------------------------------- regions */
static uint32_t regions[MEM_N];
static const char *const names[MEM_N] = {
#define X(e, name, role, sym) name,
    SCOREP_MEMORY_FUNCTIONS
#undef X
};
static const scorep_role roles[MEM_N] = {
#define X(e, name, role, sym) SCOREP_ROLE_##role,
    SCOREP_MEMORY_FUNCTIONS
#undef X
};

/* regions[] holds id + 1 (0: not defined yet); definitions are deduplicated, so two
 * threads defining one region get the same id */
static uint32_t region(scorep_mem_func f)
{
    uint32_t r = __atomic_load_n(&regions[f], __ATOMIC_ACQUIRE);
    if (__builtin_expect(r != 0, 1))
        return r - 1;
    uint32_t id = scorep_defs_region(names[f], names[f], "MEMORY", 0, 0, SCOREP_PARADIGM_MEMORY,
                                     roles[f]);
    if (id != SCOREP_INVALID_ID)
        __atomic_store_n(&regions[f], id + 1, __ATOMIC_RELEASE);
    return id;
}

/* ------------------------------------------------------ who is calling */
enum { CALLER_USER, CALLER_RUNTIME, CALLER_SYSTEM };

typedef struct {
    uintptr_t lo, hi;
    int kind;
} code_range;

static code_range ranges[128];
static int n_ranges, ranges_state; /* 0 none, 1 building, 2 ready */

static int object_kind(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    /* the runtime and the libraries only it uses (libdw decompresses debug sections) */
    static const char *const runtime[] = {"libscorep-rt", "libotf2", "libdw.",  "libdw-",
                                          "libelf",       "libunwind", "libpapi", "libpfm",
                                          "libcupti",     "liblzma", "libzstd", "libbz2",
                                          "libdebuginfod", NULL};
    for (const char *const *r = runtime; *r; r++)
        if (strncmp(base, *r, strlen(*r)) == 0)
            return CALLER_RUNTIME;
    if (strncmp(base, "libc.so", 7) == 0 || strncmp(base, "libc-", 5) == 0 ||
        strncmp(base, "ld-linux", 8) == 0)
        return CALLER_SYSTEM;
    return CALLER_USER;
}

static int add_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    int kind = object_kind(info->dlpi_name ? info->dlpi_name : "");
    if (kind == CALLER_USER)
        return 0;
    for (int i = 0; i < info->dlpi_phnum && n_ranges < (int)(sizeof ranges / sizeof *ranges);
         i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
            ranges[n_ranges++] = (code_range){info->dlpi_addr + ph->p_vaddr,
                                              info->dlpi_addr + ph->p_vaddr + ph->p_memsz, kind};
    }
    return 0;
}

static void find_ranges(void)
{
    int expected = 0;
    if (__atomic_compare_exchange_n(&ranges_state, &expected, 1, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
        dl_iterate_phdr(add_object, NULL);
        __atomic_store_n(&ranges_state, 2, __ATOMIC_RELEASE);
        return;
    }
    while (__atomic_load_n(&ranges_state, __ATOMIC_ACQUIRE) != 2)
        scorep_cpu_relax();
}

static int kind_of(uintptr_t a)
{
    for (int i = 0; i < n_ranges; i++)
        if (a >= ranges[i].lo && a < ranges[i].hi)
            return ranges[i].kind;
    return CALLER_USER;
}

/* The first frame outside libc and the loader decides (strdup, fopen, dlopen...). */
static int system_caller_kind(uintptr_t caller)
{
    void *frames[16];
    int n = backtrace(frames, 16), i = 0;
    while (i < n && (uintptr_t)frames[i] != caller)
        i++;
    for (i++; i < n; i++) {
        int k = kind_of((uintptr_t)frames[i]);
        if (k != CALLER_SYSTEM)
            return k;
    }
    return CALLER_RUNTIME; /* only libc and the loader: their own business (thread exit) */
}

/* The program's last two call sites (a loop's malloc and free): one or two compares. */
static __thread uintptr_t last_callers[2] __attribute__((tls_model("initial-exec")));
static __thread unsigned last_slot __attribute__((tls_model("initial-exec")));

static bool recorded_caller(const void *caller)
{
    uintptr_t a = (uintptr_t)caller;
    if (__builtin_expect(a == last_callers[0] || a == last_callers[1], 1))
        return true;
    if (__builtin_expect(ranges_state != 2, 0))
        find_ranges();
    int k = kind_of(a);
    if (k == CALLER_SYSTEM)
        return system_caller_kind(a) == CALLER_USER;
    if (k == CALLER_USER)
        last_callers[last_slot++ & 1] = a;
    return k == CALLER_USER;
}

/* -------------------------------------------------------- enter, leave */
bool scorep_mem_enter(scorep_mem_call *c, scorep_mem_func f, const void *caller, unsigned in,
                      uint64_t size, const void *addr)
{
    c->l = NULL;
    if (!scorep_mem_maybe())
        return false;
    scorep_memory_guard++;
    scorep_location *l = scorep_tls_location;
    uint32_t r;
    /* the caller first: a thread's start-up allocations in libc come before the pthread
     * adapter gave it its location, and must not create one; after the thread's end
     * (thread-local destructors) nothing is recorded on it any more */
    if (!scorep_memory_recording(SCOREP_ALLOC_HEAP) || !recorded_caller(caller) ||
        (!l && !(l = scorep_location_get())) || l->finished || !scorep_location_recording(l) ||
        (r = region(f)) == SCOREP_INVALID_ID) {
        scorep_memory_guard--;
        return false;
    }
    if (in & MEM_IN_SIZE)
        scorep_event_attr(l, r, true, BUF_ATTR_ALLOCATION_SIZE, size);
    if (in & MEM_IN_ADDR)
        scorep_event_attr(l, r, true, BUF_ATTR_ARGUMENT_ADDRESS, (uintptr_t)addr);
    if (in & MEM_IN_DSIZE)
        scorep_event_attr(l, r, true, BUF_ATTR_DEALLOCATION_SIZE, size);
    scorep_event_enter(l, r);
    c->l = l;
    c->region = r;
    return true;
}

void scorep_mem_out(const scorep_mem_call *c, buf_attr k, uint64_t v)
{
    if (c->l)
        scorep_event_attr(c->l, c->region, false, k, v);
}

void scorep_mem_leave(scorep_mem_call *c)
{
    if (!c->l)
        return;
    scorep_event_leave(c->l, c->region);
    c->l = NULL;
    scorep_memory_guard--;
}

void scorep_mem_forget(void *p)
{
    if (!p || !scorep_measurement_on() || !scorep_cfg.memory_recording)
        return;
    scorep_memory_guard++;
    if (scorep_memory_recording(SCOREP_ALLOC_HEAP))
        scorep_memory_free(NULL, SCOREP_ALLOC_HEAP, p);
    scorep_memory_guard--;
}
