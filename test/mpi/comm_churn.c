/* SPDX-License-Identifier: BSD-3-Clause */
/* comm_churn.c (2 processes or more): creates and frees many communicators over the same
 * processes (argv[1] times, default 10000), alternately MPI_Comm_dup of MPI_COMM_WORLD and
 * MPI_Comm_create from MPI_COMM_WORLD's group, which the trace must define once as a group. */
#include "mpi_test.h"

int main(int argc, char **argv)
{
    int rank, size, n = argc > 1 ? atoi(argv[1]) : 10000;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    MPI_Group wg;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    for (int i = 0; i < n; i++) {
        MPI_Comm c;
        if (i % 2 == 0)
            CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        else
            CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, wg, &c));
        CHECK_MPI(MPI_Comm_free(&c));
    }
    MPI_Group_free(&wg);
    MPI_Finalize();
    return 0;
}
