/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda_cupti.c: the CUPTI side of the CUDA adapter: subscribes to the runtime and driver
 * API callbacks (calls as regions; references and kernel_callsite inside launches), enables
 * the activity API with the growing buffer pool of cuda_pool.c and a periodic flush,
 * flushes at synchronisations and at exit, and warns once when CUPTI cannot subscribe (no
 * driver). */
#include "adapters/cuda/cuda_adapter.h"
#include "base/cuda_features.h"
#include "core/events.h"
#include "writers/experiment.h"
#include "runtime/runtime.h"
#include "core/subsystem.h"
#include "base/timer.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t features;
static CUpti_SubscriberHandle subscriber;
static int subscribed, activity_on;

/* ------------------------------------------------------------ API regions */
/* region id + 1 per callback id (0: not yet defined); written once per id under defs' lock */
static uint32_t runtime_regions[CUPTI_RUNTIME_TRACE_CBID_SIZE];
static uint32_t driver_regions[CUPTI_DRIVER_TRACE_CBID_SIZE];

/* Bit 31 of a slot: the call starts GPU work (a launch, copy or memset), whose correlation
 * id the references feature records; bit 30: it launches kernels (kernel_callsite). */
#define STARTS_GPU_WORK 0x80000000u
#define LAUNCHES_KERNEL 0x40000000u

/* A launch, copy or memset: CUPTI's callback names of the calls that start GPU work. */
static int starts_gpu_work(const char *name)
{
    return name && (strstr(name, "Launch") || strstr(name, "Memcpy") || strstr(name, "Memset"));
}

/* A kernel launch: cudaLaunchKernel(_ptsz), cudaLaunchKernelExC, cudaLaunchCooperativeKernel,
 * cudaGraphLaunch (its kernels carry the graph launch's correlation id), cuLaunchKernel(Ex),
 * cuLaunchGrid, ...; not cudaLaunchHostFunc/cuLaunchHostFunc (no kernel). */
static int launches_kernel(const char *name)
{
    return name && strstr(name, "Launch") && !strstr(name, "HostFunc");
}

/* The region of a call and, in *flags, its STARTS_GPU_WORK and LAUNCHES_KERNEL bits. */
static uint32_t api_region(uint32_t *slot, const char *name, uint32_t *flags)
{
    uint32_t r = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (__builtin_expect(r == 0, 0)) {
        uint32_t id = scorep_defs_region(name ? name : "<unknown CUDA function>", NULL, NULL, 0, 0,
                                         SCOREP_PARADIGM_CUDA, SCOREP_ROLE_WRAPPER);
        if (id == SCOREP_INVALID_ID || id >= LAUNCHES_KERNEL - 1)
            return SCOREP_INVALID_ID;
        r = id + 1;
        if (starts_gpu_work(name))
            r |= STARTS_GPU_WORK;
        if (launches_kernel(name))
            r |= LAUNCHES_KERNEL;
        __atomic_store_n(slot, r, __ATOMIC_RELEASE);
    }
    *flags = r & (STARTS_GPU_WORK | LAUNCHES_KERNEL);
    return (r & ~(STARTS_GPU_WORK | LAUNCHES_KERNEL)) - 1;
}

/* ------------------------------------------------------------ gpumemusage */
/* Device memory in use: an allocation adds its size, a free subtracts the size its pointer
 * was allocated with; the sum is the metric "CUDA memory usage" of the calling thread,
 * written inside the call. Allocations are cold: a mutex and a chained table. The table is
 * keyed by the pointer, so an allocation the runtime makes through the driver API (both
 * domains recorded: cudaMalloc calls cuMemAlloc inside) counts once, and so does its free. */
typedef struct allocation {
    struct allocation *next;
    uintptr_t ptr;
    uint64_t size;
} allocation;
#define ALLOC_BUCKETS 1024
static allocation *allocations[ALLOC_BUCKETS];
static pthread_mutex_t alloc_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t mem_in_use;

