/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_cxx.c: C++'s operator new and delete in all their forms (plain, array, nothrow,
 * aligned, sized) under their Itanium ABI names, so that C++ programs' new and delete are
 * recorded (region names as Score-P's, "operator new(size_t)" ...). Each forwards to
 * libstdc++'s operator (dlsym RTLD_NEXT), so a new_handler, bad_alloc and the nothrow
 * forms behave as without measurement. Built with -fexceptions: a bad_alloc thrown by the
 * real operator unwinds through here, and the cleanup leaves the region on the way. The
 * real operator's own malloc call is not recorded a second time (the thread's guard). */
#include "adapters/memory/memory_wrappers.h"

#include <stdio.h>
#include <stdlib.h>

typedef void *(*new_fn)(size_t);
typedef void *(*new_nt_fn)(size_t, const void *);
typedef void *(*new_al_fn)(size_t, size_t);
typedef void *(*new_al_nt_fn)(size_t, size_t, const void *);
typedef void (*del_fn)(void *);
typedef void (*del_sz_fn)(void *, size_t);
typedef void (*del_nt_fn)(void *, const void *);
typedef void (*del_al_fn)(void *, size_t);
typedef void (*del_sz_al_fn)(void *, size_t, size_t);
typedef void (*del_al_nt_fn)(void *, size_t, const void *);

#define CALLER __builtin_return_address(0)

static void *real(scorep_mem_func f)
{
    void *fn = scorep_mem_real[f];
    if (__builtin_expect(fn != NULL, 1))
        return fn;
    scorep_memory_guard++;
    scorep_mem_resolve(); /* libstdc++ was loaded after this library's constructor ran */
    scorep_memory_guard--;
    fn = scorep_mem_real[f];
    if (!fn) {
        fprintf(stderr, "[scorep-rt] C++ operator new/delete called, but libstdc++ provides "
                        "none; aborting\n");
        abort();
    }
    return fn;
}

static void end_call(scorep_mem_call *c)
{
    scorep_mem_leave(c);
}

/* the Enter's attributes as Score-P's: new ALLOCATION_SIZE, delete ARGUMENT_ADDRESS, a
 * sized delete also DEALLOCATION_SIZE (its size argument) */
#define BEGIN(F, IN, SIZE, ADDR)                                                                   \
    scorep_mem_call c __attribute__((cleanup(end_call))) = {NULL, 0};                              \
    bool rec = scorep_mem_maybe() && scorep_mem_enter(&c, F, CALLER, IN, SIZE, ADDR)

/* new: the size is recorded once the real operator returned a block (RESULT_ADDRESS on the
 * Leave; none when it throws) */
#define NEW_BODY(F, CALL)                                                                          \
    {                                                                                              \
        BEGIN(F, MEM_IN_SIZE, n, NULL);                                                            \
        void *p = CALL;                                                                            \
        if (rec) {                                                                                 \
            scorep_memory_alloc(c.l, SCOREP_ALLOC_HEAP, p, n);                                    \
            scorep_mem_out(&c, BUF_ATTR_RESULT_ADDRESS, (uintptr_t)p);                             \
        }                                                                                          \
        return p;                                                                                  \
    }

/* delete: forget the block before it is released (its address may be reused at once);
 * DEALLOCATION_SIZE, the tracked size, on the Leave */
#define DELETE_BODY_IN(F, IN, SIZE, CALL)                                                          \
    {                                                                                              \
        BEGIN(F, IN, SIZE, p);                                                                     \
        uint64_t freed = 0;                                                                        \
        if (rec)                                                                                   \
            freed = scorep_memory_free(c.l, SCOREP_ALLOC_HEAP, p);                                 \
        else                                                                                       \
            scorep_mem_forget_unrecorded(p);                                                       \
        CALL;                                                                                      \
        if (rec)                                                                                   \
            scorep_mem_out(&c, BUF_ATTR_DEALLOCATION_SIZE, freed);                                 \
    }
#define DELETE_BODY(F, CALL) DELETE_BODY_IN(F, MEM_IN_ADDR, 0, CALL)
#define DELETE_SIZED_BODY(F, CALL) DELETE_BODY_IN(F, MEM_IN_ADDR | MEM_IN_DSIZE, n, CALL)

