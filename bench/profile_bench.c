/* SPDX-License-Identifier: BSD-3-Clause */
/* profile_bench.c: an MPI program with many call paths for `make bench`'s profile-writing
 * figures (issue #19): a user region "step" with an integer parameter i = 0 .. N-1 (one
 * call path per value, as parameter call paths are) and an MPI_Allreduce inside each.
 * Usage: profile_bench N (call paths; default 2000). Prints nothing. */
#include <mpi.h>
#include <stdlib.h>

#ifdef SCOREP_USER_ENABLE
#include <scorep/SCOREP_User.h>
#else
#define SCOREP_USER_REGION_BY_NAME_BEGIN(name, type)
#define SCOREP_USER_REGION_BY_NAME_END(name)
#define SCOREP_USER_PARAMETER_INT64(name, value)
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 2000;
    double x = 1, y = 0;
    for (long i = 0; i < n; i++) {
        SCOREP_USER_REGION_BY_NAME_BEGIN("step", SCOREP_USER_REGION_TYPE_COMMON)
        SCOREP_USER_PARAMETER_INT64("i", i)
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        SCOREP_USER_REGION_BY_NAME_END("step")
    }
    MPI_Finalize();
    return y > 0 ? 0 : 1;
}
