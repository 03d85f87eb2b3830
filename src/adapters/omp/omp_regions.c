/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_regions.c: OpenMP construct regions by (code pointer, kind) and lock records by OMPT
 * wait id, in open-addressing tables read without locks (entries are published by a release
 * store of the key; a full table is replaced, never resized in place, and old tables are
 * kept, so readers never see freed memory). Creation is rare and takes a lock. */
#include "symbols/symbols.h"
#include "adapters/omp/omp_adapter.h"
#include "runtime/runtime.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t key; /* 0 = empty */
    uintptr_t value;
} entry;

typedef struct {
    entry *e;
    uint32_t mask, used;
} table;

static inline uint32_t hash64(uint64_t k)
{
    return (uint32_t)((k * 0x9e3779b97f4a7c15ull) >> 40);
}

static int lookup(const table *t, uint64_t key, uintptr_t *value)
{
    if (!t)
        return 0;
    for (uint32_t i = hash64(key) & t->mask;; i = (i + 1) & t->mask) {
        uint64_t k = __atomic_load_n(&t->e[i].key, __ATOMIC_ACQUIRE);
        if (k == key) {
            *value = t->e[i].value;
            return 1;
        }
        if (k == 0)
            return 0;
    }
}

static void put(table *t, uint64_t key, uintptr_t value)
{
    uint32_t i = hash64(key) & t->mask;
    while (t->e[i].key)
        i = (i + 1) & t->mask;
    t->e[i].value = value;
    __atomic_store_n(&t->e[i].key, key, __ATOMIC_RELEASE);
    t->used++;
}

/* Inserts under the caller's lock; replaces the table when half full. -1 when out of memory. */
static int insert(table **tp, uint64_t key, uintptr_t value)
{
    table *old = *tp;
    if (!old || (old->used + 1) * 2 > old->mask + 1) {
        uint32_t cap = old ? (old->mask + 1) * 2 : 1024;
        table *t = malloc(sizeof *t);
        if (!t || !(t->e = calloc(cap, sizeof *t->e))) {
            free(t);
            return -1;
        }
        t->mask = cap - 1;
        t->used = 0;
        for (uint32_t i = 0; old && i <= old->mask; i++)
            if (old->e[i].key)
                put(t, old->e[i].key, old->e[i].value);
        __atomic_store_n(tp, t, __ATOMIC_RELEASE);
    }
    put(*tp, key, value);
    return 0;
}

/* ------------------------------------------------------------------ regions */
/* Names and roles as Score-P's OMPT adapter gives them (Score-P 8.4, scorep_ompt_regions.inc.c:
 * its REGION_OMP_* names and region_fallback types): a worksharing loop is "!$omp for/do" there
 * (C's for and Fortran's do alike), which users' filters and Scalasca's patterns match; the
 * "/" is part of the name, not a call path separator. Scalasca's scout tells critical sections
 * from lock API calls by the roles. taskwait, taskgroup and the
 * explicit barrier are BARRIER there; our analysis and scout classify OpenMP regions by name,
 * so taskgroup's role does not make it a barrier. Score-P has no type for reduction, scope
 * and the target constructs (CODE here) nor for distribute and taskloop (LOOP here). */
