/* SPDX-License-Identifier: BSD-3-Clause */
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
/* kernel_counter: launch configuration as metrics of a kernel's call; references: CUPTI's
 * correlation id as the trace parameter "CUDA correlation id" of a kernel and its launch. */
extern int scorep_cuda_record_kernel_counter, scorep_cuda_record_references;
/* idle: "COMPUTE IDLE" (no kernel) and pure_idle: "GPU IDLE" (no kernel, copy or memset)
 * per device and context, each on a location of its own */
extern int scorep_cuda_record_idle, scorep_cuda_record_pure_idle;
uint32_t scorep_cuda_correlation_param(void);

/* Processes every record of a completed CUPTI activity buffer. Callers serialise (the
 * pool's consumer does): no lock is taken per record. The clock conversion is computed once
 * per buffer. Returns the number of records turned into events, or -1 when a location or
 * definition could not be created. */
int scorep_cuda_process_buffer(uint8_t *buffer, size_t valid_size);
/* The location of (device, context, stream), created on first use (same serialisation). */
scorep_location *scorep_cuda_stream_location(uint32_t device, uint32_t context, uint32_t stream,
                                             uint64_t first_ts);
uint32_t scorep_cuda_stream_count(void);
/* At finalize, when activity records were lost: a visit of "CUDA ACTIVITY RECORDS LOST" on
 * the master thread with the metric "CUDA records lost" (the marker in profile and trace). */
void scorep_cuda_mark_loss(uint64_t records);
/* Distinct kernel regions defined so far and how often a kernel name was demangled. */
uint64_t scorep_cuda_kernel_names_demangled(void);

/* ------------------------------------------------------------ cuda_pool.c */
/* The activity buffer pool: SCOREP_CUDA_BUFFER / SCOREP_CUDA_BUFFER_CHUNK chunks (at least
 * 2) allocated at init (again: no-op), grown by one chunk when CUPTI asks and none is free,
 * up to SCOREP_CUDA_BUFFER_MAX; only then is a request refused (CUPTI drops records). A
 * completed buffer is queued (with a clock synchronisation point) and processed by the
 * consumer thread, scorep_cuda_drain, or finalize's scorep_cuda_consumer_stop; buffers
 * completed after that are counted (late_*), not processed. */
int scorep_cuda_pool_init(void);
void CUPTIAPI scorep_cuda_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records);
void CUPTIAPI scorep_cuda_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                           size_t size, size_t valid);
int scorep_cuda_consumer_start(void);
uint64_t scorep_cuda_drain(void);
void scorep_cuda_consumer_stop(void);
/* 0 in tests that set the clock themselves: completions take no CUPTI timestamp */
extern int scorep_cuda_clock_from_cupti;
typedef struct {
    uint64_t chunk_size, chunks, free_chunks, peak_used, max_chunks, refused, dropped;
    uint64_t buffers, records, failed_buffers, late_buffers, late_records;
} scorep_cuda_pool_info;
void scorep_cuda_pool_stats(scorep_cuda_pool_info *out);
/* A line for MANIFEST.md and the log when records were lost (dropped past the cap, completed
 * after finalize, or not recorded for lack of memory); "" when none was. */
void scorep_cuda_pool_note(const scorep_cuda_pool_info *p, char *out, size_t len);

/* -------------------------------------------------------- cuda_callsite.c */
/* kernel_callsite: the parameter "callsite id" (UINT64, as Score-P's) with a hash of the
 * host call stack, inside a kernel's launch call and right after the kernel's Enter on its
 * stream. Launch and kernel meet through a table of SLOTS entries indexed by CUPTI's
 * correlation id (allocated by init: 2 MiB). */
#define SCOREP_CUDA_CALLSITE_SLOTS (1u << 18)
extern int scorep_cuda_record_callsites;
int scorep_cuda_callsite_init(void);
/* FNV-1a (32 bit, one step per region id) over the open calls, outermost first */
uint32_t scorep_cuda_callsite_hash(const uint32_t *regions, uint32_t depth);
/* On the launching thread, after the launch call's Enter: hashes l's call stack (the launch
 * call included), keeps the hash for the correlation id and records it on l. Does nothing
 * when an outer launch call of the same correlation id already did (runtime -> driver). */
void scorep_cuda_callsite_launch(scorep_location *l, uint32_t correlation);
/* On the consumer, right after a kernel's Enter on its stream l: the launch's hash, or
 * nothing (counted) when the launch was not recorded or its entry was overwritten. */
void scorep_cuda_callsite_kernel(scorep_location *l, uint32_t correlation);
/* The counts to the log, and to MANIFEST.md when kernels went without a callsite id. */
void scorep_cuda_callsite_finalize(void);

/* ----------------------------------------------------------- cuda_cupti.c */
/* The CUPTI callback of the runtime and driver API domains (exported for the bench). */
void CUPTIAPI scorep_cuda_api_callback(void *userdata, CUpti_CallbackDomain domain,
                                       CUpti_CallbackId cbid, const void *data);

#endif
