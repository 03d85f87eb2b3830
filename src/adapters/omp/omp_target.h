/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_target.h: internals of the OpenMP target-offload adapter (libscorep-rt-omptarget):
 * LLVM libomptarget's entry points and device-plugin interface as LLVM 14 defines them
 * (openmp/libomptarget/include/omptarget.h, omptargetplugin.h), and the GOT patch that lets
 * the adapter see libomptarget's plugin lookups. See docs/openmp.md, "Target offload". */
#ifndef SCOREP_OMP_TARGET_H
#define SCOREP_OMP_TARGET_H

#include <stddef.h>
#include <stdint.h>

/* __tgt_offload_entry: one target region (addr: its host-side id) or global variable */
typedef struct {
    void *addr;
    char *name;
    size_t size;
    int32_t flags;
    int32_t reserved;
} omp_tgt_entry;

typedef struct {
    void *image_start, *image_end;
    omp_tgt_entry *entries_begin, *entries_end;
} omp_tgt_device_image;

/* __tgt_bin_desc, handed to __tgt_register_lib by the program's constructor */
typedef struct {
    int32_t n_images;
    omp_tgt_device_image *images;
    omp_tgt_entry *host_entries_begin, *host_entries_end;
} omp_tgt_bin_desc;

/* Replaces the GOT entries (JUMP_SLOT, GLOB_DAT) of `symbol` in the object loaded at
 * `base` by `replacement`; *old (when not NULL and still NULL) gets the previous value.
 * Returns the number of entries changed, -1 when the object imports no such symbol (or on
 * an architecture other than x86_64). */
int omp_target_patch_import(uintptr_t base, const char *symbol, void *replacement, void **old);

#endif
