/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_hbw_wrap.c: libscorep-rt-hbw-wrap.a, which scorep-cc links with
 * -Wl,--wrap=hbw_malloc,... into a program that links memkind's static libmemkind.a: the
 * program then defines hbw_* itself, so the adapter's interposing definitions
 * (memory_hbw.c) never see its calls. The linker sends them here (__wrap_hbw_*), and
 * __real_hbw_* is the program's own memkind function, bound at link time, which the
 * adapter calls and records (docs/memory.md). Score-P wraps hbw_* the same way. */
#include "adapters/memory/memory_hbw_wrap.h"

#define CALLER __builtin_return_address(0)

void *__real_hbw_malloc(size_t n);
void *__real_hbw_calloc(size_t n, size_t size);
void *__real_hbw_realloc(void *old, size_t n);
void __real_hbw_free(void *p);
int __real_hbw_posix_memalign(void **out, size_t align, size_t n);
int __real_hbw_posix_memalign_psize(void **out, size_t align, size_t n, int pagesize);

void *__wrap_hbw_malloc(size_t n);
void *__wrap_hbw_calloc(size_t n, size_t size);
void *__wrap_hbw_realloc(void *old, size_t n);
void __wrap_hbw_free(void *p);
int __wrap_hbw_posix_memalign(void **out, size_t align, size_t n);
int __wrap_hbw_posix_memalign_psize(void **out, size_t align, size_t n, int pagesize);

void *__wrap_hbw_malloc(size_t n)
{
    return scorep_memory_hbw_malloc_with(__real_hbw_malloc, n, CALLER);
}

void *__wrap_hbw_calloc(size_t n, size_t size)
{
    return scorep_memory_hbw_calloc_with(__real_hbw_calloc, n, size, CALLER);
}

void *__wrap_hbw_realloc(void *old, size_t n)
{
    return scorep_memory_hbw_realloc_with(__real_hbw_realloc, old, n, CALLER);
}

void __wrap_hbw_free(void *p)
{
    scorep_memory_hbw_free_with(__real_hbw_free, p, CALLER);
}

int __wrap_hbw_posix_memalign(void **out, size_t align, size_t n)
{
    return scorep_memory_hbw_posix_memalign_with(__real_hbw_posix_memalign, out, align, n, CALLER);
}

int __wrap_hbw_posix_memalign_psize(void **out, size_t align, size_t n, int pagesize)
{
    return scorep_memory_hbw_posix_memalign_psize_with(__real_hbw_posix_memalign_psize, out, align,
                                                       n, pagesize, CALLER);
}