static const struct {
    const char *name;
    scorep_role role;
    bool positioned; /* named with the source position of its code pointer */
} kinds[OMP_R_KINDS] = {
    [OMP_R_PARALLEL] = {"!$omp parallel", SCOREP_ROLE_PARALLEL, true},
    [OMP_R_IBARRIER] = {"!$omp implicit barrier", SCOREP_ROLE_IMPLICIT_BARRIER, true},
    [OMP_R_BARRIER] = {"!$omp barrier", SCOREP_ROLE_BARRIER, true},
    [OMP_R_TASKWAIT] = {"!$omp taskwait", SCOREP_ROLE_BARRIER, true},
    [OMP_R_TASKGROUP] = {"!$omp taskgroup", SCOREP_ROLE_BARRIER, true},
    [OMP_R_REDUCTION] = {"!$omp reduction", SCOREP_ROLE_CODE, true},
    [OMP_R_FOR] = {"!$omp for/do", SCOREP_ROLE_LOOP, true},
    [OMP_R_SECTIONS] = {"!$omp sections", SCOREP_ROLE_SECTIONS, true},
    [OMP_R_SECTION] = {"!$omp section", SCOREP_ROLE_SECTION, true},
    [OMP_R_SINGLE] = {"!$omp single", SCOREP_ROLE_SINGLE, true},
    [OMP_R_SINGLE_SBLOCK] = {"!$omp single sblock", SCOREP_ROLE_SINGLE_SBLOCK, true},
    [OMP_R_WORKSHARE] = {"!$omp workshare", SCOREP_ROLE_WORKSHARE, true},
    [OMP_R_DISTRIBUTE] = {"!$omp distribute", SCOREP_ROLE_LOOP, true},
    [OMP_R_TASKLOOP] = {"!$omp taskloop", SCOREP_ROLE_LOOP, true},
    [OMP_R_SCOPE] = {"!$omp scope", SCOREP_ROLE_CODE, true},
    [OMP_R_MASKED] = {"!$omp masked", SCOREP_ROLE_MASTER, true},
    [OMP_R_CRITICAL] = {"!$omp critical", SCOREP_ROLE_CRITICAL, true},
    [OMP_R_CRITICAL_SBLOCK] = {"!$omp critical sblock", SCOREP_ROLE_CRITICAL_SBLOCK, true},
    [OMP_R_ORDERED] = {"!$omp ordered", SCOREP_ROLE_ORDERED, true},
    [OMP_R_ORDERED_SBLOCK] = {"!$omp ordered sblock", SCOREP_ROLE_ORDERED_SBLOCK, true},
    [OMP_R_TASK] = {"!$omp task", SCOREP_ROLE_TASK, true},
    [OMP_R_TASK_UNTIED] = {"!$omp task untied", SCOREP_ROLE_TASK_UNTIED, true},
    [OMP_R_CREATE_TASK] = {"!$omp create task", SCOREP_ROLE_TASK_CREATE, true},
    [OMP_R_FLUSH] = {"!$omp flush", SCOREP_ROLE_FLUSH, true},
    /* named as libscorep-rt-omptarget names libomptarget's (omp_target.c) */
    [OMP_R_TARGET] = {"!$omp target", SCOREP_ROLE_CODE, true},
    [OMP_R_TARGET_ENTER_DATA] = {"!$omp target enter data", SCOREP_ROLE_CODE, true},
    [OMP_R_TARGET_EXIT_DATA] = {"!$omp target exit data", SCOREP_ROLE_CODE, true},
    [OMP_R_TARGET_UPDATE] = {"!$omp target update", SCOREP_ROLE_CODE, true},
    [OMP_R_SET_LOCK] = {"omp_set_lock", SCOREP_ROLE_WRAPPER, false},
    [OMP_R_UNSET_LOCK] = {"omp_unset_lock", SCOREP_ROLE_WRAPPER, false},
    [OMP_R_SET_NEST_LOCK] = {"omp_set_nest_lock", SCOREP_ROLE_WRAPPER, false},
    [OMP_R_UNSET_NEST_LOCK] = {"omp_unset_nest_lock", SCOREP_ROLE_WRAPPER, false},
    [OMP_R_TEST_LOCK] = {"omp_test_lock", SCOREP_ROLE_WRAPPER, false},
    [OMP_R_TEST_NEST_LOCK] = {"omp_test_nest_lock", SCOREP_ROLE_WRAPPER, false},
    [OMP_R_INIT_LOCK] = {"omp_init_lock", SCOREP_ROLE_WRAPPER, false},
    [OMP_R_INIT_LOCK_WITH_HINT] = {"omp_init_lock_with_hint", SCOREP_ROLE_WRAPPER, false},
    [OMP_R_DESTROY_LOCK] = {"omp_destroy_lock", SCOREP_ROLE_WRAPPER, false},
    [OMP_R_INIT_NEST_LOCK] = {"omp_init_nest_lock", SCOREP_ROLE_WRAPPER, false},
    [OMP_R_INIT_NEST_LOCK_WITH_HINT] = {"omp_init_nest_lock_with_hint", SCOREP_ROLE_WRAPPER, false},
    [OMP_R_DESTROY_NEST_LOCK] = {"omp_destroy_nest_lock", SCOREP_ROLE_WRAPPER, false},
};

static table *regions;
static table *locks;
static pthread_mutex_t define_lock = PTHREAD_MUTEX_INITIALIZER;

/* Code pointers are user-space addresses (< 2^56); the kind takes the low byte. */
static uint64_t region_key(omp_region_kind kind, const void *codeptr)
{
    return (uint64_t)(uintptr_t)codeptr << 8 | (uint64_t)(kind + 1);
}

