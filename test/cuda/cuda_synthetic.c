/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda_synthetic.c: feeds CUPTI activity records of CUPTI's own struct types through the
 * adapter's buffer processing (the buffer-completed callback's path) and checks the clock
 * conversion; test_cuda_activity.sh reads the resulting trace and profile back, and
 * test_cuda_mpi.sh the same per rank of an MPI run (built with -DWITH_MPI). */
#include "adapters/cuda/cuda_adapter.h"
#include "core/events.h"

#ifdef WITH_MPI
#include <mpi.h>
#endif
#include <pthread.h>
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

/* the device and context of the records kernel() makes (device 0, context 1 but in
 * more_devices) */
static uint32_t kernel_device = 0, kernel_context = 1;

static size_t kernel(uint8_t *buf, size_t at, const char *name, uint32_t stream, uint64_t s,
                     uint64_t e, uint32_t corr)
{
    CUpti_ActivityKernel10 k;
    memset(&k, 0, sizeof k);
    /* CUDA_SYNTHETIC_SERIAL: the records of kernel_serial (CUPTI's KERNEL activity) */
    k.kind = getenv("CUDA_SYNTHETIC_SERIAL") ? CUPTI_ACTIVITY_KIND_KERNEL
                                             : CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.start = s;
    k.end = e;
    k.deviceId = kernel_device;
    k.contextId = kernel_context;
    k.streamId = stream;
    k.correlationId = corr;
    k.name = name;
    /* the launch configuration (kernel_counter): 8 blocks of 128 threads, 1536 bytes of
     * shared memory, 32 registers */
    k.gridX = 4;
    k.gridY = 2;
    k.gridZ = 1;
    k.blockX = 64;
    k.blockY = 2;
    k.blockZ = 1;
    k.staticSharedMemory = 1024;
    k.dynamicSharedMemory = 512;
    k.registersPerThread = 32;
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
static void api_call_with(CUpti_CallbackDomain domain, CUpti_CallbackId id, const char *name,
                          const void *params, uint32_t correlation)
{
    CUpti_CallbackData cb;
    int ok = 0; /* cudaSuccess */
    memset(&cb, 0, sizeof cb);
    cb.functionName = name;
    cb.functionParams = params;
    cb.functionReturnValue = &ok;
    cb.correlationId = correlation;
    cb.callbackSite = CUPTI_API_ENTER;
    scorep_cuda_api_callback(NULL, domain, id, &cb);
    cb.callbackSite = CUPTI_API_EXIT;
    scorep_cuda_api_callback(NULL, domain, id, &cb);
}

static void api_call(CUpti_CallbackDomain domain, CUpti_CallbackId id, const char *name)
{
    api_call_with(domain, id, name, NULL, 0);
}

/* gpumemusage beyond cudaMalloc/cudaFree, in this order (usage after each call):
 * cudaMallocManaged 2000 bytes at 0x40000 (5000), the driver's cuMemAlloc_v2 of the same
 * block as the runtime makes it (5000: counted once), cuMemAllocPitch_v2 of 4 rows at a
 * pitch of 512 at 0x50000 (7048), cudaMallocAsync 100 at 0x60000 (7148), cudaFreeAsync of
 * it (7048), cuMemFree_v2 of 0x40000 (5048), cudaFree of 0x40000 again (5048: gone). */
static void memory_calls(void)
{
    void *managed = (void *)0x40000, *async = (void *)0x60000;
    CUdeviceptr dmanaged = 0x40000, pitched = 0x50000;
    size_t pitch = 512;
    cudaMallocManaged_v6000_params mm = {&managed, 2000, 1};
    api_call_with(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMallocManaged_v6000,
                  "cudaMallocManaged", &mm, 0);
    cuMemAlloc_v2_params ma = {&dmanaged, 2000};
    api_call_with(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, "cuMemAlloc_v2",
                  &ma, 0);
    cuMemAllocPitch_v2_params mp = {&pitched, &pitch, 500, 4, 4};
    api_call_with(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2,
                  "cuMemAllocPitch_v2", &mp, 0);
    cudaMallocAsync_v11020_params as = {&async, 100, NULL};
    api_call_with(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020,
                  "cudaMallocAsync", &as, 0);
    cudaFreeAsync_v11020_params fa = {async, NULL};
    api_call_with(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020,
                  "cudaFreeAsync", &fa, 0);
    cuMemFree_v2_params mf = {dmanaged};
    api_call_with(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, "cuMemFree_v2",
                  &mf, 0);
    cudaFree_v3020_params f = {managed};
    api_call_with(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020, "cudaFree",
                  &f, 0);
}

/* gpumemusage: cudaMalloc of 1000 and 3000 bytes (at device addresses 0x10000 and 0x20000),
 * and with "features", cudaFree of the first; references: the launches have correlation ids
 * 12, 13, 14, as the kernels of the buffer below. */
static void api_calls(int features)
{
    void *ptrs[2] = {(void *)0x10000, (void *)0x20000};
    for (int i = 0; i < 2; i++) {
        cudaMalloc_v3020_params p = {&ptrs[i], i == 0 ? 1000 : 3000};
        api_call_with(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020,
                      "cudaMalloc", &p, 0);
    }
    for (int i = 0; i < 3; i++)
        api_call_with(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                      "cudaLaunchKernel", NULL, 12 + (uint32_t)i);
    if (features) {
        cudaFree_v3020_params f = {ptrs[0]};
        api_call_with(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020,
                      "cudaFree", &f, 0);
        memory_calls();
    }
    /* a synchronisation: flushes only when the activity API is on (not without a GPU) */
    api_call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize,
             "cuCtxSynchronize");
}

