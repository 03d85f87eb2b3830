/* cuda_synthetic.c: feeds CUPTI activity records of CUPTI's own struct types through the
 * adapter's buffer processing (the buffer-completed callback's path) and checks the clock
 * conversion; test_cuda_activity.sh reads the resulting trace and profile back, and
 * test_cuda_mpi.sh the same per rank of an MPI run (built with -DWITH_MPI). */
#include "adapters/cuda/cuda_adapter.h"

#ifdef WITH_MPI
#include <mpi.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void expect_u64(const char *what, uint64_t got, uint64_t want)
{
    if (got != want) {
        printf("FAIL %s: %llu, expected %llu\n", what, (unsigned long long)got,
               (unsigned long long)want);
        failures++;
    }
}

static void check_clock(void)
{
    scorep_cuda_clock c = {0};
    expect_u64("no sync point: unchanged", scorep_cuda_clock_to_host(&c, 77, 0), 77);
    scorep_cuda_clock_start(&c, 5000, 1000);
    /* one point: the host timer's nominal rate (here 2 GHz, 2 ticks per ns) */
    expect_u64("one point", scorep_cuda_clock_to_host(&c, 1500, 2000000000u), 6000);
    expect_u64("one point, before it", scorep_cuda_clock_to_host(&c, 900, 2000000000u), 4800);
    scorep_cuda_clock_sync(&c, 8000, 2000); /* slope 3 */
    expect_u64("interpolated", scorep_cuda_clock_to_host(&c, 1500, 0), 6500);
    expect_u64("extrapolated", scorep_cuda_clock_to_host(&c, 2100, 0), 8300);
    scorep_cuda_clock_sync(&c, 9000, 1000); /* no later GPU time: ignored */
    expect_u64("sync without progress kept the slope", scorep_cuda_clock_to_host(&c, 2000, 0),
               8000);
}

static size_t put(uint8_t *buf, size_t at, const void *rec, size_t size)
{
    memcpy(buf + at, rec, size);
    return at + size;
}

static size_t kernel(uint8_t *buf, size_t at, const char *name, uint32_t stream, uint64_t s,
                     uint64_t e, uint32_t corr)
{
    CUpti_ActivityKernel10 k;
    memset(&k, 0, sizeof k);
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.start = s;
    k.end = e;
    k.deviceId = 0;
    k.contextId = 1;
    k.streamId = stream;
    k.correlationId = corr;
    k.name = name;
    return put(buf, at, &k, sizeof k);
}

static size_t copy(uint8_t *buf, size_t at, uint8_t kind, uint64_t bytes, uint32_t stream,
                   uint64_t s, uint64_t e, uint32_t corr)
{
    CUpti_ActivityMemcpy6 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    m.copyKind = kind;
    m.bytes = bytes;
    m.start = s;
    m.end = e;
    m.deviceId = 0;
    m.contextId = 1;
    m.streamId = stream;
    m.correlationId = corr;
    return put(buf, at, &m, sizeof m);
}

static size_t set(uint8_t *buf, size_t at, uint64_t bytes, uint32_t stream, uint64_t s, uint64_t e)
{
    CUpti_ActivityMemset4 m;
    memset(&m, 0, sizeof m);
    m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    m.bytes = bytes;
    m.start = s;
    m.end = e;
    m.deviceId = 0;
    m.contextId = 1;
    m.streamId = stream;
    return put(buf, at, &m, sizeof m);
}

/* The callback API's path: what CUPTI passes for runtime and driver API calls. */
static void api_call(CUpti_CallbackDomain domain, CUpti_CallbackId id, const char *name)
{
    CUpti_CallbackData cb;
    memset(&cb, 0, sizeof cb);
    cb.functionName = name;
    cb.callbackSite = CUPTI_API_ENTER;
    scorep_cuda_api_callback(NULL, domain, id, &cb);
    cb.callbackSite = CUPTI_API_EXIT;
    scorep_cuda_api_callback(NULL, domain, id, &cb);
}

static void api_calls(void)
{
    for (int i = 0; i < 2; i++)
        api_call(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020,
                 "cudaMalloc");
    for (int i = 0; i < 3; i++)
        api_call(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                 "cudaLaunchKernel");
    /* a synchronisation: flushes only when the activity API is on (not without a GPU) */
    api_call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize,
             "cuCtxSynchronize");
}

/* The bounded pool (run with SCOREP_CUDA_BUFFER=64k, SCOREP_CUDA_BUFFER_CHUNK=8k): eight
 * chunks, a ninth request gets none, a completed chunk can be had again. */
static void check_pool(void)
{
    uint8_t *got[9];
    size_t size[9], max;
    expect_u64("pool init", (uint64_t)scorep_cuda_pool_init(), 0);
    for (int i = 0; i < 9; i++)
        scorep_cuda_buffer_requested(&got[i], &size[i], &max);
    for (int i = 0; i < 8; i++)
        expect_u64("chunk size", got[i] ? size[i] : 0, 8192);
    expect_u64("ninth request refused", got[8] == NULL && size[8] == 0, 1);
    scorep_cuda_buffer_completed(NULL, 0, got[3], 8192, 0);
    scorep_cuda_buffer_requested(&got[8], &size[8], &max);
    expect_u64("completed chunk reused", got[8] == got[3] && size[8] == 8192, 1);
}

int main(int argc, char **argv)
{
#ifdef WITH_MPI
    MPI_Init(&argc, &argv);
#else
    (void)argc;
    (void)argv;
#endif
    check_clock();
    api_calls();
    /* host = 1000000 + 2 * (gpu - 10000) */
    scorep_cuda_clock_start(&scorep_cuda_activity_clock, 1000000, 10000);
    scorep_cuda_clock_sync(&scorep_cuda_activity_clock, 3000000, 1010000);
    uint8_t *buf = aligned_alloc(8, 8192);
    if (!buf)
        return 1;
    memset(buf, 0, 8192);
    size_t n = 0;
    const char *vec = "_Z6vecAddPKfS0_Pfi";
    n = copy(buf, n, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, 4096, 7, 100000, 105000, 11);
    n = kernel(buf, n, vec, 7, 110000, 160000, 12);
    n = set(buf, n, 1024, 8, 115000, 116000);
    n = kernel(buf, n, "scale", 8, 120000, 130000, 13);
    n = kernel(buf, n, vec, 7, 200000, 250000, 14);
    n = copy(buf, n, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, 4096, 7, 300000, 310000, 15);
    n = copy(buf, n, CUPTI_ACTIVITY_MEMCPY_KIND_DTOD, 512, 8, 320000, 321000, 16);
    int events = scorep_cuda_process_buffer(buf, n);
    /* argv[1]: how many records the SCOREP_CUDA_ENABLE of the run records (all 7 by default) */
    uint64_t want = argc > 1 ? strtoull(argv[1], NULL, 10) : 7;
    expect_u64("records turned into events", (uint64_t)events, want);
    expect_u64("GPU locations", scorep_cuda_stream_count(), 2);
    expect_u64("same stream, same location",
               scorep_cuda_stream_location(0, 1, 7, 0) == scorep_cuda_stream_location(0, 1, 7, 0),
               1);
    free(buf);
    check_pool(); /* last: a completed buffer takes a new clock synchronisation point */
#ifdef WITH_MPI
    MPI_Finalize();
#endif
    printf("%s\n", failures ? "FAILED" : "synthetic records processed");
    return failures ? 1 : 0;
}
