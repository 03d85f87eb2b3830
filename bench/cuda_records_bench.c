/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda_records_bench.c: the cost of turning CUPTI kernel activity records into events, per
 * record, on the CPU (no GPU needed): buffers of CUPTI's own CUpti_ActivityKernel10 records
 * (16 C++ kernels with realistic mangled names, each name one string as CUPTI shares it, 4
 * streams) fed through
 *   new:  scorep_cuda_process_buffer (the adapter's path: cached regions, per-buffer clock)
 *   old:  the same function of the adapter before issue 17 (run_cuda_bench.sh compiles it
 *         from git with its symbols renamed old_*; -DWITH_OLD)
 *   pool: the whole path CUPTI drives: buffer requested from the pool, filled, completed,
 *         processed by the consumer thread (end to end, with the filling; pool peak shown).
 * Only the processing call is timed for new and old. Prints "ns_per_record records [peak]".
 * Usage: cuda_records_bench N new|old|pool */
#include "adapters/cuda/cuda_adapter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef WITH_OLD
int old_process_buffer(uint8_t *buffer, size_t valid_size);
extern scorep_cuda_clock old_activity_clock;
#endif

static const char *names[16] = {
    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_6detail5ArrayIPcLi1EEEEEviT0_T1_",
    "_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl_nocastINS0_13BUnaryFunctorIfffNS0_15binary_internal10MulFunctorIfEEEEEEvRNS_18TensorIteratorBaseERKT_EUliE_EEviT1_",
    "_Z6vecAddPKfS0_Pfi",
    "_Z5saxpyifPfS_",
    "_ZN7cutlass6KernelINS_4gemm6kernel4GemmINS1_11threadblock13MmaPipelinedEEEEEvNT_6ParamsE",
    "_Z11reduce_sum1PKdPdm",
    "_Z10transposeKPfPKfii",
    "_Z7stencilILi3EEvPKfPfiii",
    "_Z8softmax2IfLi256EEvPKT_PS0_i",
    "_Z9layernormIfEvPKT_S2_S2_PS0_if",
    "_Z4gelufPKfPfl",
    "_Z10copy_stridPKdPdll",
    "_Z9histogramPKjPjj",
    "_Z12scan_blockedILi512EEvPiS0_i",
    "_Z6spmv32PKiS0_PKfS2_Pfi",
    "_Z11empty_kernelv",
};

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t gpu = 1000000, seq;

/* Fills buf with as many kernel records as fit, at most left; returns the bytes used. */
static size_t fill(uint8_t *buf, size_t size, uint64_t *left)
{
    size_t at = 0;
    CUpti_ActivityKernel10 k;
    memset(&k, 0, sizeof k);
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.contextId = 1;
    k.gridX = 128;
    k.blockX = 256;
    for (; *left > 0 && at + sizeof k <= size; (*left)--, seq++, gpu += 3000) {
        k.start = gpu;
        k.end = gpu + 2000;
        k.streamId = 7 + (uint32_t)(seq % 4);
        k.correlationId = (uint32_t)seq;
        k.name = names[seq % 16];
        memcpy(buf + at, &k, sizeof k);
        at += sizeof k;
    }
    return at;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s N new|old|pool\n", argv[0]);
        return 2;
    }
    uint64_t n = strtoull(argv[1], NULL, 10), left = n, ns = 0;
    const char *mode = argv[2];
    scorep_cuda_clock_from_cupti = 0;
    scorep_cuda_clock_start(&scorep_cuda_activity_clock, 5000000, 1000000);
    scorep_cuda_clock_sync(&scorep_cuda_activity_clock, 5000000 + 2000000000ull,
                           1000000 + 1000000000ull);
#ifdef WITH_OLD
    old_activity_clock = scorep_cuda_activity_clock;
#endif
    if (strcmp(mode, "pool") == 0) {
        if (scorep_cuda_pool_init() != 0 || scorep_cuda_consumer_start() != 0)
            return 1;
        uint64_t t0 = now_ns();
        while (left > 0) {
            uint8_t *buf;
            size_t size, max;
            scorep_cuda_buffer_requested(&buf, &size, &max);
            if (!buf)
                break;
            scorep_cuda_buffer_completed(NULL, 0, buf, size, fill(buf, size, &left));
        }
        scorep_cuda_consumer_stop();
        ns = now_ns() - t0;
        scorep_cuda_pool_info p;
        scorep_cuda_pool_stats(&p);
        if (p.records != n || p.refused) {
            fprintf(stderr, "pool: %llu of %llu records, %llu refused\n",
                    (unsigned long long)p.records, (unsigned long long)n,
                    (unsigned long long)p.refused);
            return 1;
        }
        printf("%.1f %llu %llu\n", (double)ns / (double)n, (unsigned long long)n,
               (unsigned long long)(p.peak_used * p.chunk_size));
        return 0;
    }
    size_t size = 1 << 20;
    uint8_t *buf = aligned_alloc(8, size);
    if (!buf)
        return 1;
    uint64_t events = 0;
    while (left > 0) {
        size_t used = fill(buf, size, &left);
        uint64_t t0 = now_ns();
        int rc;
#ifdef WITH_OLD
        rc = strcmp(mode, "old") == 0 ? old_process_buffer(buf, used)
                                        : scorep_cuda_process_buffer(buf, used);
#else
        if (strcmp(mode, "old") == 0)
            return 3; /* not compiled with the old path */
        rc = scorep_cuda_process_buffer(buf, used);
#endif
        ns += now_ns() - t0;
        if (rc < 0)
            return 1;
        events += (uint64_t)rc;
    }
    if (events != n) {
        fprintf(stderr, "%s: %llu of %llu records became events\n", mode,
                (unsigned long long)events, (unsigned long long)n);
        return 1;
    }
    printf("%.1f %llu\n", (double)ns / (double)n, (unsigned long long)n);
    free(buf);
    return 0;
}
