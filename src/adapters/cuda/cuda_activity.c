/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda_activity.c: turns CUPTI activity records (kernels, memcpys, memsets) into events on
 * GPU locations, one per (device, context, stream), at host times converted from CUPTI's
 * clock. Runs on the pool's consumer (cuda_pool.c), never on the hot path; one buffer at a
 * time, so the caches below (kernel name -> region, copy kind -> region, stream ->
 * location) need no lock, and a kernel name is hashed and demangled once. */
#include "adapters/cuda/cuda_adapter.h"
#include "core/events.h"
#include "runtime/runtime.h"
#include "base/timer.h"
#include "trace/trace_otf2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the C++ runtime's demangler (the adapter links libstdc++) */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

scorep_cuda_clock scorep_cuda_activity_clock;
int scorep_cuda_record_kernels = 1, scorep_cuda_record_memcpy = 1;
int scorep_cuda_record_kernel_counter, scorep_cuda_record_references;
int scorep_cuda_record_idle, scorep_cuda_record_pure_idle;

typedef struct {
    uint32_t device, context, stream;
    scorep_location *loc;
} gpu_stream;

static gpu_stream *streams;
static uint32_t n_streams, cap_streams, last_stream;

static scorep_location *stream_location(uint32_t device, uint32_t context, uint32_t stream,
                                        uint64_t first_ts)
{
    /* consecutive records are mostly of one stream */
    if (last_stream < n_streams && streams[last_stream].stream == stream &&
        streams[last_stream].context == context && streams[last_stream].device == device)
        return streams[last_stream].loc;
    for (uint32_t i = 0; i < n_streams; i++)
        if (streams[i].device == device && streams[i].context == context &&
            streams[i].stream == stream) {
            last_stream = i;
            return streams[i].loc;
        }
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
    if (l) {
        last_stream = n_streams;
        streams[n_streams++] = (gpu_stream){device, context, stream, l};
    }
    return l;
}

scorep_location *scorep_cuda_stream_location(uint32_t device, uint32_t context, uint32_t stream,
                                             uint64_t first_ts)
{
    return stream_location(device, context, stream, first_ts);
}

uint32_t scorep_cuda_stream_count(void)
{
    return n_streams;
}

/* GPU ns to host ticks, fixed for one buffer: host0 + (gpu - gpu0) * slope. */
typedef struct {
    uint64_t host0, gpu0;
    double slope;
    int identity;
} conversion;

static conversion conv;

static void conversion_for_buffer(void)
{
    const scorep_cuda_clock *c = &scorep_cuda_activity_clock;
    conv.identity = c->points == 0;
    conv.host0 = c->host0;
    conv.gpu0 = c->gpu0;
    conv.slope = c->points == 2 ? ((double)c->host1 - (double)c->host0) /
                                      ((double)c->gpu1 - (double)c->gpu0)
                                : (double)scorep_timer_resolution() / 1e9;
}

static inline uint64_t to_host(uint64_t gpu)
{
    if (conv.identity)
        return gpu;
    double d = (double)(int64_t)(gpu - conv.gpu0) * conv.slope;
    int64_t off = d >= 0 ? (int64_t)(d + 0.5) : -(int64_t)(-d + 0.5);
    if (off < 0 && (uint64_t)-off > conv.host0)
        return 0;
    return conv.host0 + (uint64_t)off;
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
    /* the profile's bytes_get (host to device) and bytes_put on the copy's call path */
    if (l->profiling && l->profile.cur && (type == BUF_RMA_GET || type == BUF_RMA_PUT))
        *(type == BUF_RMA_GET ? &l->profile.cur->bytes_get : &l->profile.cur->bytes_put) += bytes;
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

/* Kernel names: CUPTI shares one name string among all records of a kernel, so a table
 * keyed by the pointer finds the region without reading the name; the first 8 bytes are
 * compared in case CUPTI reused the memory for another kernel. A pointer seen for the first
 * time is hashed and looked up by name (another pointer to a known name), and only a new
 * name is demangled and defined. Both tables: open addressing, at most half full. */
typedef struct {
    const char *ptr;
    uint64_t head; /* the name's first 8 bytes (up to its end, zero-padded) */
    uint32_t region;
} by_ptr;
typedef struct {
    char *name; /* a copy of the mangled name */
    uint64_t hash;
    uint32_t region;
} by_name;

static by_ptr *ptrs;
static by_name *names;
static size_t ptr_cap, ptr_n, name_cap, name_n;
static uint64_t demangled;

uint64_t scorep_cuda_kernel_names_demangled(void)
{
    return demangled;
}

static size_t ptr_slot(const char *p, size_t cap)
{
    return (size_t)(((uintptr_t)p >> 3) * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
}

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

static int grow_ptrs(void)
{
    size_t cap = ptr_cap ? ptr_cap * 2 : 64;
    by_ptr *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < ptr_cap; i++)
        if (ptrs[i].ptr) {
            size_t j = ptr_slot(ptrs[i].ptr, cap);
            while (t[j].ptr)
                j = (j + 1) & (cap - 1);
            t[j] = ptrs[i];
        }
    free(ptrs);
    ptrs = t;
    ptr_cap = cap;
    return 0;
}

static int grow_names(void)
{
    size_t cap = name_cap ? name_cap * 2 : 64;
    by_name *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < name_cap; i++)
        if (names[i].name) {
            size_t j = names[i].hash & (cap - 1);
            while (t[j].name)
                j = (j + 1) & (cap - 1);
            t[j] = names[i];
        }
    free(names);
    names = t;
    name_cap = cap;
    return 0;
}

