/* SPDX-License-Identifier: BSD-3-Clause */
/* SCOREP_User_Variables.h: the two per-source-file variables that Score-P's region macros
 * pass to the runtime (SCOREP_User.h includes it when SCOREP_USER_ENABLE is defined). */
#ifndef SCOREP_USER_VARIABLES_H
#define SCOREP_USER_VARIABLES_H

#include "scorep/SCOREP_User_Types.h"

/* Static, so every source file has its own pair; marked unused because a file may include
 * SCOREP_User.h without using a region macro, and -Werror builds must still compile. */
#if defined(__GNUC__)
#define SCOREP_USER_VARIABLE_ATTR __attribute__((unused))
#else
#define SCOREP_USER_VARIABLE_ATTR
#endif

static SCOREP_SourceFileHandle SCOREP_User_LastFileHandle SCOREP_USER_VARIABLE_ATTR =
    SCOREP_INVALID_SOURCE_FILE;
static const char *SCOREP_User_LastFileName SCOREP_USER_VARIABLE_ATTR = 0;

#endif
