/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_hbw.c: memkind's high-bandwidth-memory allocator (hbwmalloc.h) in libscorep-rt-memory:
 * hbw_malloc, hbw_calloc, hbw_realloc, hbw_free, hbw_posix_memalign and
 * hbw_posix_memalign_psize, recorded like malloc & co. (the same regions of paradigm
 * memory under Score-P's names and roles, attributes, metrics and leak report; the blocks
 * count in the process's heap). Defined here, they interpose libmemkind's when the adapter
 * comes first (scorep-run preloads it; scorep-cc links it before a -lmemkind of the
 * command). The real functions are looked up with dlsym, so neither the adapter nor the
 * runtime depends on libmemkind: a program without it never calls these. A program linked
 * with the static libmemkind.a defines hbw_* itself: scorep-cc wraps its calls then
 * (-Wl,--wrap=hbw_*, memory_hbw_wrap.c), which come to the scorep_memory_hbw_*_with
 * functions below with memkind's own function. */
#include "adapters/memory/memory_hbw_wrap.h"
#include "adapters/memory/memory_wrappers.h"
#include "base/log.h"

#include <errno.h>

typedef void *(*hbw_malloc_fn)(size_t);
typedef void *(*hbw_calloc_fn)(size_t, size_t);
typedef void *(*hbw_realloc_fn)(void *, size_t);
typedef void (*hbw_free_fn)(void *);
typedef int (*hbw_memalign_fn)(void **, size_t, size_t);
/* the last parameter is memkind's enum hbw_pagesize_t, an int */
typedef int (*hbw_memalign_psize_fn)(void **, size_t, size_t, int);

#define CALLER __builtin_return_address(0)

/* The real function, resolved now if the constructor did not find it (libmemkind came with
 * a library loaded later); NULL: the program linked these wrappers without libmemkind. */
static __attribute__((noinline, cold)) void *resolve(scorep_mem_func f)
{
    static int said;
    scorep_memory_guard++;
    scorep_mem_resolve();
    void *fn = __atomic_load_n(&scorep_mem_real[f], __ATOMIC_ACQUIRE);
    /* the program was linked against the adapter's hbw_* without libmemkind: say so once
     * (the calls fail, as an allocator without memory would) */
    if (!fn && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        scorep_warn("memory recording: the program calls memkind's hbw_* but libmemkind is not "
                    "loaded (link it with -lmemkind): hbw_* allocations fail with ENOSYS");
    scorep_memory_guard--;
    return fn;
}

static inline void *real(scorep_mem_func f)
{
    void *fn = __atomic_load_n(&scorep_mem_real[f], __ATOMIC_ACQUIRE);
    return __builtin_expect(fn != NULL, 1) ? fn : resolve(f);
}

/* hbw_malloc and hbw_free, the hot pair: what may be recorded out of line, so that
 * forwarding is a few loads, compares and a tail call (as malloc's, memory_libc.c) */
static __attribute__((noinline)) void *hbw_malloc_slow(hbw_malloc_fn fn, size_t n,
                                                       const void *caller)
{
    scorep_mem_call c;
    if (!scorep_mem_enter(&c, MEM_HBW_MALLOC, caller, MEM_IN_SIZE, n, NULL))
        return fn(n);
    void *p = fn(n);
    scorep_mem_allocated(&c, p, n);
    return p;
}

static inline __attribute__((always_inline)) void *malloc_with(hbw_malloc_fn fn, size_t n,
                                                                const void *caller)
{
    if (__builtin_expect(!fn, 0)) {
        errno = ENOSYS;
        return NULL;
    }
    if (__builtin_expect(!scorep_mem_maybe(), 1))
        return fn(n);
    return hbw_malloc_slow(fn, n, caller);
}

static inline __attribute__((always_inline)) void *calloc_with(hbw_calloc_fn fn, size_t n,
                                                                size_t size, const void *caller)
{
    if (!fn) {
        errno = ENOSYS;
        return NULL;
    }
    /* n * size, as Score-P records calloc's */
    uint64_t bytes = (uint64_t)n * size;
    scorep_mem_call c;
    if (__builtin_expect(!scorep_mem_maybe(), 1) ||
        !scorep_mem_enter(&c, MEM_HBW_CALLOC, caller, MEM_IN_SIZE, bytes, NULL))
        return fn(n, size);
    void *p = fn(n, size);
    scorep_mem_allocated(&c, p, bytes);
    return p;
}

static inline __attribute__((always_inline)) void *realloc_with(hbw_realloc_fn fn, void *old,
                                                                 size_t n, const void *caller)
{
    if (!fn) {
        errno = ENOSYS;
        return NULL;
    }
    scorep_mem_call c;
    if (__builtin_expect(!scorep_mem_maybe(), 1) ||
        !scorep_mem_enter(&c, MEM_HBW_REALLOC, caller, MEM_IN_SIZE | MEM_IN_ADDR, n, old)) {
        scorep_mem_forget_unrecorded(old);
        return fn(old, n);
    }
    void *p = fn(old, n);
    scorep_mem_reallocated(&c, old, p, n);
    return p;
}

static __attribute__((noinline)) void hbw_free_slow(hbw_free_fn fn, void *p, const void *caller)
{
    scorep_mem_call c;
    if (!scorep_mem_enter(&c, MEM_HBW_FREE, caller, MEM_IN_ADDR, 0, p)) {
        scorep_mem_forget_unrecorded(p);
        fn(p);
        return;
    }
    /* forget first: once freed, another thread may get the same address */
    uint64_t size = scorep_memory_free(c.l, SCOREP_ALLOC_HEAP, p);
    fn(p);
    scorep_mem_out(&c, BUF_ATTR_DEALLOCATION_SIZE, size);
    scorep_mem_leave(&c);
}

static inline __attribute__((always_inline)) void free_with(hbw_free_fn fn, void *p,
                                                             const void *caller)
{
    if (__builtin_expect(!fn, 0))
        return; /* nothing can have come from a memkind that is not there */
    if (__builtin_expect(!scorep_mem_maybe(), 1)) {
        scorep_mem_forget_unrecorded(p);
        fn(p);
        return;
    }
    hbw_free_slow(fn, p, caller);
}

static inline __attribute__((always_inline)) int memalign_with(hbw_memalign_fn fn, void **out,
                                                                size_t align, size_t n,
                                                                const void *caller)
{
    if (!fn)
        return ENOSYS;
    scorep_mem_call c;
    if (__builtin_expect(!scorep_mem_maybe(), 1) ||
        !scorep_mem_enter(&c, MEM_HBW_POSIX_MEMALIGN, caller, MEM_IN_SIZE, n, NULL))
        return fn(out, align, n);
    int rc = fn(out, align, n);
    scorep_mem_allocated(&c, rc == 0 ? *out : NULL, n); /* *out is unchanged on failure */
    return rc;
}

static inline __attribute__((always_inline)) int
memalign_psize_with(hbw_memalign_psize_fn fn, void **out, size_t align, size_t n, int pagesize,
                    const void *caller)
{
    if (!fn)
        return ENOSYS;
    scorep_mem_call c;
    if (__builtin_expect(!scorep_mem_maybe(), 1) ||
        !scorep_mem_enter(&c, MEM_HBW_POSIX_MEMALIGN_PSIZE, caller, MEM_IN_SIZE, n, NULL))
        return fn(out, align, n, pagesize);
    int rc = fn(out, align, n, pagesize);
    scorep_mem_allocated(&c, rc == 0 ? *out : NULL, n);
    return rc;
}

/* the interposing definitions: memkind's shared library's functions (dlsym). hbw_malloc and
 * hbw_free spell their forwarding out: the return address read only on the recording path,
 * they stay a few loads, compares and a tail call (with malloc_with GCC keeps it in a saved
 * register across the cold resolve, a push, a pop and a frame more per call). */
void *hbw_malloc(size_t n)
{
    hbw_malloc_fn fn = (hbw_malloc_fn)real(MEM_HBW_MALLOC);
    if (__builtin_expect(!fn, 0)) {
        errno = ENOSYS;
        return NULL;
    }
    if (__builtin_expect(!scorep_mem_maybe(), 1))
        return fn(n);
    return hbw_malloc_slow(fn, n, CALLER);
}

void *hbw_calloc(size_t n, size_t size)
{
    return calloc_with((hbw_calloc_fn)real(MEM_HBW_CALLOC), n, size, CALLER);
}

void *hbw_realloc(void *old, size_t n)
{
    return realloc_with((hbw_realloc_fn)real(MEM_HBW_REALLOC), old, n, CALLER);
}

/* free_with's body again: calling it with CALLER costs the fast path a push, a pop and a
 * load of the return address (objdump, session 23), so the caller is read in the slow call */
void hbw_free(void *p)
{
    hbw_free_fn fn = (hbw_free_fn)real(MEM_HBW_FREE);
    if (__builtin_expect(!fn, 0))
        return; /* nothing can have come from a memkind that is not there */
    if (__builtin_expect(!scorep_mem_maybe(), 1)) {
        scorep_mem_forget_unrecorded(p);
        fn(p);
        return;
    }
    hbw_free_slow(fn, p, CALLER);
}

int hbw_posix_memalign(void **out, size_t align, size_t n)
{
    return memalign_with((hbw_memalign_fn)real(MEM_HBW_POSIX_MEMALIGN), out, align, n, CALLER);
}

int hbw_posix_memalign_psize(void **out, size_t align, size_t n, int pagesize)
{
    return memalign_psize_with((hbw_memalign_psize_fn)real(MEM_HBW_POSIX_MEMALIGN_PSIZE), out,
                               align, n, pagesize, CALLER);
}

/* the wrapped calls of a program with the static libmemkind.a (memory_hbw_wrap.c): its own
 * memkind functions, the caller the program's */
void *scorep_memory_hbw_malloc_with(void *(*fn)(size_t), size_t n, const void *caller)
{
    return malloc_with(fn, n, caller);
}

void *scorep_memory_hbw_calloc_with(void *(*fn)(size_t, size_t), size_t n, size_t size,
                                    const void *caller)
{
    return calloc_with(fn, n, size, caller);
}

void *scorep_memory_hbw_realloc_with(void *(*fn)(void *, size_t), void *old, size_t n,
                                     const void *caller)
{
    return realloc_with(fn, old, n, caller);
}

void scorep_memory_hbw_free_with(void (*fn)(void *), void *p, const void *caller)
{
    free_with(fn, p, caller);
}

int scorep_memory_hbw_posix_memalign_with(int (*fn)(void **, size_t, size_t), void **out,
                                          size_t align, size_t n, const void *caller)
{
    return memalign_with(fn, out, align, n, caller);
}

int scorep_memory_hbw_posix_memalign_psize_with(int (*fn)(void **, size_t, size_t, int),
                                                void **out, size_t align, size_t n, int pagesize,
                                                const void *caller)
{
    return memalign_psize_with(fn, out, align, n, pagesize, caller);
}
