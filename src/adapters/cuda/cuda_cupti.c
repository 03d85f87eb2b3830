/* cuda_cupti.c: the CUPTI side of the CUDA adapter: subscribes to the runtime and driver
 * API callbacks (calls as regions), enables the activity API with a fixed pool of record
 * buffers (SCOREP_CUDA_BUFFER in chunks of SCOREP_CUDA_BUFFER_CHUNK), flushes at
 * synchronisations and at exit, and warns once when CUPTI cannot subscribe (no driver). */
#include "adapters/cuda/cuda_adapter.h"
#include "adapters/cuda/cuda_features.h"
#include "core/events.h"
#include "core/runtime.h"
#include "base/timer.h"

#include <pthread.h>
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

static uint32_t api_region(uint32_t *slot, const char *name)
{
    uint32_t r = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (__builtin_expect(r != 0, 1))
        return r - 1;
    r = scorep_defs_region(name ? name : "<unknown CUDA function>", NULL, NULL, 0, 0,
                           SCOREP_PARADIGM_CUDA, SCOREP_ROLE_WRAPPER);
    if (r != SCOREP_INVALID_ID)
        __atomic_store_n(slot, r + 1, __ATOMIC_RELEASE);
    return r;
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
    uint32_t region = api_region(slot, cb->functionName);
    if (region == SCOREP_INVALID_ID)
        return;
    if (cb->callbackSite == CUPTI_API_ENTER) {
        scorep_event_enter(l, region);
        return;
    }
    scorep_event_leave(l, region);
    if ((features & SCOREP_CUDA_FEATURE_SYNC) && activity_on && is_sync(domain, cbid))
        flush_activities(0);
}

/* ------------------------------------------------------- activity buffers */
/* The pool is allocated once; CUPTI asks for buffers on its own threads. A request that
 * finds no free chunk gets none, and CUPTI drops (and counts) the records. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t *pool;
static uint8_t **free_chunks;
static size_t chunk_size, n_free, n_chunks;
static uint64_t dropped;

int scorep_cuda_pool_init(void)
{
    if (pool)
        return 0;
    chunk_size = scorep_cfg.cuda_buffer_chunk < 1024 ? 1024 : scorep_cfg.cuda_buffer_chunk;
    chunk_size = (chunk_size + 7) & ~(size_t)7; /* CUPTI wants 8-byte aligned buffers */
    n_chunks = scorep_cfg.cuda_buffer / chunk_size;
    if (n_chunks < 2)
        n_chunks = 2;
    pool = aligned_alloc(8, n_chunks * chunk_size);
    free_chunks = malloc(n_chunks * sizeof *free_chunks);
    if (!pool || !free_chunks)
        return -1;
    for (n_free = 0; n_free < n_chunks; n_free++)
        free_chunks[n_free] = pool + n_free * chunk_size;
    return 0;
}

void CUPTIAPI scorep_cuda_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    pthread_mutex_lock(&pool_lock);
    *buffer = n_free ? free_chunks[--n_free] : NULL;
    pthread_mutex_unlock(&pool_lock);
    *size = *buffer ? chunk_size : 0;
    *max_records = 0;
}

void CUPTIAPI scorep_cuda_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                           size_t size, size_t valid)
{
    (void)size;
    uint64_t gpu;
    if (cuptiGetTimestamp(&gpu) == CUPTI_SUCCESS)
        scorep_cuda_clock_sync(&scorep_cuda_activity_clock, scorep_timer_ticks(), gpu);
    if (scorep_cuda_process_buffer(buffer, valid) < 0)
        scorep_warn_once("CUDA: out of memory while recording GPU activities; some are lost");
    size_t d = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &d) == CUPTI_SUCCESS)
        __atomic_add_fetch(&dropped, d, __ATOMIC_RELAXED);
    pthread_mutex_lock(&pool_lock);
    if (buffer && n_free < n_chunks)
        free_chunks[n_free++] = buffer;
    pthread_mutex_unlock(&pool_lock);
}

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
    if (rc == CUPTI_SUCCESS && (features & SCOREP_CUDA_FEATURE_KERNEL))
        rc = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (rc == CUPTI_SUCCESS && (features & SCOREP_CUDA_FEATURE_MEMCPY))
        rc = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    if (rc == CUPTI_SUCCESS && (features & SCOREP_CUDA_FEATURE_MEMCPY))
        rc = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
    return rc;
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
    if (rc == CUPTI_SUCCESS && (features & SCOREP_CUDA_FEATURE_DRIVER_API))
        rc = cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    if (rc != CUPTI_SUCCESS)
        cupti_warning("cuptiEnableDomain", rc);
    return rc;
}

static void cuda_finalize(void)
{
    if (activity_on && (features & SCOREP_CUDA_FEATURE_FLUSHATEXIT))
        flush_activities(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); /* incomplete records too */
    scorep_cuda_activity_stop();
    if (subscribed)
        cuptiUnsubscribe(subscriber);
    if (dropped)
        scorep_warn("CUDA: CUPTI dropped %llu activity records: SCOREP_CUDA_BUFFER (%llu bytes) "
                    "was full; increase it",
                    (unsigned long long)dropped, (unsigned long long)scorep_cfg.cuda_buffer);
}

/* Entries that Score-P has and scorep-rt accepts without recording anything yet: said once,
 * so that nobody looks for idle time or counters that are not there. */
static void warn_unsupported(void)
{
    static const struct {
        uint64_t bit;
        const char *name;
    } unrecorded[] = {{SCOREP_CUDA_FEATURE_KERNEL_COUNTER, " kernel_counter"},
                      {SCOREP_CUDA_FEATURE_IDLE, " idle"},
                      {SCOREP_CUDA_FEATURE_PURE_IDLE, " pure_idle"},
                      {SCOREP_CUDA_FEATURE_GPUMEMUSAGE, " gpumemusage"},
                      {SCOREP_CUDA_FEATURE_REFERENCES, " references"}};
    char list[128] = "";
    for (size_t i = 0; i < sizeof unrecorded / sizeof unrecorded[0]; i++)
        if (features & unrecorded[i].bit)
            strncat(list, unrecorded[i].name, sizeof list - strlen(list) - 1);
    if (list[0])
        scorep_warn("CUDA: SCOREP_CUDA_ENABLE entries not recorded yet (accepted, ignored):%s",
                    list);
}

__attribute__((constructor)) static void scorep_cuda_init(void)
{
    if (!scorep_runtime_init() || !(features = scorep_cfg.cuda_enable))
        return;
    scorep_cuda_record_kernels = (features & SCOREP_CUDA_FEATURE_KERNEL) != 0;
    scorep_cuda_record_memcpy = (features & SCOREP_CUDA_FEATURE_MEMCPY) != 0;
    warn_unsupported();
    if (scorep_runtime_at_finalize(cuda_finalize) != 0)
        scorep_warn("CUDA: too many finalize hooks; activity records are not flushed at exit");
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
    activity_on = rc == CUPTI_SUCCESS;
}
