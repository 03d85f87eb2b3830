/* SPDX-License-Identifier: BSD-3-Clause */
// threads_graphs.cu: concurrent launches and CUDA graphs for gpu_check.sh: 4 host threads,
// each with its own stream, launch `work` 2000 times (synchronising every 500); then the
// main thread captures a graph of g1 -> g2 -> g3 on a stream of its own (3 cudaLaunchKernel
// calls while capturing) and launches it 50 times. Totals: work 8000 (2000 on each of 4 stream locations, 2000 cudaLaunchKernel per
// worker thread), g1, g2 and g3 50 each, cudaGraphLaunch 50. Exit status 2 without a GPU.
#include <cstdio>
#include <cuda_runtime.h>
#include <pthread.h>

__global__ void work(int *v) { v[threadIdx.x] += 1; }
__global__ void g1(int *v) { v[threadIdx.x] += 1; }
__global__ void g2(int *v) { v[threadIdx.x] += 2; }
__global__ void g3(int *v) { v[threadIdx.x] -= 1; }

static const int threads = 4, launches = 2000, graph_launches = 50;

static void *worker(void *arg)
{
    int *v = (int *)arg;
    cudaStream_t s;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess)
        return (void *)1;
    for (int i = 0; i < launches; i++) {
        work<<<1, 32, 0, s>>>(v);
        if (i % 500 == 499)
            cudaStreamSynchronize(s);
    }
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    return NULL;
}

int main()
{
    int *v[threads + 1];
    for (int t = 0; t <= threads; t++)
        if (cudaMalloc(&v[t], 32 * sizeof(int)) != cudaSuccess ||
            cudaMemset(v[t], 0, 32 * sizeof(int)) != cudaSuccess) {
            printf("no gpu\n");
            return 2;
        }
    cudaDeviceSynchronize();
    pthread_t tid[threads];
    for (int t = 0; t < threads; t++)
        pthread_create(&tid[t], NULL, worker, v[t]);
    int bad = 0;
    for (int t = 0; t < threads; t++) {
        void *r;
        pthread_join(tid[t], &r);
        bad |= r != NULL;
    }
    cudaStream_t s;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    g1<<<1, 32, 0, s>>>(v[threads]);
    g2<<<1, 32, 0, s>>>(v[threads]);
    g3<<<1, 32, 0, s>>>(v[threads]);
    cudaStreamEndCapture(s, &graph);
    if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess)
        bad = 1;
    for (int i = 0; i < graph_launches; i++)
        cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    int h[32];
    cudaMemcpy(h, v[0], sizeof h, cudaMemcpyDeviceToHost);
    bad |= h[5] != launches;
    int want = 2 * graph_launches; // g1 + g2 + g3: +1 +2 -1 per graph launch
    cudaMemcpy(h, v[threads], sizeof h, cudaMemcpyDeviceToHost);
    bad |= h[7] != want;
    printf(bad ? "threads_graphs wrong\n" : "threads_graphs ok\n");
    return bad || cudaGetLastError() != cudaSuccess;
}
