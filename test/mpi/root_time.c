/* SPDX-License-Identifier: BSD-3-Clause */
/* root_time.c: MPI calls with known computation between them, for the program root
 * (test_mpi_root.sh): rank 0 computes 1 s, every other rank 0.5 s, between two barriers;
 * nothing else is done outside MPI calls. Prints per rank "R rank work W window T": W the
 * computation as its own clock measured it, T the time from the start of main to the call
 * of MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile double sink;

/* busy for w seconds of wall time (the loop ends at the first clock reading past it) */
static double compute(double w)
{
    double t0 = now(), t;
    do {
        for (int i = 0; i < 1000; i++)
            sink += i * 0.5;
        t = now();
    } while (t - t0 < w);
    return t - t0;
}

int main(int argc, char **argv)
{
    double t0 = now();
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    double work = compute(rank == 0 ? 1.0 : 0.5);
    MPI_Barrier(MPI_COMM_WORLD);
    double window = now() - t0;
    MPI_Finalize();
    printf("R %d work %.6f window %.6f\n", rank, work, window);
    return 0;
}