static uint32_t define_kernel(const char *mangled)
{
    int status = -1;
    char *name = __cxa_demangle(mangled, NULL, NULL, &status);
    demangled++;
    uint32_t id = scorep_defs_region(status == 0 && name ? name : mangled, mangled, NULL, 0, 0,
                                     SCOREP_PARADIGM_CUDA, SCOREP_ROLE_FUNCTION);
    free(name);
    return id;
}

/* By name: SCOREP_INVALID_ID when out of memory. */
static uint32_t region_by_name(const char *mangled)
{
    if (2 * (name_n + 1) > name_cap && grow_names() != 0)
        return SCOREP_INVALID_ID;
    uint64_t h = name_hash(mangled);
    size_t j = h & (name_cap - 1);
    for (; names[j].name; j = (j + 1) & (name_cap - 1))
        if (names[j].hash == h && strcmp(names[j].name, mangled) == 0)
            return names[j].region;
    char *copy = strdup(mangled);
    uint32_t id = copy ? define_kernel(mangled) : SCOREP_INVALID_ID;
    if (id == SCOREP_INVALID_ID) {
        free(copy);
        return id;
    }
    names[j] = (by_name){copy, h, id};
    name_n++;
    return id;
}

static uint64_t head_of(const char *s)
{
    uint64_t h = 0;
    memcpy(&h, s, strnlen(s, 8));
    return h;
}

/* The first 8 bytes at s equal head: one load when the name had 8 bytes or more. */
static inline int same_head(uint64_t head, const char *s)
{
    if ((head >> 56) != 0) { /* the recorded name had 8 or more bytes: so had the memory */
        uint64_t h;
        memcpy(&h, s, 8);
        return h == head;
    }
    return head_of(s) == head;
}

static uint32_t kernel_region(const char *mangled)
{
    if (!mangled) {
        static uint32_t unnamed; /* id + 1 */
        if (!unnamed)
            unnamed = scorep_defs_region("<unnamed kernel>", NULL, NULL, 0, 0,
                                         SCOREP_PARADIGM_CUDA, SCOREP_ROLE_FUNCTION) + 1;
        return unnamed - 1;
    }
    if (ptr_cap) {
        size_t j = ptr_slot(mangled, ptr_cap);
        for (; ptrs[j].ptr; j = (j + 1) & (ptr_cap - 1))
            if (ptrs[j].ptr == mangled) {
                if (same_head(ptrs[j].head, mangled))
                    return ptrs[j].region;
                /* the memory now holds another name: look it up again */
                uint32_t id = region_by_name(mangled);
                if (id != SCOREP_INVALID_ID) {
                    ptrs[j].region = id;
                    ptrs[j].head = head_of(mangled);
                }
                return id;
            }
    }
    uint32_t id = region_by_name(mangled);
    if (id == SCOREP_INVALID_ID || (2 * (ptr_n + 1) > ptr_cap && grow_ptrs() != 0))
        return id;
    size_t j = ptr_slot(mangled, ptr_cap);
    while (ptrs[j].ptr)
        j = (j + 1) & (ptr_cap - 1);
    ptrs[j].ptr = mangled;
    ptrs[j].head = head_of(mangled);
    ptrs[j].region = id;
    ptr_n++;
    return id;
}

/* Regions named once per process: id + 1, 0 until defined. */
static uint32_t fixed_region(uint32_t *slot, const char *name, int role)
{
    if (!*slot) {
        uint32_t id = scorep_defs_region(name, name, NULL, 0, 0, SCOREP_PARADIGM_CUDA, role);
        if (id == SCOREP_INVALID_ID)
            return id;
        *slot = id + 1;
    }
    return *slot - 1;
}