/* "remap" (test_cuda_remap.sh): besides "features"' calls, two management calls (one per
 * API) and one call in no category of the remapping specification (CUDA time of its own). */
static void remap_calls(void)
{
    api_call(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020,
             "cudaGetDeviceCount");
    api_call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice, "cuCtxGetDevice");
    api_call(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,
             "cudaGetLastError");
}

/* "callsite" (kernel_callsite): the launches of the buffer below from two host call paths:
 * 12 and 14 inside the region "solver", 13 outside it, as cudaLaunchKernel with the
 * driver's cuLaunchKernel of the same correlation id inside (the runtime calls the driver);
 * then launch_late() for the second buffer. */
static uint32_t solver_region(void)
{
    static uint32_t id; /* id + 1 */
    if (!id)
        id = scorep_defs_region("solver", NULL, NULL, 0, 0, SCOREP_PARADIGM_USER,
                                SCOREP_ROLE_FUNCTION) + 1;
    return id - 1;
}

static void launch(uint32_t correlation, int in_solver)
{
    scorep_location *l = scorep_location_get();
    if (in_solver)
        scorep_event_enter(l, solver_region());
    CUpti_CallbackData cb;
    memset(&cb, 0, sizeof cb);
    cb.correlationId = correlation;
    cb.callbackSite = CUPTI_API_ENTER;
    cb.functionName = "cudaLaunchKernel";
    scorep_cuda_api_callback(NULL, CUPTI_CB_DOMAIN_RUNTIME_API,
                             CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &cb);
    cb.functionName = "cuLaunchKernel";
    scorep_cuda_api_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
                             &cb);
    cb.callbackSite = CUPTI_API_EXIT;
    scorep_cuda_api_callback(NULL, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
                             &cb);
    cb.functionName = "cudaLaunchKernel";
    scorep_cuda_api_callback(NULL, CUPTI_CB_DOMAIN_RUNTIME_API,
                             CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &cb);
    if (in_solver)
        scorep_event_leave(l, solver_region());
}

/* "thread": a CPU thread measured after the GPU streams exist (its local location id comes
 * after theirs): one visit of "solver" */
static void *late_thread(void *arg)
{
    (void)arg;
    scorep_location *l = scorep_location_get();
    scorep_event_enter(l, solver_region());
    scorep_event_leave(l, solver_region());
    return NULL;
}

static void launch_callsites(void)
{
    launch(12, 1);
    launch(13, 0);
    launch(14, 1);
}

/* The second buffer of "callsite": launches 20 (outside solver) and 20 + the table's size
 * (inside, the same slot) before their kernels are processed, so kernel 20 finds its
 * entry overwritten; kernel 30 was never launched. Kernels "late_k" (20, 20 + size) and
 * "orphan" (30) on stream 7 after the first buffer's records. */
static void launch_late(void)
{
    launch(20, 0);
    launch(20 + SCOREP_CUDA_CALLSITE_SLOTS, 1);
    uint8_t *buf;
    size_t size, max, n = 0;
    scorep_cuda_buffer_requested(&buf, &size, &max);
    if (!buf) {
        printf("FAIL no buffer for the late kernels\n");
        failures++;
        return;
    }
    n = kernel(buf, n, "late_k", 7, 400000, 401000, 20);
    n = kernel(buf, n, "late_k", 7, 402000, 403000, 20 + SCOREP_CUDA_CALLSITE_SLOTS);
    n = kernel(buf, n, "orphan", 7, 404000, 405000, 30);
    scorep_cuda_buffer_completed(NULL, 0, buf, size, n);
    expect_u64("callsite: the late buffer processed", scorep_cuda_drain(), 1);
}

