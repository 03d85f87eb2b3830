/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_target.c: OpenMP target offload through LLVM's libomptarget (libscorep-rt-omptarget).
 * LLVM 14's libomptarget reports nothing to OMPT tools (no ompt_callback_target, no device
 * tracing), so the adapter interposes two layers:
 * - the compiler's entry points (__tgt_target_mapper, __tgt_target_data_begin_mapper, ...):
 *   the construct as a region on the encountering thread ("!$omp target @f.c:12");
 * - the device plugin's functions (__tgt_rtl_run_target_region, __tgt_rtl_data_submit,
 *   __tgt_rtl_data_retrieve, ...), which libomptarget finds with dlsym(plugin handle) and
 *   the adapter hands out in place of the plugin's (omp_target_hook.c): the kernel and every
 *   transfer libomptarget really makes, on one location per device, transfers as RMA
 *   records on the CUDA adapter's window, as CUDA's memcpys.
 * Each host thread's work on a device goes to a location of its own (a stream of the
 * device): no lock on the way. */
#include "adapters/omp/omp_target.h"
#include "core/events.h"
#include "core/events_mpi.h"
#include "symbols/symbols.h"
#include "trace/trace_otf2.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define API __attribute__((visibility("default")))

/* the compiler's source location (kmp.h's ident_t): psource is ";file;function;line;column;;"
 * with debug information, ";unknown;unknown;0;0;;" without */
typedef struct ident {
    int32_t reserved_1, flags, reserved_2, reserved_3;
    const char *psource;
} ident_t;

/* ----------------------------------------------------------- host regions */
typedef enum {
    TGT_TARGET,
    TGT_DATA_BEGIN,
    TGT_DATA_END,
    TGT_UPDATE,
    TGT_KINDS
} tgt_kind;

/* Score-P's construct names: "!$omp <construct> @file:line" */
static const char *const kind_names[TGT_KINDS] = {"!$omp target", "!$omp target enter data",
                                                  "!$omp target exit data", "!$omp target update"};

/* (code pointer, kind) -> region: open addressing, keys published by a release store, read
 * without a lock; 4096 places for a program's target constructs, the rest gets one region
 * per kind without a position. */
#define SITES 4096u
static struct {
    uint64_t key;
    uint32_t region;
} sites[SITES];
static uint32_t n_sites, unpositioned[TGT_KINDS]; /* id + 1 */
static pthread_mutex_t define_lock = PTHREAD_MUTEX_INITIALIZER;

/* The construct's file and line from clang's source location: 0 when it has none. The
 * call's own line is not the construct's where the body starts with a nested construct (clang
 * 14 gives the call of `#pragma omp target` + `{ #pragma omp parallel ... }` the parallel's
 * line); the location names the pragma, as the kernel's name (_l<line>) does. */
static int ident_site(const ident_t *loc, char **file, int *line)
{
    if (!loc || !loc->psource || loc->psource[0] != ';')
        return 0;
    const char *f = loc->psource + 1, *fn = strchr(f, ';');
    const char *ln = fn ? strchr(fn + 1, ';') : NULL;
    if (!fn || !ln || fn == f || (fn - f == 7 && strncmp(f, "unknown", 7) == 0))
        return 0;
    char *end;
    long l = strtol(ln + 1, &end, 10);
    if (l <= 0 || l > 1 << 30 || *end != ';')
        return 0;
    *file = strndup(f, (size_t)(fn - f));
    if (!*file)
        return 0;
    *line = (int)l;
    return 1;
}

static uint32_t define_site(tgt_kind kind, const void *codeptr, const ident_t *loc)
{
    char name[512], *file = NULL;
    int line = 0;
    if (ident_site(loc, &file, &line) ||
        (codeptr && scorep_symbols_resolve_line((uintptr_t)codeptr - 1, &file, &line) == 0)) {
        const char *base = strrchr(file, '/');
        snprintf(name, sizeof name, "%s @%s:%d", kind_names[kind], base ? base + 1 : file, line);
    } else if (codeptr) {
        char where[256]; /* object+offset: the same on every rank (omp_regions.c) */
        scorep_symbols_object_offset((uintptr_t)codeptr, where, sizeof where);
        snprintf(name, sizeof name, "%s @%s", kind_names[kind], where);
    } else {
        snprintf(name, sizeof name, "%s", kind_names[kind]);
    }
    uint32_t r = scorep_defs_region(name, name, file, line, line, SCOREP_PARADIGM_OPENMP,
                                    SCOREP_ROLE_CODE);
    free(file);
    return r;
}

