/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_internal.h: the per-thread sample storage shared by the signal handler
 * (sampling.c), the profile merge (sampling_profile.c) and the trace writer hooks
 * (sampling_trace.c). Everything here is preallocated before the thread's sources start. */
#ifndef SCOREP_SAMPLING_INTERNAL_H
#define SCOREP_SAMPLING_INTERNAL_H

#include "sampling/sampling.h"

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define SMP_NONE UINT32_MAX
#define SMP_FULL (UINT32_MAX - 2) /* the tree has no room for another node */
/* Node keys: an instrumented region on the thread's region stack, or the code address of an
 * unwound frame: a return address, or the interrupted instruction itself (SMP_LEAF_KEY).
 * User-space addresses never have bits 62 and 63 set. */
#define SMP_REGION_KEY (1ull << 63)
#define SMP_LEAF_KEY (1ull << 62)
/* node_region value of a frame that is shown as part of its caller (libc start-up, the
 * runtime's own frames, a frame of the instrumented function itself) */
#define SMP_SKIP (UINT32_MAX - 1)

enum { SMP_MAX_FRAMES = 256, SMP_NODE_CAP = 32768, SMP_SAMPLE_CAP = 65536 };

typedef struct {
    uint64_t key;
    uint32_t parent;
    uint32_t count;   /* samples whose innermost frame is this node */
    uint64_t time_ns; /* their time from time-based sources (period x expirations) */
    uint64_t ticks;   /* their time from count-based sources (interval since the last one) */
} smp_node;

typedef struct {
    uint64_t ts; /* raw timer ticks */
    uint32_t node;
    uint32_t gen; /* source index = interrupt generator id, SMP_IN_EVENT or'ed in */
} smp_sample;
/* The sample interrupted an event of its own location (an enter or leave between its
 * timestamp and its call-stack update, the unwinding at an enter): its node is the region
 * stack as it was read, which may be the one before or after the event while its
 * timestamp lies after or before the event's. It is the runtime's work for whatever call
 * is open: the trace writes it at the context open at its time and moves no call stack for
 * it (Enter/Leave records), the profile's visits skip it (sampling_trace.c,
 * sampling_profile.c), so that neither counts an entry the other does not see. */
#define SMP_IN_EVENT 0x80000000u
/* Outside events: an enter or leave of the location ended since its previous sample in the
 * record (the trace's call stack is then that event's path, without the sampled frames:
 * they are entered again; the profile's visits count them so). */
#define SMP_AFTER_EVENT 0x40000000u
#define SMP_GEN_MASK 0x3fffffffu

struct scorep_sampling_thread {
    volatile int busy;    /* a handler runs on this thread */
    volatile int stopped; /* finalize began: the handler returns at once */
    /* the thread unwinds and resolves frames at an instrumented enter (unwind_enter.c): a
     * sample there is the runtime's work, attributed to the innermost instrumented call
     * (as one that interrupts any event of the location: SMP_IN_EVENT) */
    volatile int in_runtime;
    int n_src;
    timer_t timers[SMP_MAX_SOURCES];
    int fds[SMP_MAX_SOURCES];
    bool armed[SMP_MAX_SOURCES];
    smp_node *nodes;
    uint32_t n_nodes;
    uint32_t *slots;     /* (parent, key) -> node + 1; 2 x SMP_NODE_CAP, open addressing */
    smp_sample *samples; /* only when tracing */
    uint32_t n_samples, cap_samples;
    uint64_t last_ts;
    uint64_t taken, lost_nodes, lost_samples, failed_unwinds, slow_unwinds, in_runtime_drops;
    uint64_t in_event; /* samples taken with SMP_IN_EVENT (reported with SCOREP_VERBOSE) */
    /* enters and leaves of the location (scorep_sampling_event), and their number at the
     * previous sample in the record (SMP_AFTER_EVENT) */
    uint32_t events, events_seen;
    uint64_t handler_ticks; /* time spent in the handler (make bench reports it per sample) */
    uint32_t *node_region;  /* at finish: region of each node, or SMP_SKIP */
    /* handler scratch: one unwind */
    void *ips[SMP_MAX_FRAMES];
};

extern smp_source scorep_smp_sources[SMP_MAX_SOURCES];

/* The region of the function that return address ip lies in (defined on first use, paradigm
 * sampling) and its name; SMP_SKIP for a frame shown as part of its caller (libc's start-up,
 * the runtime and its adapters' libraries, the OpenMP runtime, an OpenMP outlined body:
 * *omp set for the last two). Not thread-safe: the caller serialises (sampling_profile.c). */
uint32_t scorep_smp_frame_region(uint64_t ip, const char **name, bool *omp);
extern int scorep_smp_n_sources;

#endif
