/* SPDX-License-Identifier: BSD-3-Clause */
/* user_selective.h: selective recording (SCOREP_SELECTIVE_CONFIG_FILE), as in Score-P: with
 * the file given, recording starts off and is on while the program is inside a selected
 * instance of a selected user region (docs/user-guide.md, "Selective recording"). The user
 * adapter (user_adapter.c) finds a region's selection once, when it creates the handle, and
 * calls enter/leave only for handles of selected regions. */
#ifndef SCOREP_USER_SELECTIVE_H
#define SCOREP_USER_SELECTIVE_H

#include "adapters/user/selective_file.h"
#include "core/location.h"

/* The selection of the user region called name, NULL when it is not selected or no file is
 * applied. Cold: called when a region handle is created. */
scorep_selection *scorep_selective_find(const char *name);

/* Before the region's Enter: counts the instance; at a selected one, with recording off,
 * switches recording on from l. After the region's Leave: the end of the instance that
 * switched recording on switches it off again. No allocation, lock or system call. */
void scorep_selective_enter(scorep_location *l, scorep_selection *s);
void scorep_selective_leave(scorep_location *l, scorep_selection *s);
/* The Enter of region of a selected user region with the switch before it; its Leave with the
 * switch after it (user_adapter.c's slow path). sp: where it was begun (untagged; the
 * Enter records it tagged SCOREP_SP_USER_SELECTED, so that a jump out of its frame leaves it
 * with the switch). */
void scorep_selective_region_enter(scorep_location *l, scorep_selection *s, uint32_t region,
                                   uintptr_t sp, bool dynamic);
void scorep_selective_region_leave(scorep_location *l, scorep_selection *s, uint32_t region,
                                   bool dynamic);

#endif