static void remember(allocation **bucket, uintptr_t ptr, uint64_t size)
{
    for (allocation *a = *bucket; a; a = a->next)
        if (a->ptr == ptr)
            return; /* the same allocation seen through the other API */
    allocation *a = malloc(sizeof *a);
    if (a) {
        *a = (allocation){*bucket, ptr, size};
        *bucket = a;
        mem_in_use += size;
    }
}

static void forget(allocation **bucket, uintptr_t ptr)
{
    for (allocation **a = bucket; *a; a = &(*a)->next)
        if ((*a)->ptr == ptr) {
            allocation *gone = *a;
            *a = gone->next;
            mem_in_use -= gone->size;
            free(gone);
            return;
        }
}

static uint64_t memory_changed(uintptr_t ptr, uint64_t size, int alloc)
{
    allocation **bucket = &allocations[(ptr >> 8) % ALLOC_BUCKETS];
    pthread_mutex_lock(&alloc_lock);
    if (alloc)
        remember(bucket, ptr, size);
    else
        forget(bucket, ptr);
    uint64_t now = mem_in_use;
    pthread_mutex_unlock(&alloc_lock);
    return now;
}

/* The calls that allocate or free device memory, by where their parameters keep the
 * address and the size. An allocation's address field points to where the call stored
 * the new address (void ** in the runtime API, CUdeviceptr * in the driver API: both 8
 * bytes); a free's holds the address. PITCHED: the size is *pitch (at size_at) x height
 * (at rows_at). The async and pool variants count at the call, not when the stream
 * reaches them. Arrays (their size depends on the channel format) and pinned host memory
 * are not device memory usage here; cudaMalloc3D is handled on its own (a struct). */
enum { ALLOC, PITCHED, FREE };
typedef struct {
    CUpti_CallbackDomain domain;
    CUpti_CallbackId cbid;
    int kind;
    size_t addr_at, size_at, rows_at;
} memory_call;