static uint32_t site_region(tgt_kind kind, const void *codeptr, const ident_t *loc)
{
    uint64_t key = (uint64_t)(uintptr_t)codeptr << 8 | (uint64_t)(kind + 1);
    uint32_t i = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 52) & (SITES - 1);
    for (uint32_t n = 0; n < SITES; n++, i = (i + 1) & (SITES - 1)) {
        uint64_t k = __atomic_load_n(&sites[i].key, __ATOMIC_ACQUIRE);
        if (k == key)
            return sites[i].region;
        if (k == 0)
            break;
    }
    pthread_mutex_lock(&define_lock);
    uint32_t r = SCOREP_INVALID_ID;
    for (uint32_t n = 0; n < SITES; n++, i = (i + 1) & (SITES - 1)) {
        if (sites[i].key == key) {
            r = sites[i].region;
            break;
        }
        if (sites[i].key == 0 && 2 * (n_sites + 1) <= SITES) {
            r = define_site(kind, codeptr, loc);
            if (r != SCOREP_INVALID_ID) {
                sites[i].region = r;
                __atomic_store_n(&sites[i].key, key, __ATOMIC_RELEASE);
                n_sites++;
            }
            break;
        }
        if (sites[i].key == 0) { /* half full: no more positions */
            if (!unpositioned[kind])
                unpositioned[kind] = define_site(kind, NULL, NULL) + 1;
            r = unpositioned[kind] - 1;
            break;
        }
    }
    pthread_mutex_unlock(&define_lock);
    return r;
}

/* ------------------------------------------------------ kernel names */
/* The program's target regions, from __tgt_register_lib: host id (entry addr) -> name. A
 * program registers one table per image at start; a few tables are kept. */
#define MAX_TABLES 16
static struct {
    const omp_tgt_entry *begin, *end;
    uint32_t *regions; /* per entry: kernel region id + 1, 0 = not defined yet */
} tables[MAX_TABLES];
static uint32_t n_tables; /* published with a release store */