/* The pool (run with SCOREP_CUDA_BUFFER=64k, SCOREP_CUDA_BUFFER_CHUNK=8k,
 * SCOREP_CUDA_BUFFER_MAX=96k): eight chunks at start, four more grown on demand, the
 * thirteenth request refused (the only case where CUPTI drops records); completed chunks
 * go through the queue and come back. */
static void check_pool(void)
{
    uint8_t *got[13];
    size_t size[13], max;
    scorep_cuda_pool_info p;
    expect_u64("pool init", (uint64_t)scorep_cuda_pool_init(), 0);
    scorep_cuda_pool_stats(&p);
    expect_u64("chunks at start", p.chunks, 8);
    for (int i = 0; i < 13; i++)
        scorep_cuda_buffer_requested(&got[i], &size[i], &max);
    for (int i = 0; i < 12; i++)
        expect_u64("chunk size", got[i] ? size[i] : 0, 8192);
    expect_u64("thirteenth request refused (past the cap)", got[12] == NULL && size[12] == 0, 1);
    scorep_cuda_pool_stats(&p);
    expect_u64("chunks after growing", p.chunks, 12);
    expect_u64("peak in use", p.peak_used, 12);
    expect_u64("requests refused", p.refused, 1);
    for (int i = 0; i < 12; i++)
        scorep_cuda_buffer_completed(NULL, 0, got[i], 8192, 0);
    expect_u64("queued buffers drained", scorep_cuda_drain(), 12);
    scorep_cuda_pool_stats(&p);
    expect_u64("all chunks free again", p.free_chunks, 12);
    scorep_cuda_buffer_requested(&got[0], &size[0], &max);
    expect_u64("a completed chunk handed out again", got[0] != NULL && size[0] == 8192, 1);
    scorep_cuda_buffer_completed(NULL, 0, got[0], 8192, 0);
    scorep_cuda_drain();
}

/* n kernel records (names k0, k1, k2 in turn, 1 us each, 1 us apart, on stream 9) through
 * the pool and the consumer thread, as CUPTI delivers them: buffers filled and completed
 * faster than they are processed, so the pool grows instead of refusing. */
static void many_kernels(uint64_t n)
{
    static const char *names[] = {"_Z2k0v", "_Z2k1Pf", "_Z2k2i"};
    expect_u64("consumer thread", (uint64_t)scorep_cuda_consumer_start(), 0);
    uint64_t gpu = 2000000;
    for (uint64_t done = 0; done < n;) {
        uint8_t *buf;
        size_t size, max, at = 0;
        scorep_cuda_buffer_requested(&buf, &size, &max);
        if (!buf) {
            printf("FAIL buffer refused after %llu records\n", (unsigned long long)done);
            failures++;
            return;
        }
        for (; done < n && at + sizeof(CUpti_ActivityKernel10) <= size; done++, gpu += 2000)
            at = kernel(buf, at, names[done % 3], 9, gpu, gpu + 1000, (uint32_t)done);
        scorep_cuda_buffer_completed(NULL, 0, buf, size, at);
    }
}

/* "devices": after the records of device 0, context 1 (streams 7 and 8), kernels named
 * k_dev on device 1, context 2, stream 3 (one), device 0, context 5, stream 4 (two) and
 * device 1, context 2, stream 6 (three), in this order: two devices, two contexts on
 * device 0, streams of one context not created one after the other. */
