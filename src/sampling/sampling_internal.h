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
    uint64_t dl_drops; /* samples outside every call while the dynamic linker changed its list */
    /* the handler's runs while measuring (samples taken and every kind left out): how often
     * the kernel signalled the thread; a CPU-time timer's signal comes only at a tick that
     * finds the thread running, so a loaded machine may signal a thread that ran 300 ms
     * never (SCOREP_VERBOSE reports both) */
    uint64_t signals;
    uint64_t
        cpu_ns; /* the thread's CPU time when its own thread stopped its sources (0: not read) */
    uint64_t in_event; /* samples taken with SMP_IN_EVENT (reported with SCOREP_VERBOSE) */
    /* enters and leaves of the location (scorep_sampling_event), and their number at the
     * previous sample in the record (SMP_AFTER_EVENT) */
    uint32_t events, events_seen;
    uint64_t handler_ticks; /* time spent in the handler (make bench reports it per sample) */
    uint32_t *node_region;  /* at finish: region of each node, or SMP_SKIP */
    /* substrate plugins' samples (sampling_plugins.c): the same, resolved while the program
     * runs for the first n_live nodes (scorep_smp_live_regions), and their path states */
    uint32_t *live_region;
    void *live_state;
    uint32_t n_live;
    /* handler scratch: one unwind */
    void *ips[SMP_MAX_FRAMES];
};

/* Where a sample's frames hang below its region stack (sampling_trace.c, sampling_plugins.c):
 * node's innermost region node (*region, SMP_NONE without one), the frames below that which
 * stand for a region (*frames; reg: each node's region, SMP_SKIP for a folded frame; NULL:
 * not counted), and the number of regions on node's path (returned). */
static inline uint32_t smp_region_depth(const struct scorep_sampling_thread *t, uint32_t node,
                                        const uint32_t *reg, uint32_t *region, uint32_t *frames)
{
    uint32_t j = node, nf = 0, d = 0;
    while (j != SMP_NONE && !(t->nodes[j].key & SMP_REGION_KEY)) {
        nf += reg && reg[j] != SMP_SKIP;
        j = t->nodes[j].parent;
    }
    for (uint32_t k = j; k != SMP_NONE; k = t->nodes[k].parent)
        d++;
    *region = j;
    if (frames)
        *frames = nf;
    return d;
}

extern smp_source scorep_smp_sources[SMP_MAX_SOURCES];

/* For a thread that reads t's samples up to a time it read earlier while t's own thread may
 * be sampled (an OpenMP master writing an idle worker's events, finalize): returns once every
 * sample of t taken before that time is published (n_samples, n_nodes: acquire), waiting for
 * a signal handler that runs on t's thread at that moment. Not for t's own thread. */
void scorep_sampling_settle(const struct scorep_sampling_thread *t);

/* The region of the function that return address ip lies in (defined on first use, paradigm
 * sampling) and its name; SMP_SKIP for a frame shown as part of its caller (libc's start-up,
 * the runtime and its adapters' libraries, the OpenMP runtime, an OpenMP outlined body:
 * *omp set for the last two). Not thread-safe: the caller serialises (sampling_profile.c). */
uint32_t scorep_smp_frame_region(uint64_t ip, const char **name, bool *omp);
extern int scorep_smp_n_sources;
/* The regions of t's first n nodes as scorep_sampling_finish will resolve them (SMP_SKIP for
 * the frames shown by their caller), resolved now under the resolution lock: for substrate
 * plugins' samples, outside the signal handler. NULL without memory. */
const uint32_t *scorep_smp_live_regions(struct scorep_sampling_thread *t, uint32_t n);

#endif