/* kernel_counter: the launch configuration as metrics of the kernel's call (Score-P's
 * kernel_counter records it per kernel launch), written just after its Enter. */
enum { KC_BLOCKS, KC_THREADS, KC_SHARED, KC_REGISTERS, KC_N };
static const struct {
    const char *name, *unit;
} kc_defs[KC_N] = {{"CUDA grid size", "blocks"},
                   {"CUDA block size", "threads"},
                   {"CUDA shared memory", "bytes"},
                   {"CUDA registers per thread", "registers"}};
static uint32_t kc_ids[KC_N]; /* id + 1 */

static void gpu_metric(scorep_location *l, int which, uint64_t v)
{
    if (!kc_ids[which]) {
        uint32_t id = scorep_defs_metric(kc_defs[which].name, kc_defs[which].unit,
                                         SCOREP_METRIC_UINT64, true);
        if (id == SCOREP_INVALID_ID)
            return;
        kc_ids[which] = id + 1;
    }
    uint64_t t = scorep_location_now(l, 0);
    if (l->profiling)
        scorep_profile_metric(&l->profile, kc_ids[which] - 1, (double)v);
    if (l->tracing)
        scorep_buffer_event(&l->buffer, BUF_CLASS_PARAM, t, BUF_EV_METRIC, kc_ids[which] - 1, v);
}

/* references: CUPTI's correlation id as a parameter of the kernel's call, in the trace only
 * (a profile would split the call path per id); the launch on the host carries the same. */
uint32_t scorep_cuda_correlation_param(void)
{
    static uint32_t id; /* id + 1 */
    if (!id) {
        uint32_t p = scorep_defs_parameter("CUDA correlation id", SCOREP_PARAM_UINT64);
        if (p == SCOREP_INVALID_ID)
            return p;
        id = p + 1;
    }
    return id - 1;
}

static void gpu_reference(scorep_location *l, uint32_t correlation)
{
    uint32_t p = scorep_cuda_correlation_param();
    if (l->tracing && p != SCOREP_INVALID_ID)
        scorep_buffer_event(&l->buffer, BUF_CLASS_PARAM, scorep_location_now(l, 0),
                            BUF_EV_PARAM_UINT, p, correlation);
}

/* idle, pure_idle: the time a context's GPU work leaves free, as the region "COMPUTE IDLE"
 * (no kernel runs) on the location CUDA[device:context:compute idle] and "GPU IDLE" (no
 * kernel, copy or memset runs) on CUDA[device:context:idle]. Computed in record order:
 * per context the latest end of its work so far; a record starting after it opens an idle
 * interval from there to its start. Before the first record and after the last there is no
 * idle time. Exact when records come in time order (one stream; CUPTI delivers each
 * stream's records in order); a record that arrives after a later one of another stream
 * cannot shorten an interval already written. */
typedef struct {
    uint32_t device, context;
    uint64_t busy_until;
    scorep_location *loc;
} idle_track;
static idle_track *idle_tracks[2];
static uint32_t n_idle[2], cap_idle[2];

static int busy(int pure, uint32_t device, uint32_t context, uint64_t start, uint64_t end)
{
    idle_track *t = NULL;
    for (uint32_t i = 0; i < n_idle[pure]; i++)
        if (idle_tracks[pure][i].device == device && idle_tracks[pure][i].context == context)
            t = &idle_tracks[pure][i];
    if (!t) {
        if (n_idle[pure] == cap_idle[pure]) {
            uint32_t c = cap_idle[pure] ? 2 * cap_idle[pure] : 4;
            idle_track *n = realloc(idle_tracks[pure], c * sizeof *n);
            if (!n)
                return -1;
            idle_tracks[pure] = n;
            cap_idle[pure] = c;
        }
        idle_tracks[pure][n_idle[pure]++] = (idle_track){device, context, end, NULL};
        return 0;
    }
    if (start > t->busy_until) {
        static uint32_t regions[2]; /* id + 1 */
        uint32_t r = fixed_region(&regions[pure], pure ? "GPU IDLE" : "COMPUTE IDLE",
                                  SCOREP_ROLE_ARTIFICIAL);
        if (!t->loc) {
            char name[48];
            snprintf(name, sizeof name, "CUDA[%u:%u:%s]", device, context,
                     pure ? "idle" : "compute idle");
            t->loc = scorep_location_create_gpu(name, t->busy_until - 1);
        }
        if (!t->loc || r == SCOREP_INVALID_ID)
            return -1;
        gpu_region(t->loc, r, t->busy_until, 1);
        gpu_region(t->loc, r, start, 0);
    }
    if (end > t->busy_until)
        t->busy_until = end;
    return 0;
}