static void more_devices(void)
{
    static const struct {
        uint32_t device, context, stream, kernels;
    } where[] = {{1, 2, 3, 1}, {0, 5, 4, 2}, {1, 2, 6, 3}};
    uint8_t *buf;
    size_t size, max, n = 0;
    scorep_cuda_buffer_requested(&buf, &size, &max);
    if (!buf) {
        printf("FAIL no buffer for the records of more devices\n");
        failures++;
        return;
    }
    uint64_t t = 400000;
    for (size_t w = 0; w < sizeof where / sizeof where[0]; w++) {
        kernel_device = where[w].device;
        kernel_context = where[w].context;
        for (uint32_t k = 0; k < where[w].kernels; k++, t += 10000)
            n = kernel(buf, n, "k_dev", where[w].stream, t, t + 5000, 0);
    }
    kernel_device = 0;
    kernel_context = 1;
    scorep_cuda_buffer_completed(NULL, 0, buf, size, n);
    expect_u64("buffers processed (more devices)", scorep_cuda_drain(), 1);
    scorep_cuda_pool_info p;
    scorep_cuda_pool_stats(&p);
    expect_u64("records turned into events (more devices)", p.records, 7 + 6);
    expect_u64("GPU locations (more devices)", scorep_cuda_stream_count(), 5);
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
    int callsite_mode = argc > 1 && strcmp(argv[1], "callsite") == 0;
    if (callsite_mode)
        launch_callsites();
    else
        api_calls(argc > 1 && (strcmp(argv[1], "features") == 0 || strcmp(argv[1], "remap") == 0));
    if (argc > 1 && strcmp(argv[1], "remap") == 0)
        remap_calls();
    /* host = 1000000 + 2 * (gpu - 10000) */
    scorep_cuda_clock_start(&scorep_cuda_activity_clock, 1000000, 10000);
    scorep_cuda_clock_sync(&scorep_cuda_activity_clock, 3000000, 1010000);
    scorep_cuda_clock_from_cupti = 0; /* keep this clock: completions take no sync point */
    int many_mode = argc > 2 && strcmp(argv[1], "many") == 0;
    if (scorep_cuda_pool_init() != 0)
        return 1;
    if (!many_mode)
        check_pool(); /* with SCOREP_CUDA_BUFFER_MAX=96k */
    /* the records as CUPTI delivers them: in a buffer of the pool, completed, processed */
    uint8_t *buf;
    size_t size, max, n = 0;
    scorep_cuda_buffer_requested(&buf, &size, &max);
    if (!buf)
        return 1;
    const char *vec = "_Z6vecAddPKfS0_Pfi";
    char vec2[32]; /* the same name at another address: the same region, demangled once */
    strcpy(vec2, vec);
    n = copy(buf, n, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, 4096, 7, 100000, 105000, 11);
    n = kernel(buf, n, vec, 7, 110000, 160000, 12);
    n = set(buf, n, 1024, 8, 115000, 116000);
    n = kernel(buf, n, "scale", 8, 120000, 130000, 13);
    n = kernel(buf, n, vec2, 7, 200000, 250000, 14);
    n = copy(buf, n, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, 4096, 7, 300000, 310000, 15);
    n = copy(buf, n, CUPTI_ACTIVITY_MEMCPY_KIND_DTOD, 512, 8, 320000, 321000, 16);
    scorep_cuda_buffer_completed(NULL, 0, buf, size, n);
    expect_u64("buffers processed", scorep_cuda_drain(), 1);
    scorep_cuda_pool_info p;
    scorep_cuda_pool_stats(&p);
    /* argv[1]: how many records the SCOREP_CUDA_ENABLE of the run records (all 7 by default) */
    int devices_mode = argc > 1 && strcmp(argv[1], "devices") == 0;
    int thread_mode = argc > 1 && strcmp(argv[1], "thread") == 0;
    uint64_t want = argc > 1 && strcmp(argv[1], "many") != 0 && strcmp(argv[1], "features") != 0 &&
                            strcmp(argv[1], "remap") != 0 &&
                            !devices_mode && !callsite_mode && !thread_mode
                        ? strtoull(argv[1], NULL, 10)
                        : 7;
    expect_u64("records turned into events", p.records, want);
    expect_u64("kernel names demangled", scorep_cuda_kernel_names_demangled(), want >= 3 ? 2 : 0);
    expect_u64("GPU locations", scorep_cuda_stream_count(), 2);
    expect_u64("same stream, same location",
               scorep_cuda_stream_location(0, 1, 7, 0) == scorep_cuda_stream_location(0, 1, 7, 0),
               1);
    if (devices_mode)
        more_devices();
    pthread_t th;
    if (thread_mode &&
        (pthread_create(&th, NULL, late_thread, NULL) != 0 || pthread_join(th, NULL) != 0))
        return 1;
    if (callsite_mode)
        launch_late();
    if (many_mode) {
        uint64_t many = strtoull(argv[2], NULL, 10);
        many_kernels(many);
        scorep_cuda_consumer_stop(); /* what finalize does: join, drain, stop */
        scorep_cuda_pool_stats(&p);
        expect_u64("records after the stream", p.records, 7 + many);
        expect_u64("nothing refused", p.refused, 0);
        printf("pool peak %llu chunks of %llu bytes\n", (unsigned long long)p.peak_used,
               (unsigned long long)p.chunk_size);
        /* a buffer completed after finalize's drain: counted, not recorded */
        scorep_cuda_buffer_requested(&buf, &size, &max);
        n = kernel(buf, 0, vec, 7, 9000000, 9001000, 99);
        n = kernel(buf, n, vec, 7, 9002000, 9003000, 100);
        scorep_cuda_buffer_completed(NULL, 0, buf, size, n);
        scorep_cuda_pool_stats(&p);
        expect_u64("late records counted", p.late_records, 2);
    }
#ifdef WITH_MPI
    MPI_Finalize();
#endif
    printf("%s\n", failures ? "FAILED" : "synthetic records processed");
    return failures ? 1 : 0;
}
