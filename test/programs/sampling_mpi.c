/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_mpi.c: every rank spends about 0.2 s of CPU in hot() between MPI_Init and a
 * barrier; for sampling of an unmodified MPI program under mpirun + scorep-run. Built with
 * -rdynamic, its own PMPI_Init is the one the measurement's MPI_Init wrapper calls: rank 1
 * leaves it LATE_MS of CPU time late, so that the other ranks wait that long, polling, in the
 * measurement's own collectives after PMPI_Init (its set-up inside MPI_Init). With an
 * argument MS, main then calls MPI_Comm_compare for MS ms of CPU time (under LD_BIND_NOT=1,
 * each call of the wrapper binds its PMPI_Comm_compare lazily again). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#define HOT_MS 200
#define LATE_MS 100
#include "sampling_work.h"

int PMPI_Init(int *argc, char ***argv)
{
    int (*real)(int *, char ***) = (int (*)(int *, char ***))dlsym(RTLD_NEXT, "PMPI_Init");
    int rank = 0;
    int rc = real ? real(argc, argv) : MPI_ERR_OTHER;
    if (rc == MPI_SUCCESS && PMPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 1)
        cpu_ms(LATE_MS);
    return rc;
}

/* MPI_Comm_compare (a call that the wrapper records with an Enter and a Leave around its
 * PMPI call) for ms milliseconds of CPU time */
__attribute__((noinline)) void compare_calls(long ms)
{
    struct timespec a, b;
    int result;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    do {
        for (int i = 0; i < 100; i++)
            MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &result);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ms * 1000000L);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc > 1)
        compare_calls(atol(argv[1]));
    hot();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
