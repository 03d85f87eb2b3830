/* cuda_activity.c: turns CUPTI activity records (kernels, memcpys, memsets) into events on
 * GPU locations, one per (device, context, stream), at host times converted from CUPTI's
 * clock. Runs when a buffer completes (CUPTI's thread or a flush), never on the hot path. */
#include "adapters/cuda/cuda_adapter.h"
#include "core/events.h"
#include "core/runtime.h"
#include "base/timer.h"
#include "trace/trace_otf2.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the C++ runtime's demangler (the adapter links libstdc++) */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

scorep_cuda_clock scorep_cuda_activity_clock;
int scorep_cuda_record_kernels = 1, scorep_cuda_record_memcpy = 1;

typedef struct {
    uint32_t device, context, stream;
    scorep_location *loc;
} gpu_stream;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int stopped;
static gpu_stream *streams;
static uint32_t n_streams, cap_streams;

/* Caller holds lock. */
static scorep_location *stream_location(uint32_t device, uint32_t context, uint32_t stream,
                                        uint64_t first_ts)
{
    for (uint32_t i = 0; i < n_streams; i++)
        if (streams[i].device == device && streams[i].context == context &&
            streams[i].stream == stream)
            return streams[i].loc;
    if (n_streams == cap_streams) {
        uint32_t c = cap_streams ? cap_streams * 2 : 8;
        gpu_stream *n = realloc(streams, c * sizeof *n);
        if (!n)
            return NULL;
        streams = n;
        cap_streams = c;
    }
    char name[32];
    snprintf(name, sizeof name, "CUDA[%u:%u:%u]", device, context, stream);
    /* the first event, at first_ts, must be later than the location's start */
    scorep_location *l = scorep_location_create_gpu(name, first_ts ? first_ts - 1 : 0);
    if (l)
        streams[n_streams++] = (gpu_stream){device, context, stream, l};
    return l;
}

scorep_location *scorep_cuda_stream_location(uint32_t device, uint32_t context, uint32_t stream,
                                             uint64_t first_ts)
{
    pthread_mutex_lock(&lock);
    scorep_location *l = stream_location(device, context, stream, first_ts);
    pthread_mutex_unlock(&lock);
    return l;
}

uint32_t scorep_cuda_stream_count(void)
{
    return n_streams;
}

static uint64_t to_host(uint64_t gpu)
{
    const scorep_cuda_clock *c = &scorep_cuda_activity_clock;
    return scorep_cuda_clock_to_host(c, gpu, c->points == 2 ? 0 : scorep_timer_resolution());
}

/* Enter/Leave on a GPU location at a given time (strictly increasing per location, as on
 * host locations: records that overlap on one stream are pushed behind each other). */
static void gpu_region(scorep_location *l, uint32_t region, uint64_t t, int enter)
{
    t = scorep_location_now(l, t);
    if (!enter && l->depth == 0)
        return;
    if (!enter)
        l->depth--;
    if (l->profiling) {
        if (enter)
            scorep_profile_enter(&l->profile, region, t);
        else
            scorep_profile_leave(&l->profile, region, t);
    }
    if (l->tracing)
        scorep_buffer_region(&l->buffer, l->depth, t, region, enter ? BUF_ENTER : BUF_LEAVE);
    if (enter)
        l->depth++;
}

static void gpu_rma(scorep_location *l, uint32_t type, uint64_t t, uint64_t bytes, uint64_t id)
{
    t = scorep_location_now(l, t);
    if (!l->tracing)
        return;
    buf_mpi_rec *r = scorep_buffer_mpi(&l->buffer, t, type);
    if (r) {
        r->comm = SCOREP_CUDA_WINDOW;
        r->peer = 0; /* the process's master thread stands for the host */
        r->bytes = bytes;
        r->request = id;
    }
}

static uint32_t kernel_region(const char *mangled)
{
    int status = -1;
    char *name = mangled ? __cxa_demangle(mangled, NULL, NULL, &status) : NULL;
    const char *n = status == 0 && name ? name : mangled ? mangled : "<unnamed kernel>";
    uint32_t id = scorep_defs_region(n, mangled ? mangled : n, NULL, 0, 0, SCOREP_PARADIGM_CUDA,
                                     SCOREP_ROLE_FUNCTION);
    free(name);
    return id;
}

