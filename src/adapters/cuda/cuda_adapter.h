/* cuda_adapter.h: internals of the CUDA adapter (libscorep-rt-cuda): the clock conversion,
 * the processing of CUPTI activity records onto GPU locations, and the CUPTI glue. */
#ifndef SCOREP_CUDA_ADAPTER_H
#define SCOREP_CUDA_ADAPTER_H

#include "core/location.h"

#include <cupti.h>
#include <stddef.h>
#include <stdint.h>

/* ----------------------------------------------------------- cuda_clock.c */
/* Two synchronisation points (host ticks, CUPTI ns): the first taken at start, the second
 * at the latest flush. GPU times are mapped onto the host timer by the line through both;
 * with only the first, by the host timer's nominal rate. */
typedef struct {
    uint64_t host0, gpu0, host1, gpu1;
    int points; /* 0, 1 or 2 */
} scorep_cuda_clock;

void scorep_cuda_clock_start(scorep_cuda_clock *c, uint64_t host, uint64_t gpu);
void scorep_cuda_clock_sync(scorep_cuda_clock *c, uint64_t host, uint64_t gpu);
uint64_t scorep_cuda_clock_to_host(const scorep_cuda_clock *c, uint64_t gpu,
                                   uint64_t host_ticks_per_s);

/* -------------------------------------------------------- cuda_activity.c */
/* The clock the activity processing converts with (set by cuda_cupti.c, or by tests). */
extern scorep_cuda_clock scorep_cuda_activity_clock;
/* Which activity kinds are turned into events (SCOREP_CUDA_ENABLE kernel, memcpy). */
extern int scorep_cuda_record_kernels, scorep_cuda_record_memcpy;

/* Processes every record of a completed CUPTI activity buffer (the buffer-completed
 * callback's path). Serialised internally. Returns the number of records turned into
 * events, or -1 when a location or definition could not be created. */
int scorep_cuda_process_buffer(uint8_t *buffer, size_t valid_size);
/* One record; 1 when it became events, 0 when its kind is not recorded, -1 on failure. */
int scorep_cuda_process_record(const CUpti_Activity *record);
/* The location of (device, context, stream), created on first use. */
scorep_location *scorep_cuda_stream_location(uint32_t device, uint32_t context, uint32_t stream,
                                             uint64_t first_ts);
uint32_t scorep_cuda_stream_count(void);
/* At finalize, after the last flush: waits for a buffer being processed, then ignores all
 * later ones (CUPTI's threads would otherwise add events while the writers read them). */
void scorep_cuda_activity_stop(void);

/* ----------------------------------------------------------- cuda_cupti.c */
/* The CUPTI callback of the runtime and driver API domains (exported for the bench). */
void CUPTIAPI scorep_cuda_api_callback(void *userdata, CUpti_CallbackDomain domain,
                                       CUpti_CallbackId cbid, const void *data);
/* The activity buffer pool: SCOREP_CUDA_BUFFER / SCOREP_CUDA_BUFFER_CHUNK chunks (at least
 * 2), allocated once (again: no-op). 0 or -1. The two functions CUPTI calls: a request that
 * finds no free chunk gets none (CUPTI drops records then); a completed buffer is
 * processed (after a new clock synchronisation point) and its chunk returned. */
int scorep_cuda_pool_init(void);
void CUPTIAPI scorep_cuda_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records);
void CUPTIAPI scorep_cuda_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                           size_t size, size_t valid);

#endif
