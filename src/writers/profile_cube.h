/* profile_cube.h: the Cube4 profile writer (profile_cube.c); its entry point is declared
 * with the writer context in writers/writer.h. */
#ifndef SCOREP_PROFILE_CUBE_H
#define SCOREP_PROFILE_CUBE_H

#include "writers/writer.h"

#endif
