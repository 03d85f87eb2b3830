/* SPDX-License-Identifier: BSD-3-Clause */
/* user_dynamic.c: a dynamic user region "iteration" in a loop of ITERATIONS visits (argv[1],
 * default 30) whose iterations have three designed behaviours: iteration k (from 1) calls
 * f twice when k % 3 == 1, f five times when k % 3 == 2 and g once when k % 3 == 0. With
 * MPI (-DWITH_MPI) rank r makes ITERATIONS - 3 * r iterations. Used by test_user_dynamic.sh
 * and test_mpi_dynamic.sh. */
#include <scorep/SCOREP_User.h>
#include <stdlib.h>
#ifdef WITH_MPI
#include <mpi.h>
#endif

static volatile double sink;

static void f(void)
{
    SCOREP_USER_REGION_DEFINE(h)
    SCOREP_USER_REGION_BEGIN(h, "f", SCOREP_USER_REGION_TYPE_FUNCTION)
    for (int i = 0; i < 1000; i++)
        sink += i;
    SCOREP_USER_REGION_END(h)
}

static void g(void)
{
    SCOREP_USER_REGION_DEFINE(h)
    SCOREP_USER_REGION_BEGIN(h, "g", SCOREP_USER_REGION_TYPE_FUNCTION)
    for (int i = 0; i < 3000; i++)
        sink += i;
    SCOREP_USER_REGION_END(h)
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 30;
#ifdef WITH_MPI
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    n -= 3 * rank;
#endif
    SCOREP_USER_REGION_DEFINE(it)
    for (int k = 1; k <= n; k++) {
        SCOREP_USER_REGION_BEGIN(it, "iteration", SCOREP_USER_REGION_TYPE_DYNAMIC)
        if (k % 3 == 1) {
            f();
            f();
        } else if (k % 3 == 2) {
            for (int i = 0; i < 5; i++)
                f();
        } else {
            g();
        }
        SCOREP_USER_REGION_END(it)
    }
#ifdef WITH_MPI
    MPI_Finalize();
#endif
    return 0;
}