#define RT(name) CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_##name
#define DRV(name) CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_##name
#define AT(type, field) offsetof(type##_params, field)
static const memory_call memory_calls[] = {
    {RT(cudaMalloc_v3020), ALLOC, AT(cudaMalloc_v3020, devPtr), AT(cudaMalloc_v3020, size), 0},
    {RT(cudaMallocManaged_v6000), ALLOC, AT(cudaMallocManaged_v6000, devPtr),
     AT(cudaMallocManaged_v6000, size), 0},
    {RT(cudaMallocAsync_v11020), ALLOC, AT(cudaMallocAsync_v11020, devPtr),
     AT(cudaMallocAsync_v11020, size), 0},
    {RT(cudaMallocAsync_ptsz_v11020), ALLOC, AT(cudaMallocAsync_ptsz_v11020, devPtr),
     AT(cudaMallocAsync_ptsz_v11020, size), 0},
    {RT(cudaMallocFromPoolAsync_v11020), ALLOC, AT(cudaMallocFromPoolAsync_v11020, ptr),
     AT(cudaMallocFromPoolAsync_v11020, size), 0},
    {RT(cudaMallocFromPoolAsync_ptsz_v11020), ALLOC, AT(cudaMallocFromPoolAsync_ptsz_v11020, ptr),
     AT(cudaMallocFromPoolAsync_ptsz_v11020, size), 0},
    {RT(cudaMallocPitch_v3020), PITCHED, AT(cudaMallocPitch_v3020, devPtr),
     AT(cudaMallocPitch_v3020, pitch), AT(cudaMallocPitch_v3020, height)},
    {RT(cudaFree_v3020), FREE, AT(cudaFree_v3020, devPtr), 0, 0},
    {RT(cudaFreeAsync_v11020), FREE, AT(cudaFreeAsync_v11020, devPtr), 0, 0},
    {RT(cudaFreeAsync_ptsz_v11020), FREE, AT(cudaFreeAsync_ptsz_v11020, devPtr), 0, 0},
    {DRV(cuMemAlloc_v2), ALLOC, AT(cuMemAlloc_v2, dptr), AT(cuMemAlloc_v2, bytesize), 0},
    {DRV(cuMemAllocManaged), ALLOC, AT(cuMemAllocManaged, dptr), AT(cuMemAllocManaged, bytesize),
     0},
    {DRV(cuMemAllocAsync), ALLOC, AT(cuMemAllocAsync, dptr), AT(cuMemAllocAsync, bytesize), 0},
    {DRV(cuMemAllocAsync_ptsz), ALLOC, AT(cuMemAllocAsync_ptsz, dptr),
     AT(cuMemAllocAsync_ptsz, bytesize), 0},
    {DRV(cuMemAllocFromPoolAsync), ALLOC, AT(cuMemAllocFromPoolAsync, dptr),
     AT(cuMemAllocFromPoolAsync, bytesize), 0},
    {DRV(cuMemAllocFromPoolAsync_ptsz), ALLOC, AT(cuMemAllocFromPoolAsync_ptsz, dptr),
     AT(cuMemAllocFromPoolAsync_ptsz, bytesize), 0},
    {DRV(cuMemAllocPitch_v2), PITCHED, AT(cuMemAllocPitch_v2, dptr), AT(cuMemAllocPitch_v2, pPitch),
     AT(cuMemAllocPitch_v2, Height)},
    {DRV(cuMemFree_v2), FREE, AT(cuMemFree_v2, dptr), 0, 0},
    {DRV(cuMemFreeAsync), FREE, AT(cuMemFreeAsync, dptr), 0, 0},
    {DRV(cuMemFreeAsync_ptsz), FREE, AT(cuMemFreeAsync_ptsz, dptr), 0, 0},
};
#undef RT
#undef DRV
#undef AT
_Static_assert(sizeof(CUdeviceptr) == sizeof(void *), "device addresses are read as pointers");

static uint64_t field(const void *params, size_t at)
{
    uint64_t v;
    memcpy(&v, (const char *)params + at, sizeof v);
    return v;
}

/* The value a pointer field points to (NULL: 0). */
static uint64_t pointee(const void *params, size_t at)
{
    uint64_t p = field(params, at), v = 0;
    if (p)
        memcpy(&v, (const void *)(uintptr_t)p, sizeof v);
    return v;
}

/* An allocation: *ptr and *size from the parameters, 1. A free: *ptr, -1. Else 0. */
static int memory_call_of(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *params,
                          uintptr_t *ptr, uint64_t *size)
{
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
        cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMalloc3D_v3020) {
        const cudaMalloc3D_v3020_params *p = params;
        if (!p->pitchedDevPtr || !p->pitchedDevPtr->ptr)
            return 0;
        *ptr = (uintptr_t)p->pitchedDevPtr->ptr;
        *size = (uint64_t)p->pitchedDevPtr->pitch * p->extent.height * p->extent.depth;
        return 1;
    }
    for (size_t i = 0; i < sizeof memory_calls / sizeof *memory_calls; i++) {
        const memory_call *m = &memory_calls[i];
        if (m->domain != domain || m->cbid != cbid)
            continue;
        if (m->kind == FREE) {
            *ptr = (uintptr_t)field(params, m->addr_at);
            return *ptr ? -1 : 0;
        }
        *ptr = (uintptr_t)pointee(params, m->addr_at);
        *size = m->kind == PITCHED ? pointee(params, m->size_at) * field(params, m->rows_at)
                                   : field(params, m->size_at);
        return *ptr ? 1 : 0;
    }
    return 0;
}

