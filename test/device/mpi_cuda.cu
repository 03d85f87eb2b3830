/* SPDX-License-Identifier: BSD-3-Clause */
// mpi_cuda.cu: an MPI + CUDA program with known work for gpu_check.sh's mpi part: rank r
// copies 1 MiB to its GPU, launches rank_kernel 10 * (r + 1) times, copies the 1 MiB back
// and takes part in one MPI_Allreduce of its result. With 2 ranks: rank_kernel 10 and 20 on
// one stream location per rank, 2 copies each way, 2 MPI_Allreduce. Prints "mpi_cuda ok" on
// rank 0. Exit status 2 without a GPU.
#include <cstdio>
#include <cuda_runtime.h>
#include <mpi.h>

__global__ void rank_kernel(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] += 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int n = 1 << 18; // 1 MiB of int
    static int host[1 << 18];
    int *dev;
    if (cudaMalloc(&dev, n * sizeof(int)) != cudaSuccess) {
        printf("no gpu\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    cudaMemcpy(dev, host, n * sizeof(int), cudaMemcpyHostToDevice);
    int launches = 10 * (rank + 1);
    for (int i = 0; i < launches; i++)
        rank_kernel<<<(n + 255) / 256, 256>>>(dev, n);
    cudaMemcpy(host, dev, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(dev);
    int mine = host[n - 1] == launches, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        printf(all == size ? "mpi_cuda ok\n" : "mpi_cuda wrong\n");
    MPI_Finalize();
    return all == size ? 0 : 1;
}
