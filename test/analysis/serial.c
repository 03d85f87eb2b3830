/* SPDX-License-Identifier: BSD-3-Clause */
/* serial.c: a serial program without MPI or threads for the analysis without MPI
 * (test_analysis_nompi.sh): two user regions one after the other, "work" for 3D and "more"
 * for 2D (D = argv[1] seconds), nothing else of note: its time tree and its critical path are
 * the program's time. Prints for each region "S region inner outer": its spin's duration as
 * read just around the spin, and the time from just before the region's begin to just after
 * its end (the node's clock): the region's measured time lies between them, however late a
 * loaded machine let the program act (the design's 3D overran by 86 ms at load 16). */
#include "scenario.h"

#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    double D = argc > 1 ? atof(argv[1]) : 0.1;
    SCOREP_USER_REGION_DEFINE(hw)
    SCOREP_USER_REGION_DEFINE(hm)
    double a = now();
    SCOREP_USER_REGION_BEGIN(hw, "work", SCOREP_USER_REGION_TYPE_COMMON)
    double b = now();
    spin_until(b + 3 * D);
    double c = now();
    SCOREP_USER_REGION_END(hw)
    double d = now();
    SCOREP_USER_REGION_BEGIN(hm, "more", SCOREP_USER_REGION_TYPE_COMMON)
    double e = now();
    spin_until(e + 2 * D);
    double f = now();
    SCOREP_USER_REGION_END(hm)
    double g = now();
    printf("S work %.6f %.6f\nS more %.6f %.6f\n", c - b, d - a, f - e, g - d);
    return 0;
}
