/* SPDX-License-Identifier: BSD-3-Clause */
// saxpy.cu: a small CUDA program for test_cuda_program.sh: host functions with known call
// counts around CUDA runtime calls; without a GPU the CUDA calls fail and it says so.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__attribute__((noinline)) void fill(float *v, int n, float value)
{
    for (int i = 0; i < n; i++)
        v[i] = value;
}

__attribute__((noinline)) int run_on_gpu(float *x, float *y, int n)
{
    float *dx = nullptr, *dy = nullptr;
    if (cudaMalloc(&dx, n * sizeof(float)) != cudaSuccess)
        return -1;
    cudaMalloc(&dy, n * sizeof(float));
    cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice);
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
    cudaDeviceSynchronize();
    cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dx);
    cudaFree(dy);
    return 0;
}

int main()
{
    const int n = 1 << 16;
    static float x[1 << 16], y[1 << 16];
    for (int r = 0; r < 3; r++) {
        fill(x, n, 1.0f);
        fill(y, n, 2.0f);
    }
    int rc = run_on_gpu(x, y, n);
    printf(rc == 0 ? "gpu: y[0] = %.1f\n" : "no gpu: host side only\n", y[0]);
    return 0;
}