static int kernel(const CUpti_ActivityKernel10 *k)
{
    uint64_t start = to_host(k->start), end = to_host(k->end);
    scorep_location *l = stream_location(k->deviceId, k->contextId, k->streamId, start);
    uint32_t region = kernel_region(k->name);
    if (!l || region == SCOREP_INVALID_ID)
        return -1;
    gpu_region(l, region, start, 1);
    gpu_region(l, region, end, 0);
    return 1;
}

static const char *memcpy_name(uint8_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        return "memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        return "memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return "memcpy HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return "memcpy PtoP";
    default:
        return "memcpy DtoD";
    }
}

/* Host to device: the stream gets from the host; device to host: it puts there. Copies
 * that do not cross between host and device are regions only (0). */
static uint32_t memcpy_rma(uint8_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        return BUF_RMA_GET;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        return BUF_RMA_PUT;
    default:
        return 0;
    }
}

static int memcpy_record(const CUpti_ActivityMemcpy6 *m)
{
    uint64_t start = to_host(m->start), end = to_host(m->end);
    scorep_location *l = stream_location(m->deviceId, m->contextId, m->streamId, start);
    const char *name = memcpy_name(m->copyKind);
    uint32_t region =
        scorep_defs_region(name, name, NULL, 0, 0, SCOREP_PARADIGM_CUDA, SCOREP_ROLE_RMA);
    if (!l || region == SCOREP_INVALID_ID)
        return -1;
    uint32_t rma = memcpy_rma(m->copyKind);
    /* the transfer lies inside its region: one tick after the start, one before the end */
    gpu_region(l, region, start, 1);
    if (rma) {
        gpu_rma(l, rma, start + 1, m->bytes, m->correlationId);
        gpu_rma(l, BUF_RMA_OP_COMPLETE_BLOCKING, end - 1, 0, m->correlationId);
    }
    gpu_region(l, region, end, 0);
    return 1;
}

static int memset_record(const CUpti_ActivityMemset4 *m)
{
    uint64_t start = to_host(m->start), end = to_host(m->end);
    scorep_location *l = stream_location(m->deviceId, m->contextId, m->streamId, start);
    uint32_t region =
        scorep_defs_region("memset", "memset", NULL, 0, 0, SCOREP_PARADIGM_CUDA, SCOREP_ROLE_RMA);
    if (!l || region == SCOREP_INVALID_ID)
        return -1;
    gpu_region(l, region, start, 1);
    gpu_region(l, region, end, 0);
    return 1;
}

/* Caller holds lock. */
static int process_record(const CUpti_Activity *r)
{
    switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        return scorep_cuda_record_kernels ? kernel((const CUpti_ActivityKernel10 *)r) : 0;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        return scorep_cuda_record_memcpy ? memcpy_record((const CUpti_ActivityMemcpy6 *)r) : 0;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        return scorep_cuda_record_memcpy ? memset_record((const CUpti_ActivityMemset4 *)r) : 0;
    default:
        return 0;
    }
}

void scorep_cuda_activity_stop(void)
{
    pthread_mutex_lock(&lock);
    stopped = 1;
    pthread_mutex_unlock(&lock);
}

int scorep_cuda_process_record(const CUpti_Activity *record)
{
    pthread_mutex_lock(&lock);
    int rc = stopped ? 0 : process_record(record);
    pthread_mutex_unlock(&lock);
    return rc;
}

int scorep_cuda_process_buffer(uint8_t *buffer, size_t valid_size)
{
    CUpti_Activity *r = NULL;
    int n = 0, failed = 0;
    pthread_mutex_lock(&lock);
    while (!stopped && valid_size > 0 &&
           cuptiActivityGetNextRecord(buffer, valid_size, &r) == CUPTI_SUCCESS) {
        int rc = process_record(r);
        if (rc < 0)
            failed = 1;
        else
            n += rc;
    }
    pthread_mutex_unlock(&lock);
    return failed ? -1 : n;
}