static void memory_usage(scorep_location *l, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                         const CUpti_CallbackData *cb)
{
    static uint32_t metric; /* id + 1 */
    if (!cb->functionParams)
        return;
    if (cb->functionReturnValue && *(const int *)cb->functionReturnValue != 0)
        return; /* the call failed: nothing allocated or freed */
    uintptr_t ptr = 0;
    uint64_t size = 0;
    int kind = memory_call_of(domain, cbid, cb->functionParams, &ptr, &size);
    if (!kind)
        return;
    uint64_t now = memory_changed(ptr, size, kind > 0);
    if (!metric) {
        uint32_t id = scorep_defs_metric("CUDA memory usage", "bytes", SCOREP_METRIC_UINT64, true);
        if (id == SCOREP_INVALID_ID)
            return;
        metric = id + 1;
    }
    scorep_event_metric(l, metric - 1, now, (double)now);
}

static int is_sync(CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        return cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020 ||
               cbid == CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020 ||
               cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020 ||
               cbid == CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020;
    return cbid == CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2 ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize;
}

static void flush_activities(uint32_t flags);

void CUPTIAPI scorep_cuda_api_callback(void *userdata, CUpti_CallbackDomain domain,
                                       CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    const CUpti_CallbackData *cb = data;
    uint32_t *slot = NULL;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE)
        slot = &runtime_regions[cbid];
    else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < CUPTI_DRIVER_TRACE_CBID_SIZE)
        slot = &driver_regions[cbid];
    scorep_location *l = slot ? scorep_location_get() : NULL;
    if (!l)
        return;
    uint32_t flags;
    uint32_t region = api_region(slot, cb->functionName, &flags);
    if (region == SCOREP_INVALID_ID)
        return;
    if (cb->callbackSite == CUPTI_API_ENTER) {
        scorep_event_enter(l, region);
        /* kernel_callsite: the hash of the call stack, for the launch and its kernels */
        if ((flags & LAUNCHES_KERNEL) && (features & SCOREP_CUDA_FEATURE_KERNEL_CALLSITE))
            scorep_cuda_callsite_launch(l, cb->correlationId);
        /* references: the id CUPTI gives the activity records of this call */
        uint32_t p;
        if ((flags & STARTS_GPU_WORK) && (features & SCOREP_CUDA_FEATURE_REFERENCES) && l->tracing &&
            scorep_location_recording(l) &&
            (p = scorep_cuda_correlation_param()) != SCOREP_INVALID_ID)
            scorep_buffer_event(&l->buffer, BUF_CLASS_PARAM, scorep_event_time(l),
                                BUF_EV_PARAM_UINT, p, cb->correlationId);
        return;
    }
    if (features & SCOREP_CUDA_FEATURE_GPUMEMUSAGE)
        memory_usage(l, domain, cbid, cb);
    scorep_event_leave(l, region);
    if ((features & SCOREP_CUDA_FEATURE_SYNC) && activity_on && is_sync(domain, cbid))
        flush_activities(0);
}

/* CUPTI hands the completed buffers to the pool's queue (on this thread, for a flush);
 * the consumer thread processes them. */
static void flush_activities(uint32_t flags)
{
    cuptiActivityFlushAll(flags);
}

/* ------------------------------------------------------------- life cycle */
static void cupti_warning(const char *what, CUptiResult rc)
{
    const char *s = NULL;
    if (cuptiGetResultString(rc, &s) != CUPTI_SUCCESS || !s)
        s = "unknown CUPTI error";
    scorep_warn("CUDA: %s failed (%s, %d): CUDA API calls and GPU activities are not recorded; "
                "the host side is measured",
                what, s, (int)rc);
}

