/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_libc.c: the C library's allocation functions of libscorep-rt-memory: malloc,
 * calloc, realloc, free, memalign, posix_memalign, valloc, aligned_alloc (Score-P's), and
 * reallocarray and pvalloc (not in Score-P), as regions of paradigm memory named as in
 * Score-P, with its trace attributes (ALLOCATION_SIZE and ARGUMENT_ADDRESS on the Enter,
 * RESULT_ADDRESS and DEALLOCATION_SIZE on the Leave). Defined here, they interpose the C library's when
 * the library is linked (scorep-cc) or preloaded (scorep-run); gfortran's ALLOCATE and
 * DEALLOCATE call malloc and free, so they are recorded as those. */
#include "adapters/memory/memory_wrappers.h"

#include <errno.h>
#include <string.h>

typedef void *(*malloc_fn)(size_t);
typedef void *(*calloc_fn)(size_t, size_t);
typedef void *(*realloc_fn)(void *, size_t);
typedef void (*free_fn)(void *);
typedef void *(*memalign_fn)(size_t, size_t);
typedef int (*posix_memalign_fn)(void **, size_t, size_t);
typedef void *(*reallocarray_fn)(void *, size_t, size_t);

#define REAL(e, type) ((type)scorep_mem_real[MEM_##e])
#define CALLER __builtin_return_address(0)

/* Before the constructor resolved them (another library's constructor allocates, or dlsym
 * itself does): resolve now; what dlsym allocates meanwhile comes from the boot arena. */
static __thread int resolving __attribute__((tls_model("initial-exec")));

/* The end of a recorded allocation that returned p (NULL: failed) for n bytes. */
void scorep_mem_allocated(scorep_mem_call *c, void *p, uint64_t n)
{
    scorep_memory_alloc(c->l, SCOREP_ALLOC_HEAP, p, n);
    scorep_mem_out(c, BUF_ATTR_RESULT_ADDRESS, (uintptr_t)p);
    scorep_mem_leave(c);
}

static __attribute__((noinline)) bool resolve_now(scorep_mem_func f)
{
    if (resolving)
        return false;
    resolving = 1;
    scorep_memory_guard++;
    scorep_mem_resolve();
    scorep_memory_guard--;
    resolving = 0;
    return scorep_mem_real[f] != NULL;
}

static inline bool ready(scorep_mem_func f)
{
    return __builtin_expect(scorep_mem_real[f] != NULL, 1) || resolve_now(f);
}

/* malloc and free: what may be recorded out of line, so that forwarding is a few loads,
 * compares and a tail call */
static __attribute__((noinline)) void *malloc_slow(size_t n, const void *caller)
{
    scorep_mem_call c;
    if (!scorep_mem_enter(&c, MEM_MALLOC, caller, MEM_IN_SIZE, n, NULL))
        return REAL(MALLOC, malloc_fn)(n);
    void *p = REAL(MALLOC, malloc_fn)(n);
    scorep_mem_allocated(&c, p, n);
    return p;
}

void *malloc(size_t n)
{
    if (!ready(MEM_MALLOC))
        return scorep_mem_boot_alloc(n, 16);
    if (__builtin_expect(!scorep_mem_maybe(), 1))
        return REAL(MALLOC, malloc_fn)(n);
    return malloc_slow(n, CALLER);
}

void *calloc(size_t n, size_t size)
{
    if (!ready(MEM_CALLOC)) {
        size_t bytes;
        if (__builtin_mul_overflow(n, size, &bytes))
            return NULL;
        return scorep_mem_boot_alloc(bytes, 16); /* static: already zero */
    }
    scorep_mem_call c;
    /* n * size as Score-P records it (an overflowing product fails in calloc) */
    uint64_t bytes = (uint64_t)n * size;
    if (__builtin_expect(!scorep_mem_maybe(), 1) ||
        !scorep_mem_enter(&c, MEM_CALLOC, CALLER, MEM_IN_SIZE, bytes, NULL))
        return REAL(CALLOC, calloc_fn)(n, size);
    void *p = REAL(CALLOC, calloc_fn)(n, size);
    scorep_mem_allocated(&c, p, bytes);
    return p;
}

static void *realloc_boot(void *old, size_t n)
{
    void *p = malloc(n);
    size_t have = scorep_mem_boot_size(old);
    if (p)
        memcpy(p, old, have < n ? have : n);
    return p;
}

/* The end of a recorded realloc(old, n) that returned p, with Score-P's Leave attributes:
 * like malloc (old NULL): RESULT_ADDRESS; like free (n 0): DEALLOCATION_SIZE; a resize:
 * both; failed: RESULT_ADDRESS 0. */
void scorep_mem_reallocated(scorep_mem_call *c, void *old, void *p, uint64_t n)
{
    uint64_t freed = scorep_memory_realloc(c->l, SCOREP_ALLOC_HEAP, old, p, n);
    if (old && (n == 0 || p))
        scorep_mem_out(c, BUF_ATTR_DEALLOCATION_SIZE, freed);
    if (!old || n != 0)
        scorep_mem_out(c, BUF_ATTR_RESULT_ADDRESS, (uintptr_t)p);
    scorep_mem_leave(c);
}

void *realloc(void *old, size_t n)
{
    if (old && scorep_mem_is_boot(old))
        return realloc_boot(old, n);
    if (!ready(MEM_REALLOC))
        return scorep_mem_boot_alloc(n, 16); /* old is NULL: nothing real exists yet */
    scorep_mem_call c;
    if (__builtin_expect(!scorep_mem_maybe(), 1) ||
        !scorep_mem_enter(&c, MEM_REALLOC, CALLER, MEM_IN_SIZE | MEM_IN_ADDR, n, old)) {
        scorep_mem_forget_unrecorded(old);
        return REAL(REALLOC, realloc_fn)(old, n);
    }
    void *p = REAL(REALLOC, realloc_fn)(old, n);
    scorep_mem_reallocated(&c, old, p, n);
    return p;
}

/* glibc's reallocarray(old, n, size) is realloc(old, n * size) unless the product
 * overflows (ENOMEM, old untouched; recorded with ALLOCATION_SIZE UINT64_MAX). A block from
 * the boot arena is moved by realloc. */
void *reallocarray(void *old, size_t n, size_t size)
{
    size_t bytes;
    bool overflow = __builtin_mul_overflow(n, size, &bytes);
    if ((old && scorep_mem_is_boot(old)) || !ready(MEM_REALLOCARRAY)) {
        if (overflow) {
            errno = ENOMEM;
            return NULL;
        }
        return realloc(old, bytes);
    }
    scorep_mem_call c;
    if (__builtin_expect(!scorep_mem_maybe(), 1) ||
        !scorep_mem_enter(&c, MEM_REALLOCARRAY, CALLER, MEM_IN_SIZE | MEM_IN_ADDR,
                          overflow ? UINT64_MAX : bytes, old)) {
        if (!overflow)
            scorep_mem_forget_unrecorded(old);
        return REAL(REALLOCARRAY, reallocarray_fn)(old, n, size);
    }
    void *p = REAL(REALLOCARRAY, reallocarray_fn)(old, n, size);
    if (overflow) { /* failed without touching old */
        scorep_mem_out(&c, BUF_ATTR_RESULT_ADDRESS, 0);
        scorep_mem_leave(&c);
    } else {
        scorep_mem_reallocated(&c, old, p, bytes);
    }
    return p;
}

static __attribute__((noinline)) void free_slow(void *p, const void *caller)
{
    scorep_mem_call c;
    if (!scorep_mem_enter(&c, MEM_FREE, caller, MEM_IN_ADDR, 0, p)) {
        scorep_mem_forget_unrecorded(p);
        REAL(FREE, free_fn)(p);
        return;
    }
    /* forget first: once freed, another thread may get the same address from malloc */
    uint64_t size = scorep_memory_free(c.l, SCOREP_ALLOC_HEAP, p);
    REAL(FREE, free_fn)(p);
    scorep_mem_out(&c, BUF_ATTR_DEALLOCATION_SIZE, size);
    scorep_mem_leave(&c);
}

void free(void *p)
{
    if (scorep_mem_is_boot(p))
        return;
    if (!ready(MEM_FREE))
        return; /* cannot happen: nothing real was allocated before free resolved */
    if (__builtin_expect(!scorep_mem_maybe(), 1)) {
        scorep_mem_forget_unrecorded(p);
        REAL(FREE, free_fn)(p);
        return;
    }
    free_slow(p, CALLER);
}

static void *aligned(scorep_mem_func f, size_t align, size_t n, const void *caller)
{
    if (!ready(f))
        return scorep_mem_boot_alloc(n, align);
    scorep_mem_call c;
    bool rec = scorep_mem_maybe() && scorep_mem_enter(&c, f, caller, MEM_IN_SIZE, n, NULL);
    void *p = f == MEM_VALLOC || f == MEM_PVALLOC ? ((malloc_fn)scorep_mem_real[f])(n)
                                                  : ((memalign_fn)scorep_mem_real[f])(align, n);
    if (rec)
        scorep_mem_allocated(&c, p, n);
    return p;
}

void *memalign(size_t align, size_t n)
{
    return aligned(MEM_MEMALIGN, align, n, CALLER);
}

void *aligned_alloc(size_t align, size_t n)
{
    return aligned(MEM_ALIGNED_ALLOC, align, n, CALLER);
}

void *valloc(size_t n)
{
    return aligned(MEM_VALLOC, 4096, n, CALLER);
}

/* the size asked for is recorded (pvalloc rounds it up to whole pages) */
void *pvalloc(size_t n)
{
    return aligned(MEM_PVALLOC, 4096, n, CALLER);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (!ready(MEM_POSIX_MEMALIGN)) {
        void *p = scorep_mem_boot_alloc(n, align);
        if (!p)
            return ENOMEM;
        *out = p;
        return 0;
    }
    scorep_mem_call c;
    if (__builtin_expect(!scorep_mem_maybe(), 1) ||
        !scorep_mem_enter(&c, MEM_POSIX_MEMALIGN, CALLER, MEM_IN_SIZE, n, NULL))
        return REAL(POSIX_MEMALIGN, posix_memalign_fn)(out, align, n);
    int rc = REAL(POSIX_MEMALIGN, posix_memalign_fn)(out, align, n);
    scorep_mem_allocated(&c, rc == 0 ? *out : NULL, n); /* *out is unchanged on failure */
    return rc;
}
