/* SPDX-License-Identifier: BSD-3-Clause */
/* finalize.c: ranks reach MPI_Finalize at designed times (test_analysis_finalize.sh). After a
 * common start, rank r works r x D (argv[1] seconds) in the user region "work" and then calls
 * MPI_Finalize: rank r waits there (N - 1 - r) x D for the last rank, which is Scalasca's Wait
 * at Finalize, and the critical path ends on the last rank. No other wait states after the
 * start. Prints "T finalize RANK enter SECONDS" (the node's clock just before MPI_Finalize)
 * after MPI_Finalize. */
#include <mpi.h>
#include <scorep/SCOREP_User.h>
#include <stdlib.h>

#include "scenario.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double d = argc > 1 ? atof(argv[1]) : 0.2;
    scenario_marks marks = {.n = 0};
    double t0 = scenario_start(MPI_COMM_WORLD);
    SCOREP_USER_REGION_DEFINE(work)
    SCOREP_USER_REGION_BEGIN(work, "work", SCOREP_USER_REGION_TYPE_COMMON)
    spin_until(t0 + rank * d);
    SCOREP_USER_REGION_END(work)
    marks_add(&marks, "T finalize %d enter %.9f", rank, now());
    MPI_Finalize();
    marks_print(&marks);
    return 0;
}
