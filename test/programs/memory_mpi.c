/* memory_mpi.c: MPI_Alloc_mem of 1024 bytes freed with MPI_Free_mem, and of 2048 bytes
 * never freed, on every rank (test_memory_recording.sh). */
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
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("done %d\n", size);
    MPI_Finalize();
    return 0;
}
