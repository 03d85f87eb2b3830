/* SPDX-License-Identifier: BSD-3-Clause */
/* unwind_noaddr.c: for test_unwind_noaddr.sh: regions entered through the user API (a
 * region in work), an MPI wrapper (MPI_Allreduce) and OpenMP constructs (a team of 2, a
 * barrier) from known lines, marked by comments, so that the trace's calling contexts can
 * be checked for which carry a call site (file:line, object and offset) and which have no
 * address. Prints the sum over ranks. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <scorep/SCOREP_User.h>

static double work(int n)
{
    double s = 0;
    SCOREP_USER_REGION_DEFINE(h)
    SCOREP_USER_REGION_BEGIN(h, "phase", SCOREP_USER_REGION_TYPE_COMMON) /* UBEGIN */
    for (int i = 0; i < n; i++)
        s += i * 0.5;
    SCOREP_USER_REGION_END(h)
    return s;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double s = 0, r = 0;
#pragma omp parallel num_threads(2) reduction(+ : s) /* PAR */
    {
        s += work(1000); /* WORK */
#pragma omp barrier /* BAR */
    }
    MPI_Allreduce(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* ALLRED */
    printf("%g\n", r);
    MPI_Finalize();
    return 0;
}