void *_Znwm(size_t n) NEW_BODY(MEM_NEW, ((new_fn)real(MEM_NEW))(n))
void *_Znam(size_t n) NEW_BODY(MEM_NEW_ARRAY, ((new_fn)real(MEM_NEW_ARRAY))(n))
void *_ZnwmRKSt9nothrow_t(size_t n, const void *nt)
    NEW_BODY(MEM_NEW_NOTHROW, ((new_nt_fn)real(MEM_NEW_NOTHROW))(n, nt))
void *_ZnamRKSt9nothrow_t(size_t n, const void *nt)
    NEW_BODY(MEM_NEW_ARRAY_NOTHROW, ((new_nt_fn)real(MEM_NEW_ARRAY_NOTHROW))(n, nt))
void *_ZnwmSt11align_val_t(size_t n, size_t al)
    NEW_BODY(MEM_NEW_ALIGN, ((new_al_fn)real(MEM_NEW_ALIGN))(n, al))
void *_ZnamSt11align_val_t(size_t n, size_t al)
    NEW_BODY(MEM_NEW_ARRAY_ALIGN, ((new_al_fn)real(MEM_NEW_ARRAY_ALIGN))(n, al))
void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t n, size_t al, const void *nt)
    NEW_BODY(MEM_NEW_ALIGN_NOTHROW, ((new_al_nt_fn)real(MEM_NEW_ALIGN_NOTHROW))(n, al, nt))
void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t n, size_t al, const void *nt)
    NEW_BODY(MEM_NEW_ARRAY_ALIGN_NOTHROW,
             ((new_al_nt_fn)real(MEM_NEW_ARRAY_ALIGN_NOTHROW))(n, al, nt))

void _ZdlPv(void *p) DELETE_BODY(MEM_DELETE, ((del_fn)real(MEM_DELETE))(p))
void _ZdaPv(void *p) DELETE_BODY(MEM_DELETE_ARRAY, ((del_fn)real(MEM_DELETE_ARRAY))(p))
void _ZdlPvm(void *p, size_t n)
    DELETE_SIZED_BODY(MEM_DELETE_SIZE, ((del_sz_fn)real(MEM_DELETE_SIZE))(p, n))
void _ZdaPvm(void *p, size_t n)
    DELETE_SIZED_BODY(MEM_DELETE_ARRAY_SIZE, ((del_sz_fn)real(MEM_DELETE_ARRAY_SIZE))(p, n))
void _ZdlPvRKSt9nothrow_t(void *p, const void *nt)
    DELETE_BODY(MEM_DELETE_NOTHROW, ((del_nt_fn)real(MEM_DELETE_NOTHROW))(p, nt))
void _ZdaPvRKSt9nothrow_t(void *p, const void *nt)
    DELETE_BODY(MEM_DELETE_ARRAY_NOTHROW, ((del_nt_fn)real(MEM_DELETE_ARRAY_NOTHROW))(p, nt))
void _ZdlPvSt11align_val_t(void *p, size_t al)
    DELETE_BODY(MEM_DELETE_ALIGN, ((del_al_fn)real(MEM_DELETE_ALIGN))(p, al))
void _ZdaPvSt11align_val_t(void *p, size_t al)
    DELETE_BODY(MEM_DELETE_ARRAY_ALIGN, ((del_al_fn)real(MEM_DELETE_ARRAY_ALIGN))(p, al))
void _ZdlPvmSt11align_val_t(void *p, size_t n, size_t al)
    DELETE_SIZED_BODY(MEM_DELETE_SIZE_ALIGN, ((del_sz_al_fn)real(MEM_DELETE_SIZE_ALIGN))(p, n, al))
void _ZdaPvmSt11align_val_t(void *p, size_t n, size_t al)
    DELETE_SIZED_BODY(MEM_DELETE_ARRAY_SIZE_ALIGN,
                ((del_sz_al_fn)real(MEM_DELETE_ARRAY_SIZE_ALIGN))(p, n, al))
void _ZdlPvSt11align_val_tRKSt9nothrow_t(void *p, size_t al, const void *nt)
    DELETE_BODY(MEM_DELETE_ALIGN_NOTHROW,
                ((del_al_nt_fn)real(MEM_DELETE_ALIGN_NOTHROW))(p, al, nt))
void _ZdaPvSt11align_val_tRKSt9nothrow_t(void *p, size_t al, const void *nt)
    DELETE_BODY(MEM_DELETE_ARRAY_ALIGN_NOTHROW,
                ((del_al_nt_fn)real(MEM_DELETE_ARRAY_ALIGN_NOTHROW))(p, al, nt))
