/* SPDX-License-Identifier: BSD-3-Clause */
// multistream.cu: a CUDA program with known GPU work for gpu_check.sh: on each of 3 streams
// s = 0, 1, 2: a copy host->device of (s + 1) MiB, 4 launches of scale, 2 of add, a memset
// of 4096 bytes and a copy device->host of (s + 1) MiB; inside NVTX ranges "setup" (1) and
// "streams" (1) with one "stream" range per stream (3). Totals: scale 12, add 6, HtoD 3
// copies of 6 MiB together, DtoH the same, memset 3. Exit status 2 without a GPU.
#include <cstdio>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

__global__ void scale(float *v, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= a;
}

__global__ void add(float *v, int n, float b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] += b;
}

int main()
{
    const int streams = 3;
    cudaStream_t st[streams];
    float *host[streams], *dev[streams];
    nvtxRangePushA("setup");
    for (int s = 0; s < streams; s++) {
        size_t bytes = (size_t)(s + 1) << 20;
        if (cudaStreamCreate(&st[s]) != cudaSuccess || cudaMallocHost(&host[s], bytes) != cudaSuccess ||
            cudaMalloc(&dev[s], bytes) != cudaSuccess) {
            printf("no gpu\n");
            return 2;
        }
        for (size_t i = 0; i < bytes / sizeof(float); i++)
            host[s][i] = 1.0f;
    }
    nvtxRangePop();
    nvtxRangePushA("streams");
    for (int s = 0; s < streams; s++) {
        nvtxRangePushA("stream");
        size_t bytes = (size_t)(s + 1) << 20;
        int n = (int)(bytes / sizeof(float));
        cudaMemcpyAsync(dev[s], host[s], bytes, cudaMemcpyHostToDevice, st[s]);
        for (int k = 0; k < 4; k++)
            scale<<<(n + 255) / 256, 256, 0, st[s]>>>(dev[s], n, 2.0f);
        for (int k = 0; k < 2; k++)
            add<<<(n + 255) / 256, 256, 0, st[s]>>>(dev[s], n, 1.0f);
        cudaMemsetAsync(dev[s], 0, 4096, st[s]);
        cudaMemcpyAsync(host[s], dev[s], bytes, cudaMemcpyDeviceToHost, st[s]);
        nvtxRangePop();
    }
    cudaDeviceSynchronize();
    nvtxRangePop();
    // 1024 floats were zeroed, the rest is 1 * 16 + 2 = 18
    int ok = host[2][0] == 0.0f && host[2][2048] == 18.0f;
    for (int s = 0; s < streams; s++) {
        cudaFree(dev[s]);
        cudaFreeHost(host[s]);
        cudaStreamDestroy(st[s]);
    }
    printf(ok ? "multistream ok\n" : "multistream: wrong results\n");
    return ok ? 0 : 1;
}
