/* SPDX-License-Identifier: BSD-3-Clause */
/* dlopen_mpi.c: an MPI program whose executable does not link libmpi, as python3 with mpi4py
 * (test_mpi_dlopen.sh): built plainly it is the main program, which dlopens the module given
 * as argument and calls its dlopen_mpi_run(); built with -DDLOPEN_MPI_MODULE and mpicc
 * -shared it is that module, linked with libmpi like mpi4py's MPI extension. The module: a
 * ring of ROUNDS (3) rounds of one MPI_Send and one MPI_Recv per rank, then one
 * MPI_Allreduce; rank 0 prints "ring N sum S" (N = messages, S = the ranks' sum). */
#ifdef DLOPEN_MPI_MODULE
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 3

int dlopen_mpi_run(int argc, char **argv);
int dlopen_mpi_run(int argc, char **argv)
{
    int rank, size, token = 0, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int r = 0; r < ROUNDS; r++) {
        if (rank == 0) {
            MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, r, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, size - 1, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, rank - 1, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token++;
            MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, r, MPI_COMM_WORLD);
        }
    }
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ring %d sum %d\n", ROUNDS * size, sum);
    MPI_Finalize();
    /* every rank adds 1 to the token as it passes: back at rank 0, size - 1 more a round */
    return rank != 0 || token == ROUNDS * (size - 1) ? 0 : 1;
}
#else
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODULE.so\n", argv[0]);
        return 2;
    }
    /* RTLD_GLOBAL as Python loads mpi4py's extension (so Open MPI's plugins find libmpi) */
    void *m = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
    if (!m) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 2;
    }
    int (*run)(int, char **);
    *(void **)&run = dlsym(m, "dlopen_mpi_run");
    if (!run) {
        fprintf(stderr, "dlsym: %s\n", dlerror());
        return 2;
    }
    return run(argc, argv);
}
#endif
