/* SPDX-License-Identifier: BSD-3-Clause */
/* serial.c: a serial program without MPI or threads for the analysis without MPI
 * (test_analysis_nompi.sh): two user regions one after the other, "work" for 3D and "more"
 * for 2D (D = argv[1] seconds), nothing else of note: its time tree and its critical path are
 * the program's time. */
#include "scenario.h"

#include <scorep/SCOREP_User.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    double D = argc > 1 ? atof(argv[1]) : 0.1;
    SCOREP_USER_REGION_DEFINE(hw)
    SCOREP_USER_REGION_DEFINE(hm)
    SCOREP_USER_REGION_BEGIN(hw, "work", SCOREP_USER_REGION_TYPE_COMMON)
    spin_until(now() + 3 * D);
    SCOREP_USER_REGION_END(hw)
    SCOREP_USER_REGION_BEGIN(hm, "more", SCOREP_USER_REGION_TYPE_COMMON)
    spin_until(now() + 2 * D);
    SCOREP_USER_REGION_END(hm)
    return 0;
}