/* "!$omp for/do @file.c:14" with debug information, "!$omp for/do @libx.so+0x1a2b" without. */
static uint32_t define_region(omp_region_kind kind, const void *codeptr)
{
    char name[512];
    char *file = NULL;
    int line = 0;
    if (!kinds[kind].positioned || !codeptr) {
        snprintf(name, sizeof name, "%s", kinds[kind].name);
    } else if (scorep_symbols_resolve_line((uintptr_t)codeptr - 1, &file, &line) == 0) {
        const char *base = strrchr(file, '/');
        snprintf(name, sizeof name, "%s @%s:%d", kinds[kind].name, base ? base + 1 : file, line);
    } else {
        /* Not the absolute address: it differs between ranks (address space randomisation),
         * which would give each rank its own region for one construct. */
        char where[256];
        scorep_symbols_object_offset((uintptr_t)codeptr, where, sizeof where);
        snprintf(name, sizeof name, "%s @%s", kinds[kind].name, where);
    }
    /* Without a source file (the lock API; a construct without a code pointer or line
     * information) the file is "OMP", as Score-P's OMPT adapter names it: Scalasca counts a
     * region as OpenMP by its "!$omp" name or that file, and drops the lock API contention it
     * finds at other regions (OmpPattern::skip_cnode). */
    uint32_t r = scorep_defs_region(name, name, file ? file : "OMP", line, line,
                                    SCOREP_PARADIGM_OPENMP, kinds[kind].role);
    free(file);
    return r;
}

uint32_t omp_region(omp_region_kind kind, const void *codeptr)
{
    codeptr = kinds[kind].positioned ? omp_user_codeptr(codeptr) : NULL;
    uint64_t key = region_key(kind, codeptr);
    uintptr_t v;
    if (lookup(__atomic_load_n(&regions, __ATOMIC_ACQUIRE), key, &v))
        return (uint32_t)v;
    pthread_mutex_lock(&define_lock);
    if (!lookup(regions, key, &v)) {
        v = define_region(kind, codeptr);
        if (v != SCOREP_INVALID_ID && insert(&regions, key, v) != 0)
            v = SCOREP_INVALID_ID;
    }
    pthread_mutex_unlock(&define_lock);
    return (uint32_t)v;
}

/* ------------------------------------------------------- runtime's own code */
uintptr_t omp_rt_lo, omp_rt_hi;
uintptr_t omp_self_lo, omp_self_hi;

/* the span [*lo, *hi) of the loaded segments of the object at base */
typedef struct {
    uintptr_t base, *lo, *hi;
} span_query;

static int object_segments(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    span_query *q = data;
    if (info->dlpi_addr != q->base)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (ph->p_type != PT_LOAD)
            continue;
        if (!*q->hi || lo < *q->lo)
            *q->lo = lo;
        if (hi > *q->hi)
            *q->hi = hi;
    }
    return 1;
}

static void object_span(const void *addr, uintptr_t *lo, uintptr_t *hi)
{
    Dl_info info;
    if (addr && dladdr(addr, &info) && info.dli_fbase) {
        span_query q = {(uintptr_t)info.dli_fbase, lo, hi};
        dl_iterate_phdr(object_segments, &q);
    }
}

void omp_runtime_range_init(void)
{
    object_span(dlsym(RTLD_DEFAULT, "__kmpc_fork_call"), &omp_rt_lo, &omp_rt_hi);
    /* this library: the frames of the OMPT callbacks (omp_parallel.c's barrier code pointer) */
    object_span((const void *)(uintptr_t)omp_runtime_range_init, &omp_self_lo, &omp_self_hi);
}

/* -------------------------------------------------------------------- locks */
omp_lock *omp_lock_of(uint64_t wait_id)
{
    static uint32_t next_id;
    uint64_t key = wait_id ? wait_id : UINT64_MAX;
    uintptr_t v;
    if (lookup(__atomic_load_n(&locks, __ATOMIC_ACQUIRE), key, &v))
        return (omp_lock *)v;
    pthread_mutex_lock(&define_lock);
    omp_lock *l = NULL;
    if (lookup(locks, key, &v)) {
        l = (omp_lock *)v;
    } else if ((l = calloc(1, sizeof *l)) != NULL) {
        l->id = next_id++;
        if (insert(&locks, key, (uintptr_t)l) != 0) {
            free(l);
            l = NULL;
        }
    }
    pthread_mutex_unlock(&define_lock);
    return l;
}
