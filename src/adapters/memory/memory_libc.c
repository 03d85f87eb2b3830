/* memory_libc.c: the C library's allocation functions of libscorep-rt-memory: malloc,
 * calloc, realloc, free, memalign, posix_memalign, valloc, aligned_alloc, as regions of
 * paradigm memory named as in Score-P. Defined here, they interpose the C library's when
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

#define REAL(e, type) ((type)scorep_mem_real[MEM_##e])
#define CALLER __builtin_return_address(0)

/* Before the constructor resolved them (another library's constructor allocates, or dlsym
 * itself does): resolve now; what dlsym allocates meanwhile comes from the boot arena. */
static __thread int resolving __attribute__((tls_model("initial-exec")));

static bool ready(scorep_mem_func f)
{
    if (__builtin_expect(scorep_mem_real[f] != NULL, 1))
        return true;
    if (resolving)
        return false;
    resolving = 1;
    scorep_memory_guard++;
    scorep_mem_resolve();
    scorep_memory_guard--;
    resolving = 0;
    return scorep_mem_real[f] != NULL;
}

void *malloc(size_t n)
{
    if (!ready(MEM_MALLOC))
        return scorep_mem_boot_alloc(n, 16);
    scorep_mem_call c;
    if (__builtin_expect(!scorep_mem_maybe(), 1) || !scorep_mem_enter(&c, MEM_MALLOC, CALLER))
        return REAL(MALLOC, malloc_fn)(n);
    void *p = REAL(MALLOC, malloc_fn)(n);
    scorep_memory_alloc(c.l, SCOREP_ALLOC_HEAP, p, n);
    scorep_mem_leave(&c);
    return p;
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
    if (__builtin_expect(!scorep_mem_maybe(), 1) || !scorep_mem_enter(&c, MEM_CALLOC, CALLER))
        return REAL(CALLOC, calloc_fn)(n, size);
    void *p = REAL(CALLOC, calloc_fn)(n, size);
    scorep_memory_alloc(c.l, SCOREP_ALLOC_HEAP, p, (uint64_t)n * size);
    scorep_mem_leave(&c);
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

void *realloc(void *old, size_t n)
{
    if (old && scorep_mem_is_boot(old))
        return realloc_boot(old, n);
    if (!ready(MEM_REALLOC))
        return scorep_mem_boot_alloc(n, 16); /* old is NULL: nothing real exists yet */
    scorep_mem_call c;
    if (__builtin_expect(!scorep_mem_maybe(), 1) || !scorep_mem_enter(&c, MEM_REALLOC, CALLER)) {
        scorep_mem_forget_unrecorded(old);
        return REAL(REALLOC, realloc_fn)(old, n);
    }
    void *p = REAL(REALLOC, realloc_fn)(old, n);
    scorep_memory_realloc(c.l, SCOREP_ALLOC_HEAP, old, p, n);
    scorep_mem_leave(&c);
    return p;
}

void free(void *p)
{
    if (scorep_mem_is_boot(p))
        return;
    if (!ready(MEM_FREE))
        return; /* cannot happen: nothing real was allocated before free resolved */
    scorep_mem_call c;
    if (__builtin_expect(!scorep_mem_maybe(), 1) || !scorep_mem_enter(&c, MEM_FREE, CALLER)) {
        scorep_mem_forget_unrecorded(p);
        REAL(FREE, free_fn)(p);
        return;
    }
    /* forget first: once freed, another thread may get the same address from malloc */
    scorep_memory_free(c.l, SCOREP_ALLOC_HEAP, p);
    REAL(FREE, free_fn)(p);
    scorep_mem_leave(&c);
}

static void *aligned(scorep_mem_func f, size_t align, size_t n, const void *caller)
{
    if (!ready(f))
        return scorep_mem_boot_alloc(n, align);
    scorep_mem_call c;
    bool rec = scorep_mem_maybe() && scorep_mem_enter(&c, f, caller);
    void *p = f == MEM_VALLOC ? REAL(VALLOC, malloc_fn)(n)
                              : ((memalign_fn)scorep_mem_real[f])(align, n);
    if (rec) {
        scorep_memory_alloc(c.l, SCOREP_ALLOC_HEAP, p, n);
        scorep_mem_leave(&c);
    }
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
        !scorep_mem_enter(&c, MEM_POSIX_MEMALIGN, CALLER))
        return REAL(POSIX_MEMALIGN, posix_memalign_fn)(out, align, n);
    int rc = REAL(POSIX_MEMALIGN, posix_memalign_fn)(out, align, n);
    if (rc == 0)
        scorep_memory_alloc(c.l, SCOREP_ALLOC_HEAP, *out, n);
    scorep_mem_leave(&c);
    return rc;
}
