/* SPDX-License-Identifier: BSD-3-Clause */
// launches.cu: the launch-bound loop of gpu_check.sh: "launches N" launches an empty kernel
// N times and then the kernel last once (N + 1 kernels; synchronised every 10000 launches);
// "query N" calls cudaStreamQuery N times (a cheap API call). Prints the host time per
// operation in ns (the overhead rounds' figure). Exit status 2 without a GPU.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cuda_runtime.h>

__global__ void empty() {}
__global__ void last() {}

static double now_ns()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 3;
    long n = atol(argv[2]);
    if (cudaFree(0) != cudaSuccess) {
        printf("no gpu\n");
        return 2;
    }
    empty<<<1, 1>>>(); // warm up: module loaded, first launch paid
    cudaDeviceSynchronize();
    double t0 = now_ns();
    if (strcmp(argv[1], "launches") == 0) {
        for (long i = 1; i < n; i++) { // with the warm-up: n launches of empty
            empty<<<1, 1>>>();
            if (i % 10000 == 0)
                cudaDeviceSynchronize();
        }
        last<<<1, 1>>>();
        cudaDeviceSynchronize();
    } else {
        for (long i = 0; i < n; i++)
            cudaStreamQuery(0);
    }
    double t = now_ns() - t0;
    printf("%.1f\n", t / (double)n);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
