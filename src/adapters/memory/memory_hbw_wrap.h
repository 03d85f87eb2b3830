/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_hbw_wrap.h: what libscorep-rt-memory offers the link-time wrappers of memkind's hbw_*
 * (memory_hbw_wrap.c, for programs with the static libmemkind.a): the recording of an hbw_*
 * call around the program's own memkind function fn, caller the program's return address. */
#ifndef SCOREP_MEMORY_HBW_WRAP_H
#define SCOREP_MEMORY_HBW_WRAP_H

#include <stddef.h>

#define SCOREP_HBW_API __attribute__((visibility("default")))

SCOREP_HBW_API void *scorep_memory_hbw_malloc_with(void *(*fn)(size_t), size_t n,
                                                   const void *caller);
SCOREP_HBW_API void *scorep_memory_hbw_calloc_with(void *(*fn)(size_t, size_t), size_t n,
                                                   size_t size, const void *caller);
SCOREP_HBW_API void *scorep_memory_hbw_realloc_with(void *(*fn)(void *, size_t), void *old,
                                                    size_t n, const void *caller);
SCOREP_HBW_API void scorep_memory_hbw_free_with(void (*fn)(void *), void *p, const void *caller);
SCOREP_HBW_API int scorep_memory_hbw_posix_memalign_with(int (*fn)(void **, size_t, size_t),
                                                         void **out, size_t align, size_t n,
                                                         const void *caller);
/* memkind's last parameter is its enum hbw_pagesize_t, an int */
SCOREP_HBW_API int
scorep_memory_hbw_posix_memalign_psize_with(int (*fn)(void **, size_t, size_t, int), void **out,
                                            size_t align, size_t n, int pagesize,
                                            const void *caller);

#endif
