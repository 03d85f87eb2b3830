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
 * invalid handle (for callers whose handle is invalid only because the measurement is off). */
void scorep_user_region_enter(const SCOREP_User_RegionHandle h);

/* The region registered under name (created on first use with type, file and line): regions
 * by name and all Fortran regions, which Score-P also identifies by name. NULL when the
 * measurement is off or memory is exhausted. */
struct SCOREP_User_Region *scorep_user_region_by_name(const char *name, SCOREP_User_RegionType type,
                                                      const char *file, uint32_t line);
/* The same lookup without creating: NULL for a name never begun. */
struct SCOREP_User_Region *scorep_user_region_find(const char *name);

#endif