static void add_table(const omp_tgt_bin_desc *desc)
{
    if (!desc || desc->host_entries_begin >= desc->host_entries_end)
        return;
    pthread_mutex_lock(&define_lock);
    uint32_t n = n_tables;
    if (n < MAX_TABLES) {
        size_t count = (size_t)(desc->host_entries_end - desc->host_entries_begin);
        uint32_t *regions = calloc(count, sizeof *regions);
        if (regions) {
            tables[n].begin = desc->host_entries_begin;
            tables[n].end = desc->host_entries_end;
            tables[n].regions = regions;
            __atomic_store_n(&n_tables, n + 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&define_lock);
}

static uint32_t named_kernel(const char *name)
{
    return scorep_defs_region(name, name, NULL, 0, 0, SCOREP_PARADIGM_OPENMP,
                              SCOREP_ROLE_FUNCTION);
}

/* The kernel region of the target region with host id `host_ptr`: named as the offload
 * entry (__omp_offloading_<device>_<file>_<function>_l<line>). */
static uint32_t kernel_region(const void *host_ptr)
{
    uint32_t n = __atomic_load_n(&n_tables, __ATOMIC_ACQUIRE);
    for (uint32_t t = 0; t < n; t++)
        for (const omp_tgt_entry *e = tables[t].begin; e < tables[t].end; e++) {
            if (e->addr != host_ptr)
                continue;
            uint32_t *slot = &tables[t].regions[e - tables[t].begin];
            uint32_t r = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
            if (r)
                return r - 1;
            pthread_mutex_lock(&define_lock);
            if (!*slot && e->name) {
                uint32_t id = named_kernel(e->name);
                if (id != SCOREP_INVALID_ID)
                    __atomic_store_n(slot, id + 1, __ATOMIC_RELEASE);
            }
            r = *slot;
            pthread_mutex_unlock(&define_lock);
            return r ? r - 1 : SCOREP_INVALID_ID;
        }
    return SCOREP_INVALID_ID;
}

static uint32_t fixed_region(uint32_t *slot, const char *name, scorep_role role)
{
    uint32_t r = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (r)
        return r - 1;
    pthread_mutex_lock(&define_lock);
    if (!*slot) {
        uint32_t id = scorep_defs_region(name, name, NULL, 0, 0, SCOREP_PARADIGM_OPENMP, role);
        if (id != SCOREP_INVALID_ID)
            __atomic_store_n(slot, id + 1, __ATOMIC_RELEASE);
    }
    r = *slot;
    pthread_mutex_unlock(&define_lock);
    return r ? r - 1 : SCOREP_INVALID_ID;
}

/* ------------------------------------------------------- per-thread state */
/* What the encountering thread is inside of: the device and kernel of its construct, for the
 * plugin calls made on its behalf. depth > 0: inside a wrapped entry point (libomptarget's
 * own entry points call each other: only the outermost is a region). */
static __thread struct {
    int depth;
    int64_t device;  /* the construct's device number, -1: the plugin's device id */
    uint32_t kernel; /* its kernel region, SCOREP_INVALID_ID: not known */
} cur = {0, -1, SCOREP_INVALID_ID};

typedef struct {
    scorep_location *l; /* NULL: not recorded */
    uint32_t region;
    int64_t device;
    uint32_t kernel;
} frame;

static void begin(frame *f, tgt_kind kind, int64_t device, const void *host_ptr,
                  const void *codeptr, const ident_t *loc)
{
    f->l = NULL;
    f->device = cur.device;
    f->kernel = cur.kernel;
    if (cur.depth++ > 0 || !scorep_measurement_on())
        return;
    cur.device = device;
    cur.kernel = kind == TGT_TARGET ? kernel_region(host_ptr) : SCOREP_INVALID_ID;
    scorep_location *l = scorep_location_get();
    uint32_t r = l ? site_region(kind, codeptr, loc) : SCOREP_INVALID_ID;
    if (r == SCOREP_INVALID_ID)
        return;
    f->l = l;
    f->region = r;
    scorep_event_enter(l, r);
}

static void end(frame *f)
{
    if (f->l)
        scorep_event_leave(f->l, f->region);
    if (--cur.depth == 0) {
        cur.device = f->device;
        cur.kernel = f->kernel;
    }
}

/* Host fallback of clang's code: when the offload fails (no device, OMP_TARGET_OFFLOAD=
 * DISABLED) the entry point returns non-zero and the compiler's code calls the region's host
 * version after it, outside the wrapper. scorep-cc's LLVM plugin brackets that call:
 * scorep_rt_target_fallback_arm() before the entry point, scorep_rt_target_fallback_done()
 * after the host version. An armed target construct whose offload fails keeps its
 * "!$omp target" region open until done, so the body (its teams, parallel regions) runs
 * inside it, as gcc's host fallback does inside GOMP_target_ext. Unarmed (a build without
 * the plugin, scorep-run) the region ends at the entry point's return and the body follows. */
static __thread int fallback_armed;
enum { FALLBACK_MAX = 8 }; /* deeper (a fallback inside a fallback's task): regions end at once */
static __thread struct {
    scorep_location *l; /* NULL: nothing to end */
    uint32_t region;
} fallback[FALLBACK_MAX];
static __thread unsigned fallback_depth;

API void scorep_rt_target_fallback_arm(void);
void scorep_rt_target_fallback_arm(void)
{
    fallback_armed = 1;
}

API void scorep_rt_target_fallback_done(void);
void scorep_rt_target_fallback_done(void)
{
    if (fallback_depth == 0) /* armed around an entry point that was not interposed */
        return;
    if (--fallback_depth < FALLBACK_MAX && fallback[fallback_depth].l)
        scorep_event_leave(fallback[fallback_depth].l, fallback[fallback_depth].region);
}

/* begin() for a target construct: takes the arm set just before the call */
static int begin_target(frame *f, int64_t device, const void *host_ptr, const void *codeptr,
                        const ident_t *loc)
{
    int armed = fallback_armed;
    fallback_armed = 0;
    begin(f, TGT_TARGET, device, host_ptr, codeptr, loc);
    return armed;
}

/* end() for a target construct: rc != 0 of an armed one is a host fallback to come, which
 * scorep_rt_target_fallback_done() ends (every armed call is followed by it on failure) */
static void end_target(frame *f, int armed, int rc)
{
    if (armed && rc != 0) {
        if (fallback_depth < FALLBACK_MAX) {
            fallback[fallback_depth].l = f->l;
            fallback[fallback_depth].region = f->region;
            f->l = NULL;
        }
        fallback_depth++;
    }
    end(f);
}

/* ---------------------------------------------------------- entry points */
static void *next_fn(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p)
        fprintf(stderr, "scorep-rt: %s not found after the target-offload adapter\n", name);
    return p;
}

/* var: libomptarget's function `name`, looked up once (threads racing store the same value);
 * a program calls only what its libomptarget has, so a missing one is fatal */
#define NEXT(var, name)                                                                           \
    static __typeof__(name) *var##_cache;                                                         \
    __typeof__(name) *var = __atomic_load_n(&var##_cache, __ATOMIC_RELAXED);                      \
    if (!var) {                                                                                   \
        var = (__typeof__(name) *)next_fn(#name);                                                 \
        if (!var)                                                                                 \
            abort();                                                                              \
        __atomic_store_n(&var##_cache, var, __ATOMIC_RELAXED);                                    \
    }

static void hook_plugins(void);

API int __tgt_register_lib(omp_tgt_bin_desc *desc);
int __tgt_register_lib(omp_tgt_bin_desc *desc)
{
    NEXT(real, __tgt_register_lib);
    add_table(desc);
    hook_plugins(); /* libomptarget loads its plugins in here (first call) */
    return real(desc);
}

#define TARGET_ARGS                                                                               \
    ident_t *loc, int64_t device_id, void *host_ptr, int32_t arg_num, void **args_base,            \
        void **args, int64_t *arg_sizes, int64_t *arg_types, void **arg_names, void **arg_mappers
#define TARGET_PASS                                                                               \
    loc, device_id, host_ptr, arg_num, args_base, args, arg_sizes, arg_types, arg_names, arg_mappers
#define DATA_ARGS                                                                                 \
    ident_t *loc, int64_t device_id, int32_t arg_num, void **args_base, void **args,               \
        int64_t *arg_sizes, int64_t *arg_types, void **arg_names, void **arg_mappers
#define DATA_PASS                                                                                 \
    loc, device_id, arg_num, args_base, args, arg_sizes, arg_types, arg_names, arg_mappers
#define DEPS_ARGS int32_t dep_num, void *dep_list, int32_t noalias_num, void *noalias_list
#define DEPS_PASS dep_num, dep_list, noalias_num, noalias_list

API int __tgt_target_mapper(TARGET_ARGS);
int __tgt_target_mapper(TARGET_ARGS)
{
    NEXT(real, __tgt_target_mapper);
    frame f;
    int armed = begin_target(&f, device_id, host_ptr, __builtin_return_address(0), loc);
    int rc = real(TARGET_PASS);
    end_target(&f, armed, rc);
    return rc;
}

API int __tgt_target_nowait_mapper(TARGET_ARGS, DEPS_ARGS);
int __tgt_target_nowait_mapper(TARGET_ARGS, DEPS_ARGS)
{
    NEXT(real, __tgt_target_nowait_mapper);
    frame f;
    int armed = begin_target(&f, device_id, host_ptr, __builtin_return_address(0), loc);
    int rc = real(TARGET_PASS, DEPS_PASS);
    end_target(&f, armed, rc);
    return rc;
}

API int __tgt_target_teams_mapper(TARGET_ARGS, int32_t num_teams, int32_t thread_limit);
int __tgt_target_teams_mapper(TARGET_ARGS, int32_t num_teams, int32_t thread_limit)
{
    NEXT(real, __tgt_target_teams_mapper);
    frame f;
    int armed = begin_target(&f, device_id, host_ptr, __builtin_return_address(0), loc);
    int rc = real(TARGET_PASS, num_teams, thread_limit);
    end_target(&f, armed, rc);
    return rc;
}

API int __tgt_target_teams_nowait_mapper(TARGET_ARGS, int32_t num_teams, int32_t thread_limit,
                                         DEPS_ARGS);
int __tgt_target_teams_nowait_mapper(TARGET_ARGS, int32_t num_teams, int32_t thread_limit,
                                     DEPS_ARGS)
{
    NEXT(real, __tgt_target_teams_nowait_mapper);
    frame f;
    int armed = begin_target(&f, device_id, host_ptr, __builtin_return_address(0), loc);
    int rc = real(TARGET_PASS, num_teams, thread_limit, DEPS_PASS);
    end_target(&f, armed, rc);
    return rc;
}

/* LLVM 15 and later: one entry point for all target constructs; the kernel arguments (a
 * struct whose layout changed between releases) are passed on untouched. Not available in
 * LLVM 14 (the version tested): untested. */
API int __tgt_target_kernel(ident_t *loc, int64_t device_id, int32_t num_teams,
                            int32_t thread_limit, void *host_ptr, void *kernel_args);
int __tgt_target_kernel(ident_t *loc, int64_t device_id, int32_t num_teams, int32_t thread_limit,
                        void *host_ptr, void *kernel_args)
{
    NEXT(real, __tgt_target_kernel);
    frame f;
    int armed = begin_target(&f, device_id, host_ptr, __builtin_return_address(0), loc);
    int rc = real(loc, device_id, num_teams, thread_limit, host_ptr, kernel_args);
    end_target(&f, armed, rc);
    return rc;
}

/* The data constructs: enter data and the begin of a target data region are both
 * data_begin; exit data and the end of a target data region both data_end. */
#define DATA_NOWAIT_WRAPPER(fn, kind)                                                             \
    void fn(DATA_ARGS, DEPS_ARGS)                                                                 \
    {                                                                                             \
        NEXT(real, fn);                                                                           \
        frame f;                                                                                  \
        begin(&f, kind, device_id, NULL, __builtin_return_address(0), loc);                      \
        real(DATA_PASS, DEPS_PASS);                                                               \
        end(&f);                                                                                  \
    }

API void __tgt_target_data_begin_mapper(DATA_ARGS);
API void __tgt_target_data_end_mapper(DATA_ARGS);
API void __tgt_target_data_update_mapper(DATA_ARGS);
API void __tgt_target_data_begin_nowait_mapper(DATA_ARGS, DEPS_ARGS);
API void __tgt_target_data_end_nowait_mapper(DATA_ARGS, DEPS_ARGS);
API void __tgt_target_data_update_nowait_mapper(DATA_ARGS, DEPS_ARGS);
DATA_NOWAIT_WRAPPER(__tgt_target_data_begin_nowait_mapper, TGT_DATA_BEGIN)
DATA_NOWAIT_WRAPPER(__tgt_target_data_end_nowait_mapper, TGT_DATA_END)
DATA_NOWAIT_WRAPPER(__tgt_target_data_update_nowait_mapper, TGT_UPDATE)

void __tgt_target_data_begin_mapper(DATA_ARGS)
{
    NEXT(real, __tgt_target_data_begin_mapper);
    frame f;
    begin(&f, TGT_DATA_BEGIN, device_id, NULL, __builtin_return_address(0), loc);
    real(DATA_PASS);
    end(&f);
}

void __tgt_target_data_end_mapper(DATA_ARGS)
{
    NEXT(real, __tgt_target_data_end_mapper);
    frame f;
    begin(&f, TGT_DATA_END, device_id, NULL, __builtin_return_address(0), loc);
    real(DATA_PASS);
    end(&f);
}

void __tgt_target_data_update_mapper(DATA_ARGS)
{
    NEXT(real, __tgt_target_data_update_mapper);
    frame f;
    begin(&f, TGT_UPDATE, device_id, NULL, __builtin_return_address(0), loc);
    real(DATA_PASS);
    end(&f);
}

/* ------------------------------------------------------- device locations */
/* One location per (device, host thread that drives it), OMPT[device:0:stream] with the
 * streams of a device numbered in the order the threads first use it (the CUDA adapter's
 * CUDA[device:context:stream]). Plugin calls are synchronous for the host plugin, so work
 * that host threads offload at the same time overlaps on the device: each thread's stays
 * on a location of its own, written by that thread only, with no lock. */
#define MAX_DEVICES 64
static __thread scorep_location *my_stream[MAX_DEVICES];
static uint32_t n_streams[MAX_DEVICES]; /* under define_lock */
static uint64_t next_transfer = 1;      /* RMA matching ids (atomic) */

/* NULL when not recorded (measurement off, device number out of range, no memory) */
static scorep_location *device_location(int64_t device)
{
    if (!scorep_measurement_on() || device < 0 || device >= MAX_DEVICES)
        return NULL;
    if (__builtin_expect(my_stream[device] != NULL, 1))
        return my_stream[device];
    if (!scorep_location_get()) /* the host thread's first: starts the measurement */
        return NULL;
    char name[48];
    pthread_mutex_lock(&define_lock);
    snprintf(name, sizeof name, "OMPT[%d:0:%u]", (int)device, n_streams[device]);
    scorep_location *l = scorep_location_create_gpu(name, scorep_timer_ticks() - 1);
    n_streams[device] += l != NULL;
    pthread_mutex_unlock(&define_lock);
    return my_stream[device] = l;
}

/* the construct's device when the call comes from one, else the plugin's device id */
static int64_t device_of(int32_t plugin_id)
{
    return cur.depth > 0 && cur.device >= 0 ? cur.device : plugin_id;
}

typedef enum { XFER_HTOD, XFER_DTOH, XFER_DTOD, XFER_KINDS } xfer_kind;

/* A transfer on the device's location: host to device is an RmaGet (the device gets from
 * the host), device to host an RmaPut, as the CUDA adapter writes CUDA's memcpys; the host
 * is rank 0 of the CUDA communicator (the process's master thread). */
static uint32_t transfer_begin(scorep_location *l, xfer_kind kind, int64_t bytes, uint64_t *id)
{
    static const char *const names[XFER_KINDS] = {"!$omp target memcpy HtoD",
                                                  "!$omp target memcpy DtoH",
                                                  "!$omp target memcpy DtoD"};
    static uint32_t regions[XFER_KINDS];
    uint32_t r = fixed_region(&regions[kind], names[kind], SCOREP_ROLE_RMA);
    *id = __atomic_fetch_add(&next_transfer, 1, __ATOMIC_RELAXED);
    if (r == SCOREP_INVALID_ID)
        return r;
    scorep_event_enter(l, r);
    if (kind == XFER_HTOD)
        scorep_event_rma_get(l, SCOREP_CUDA_WINDOW, 0, (uint64_t)bytes, *id);
    else if (kind == XFER_DTOH)
        scorep_event_rma_put(l, SCOREP_CUDA_WINDOW, 0, (uint64_t)bytes, *id);
    return r;
}

static void transfer_end(scorep_location *l, xfer_kind kind, uint32_t region, uint64_t id)
{
    if (region == SCOREP_INVALID_ID)
        return;
    if (kind != XFER_DTOD)
        scorep_event_rma_op_complete_blocking(l, SCOREP_CUDA_WINDOW, id);
    scorep_event_leave(l, region);
}

static uint32_t kernel_of(void *entry)
{
    if (cur.depth > 0 && cur.kernel != SCOREP_INVALID_ID)
        return cur.kernel;
    static uint32_t unnamed;
    Dl_info info; /* the host plugin runs the entry as a function of a loaded library */
    if (entry && dladdr(entry, &info) && info.dli_sname && info.dli_saddr == entry &&
        strncmp(info.dli_sname, "__omp_offloading_", 17) == 0) {
        pthread_mutex_lock(&define_lock);
        uint32_t r = named_kernel(info.dli_sname);
        pthread_mutex_unlock(&define_lock);
        return r;
    }
    return fixed_region(&unnamed, "<unnamed target kernel>", SCOREP_ROLE_FUNCTION);
}

/* ------------------------------------------------------ plugin functions */
/* libomptarget's plugins (x86_64, cuda, amdgpu, ...) are told apart by their dlopen handle:
 * each of PLUGINS slots has its own set of wrappers, the real functions in `real`. */
#define PLUGINS 4
typedef int32_t (*submit_fn)(int32_t, void *, void *, int64_t);
typedef int32_t (*submit_async_fn)(int32_t, void *, void *, int64_t, void *);
typedef int32_t (*exchange_fn)(int32_t, void *, int32_t, void *, int64_t);
typedef int32_t (*exchange_async_fn)(int32_t, void *, int32_t, void *, int64_t, void *);
typedef int32_t (*run_fn)(int32_t, void *, void **, ptrdiff_t *, int32_t);
typedef int32_t (*run_async_fn)(int32_t, void *, void **, ptrdiff_t *, int32_t, void *);
typedef int32_t (*team_fn)(int32_t, void *, void **, ptrdiff_t *, int32_t, int32_t, int32_t,
                           uint64_t);
typedef int32_t (*team_async_fn)(int32_t, void *, void **, ptrdiff_t *, int32_t, int32_t,
                                 int32_t, uint64_t, void *);
static struct {
    void *handle;
    submit_fn submit, retrieve;
    submit_async_fn submit_async, retrieve_async;
    exchange_fn exchange;
    exchange_async_fn exchange_async;
    run_fn run;
    run_async_fn run_async;
    team_fn team;
    team_async_fn team_async;
} real[PLUGINS];
static uint32_t n_plugins;
static uint64_t plugins_unhooked;

/* Transfers and kernels: the call's duration on the device's location. With the host
 * plugin the calls are synchronous (the device's own time); the _async variants (CUDA,
 * AMD) only enqueue: their time is the enqueueing (documented). */
#define XFER(kind, device_id, bytes, call)                                                        \
    do {                                                                                          \
        int64_t dev_ = device_of(device_id);                                                      \
        scorep_location *l_ = device_location(dev_);                                              \
        if (!l_)                                                                                  \
            return call;                                                                          \
        uint64_t id_;                                                                             \
        uint32_t r_ = transfer_begin(l_, kind, bytes, &id_);                                      \
        int32_t rc_ = call;                                                                       \
        transfer_end(l_, kind, r_, id_);                                                            \
        return rc_;                                                                               \
    } while (0)

#define KERNEL(device_id, entry, call)                                                            \
    do {                                                                                          \
        int64_t dev_ = device_of(device_id);                                                      \
        uint32_t r_ = kernel_of(entry);                                                           \
        scorep_location *l_ = r_ != SCOREP_INVALID_ID ? device_location(dev_) : NULL;             \
        if (!l_)                                                                                  \
            return call;                                                                          \
        scorep_event_enter(l_, r_);                                                               \
        int32_t rc_ = call;                                                                       \
        scorep_event_leave(l_, r_);                                                               \
        return rc_;                                                                               \
    } while (0)

#define PLUGIN_WRAPPERS(k)                                                                        \
    static int32_t submit_##k(int32_t id, void *tgt, void *hst, int64_t size)                     \
    {                                                                                             \
        XFER(XFER_HTOD, id, size, real[k].submit(id, tgt, hst, size));                            \
    }                                                                                             \
    static int32_t submit_async_##k(int32_t id, void *tgt, void *hst, int64_t size, void *a)      \
    {                                                                                             \
        XFER(XFER_HTOD, id, size, real[k].submit_async(id, tgt, hst, size, a));                   \
    }                                                                                             \
    static int32_t retrieve_##k(int32_t id, void *hst, void *tgt, int64_t size)                   \
    {                                                                                             \
        XFER(XFER_DTOH, id, size, real[k].retrieve(id, hst, tgt, size));                          \
    }                                                                                             \
    static int32_t retrieve_async_##k(int32_t id, void *hst, void *tgt, int64_t size, void *a)    \
    {                                                                                             \
        XFER(XFER_DTOH, id, size, real[k].retrieve_async(id, hst, tgt, size, a));                 \
    }                                                                                             \
    static int32_t exchange_##k(int32_t src, void *sp, int32_t dst, void *dp, int64_t size)       \
    {                                                                                             \
        XFER(XFER_DTOD, src, size, real[k].exchange(src, sp, dst, dp, size));                     \
    }                                                                                             \
    static int32_t exchange_async_##k(int32_t src, void *sp, int32_t dst, void *dp, int64_t size, \
                                      void *a)                                                    \
    {                                                                                             \
        XFER(XFER_DTOD, src, size, real[k].exchange_async(src, sp, dst, dp, size, a));            \
    }                                                                                             \
    static int32_t run_##k(int32_t id, void *e, void **args, ptrdiff_t *offs, int32_t n)          \
    {                                                                                             \
        KERNEL(id, e, real[k].run(id, e, args, offs, n));                                         \
    }                                                                                             \
    static int32_t run_async_##k(int32_t id, void *e, void **args, ptrdiff_t *offs, int32_t n,    \
                                 void *a)                                                         \
    {                                                                                             \
        KERNEL(id, e, real[k].run_async(id, e, args, offs, n, a));                                \
    }                                                                                             \
    static int32_t team_##k(int32_t id, void *e, void **args, ptrdiff_t *offs, int32_t n,         \
                            int32_t teams, int32_t limit, uint64_t trips)                         \
    {                                                                                             \
        KERNEL(id, e, real[k].team(id, e, args, offs, n, teams, limit, trips));                   \
    }                                                                                             \
    static int32_t team_async_##k(int32_t id, void *e, void **args, ptrdiff_t *offs, int32_t n,   \
                                  int32_t teams, int32_t limit, uint64_t trips, void *a)          \
    {                                                                                             \
        KERNEL(id, e, real[k].team_async(id, e, args, offs, n, teams, limit, trips, a));          \
    }