static CUptiResult enable_activities(void)
{
    CUptiResult rc =
        cuptiActivityRegisterCallbacks(scorep_cuda_buffer_requested, scorep_cuda_buffer_completed);
    /* CUPTI's own periodic flush: buffers of a quiet phase reach the consumer too */
    if (rc == CUPTI_SUCCESS && scorep_cfg.cuda_flush_period)
        rc = cuptiActivityFlushPeriod((uint32_t)scorep_cfg.cuda_flush_period);
    if (rc == CUPTI_SUCCESS && (features & SCOREP_CUDA_FEATURE_KERNEL_SERIAL))
        rc = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_KERNEL);
    else if (rc == CUPTI_SUCCESS && (features & SCOREP_CUDA_FEATURE_KERNEL))
        rc = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (rc == CUPTI_SUCCESS && (features & SCOREP_CUDA_FEATURE_MEMCPY))
        rc = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    if (rc == CUPTI_SUCCESS && (features & SCOREP_CUDA_FEATURE_MEMCPY))
        rc = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
    return rc;
}

/* references or kernel_callsite without runtime and driver: the host side of a reference
 * is the launch, copy or memset call, of a call site the launch, so only those runtime API
 * callbacks are enabled, not the whole domain (each enabled callback costs every call of
 * it, recorded or not; Score-P enables the whole driver API domain for both). */
static CUptiResult enable_gpu_work_callbacks(void)
{
    int refs = (features & SCOREP_CUDA_FEATURE_REFERENCES) != 0, n = 0;
    for (CUpti_CallbackId cbid = 1; cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE; cbid++) {
        const char *name = NULL;
        if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name) != CUPTI_SUCCESS ||
            !(refs ? starts_gpu_work(name) : launches_kernel(name)))
            continue;
        CUptiResult rc = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, cbid);
        if (rc != CUPTI_SUCCESS)
            return rc;
        n++;
    }
    scorep_verbose("CUDA: %s without runtime: %d runtime API callbacks enabled (%s)",
                   refs ? "references" : "kernel_callsite", n,
                   refs ? "launches, copies, memsets" : "kernel launches");
    return CUPTI_SUCCESS;
}

static CUptiResult subscribe(void)
{
    CUptiResult rc = cuptiSubscribe(&subscriber, scorep_cuda_api_callback, NULL);
    if (rc != CUPTI_SUCCESS) {
        cupti_warning("cuptiSubscribe", rc);
        return rc;
    }
    subscribed = 1;
    if (features & SCOREP_CUDA_FEATURE_RUNTIME_API)
        rc = cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
    else if ((features & (SCOREP_CUDA_FEATURE_REFERENCES | SCOREP_CUDA_FEATURE_KERNEL_CALLSITE)) &&
             !(features & SCOREP_CUDA_FEATURE_DRIVER_API))
        rc = enable_gpu_work_callbacks();
    if (rc == CUPTI_SUCCESS && (features & SCOREP_CUDA_FEATURE_DRIVER_API))
        rc = cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    if (rc != CUPTI_SUCCESS)
        cupti_warning("cuptiEnableDomain", rc);
    return rc;
}

/* Finalize, first phase: everything CUPTI holds is flushed (incomplete records too) and
 * processed on this thread while the locations still take events; later buffers are only
 * counted. */
