/* SPDX-License-Identifier: BSD-3-Clause */
/* user_adapter.h: what the Fortran entry points (user_fortran.c) share with the C functions
 * of the user adapter (user_adapter.c). */
#ifndef SCOREP_USER_ADAPTER_H
#define SCOREP_USER_ADAPTER_H

#include "scorep/SCOREP_User_Functions.h"

#include <stdbool.h>
#include <stdint.h>

struct scorep_selection;

/* What a handle's enter and leave do: plain ones take the fast path, the others one test
 * later (so that selective recording costs nothing to the regions it does not select). */
enum {
    SCOREP_USER_PLAIN = 0,
    SCOREP_USER_FILTERED = 1,
    SCOREP_USER_SELECTED = 2,
    SCOREP_USER_DYNAMIC = 3 /* a type with the DYNAMIC bit: an instance per visit (profile) */
};

/* The region object behind a SCOREP_User_RegionHandle. */
struct SCOREP_User_Region {
    uint32_t region;
    uint8_t kind;                       /* SCOREP_USER_PLAIN, _FILTERED, _SELECTED, _DYNAMIC */
    struct scorep_selection *selection; /* _SELECTED: its instances (user_selective.h) */
    bool dynamic; /* _SELECTED of a type with the DYNAMIC bit: an instance per visit too */
};

/* Enters the region of h, if any: SCOREP_User_RegionEnter without its message about an
 * invalid handle (for callers whose handle is invalid only because the measurement is off).
 * sp: where it was begun, the stack pointer of the program's function at its call of the
 * API (the API function's CFA, + SCOREP_USER_STACK_ARGS when it has a seventh argument),
 * which a jump or a C++ catch compares with its target (core/events.c, unwind_to). */
void scorep_user_region_enter(const SCOREP_User_RegionHandle h, uintptr_t sp);
/* SCOREP_User_RegionByNameBegin with the begin's sp */
void scorep_user_region_by_name_begin(const char *name, SCOREP_User_RegionType type,
                                      const char *file, uint32_t line, uintptr_t sp);

/* An API function with seven arguments (SCOREP_User_RegionBegin, Fortran's scorep_f_begin_)
 * has the seventh on the stack on x86-64 (System V: six in registers). A caller that pushes
 * it (gcc -O2, gfortran: sub 8, push) calls with its stack pointer 16 below the frame's
 * (where its setjmp is called), one that stores it into its frame's reserved space (clang)
 * at the frame's own: the begin's CFA is the frame's sp or 16 below, and a frame of 16
 * bytes one level deeper gives the same value. + 16 errs towards keeping a region open (as
 * before session 23): the setjmp caller's regions are always kept, a deeper frame's from 32
 * bytes of frame. AArch64 passes eight in registers. */
#if defined(__x86_64__)
#define SCOREP_USER_STACK_ARGS 16
#else
#define SCOREP_USER_STACK_ARGS 0
#endif

/* The sp an API function records for the region it begins: its CFA (+ stack_args), tagged
 * as a plain user region's (core/events.h, SCOREP_SP_USER_TAG: one lea, as the CFA alone)
 * so that a jump's walk tells it from a call inlined into the setjmp caller's frame. A
 * macro: __builtin_dwarf_cfa must be the API function's own. */
#define SCOREP_USER_BEGIN_SP(stack_args)                                                           \
    ((uintptr_t)__builtin_dwarf_cfa() + (stack_args) + SCOREP_SP_USER_TAG)

/* The region registered under name (created on first use with type, file and line): regions
 * by name and all Fortran regions, which Score-P also identifies by name. NULL when the
 * measurement is off or memory is exhausted. */
struct SCOREP_User_Region *scorep_user_region_by_name(const char *name, SCOREP_User_RegionType type,
                                                      const char *file, uint32_t line);
/* The same lookup without creating: NULL for a name never begun. */
struct SCOREP_User_Region *scorep_user_region_find(const char *name);

#endif
