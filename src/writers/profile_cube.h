/* SPDX-License-Identifier: BSD-3-Clause */
/* profile_cube.h: the Cube4 profile writer (profile_cube.c); its entry point is declared
 * with the writer context in writers/writer.h. */
#ifndef SCOREP_PROFILE_CUBE_H
#define SCOREP_PROFILE_CUBE_H

#include "writers/writer.h"

/* A global attribute of the next Cube file written (rank 0; scorep-recover marks which
 * ranks ended how). Strings are copied. 0 or -1. */
int scorep_profile_cube_add_attr(const char *key, const char *value);

#endif