static void cuda_end(void)
{
    /* always, as Score-P 8 does (dontflushatexit: not): without it the records CUPTI still
     * holds would be missing from the results, uncounted */
    if (activity_on && !(features & SCOREP_CUDA_FEATURE_DONTFLUSHATEXIT))
        flush_activities(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    scorep_cuda_consumer_stop();
    if (subscribed)
        cuptiUnsubscribe(subscriber);
    scorep_cuda_pool_info p;
    scorep_cuda_pool_stats(&p);
    if (p.dropped || p.late_records || p.refused || p.failed_buffers)
        scorep_cuda_mark_loss(p.dropped + p.late_records);
}

/* Finalize, second phase: the pool's figures to the log and MANIFEST.md. */
static void cuda_finalize(void)
{
    scorep_cuda_pool_info p;
    scorep_cuda_pool_stats(&p);
    char note[1024];
    scorep_verbose("CUDA: %llu activity buffers with %llu records processed; pool peak %llu of "
                   "%llu chunks of %llu bytes (cap %llu)",
                   (unsigned long long)p.buffers, (unsigned long long)p.records,
                   (unsigned long long)p.peak_used, (unsigned long long)p.chunks,
                   (unsigned long long)p.chunk_size, (unsigned long long)p.max_chunks);
    scorep_cuda_pool_note(&p, note, sizeof note);
    if (note[0]) {
        scorep_experiment_note(note);
        scorep_warn("%s", note);
    }
    scorep_cuda_callsite_finalize();
}

__attribute__((constructor)) static void scorep_cuda_init(void)
{
    if (!scorep_runtime_init() || !(features = scorep_cfg.cuda_enable))
        return;
    if (features & SCOREP_CUDA_FEATURE_KERNEL_SERIAL) /* as Score-P: it requires kernel */
        features |= SCOREP_CUDA_FEATURE_KERNEL;
    /* as Score-P: call sites are recorded on kernels, so kernel_callsite implies kernel */
    if (features & SCOREP_CUDA_FEATURE_KERNEL_CALLSITE)
        features |= SCOREP_CUDA_FEATURE_KERNEL;
    if ((features & SCOREP_CUDA_FEATURE_KERNEL_CALLSITE) && scorep_cuda_callsite_init() != 0) {
        scorep_warn("CUDA: kernel_callsite: no memory for the table of launches (%zu bytes); "
                    "call sites are not recorded",
                    (size_t)SCOREP_CUDA_CALLSITE_SLOTS * sizeof(uint64_t));
        features &= ~(uint64_t)SCOREP_CUDA_FEATURE_KERNEL_CALLSITE;
    }
    scorep_cuda_record_callsites = (features & SCOREP_CUDA_FEATURE_KERNEL_CALLSITE) != 0;
    scorep_cuda_record_kernels = (features & SCOREP_CUDA_FEATURE_KERNEL) != 0;
    scorep_cuda_record_memcpy = (features & SCOREP_CUDA_FEATURE_MEMCPY) != 0;
    scorep_cuda_record_kernel_counter = (features & SCOREP_CUDA_FEATURE_KERNEL_COUNTER) != 0;
    scorep_cuda_record_references = (features & SCOREP_CUDA_FEATURE_REFERENCES) != 0;
    scorep_cuda_record_idle = (features & SCOREP_CUDA_FEATURE_IDLE) != 0;
    scorep_cuda_record_pure_idle = (features & SCOREP_CUDA_FEATURE_PURE_IDLE) != 0;
    static const scorep_subsystem cuda = {
        .name = "cuda", .end = cuda_end, .finalize = cuda_finalize};
    if (scorep_runtime_register(&cuda) != 0)
        scorep_warn("CUDA: too many subsystems; activity records are not flushed at exit");
    if (subscribe() != CUPTI_SUCCESS)
        return;
    uint64_t gpu;
    if (!(features & (SCOREP_CUDA_FEATURE_KERNEL | SCOREP_CUDA_FEATURE_MEMCPY)))
        return;
    CUptiResult rc = cuptiGetTimestamp(&gpu);
    if (rc != CUPTI_SUCCESS || scorep_cuda_pool_init() != 0) {
        cupti_warning("the CUPTI activity API (timestamp or buffer pool)", rc);
        return;
    }
    scorep_cuda_clock_start(&scorep_cuda_activity_clock, scorep_timer_ticks(), gpu);
    rc = enable_activities();
    if (rc != CUPTI_SUCCESS)
        cupti_warning("cuptiActivityEnable", rc);
    if (rc == CUPTI_SUCCESS && scorep_cuda_consumer_start() != 0) {
        scorep_warn("CUDA: no consumer thread; activity buffers are processed at "
                    "synchronisations and at exit only");
    }
    activity_on = rc == CUPTI_SUCCESS;
}
