/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis_omp_bench.c: N small parallel regions (teams of 3, every 7th of 2), each with an
 * explicit barrier, for the OpenMP part of the wait-state analysis (run_analysis_omp_bench.sh;
 * run with OMP_NUM_THREADS=3). */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    volatile double s = 0;
    for (int i = 0; i < n; i++) {
#pragma omp parallel num_threads(i % 7 == 0 ? 2 : 3)
        {
            double x = 0;
            for (int k = 0; k < 200; k++) x += k * 0.5;
#pragma omp barrier
#pragma omp atomic
            s += x;
        }
    }
    printf("%f\n", s);
    MPI_Finalize();
    return 0;
}
