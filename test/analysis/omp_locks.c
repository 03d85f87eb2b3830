/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_locks.c: MPI + OpenMP program with prescribed lock contention for the analysis test
 * test_analysis_omp_locks.sh (1 rank, 3 threads, D = argv[1] seconds). In one team, thread k
 *   1. enters a critical section at t0 + k*S and stays in it for D
 *   2. after a barrier, sets lock L at t1 + k*S, holds it for D/2, unsets it
 * so that the later threads wait for the earlier ones. Every holding is printed as
 * "H what thread kind enter acquired released" (the node's clock just before the construct or
 * call that acquires, just after, just before the release): the test derives the expected
 * contention from those. Each thread k enters a user region "thread<k>": the test finds its
 * location. */
#include <mpi.h>
#include <omp.h>
#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>
#include "scenario.h"

#define S 0.02

static scenario_marks marks;

static void holding(const char *what, int k, const char *kind, double e, double a, double r)
{
    marks_add(&marks, "H %s %d %s %.9f %.9f %.9f", what, k, kind, e, a, r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double D = argc > 1 ? atof(argv[1]) : 0.2;
    omp_lock_t lock;
    omp_init_lock(&lock);
    double t0 = now() + 0.1, t1 = t0 + 3 * D + 2 * S + 0.1; /* after the critical sections */
#pragma omp parallel num_threads(3)
    {
        int k = omp_get_thread_num();
        char who[16];
        snprintf(who, sizeof who, "thread%d", k);
        SCOREP_USER_REGION_BY_NAME_BEGIN(who, SCOREP_USER_REGION_TYPE_COMMON)
        SCOREP_USER_REGION_BY_NAME_END(who)
        spin_until(t0 + k * S);
        double e = now();
#pragma omp critical
        {
            double a = now();
            spin_until(a + D);
            holding("C", k, "critical", e, a, now());
        }
#pragma omp barrier
        spin_until(t1 + k * S);
        e = now();
        omp_set_lock(&lock);
        double a = now();
        spin_until(a + D / 2);
        double r = now();
        omp_unset_lock(&lock);
        holding("L", k, "api", e, a, r);
    }
    omp_destroy_lock(&lock);
    MPI_Finalize();
    marks_print(&marks);
    return 0;
}