PLUGIN_WRAPPERS(0)
PLUGIN_WRAPPERS(1)
PLUGIN_WRAPPERS(2)
PLUGIN_WRAPPERS(3)

#define SLOT_TABLE(k)                                                                             \
    {                                                                                             \
        (void *)submit_##k, (void *)submit_async_##k, (void *)retrieve_##k,                       \
            (void *)retrieve_async_##k, (void *)exchange_##k, (void *)exchange_async_##k,         \
            (void *)run_##k, (void *)run_async_##k, (void *)team_##k, (void *)team_async_##k      \
    }
enum { F_SUBMIT, F_SUBMIT_ASYNC, F_RETRIEVE, F_RETRIEVE_ASYNC, F_EXCHANGE, F_EXCHANGE_ASYNC,
       F_RUN, F_RUN_ASYNC, F_TEAM, F_TEAM_ASYNC, F_N };
static const char *const plugin_names[F_N] = {
    "__tgt_rtl_data_submit",     "__tgt_rtl_data_submit_async",
    "__tgt_rtl_data_retrieve",   "__tgt_rtl_data_retrieve_async",
    "__tgt_rtl_data_exchange",   "__tgt_rtl_data_exchange_async",
    "__tgt_rtl_run_target_region", "__tgt_rtl_run_target_region_async",
    "__tgt_rtl_run_target_team_region", "__tgt_rtl_run_target_team_region_async"};
