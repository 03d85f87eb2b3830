/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_wrappers.h: what the wrappers of libscorep-rt-memory share: the wrapped functions
 * (Score-P's region names), the real functions behind them, and the enter/leave pair that
 * decides whether a call is recorded. */
#ifndef SCOREP_MEMORY_WRAPPERS_H
#define SCOREP_MEMORY_WRAPPERS_H

#include "adapters/memory/memory_track.h"
#include "runtime/runtime.h"

#include <stdbool.h>
#include <stddef.h>

/* X(enum name, region name, role, symbol of the real function); the hbw_* functions are
 * memkind's hbwmalloc (Score-P's names and roles, its scorep_memory_mgmt.h): their real
 * functions are NULL in a program without libmemkind, which never calls them */
#define SCOREP_MEMORY_FUNCTIONS                                                                    \
    X(MALLOC, "malloc", ALLOCATE, "malloc")                                                        \
    X(CALLOC, "calloc", ALLOCATE, "calloc")                                                        \
    X(REALLOC, "realloc", REALLOCATE, "realloc")                                                   \
    X(FREE, "free", DEALLOCATE, "free")                                                            \
    X(MEMALIGN, "memalign", ALLOCATE, "memalign")                                                  \
    X(POSIX_MEMALIGN, "posix_memalign", ALLOCATE, "posix_memalign")                                \
    X(VALLOC, "valloc", ALLOCATE, "valloc")                                                        \
    X(ALIGNED_ALLOC, "aligned_alloc", ALLOCATE, "aligned_alloc")                                   \
    X(REALLOCARRAY, "reallocarray", REALLOCATE, "reallocarray")                                    \
    X(PVALLOC, "pvalloc", ALLOCATE, "pvalloc")                                                     \
    X(NEW, "operator new(size_t)", ALLOCATE, "_Znwm")                                              \
    X(NEW_ARRAY, "operator new[](size_t)", ALLOCATE, "_Znam")                                      \
    X(NEW_NOTHROW, "operator new(size_t,std::nothrow_t const&)", ALLOCATE,                         \
      "_ZnwmRKSt9nothrow_t")                                                                       \
    X(NEW_ARRAY_NOTHROW, "operator new[](size_t,std::nothrow_t const&)", ALLOCATE,                 \
      "_ZnamRKSt9nothrow_t")                                                                       \
    X(NEW_ALIGN, "operator new(size_t,std::align_val_t)", ALLOCATE, "_ZnwmSt11align_val_t")        \
    X(NEW_ARRAY_ALIGN, "operator new[](size_t,std::align_val_t)", ALLOCATE,                        \
      "_ZnamSt11align_val_t")                                                                      \
    X(NEW_ALIGN_NOTHROW, "operator new(size_t,std::align_val_t,std::nothrow_t const&)", ALLOCATE,  \
      "_ZnwmSt11align_val_tRKSt9nothrow_t")                                                        \
    X(NEW_ARRAY_ALIGN_NOTHROW, "operator new[](size_t,std::align_val_t,std::nothrow_t const&)",    \
      ALLOCATE, "_ZnamSt11align_val_tRKSt9nothrow_t")                                              \
    X(DELETE, "operator delete(void*)", DEALLOCATE, "_ZdlPv")                                      \
    X(DELETE_ARRAY, "operator delete[](void*)", DEALLOCATE, "_ZdaPv")                              \
    X(DELETE_SIZE, "operator delete(void*,size_t)", DEALLOCATE, "_ZdlPvm")                         \
    X(DELETE_ARRAY_SIZE, "operator delete[](void*,size_t)", DEALLOCATE, "_ZdaPvm")                 \
    X(DELETE_NOTHROW, "operator delete(void*,std::nothrow_t const&)", DEALLOCATE,                  \
      "_ZdlPvRKSt9nothrow_t")                                                                      \
    X(DELETE_ARRAY_NOTHROW, "operator delete[](void*,std::nothrow_t const&)", DEALLOCATE,          \
      "_ZdaPvRKSt9nothrow_t")                                                                      \
    X(DELETE_ALIGN, "operator delete(void*,std::align_val_t)", DEALLOCATE, "_ZdlPvSt11align_val_t") \
    X(DELETE_ARRAY_ALIGN, "operator delete[](void*,std::align_val_t)", DEALLOCATE,                 \
      "_ZdaPvSt11align_val_t")                                                                     \
    X(DELETE_SIZE_ALIGN, "operator delete(void*,size_t,std::align_val_t)", DEALLOCATE,             \
      "_ZdlPvmSt11align_val_t")                                                                    \
    X(DELETE_ARRAY_SIZE_ALIGN, "operator delete[](void*,size_t,std::align_val_t)", DEALLOCATE,     \
      "_ZdaPvmSt11align_val_t")                                                                    \
    X(DELETE_ALIGN_NOTHROW, "operator delete(void*,std::align_val_t,std::nothrow_t const&)",       \
      DEALLOCATE, "_ZdlPvSt11align_val_tRKSt9nothrow_t")                                           \
    X(DELETE_ARRAY_ALIGN_NOTHROW,                                                                  \
      "operator delete[](void*,std::align_val_t,std::nothrow_t const&)", DEALLOCATE,               \
      "_ZdaPvSt11align_val_tRKSt9nothrow_t")                                                       \
    X(HBW_MALLOC, "hbw_malloc", ALLOCATE, "hbw_malloc")                                            \
    X(HBW_CALLOC, "hbw_calloc", ALLOCATE, "hbw_calloc")                                            \
    X(HBW_REALLOC, "hbw_realloc", REALLOCATE, "hbw_realloc")                                       \
    X(HBW_FREE, "hbw_free", DEALLOCATE, "hbw_free")                                                \
    X(HBW_POSIX_MEMALIGN, "hbw_posix_memalign", ALLOCATE, "hbw_posix_memalign")                    \
    X(HBW_POSIX_MEMALIGN_PSIZE, "hbw_posix_memalign_psize", ALLOCATE, "hbw_posix_memalign_psize")

/* The library's own symbols are hidden: its wrappers reach them without the PLT and GOT
 * (the cost of a wrapper that only forwards, docs/memory.md "Cost"). */
#define SCOREP_MEM_HIDDEN __attribute__((visibility("hidden")))

typedef enum {
#define X(e, name, role, sym) MEM_##e,
    SCOREP_MEMORY_FUNCTIONS
#undef X
        MEM_N
} scorep_mem_func;

/* The real functions (dlsym RTLD_NEXT), resolved in the library's constructor; an entry
 * may be NULL (a C program has no operator new). */
extern void *scorep_mem_real[MEM_N] SCOREP_MEM_HIDDEN;
/* Resolves the real functions (again, for those still NULL: libstdc++ loaded later). */
SCOREP_MEM_HIDDEN void scorep_mem_resolve(void);

/* Allocations made while dlsym itself allocates (before malloc is resolved) come from a
 * static arena; they are never freed. */
#define SCOREP_MEM_BOOT_BYTES (1 << 16)
extern char scorep_mem_boot_arena[SCOREP_MEM_BOOT_BYTES] SCOREP_MEM_HIDDEN;
SCOREP_MEM_HIDDEN void *scorep_mem_boot_alloc(size_t n, size_t align);
SCOREP_MEM_HIDDEN size_t scorep_mem_boot_size(const void *p);

static inline bool scorep_mem_is_boot(const void *p)
{
    return (uintptr_t)p - (uintptr_t)scorep_mem_boot_arena < SCOREP_MEM_BOOT_BYTES;
}

typedef struct {
    scorep_location *l; /* NULL: the call is not recorded, only forwarded */
    uint32_t region;
} scorep_mem_call;

/* The attributes of a call's Enter, as Score-P writes them (bits of `in`): ALLOCATION_SIZE
 * (the size asked for: allocations, realloc), ARGUMENT_ADDRESS (the block freed or resized:
 * free, delete, realloc), DEALLOCATION_SIZE (the size given to a sized delete). */
enum { MEM_IN_SIZE = 1, MEM_IN_ADDR = 2, MEM_IN_DSIZE = 4 };

/* Starts recording a call of f made from caller: false (and nothing done) when memory
 * recording is off, the thread is already inside a wrapper or the runtime, or caller is the
 * measurement system's own code. True: the region is entered with the attributes `in`
 * (size, addr) and the guard set until scorep_mem_leave. */
SCOREP_MEM_HIDDEN bool scorep_mem_enter(scorep_mem_call *c, scorep_mem_func f, const void *caller,
                                        unsigned in, uint64_t size, const void *addr);
/* An attribute of the call's Leave (RESULT_ADDRESS, DEALLOCATION_SIZE). */
SCOREP_MEM_HIDDEN void scorep_mem_out(const scorep_mem_call *c, buf_attr k, uint64_t v);
SCOREP_MEM_HIDDEN void scorep_mem_leave(scorep_mem_call *c);

/* The end of a recorded allocation that returned p (NULL: failed) for n bytes: tracked,
 * RESULT_ADDRESS, Leave (memory_libc.c; also the hbw_* wrappers'). */
SCOREP_MEM_HIDDEN void scorep_mem_allocated(scorep_mem_call *c, void *p, uint64_t n);
/* The end of a recorded realloc(old, n) that returned p, with Score-P's Leave attributes. */
SCOREP_MEM_HIDDEN void scorep_mem_reallocated(scorep_mem_call *c, void *old, void *p, uint64_t n);

/* The cheap test every wrapper makes first: memory recording asked for, the measurement
 * running, and this thread not inside a wrapper or the runtime. */
static inline bool scorep_mem_maybe(void)
{
    return scorep_measurement_on() && scorep_cfg.memory_recording && !scorep_memory_guard;
}

/* A free or realloc that is not recorded (recording off, the runtime's own call) still
 * forgets the block it releases, so it is neither counted in use nor reported leaked. */
SCOREP_MEM_HIDDEN void scorep_mem_forget(void *p);

/* The same, for a release that was not recorded: only while recording is asked for and
 * the thread is not inside a wrapper (the outer wrapper forgets its own block). */
static inline void scorep_mem_forget_unrecorded(void *p)
{
    if (p && scorep_cfg.memory_recording && scorep_measurement_on() && !scorep_memory_guard)
        scorep_mem_forget(p);
}

#endif
