/* profile_cube.h: the Cube4 profile writer (profile_cube.c); its entry point is declared
 * with the writer context in core/writer.h. */
#ifndef SCOREP_PROFILE_CUBE_H
#define SCOREP_PROFILE_CUBE_H

#include "core/writer.h"

#endif