static void *const wrappers[PLUGINS][F_N] = {SLOT_TABLE(0), SLOT_TABLE(1), SLOT_TABLE(2),
                                             SLOT_TABLE(3)};

static void set_real(uint32_t k, int f, void *p)
{
    switch (f) {
    case F_SUBMIT: real[k].submit = (submit_fn)p; break;
    case F_SUBMIT_ASYNC: real[k].submit_async = (submit_async_fn)p; break;
    case F_RETRIEVE: real[k].retrieve = (submit_fn)p; break;
    case F_RETRIEVE_ASYNC: real[k].retrieve_async = (submit_async_fn)p; break;
    case F_EXCHANGE: real[k].exchange = (exchange_fn)p; break;
    case F_EXCHANGE_ASYNC: real[k].exchange_async = (exchange_async_fn)p; break;
    case F_RUN: real[k].run = (run_fn)p; break;
    case F_RUN_ASYNC: real[k].run_async = (run_async_fn)p; break;
    case F_TEAM: real[k].team = (team_fn)p; break;
    default: real[k].team_async = (team_async_fn)p; break;
    }
}

static void *(*real_dlsym)(void *, const char *);

/* libomptarget's dlsym: a plugin function that the adapter records comes back wrapped. Runs
 * while libomptarget loads its plugins, under its own lock. */
