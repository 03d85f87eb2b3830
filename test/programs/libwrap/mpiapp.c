/* SPDX-License-Identifier: BSD-3-Clause */
/* mpiapp.c: wrapped calls in an MPI program (test_libwrap.sh): rank r calls mylib's ml_add
 * 10*(r+1) times, then one MPI_Allreduce of the sums; rank 0 prints the total. With the
 * argument "one", rank 1 also calls ml_make_pair once (a function only one rank calls: the
 * filter warnings of the job cover it). */
#include <mpi.h>
#include <mylib.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, s = 0, total = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int k = 0; k < 10 * (rank + 1); ++k)
        s = ml_add(s, k);
    if (argc > 1 && strcmp(argv[1], "one") == 0 && rank == 1)
        s += ml_make_pair(rank, rank).a - 1;
    MPI_Allreduce(&s, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d\n", total);
    MPI_Finalize();
    return 0;
}
