/* SPDX-License-Identifier: BSD-3-Clause */
/* metrics_mpi.c: MPI test program of the metric sources: each rank burns some CPU and writes
 * one fresh page in work(), waits 200 ms and meets the others in a barrier. */
#include <mpi.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

volatile double sink;

__attribute__((noinline)) void work(int rank)
{
    double s = 0;
    for (long i = 0; i < 5000000; i++)
        s += (double)i * rank;
    /* a page never touched before: at least one minor fault in main by design */
    long size = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
        p[0] = 1;
        s += p[0];
        munmap(p, (size_t)size);
    }
    sink = s;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    work(rank + 1);
    usleep(200000);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("done %d\n", size);
    MPI_Finalize();
    return 0;
}
