/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_mpi.c: MPI_Alloc_mem of 1024 bytes freed with MPI_Free_mem, and of 2048 bytes
 * never freed, on every rank (test_memory_recording.sh). With the argument "win" also
 * windows: MPI_Win_allocate of 512 bytes, MPI_Win_allocate_shared of 256 and MPI_Win_create
 * over 64 bytes of the program's own, all three freed with MPI_Win_free. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    void *a, *b;
    MPI_Alloc_mem(1024, MPI_INFO_NULL, &a);
    memset(a, 1, 1024);
    MPI_Free_mem(a);
    MPI_Alloc_mem(2048, MPI_INFO_NULL, &b);
    memset(b, 2, 2048);
    if (argc > 1 && strcmp(argv[1], "win") == 0) {
        void *w1, *w2;
        static char own[64];
        MPI_Win a1, a2, c;
        MPI_Win_allocate(512, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w1, &a1);
        memset(w1, 3, 512);
        MPI_Win_allocate_shared(256, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w2, &a2);
        memset(w2, 4, 256);
        MPI_Win_create(own, sizeof own, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &c);
        MPI_Win_free(&c);
        MPI_Win_free(&a2);
        MPI_Win_free(&a1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("done %d\n", size);
    MPI_Finalize();
    return 0;
}