static void *omptarget_dlsym(void *handle, const char *name)
{
    void *p = real_dlsym(handle, name);
    if (!p || strncmp(name, "__tgt_rtl_", 10) != 0)
        return p;
    int f = 0;
    while (f < F_N && strcmp(name, plugin_names[f]) != 0)
        f++;
    if (f == F_N)
        return p;
    pthread_mutex_lock(&define_lock);
    uint32_t k = 0;
    while (k < n_plugins && real[k].handle != handle)
        k++;
    if (k == n_plugins && n_plugins < PLUGINS)
        real[n_plugins++].handle = handle;
    if (k < n_plugins)
        set_real(k, f, p);
    else
        plugins_unhooked++;
    pthread_mutex_unlock(&define_lock);
    return k < n_plugins ? wrappers[k][f] : p;
}

/* Points libomptarget's dlsym at omptarget_dlsym, once, before it loads its plugins. */
static void hook_plugins(void)
{
    static int done;
    if (__atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL))
        return;
    Dl_info info;
    void *entry = dlsym(RTLD_NEXT, "__tgt_register_lib");
    if (!entry || !dladdr(entry, &info) || !info.dli_fbase) {
        fprintf(stderr, "scorep-rt: libomptarget not found: target offload not recorded\n");
        return;
    }
    /* libc's dlsym itself, not the old GOT value: with lazy binding that is the PLT's
     * resolver stub, which would write the real address back over the hook */
    real_dlsym = dlsym;
    if (omp_target_patch_import((uintptr_t)info.dli_fbase, "dlsym", (void *)omptarget_dlsym,
                                NULL) <= 0) {
        fprintf(stderr, "scorep-rt: cannot hook %s's plugin lookup: target kernels and "
                        "transfers not recorded\n",
                info.dli_fname);
    }
}

/* before the program's constructors register their offload images */
__attribute__((constructor)) static void omp_target_init(void)
{
    hook_plugins();
}