static int kernel(const CUpti_ActivityKernel10 *k)
{
    uint64_t start = to_host(k->start), end = to_host(k->end);
    scorep_location *l = stream_location(k->deviceId, k->contextId, k->streamId, start);
    uint32_t region = kernel_region(k->name);
    if (!l || region == SCOREP_INVALID_ID)
        return -1;
    gpu_region(l, region, start, 1);
    if (scorep_cuda_record_callsites) /* first, as Score-P: the metrics below go to its node */
        scorep_cuda_callsite_kernel(l, k->correlationId);
    if (scorep_cuda_record_references)
        gpu_reference(l, k->correlationId);
    if (scorep_cuda_record_kernel_counter) {
        gpu_metric(l, KC_BLOCKS, (uint64_t)k->gridX * (uint64_t)k->gridY * (uint64_t)k->gridZ);
        gpu_metric(l, KC_THREADS,
                   (uint64_t)k->blockX * (uint64_t)k->blockY * (uint64_t)k->blockZ);
        gpu_metric(l, KC_SHARED, (uint64_t)k->staticSharedMemory + (uint64_t)k->dynamicSharedMemory);
        gpu_metric(l, KC_REGISTERS, k->registersPerThread);
    }
    gpu_region(l, region, end, 0);
    if ((scorep_cuda_record_idle && busy(0, k->deviceId, k->contextId, start, end) != 0) ||
        (scorep_cuda_record_pure_idle && busy(1, k->deviceId, k->contextId, start, end) != 0))
        return -1;
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
    static uint32_t regions[256];
    uint32_t region =
        fixed_region(&regions[m->copyKind], memcpy_name(m->copyKind), SCOREP_ROLE_RMA);
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
    if (scorep_cuda_record_pure_idle && busy(1, m->deviceId, m->contextId, start, end) != 0)
        return -1;
    return 1;
}

static int memset_record(const CUpti_ActivityMemset4 *m)
{
    uint64_t start = to_host(m->start), end = to_host(m->end);
    scorep_location *l = stream_location(m->deviceId, m->contextId, m->streamId, start);
    static uint32_t slot;
    uint32_t region = fixed_region(&slot, "memset", SCOREP_ROLE_RMA);
    if (!l || region == SCOREP_INVALID_ID)
        return -1;
    gpu_region(l, region, start, 1);
    gpu_region(l, region, end, 0);
    if (scorep_cuda_record_pure_idle && busy(1, m->deviceId, m->contextId, start, end) != 0)
        return -1;
    return 1;
}

void scorep_cuda_mark_loss(uint64_t records)
{
    static uint32_t region, metric; /* id + 1 */
    scorep_location *l = scorep_location_first();
    uint32_t r = fixed_region(&region, "CUDA ACTIVITY RECORDS LOST", SCOREP_ROLE_ARTIFICIAL);
    if (!metric) {
        uint32_t id = scorep_defs_metric("CUDA records lost", "records", SCOREP_METRIC_UINT64, true);
        metric = id == SCOREP_INVALID_ID ? 0 : id + 1;
    }
    if (!l || r == SCOREP_INVALID_ID || !metric)
        return;
    uint64_t t = scorep_timer_ticks();
    gpu_region(l, r, t, 1);
    t = scorep_location_now(l, t);
    if (l->profiling)
        scorep_profile_metric(&l->profile, metric - 1, (double)records);
    if (l->tracing) {
        scorep_buffer_event(&l->buffer, BUF_CLASS_PARAM, t, BUF_EV_METRIC, metric - 1, records);
        /* an OTF2 marker and a row of MANIFEST.md's "What the trace lacks" (trace_reduction.c) */
        if (records)
            scorep_buffer_log(&l->buffer, BUF_STEP_LOST, records, t, records);
    }
    gpu_region(l, r, t + 1, 0);
}

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

int scorep_cuda_process_buffer(uint8_t *buffer, size_t valid_size)
{
    CUpti_Activity *r = NULL;
    int n = 0, failed = 0;
    conversion_for_buffer();
    while (valid_size > 0 && cuptiActivityGetNextRecord(buffer, valid_size, &r) == CUPTI_SUCCESS) {
        int rc = process_record(r);
        if (rc < 0)
            failed = 1;
        else
            n += rc;
    }
    return failed ? -1 : n;
}
