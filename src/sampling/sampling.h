/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling.h: call-stack sampling with libunwind (SCOREP_ENABLE_UNWINDING,
 * SCOREP_SAMPLING_EVENTS): per-thread interrupt sources, the async-signal-safe sample tree,
 * and the hooks that merge samples into the profile and the trace at finalize. */
#ifndef SCOREP_SAMPLING_H
#define SCOREP_SAMPLING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct scorep_location;
struct scorep_sampling_thread;

/* One interrupt source of SCOREP_SAMPLING_EVENTS ("timer@1000", "perf_task_clock@1000000"). */
typedef enum { SMP_SRC_TIMER, SMP_SRC_PERF } smp_src_kind;
typedef struct {
    char spec[64];      /* as the user wrote it: the interrupt generator's name */
    smp_src_kind kind;  /* timer: POSIX timer on the thread's CPU clock; perf: perf_event */
    uint32_t perf_type; /* perf_event_attr.type/config for SMP_SRC_PERF */
    uint64_t perf_config;
    uint64_t period; /* timer: microseconds; perf: events (ns for the clock events) */
    bool time_based; /* OTF2 interrupt generator mode: time or count */
} smp_source;

enum { SMP_MAX_SOURCES = 4 };

/* Parses SCOREP_SAMPLING_EVENTS with separator sep. Returns the number of sources (0 for an
 * empty string) or -1 with a message naming the bad entry and the accepted forms in err. */
int scorep_sampling_parse(const char *events, const char *sep, smp_source *out, int max, char *err,
                          size_t errlen);

/* The runtime's handle on sampling (core/subsystem.h): init, a new thread's sources, end
 * (stop all), finalize (merge the samples). */
struct scorep_subsystem;
extern const struct scorep_subsystem scorep_subsystem_sampling;

/* Called once at init after the configuration is read: parses the events, installs the
 * signal handler. Returns 0, or -1 with the message printed (sampling stays off). */
int scorep_sampling_init(void);
/* true when samples are taken (SCOREP_ENABLE_UNWINDING and at least one usable event). */
bool scorep_sampling_enabled(void);
/* true when SCOREP_ENABLE_UNWINDING is set: the trace uses calling-context events. */
bool scorep_sampling_unwinding(void);
/* In the new thread itself, after its location exists: preallocates the thread's sample
 * storage and starts its interrupt sources. No-op when sampling is off. */
void scorep_sampling_thread_start(struct scorep_location *l);
/* In an ending thread: stops its sources (a program that starts many threads would run out
 * of timers and file descriptors otherwise); its samples stay for finalize. */
void scorep_sampling_thread_end(struct scorep_location *l);
/* An enter or leave of l (the event path's metric hook, a location that unwinds): the
 * next sample follows an event (SMP_AFTER_EVENT, sampling_internal.h). */
void scorep_sampling_event(struct scorep_location *l);
/* The runtime's own work inside a call of the program (MPI_Init's set-up after PMPI_Init: its
 * PMPI_Bcast waiting for a late rank is no call of the program's): a sample taken between
 * begin and end is that open call's time without frames, as one inside an event. begin
 * returns the mark it replaced for end to restore (the instrumented enter's unwinding sets
 * the same mark). l may be NULL; no-op without sampling. */
int scorep_sampling_runtime_begin(struct scorep_location *l);
void scorep_sampling_runtime_end(struct scorep_location *l, int mark);
/* At finalize, first: stops every source of every thread and waits for running handlers. */
void scorep_sampling_stop_all(void);
/* At finalize, after the profile's calls are closed and before unification: defines the
 * sampled functions as regions and adds samples (count, time) to each location's profile. */
void scorep_sampling_finish(void);

/* ------------------------------------------------ unwinding at events (unwind_enter.c) */
/* SCOREP_ENABLE_UNWINDING: every enter of an instrumented region unwinds the stack and puts
 * the uninstrumented frames between the innermost open call and the new one into the profile
 * (below that call) and the trace (its calling context), as Score-P does. */
void scorep_unwind_init(void);
bool scorep_unwind_at_enter(void);
/* In the new thread: its unwinding state, and the empty metric set that routes its enters
 * and leaves to the two hooks below (core/events.h). */
void scorep_unwind_thread_start(struct scorep_location *l);
/* The event path's hooks: an enter of region at t (after the call stack has its slot, before
 * the profile's enter), a leave (before the call is left). */
void scorep_unwind_enter(struct scorep_location *l, uint32_t region, uint64_t t);
void scorep_unwind_leave(struct scorep_location *l);
/* An OpenMP fork on l (its location's unwinding on): the frames of the parallel region
 * `region` that l enters next are inserted now, so that the fork's call path, where the
 * workers' trees hang, includes them (Score-P: main/compute/!$omp parallel on every thread);
 * that enter takes them. Returns l's current profile node (NULL when not profiling). */
struct pnode;
struct pnode *scorep_unwind_fork(struct scorep_location *l, uint32_t region);
/* At finalize, before the location's open calls are closed. */
void scorep_unwind_close(struct scorep_location *l);
/* At finalize, before the samples are merged: the inserted frames' values. */
void scorep_unwind_finish(void);
/* The trace: the frame regions (local ids, outermost first) recorded for the enter at ts,
 * and their code addresses (n + 1 of them: each frame's call, then the region's call site
 * in its caller; 0 where unknown; *addrs NULL when the enter has no record); *i is the
 * caller's position in l's records, starting at 0. */
uint32_t scorep_unwind_frames_at(const struct scorep_location *l, size_t *i, uint64_t ts,
                                 const uint32_t **regions, const uint64_t **addrs);

/* Substrate plugins (sampling_plugins.c): the frames of the enter of region at l's
 * innermost call, as the trace's record of it has them (regions: up to SMP_MAX_FRAMES, local
 * ids, outermost first; addrs: their calls, then the region's call site, 0: unknown).
 * Returns their number; 0 frames and call site 0 where the enter has no record. */
uint32_t scorep_unwind_plugin_frames(const struct scorep_location *l, uint32_t region,
                                     uint32_t *regions, uint64_t *addrs);
/* The lock that serialises the resolution of code addresses to regions. */
void scorep_unwind_resolve_lock(bool lock);

/* ------------------------------------------------------------ trace hooks */
/* Calling contexts of the trace (sampling_trace.c). A writer keeps one cursor per location. */
typedef struct scorep_sampling_cursor scorep_sampling_cursor;
/* NULL when the trace has no calling-context events (unwinding off). */
scorep_sampling_cursor *scorep_sampling_cursor_new(const struct scorep_location *l,
                                                   void *evt_writer);
/* Writes the samples taken before ts (raw ticks); *last is the writer's last timestamp, kept
 * strictly increasing. */
void scorep_sampling_cursor_until(scorep_sampling_cursor *c, uint64_t ts, uint64_t *last);
/* Instead of Enter/Leave: CallingContextEnter/Leave of region (local id) at time t. */
void scorep_sampling_cursor_region(scorep_sampling_cursor *c, void *attrs, uint64_t t,
                                   uint32_t region, bool enter);
/* After the last event of the location, before its end: with
 * SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS, the Leave records of the sampled frames
 * still on the stack, at time t. */
void scorep_sampling_cursor_close(scorep_sampling_cursor *c, uint64_t t);
void scorep_sampling_cursor_free(scorep_sampling_cursor *c);
/* Collective, after every location's events are written: the job's calling contexts at
 * rank 0 and each process's map to them. region_map: local -> global region. 0 or -1. */
int scorep_sampling_trace_unify(const uint32_t *region_map);
/* Per location's local definitions: the mapping table of calling contexts. */
void scorep_sampling_write_mapping(void *def_writer);
/* Global definitions (rank 0): the interrupt generators (names are string ids from
 * name_ids) and the job's calling contexts. */
const char *scorep_sampling_generator_name(int i);
int scorep_sampling_generator_count(void);
/* str: the writer's id of a string (added when new); the strings of the calling contexts
 * (their objects, files and property names) are added through it in every call, the
 * definitions written only when global_def_writer is not NULL. */
typedef uint32_t (*scorep_sampling_string_fn)(void *ctx, const char *s);
void scorep_sampling_write_defs(void *global_def_writer, const uint32_t *name_ids,
                                scorep_sampling_string_fn str, void *str_ctx);
/* true when a trace needs calling-context definitions (some cursor made a context). */
bool scorep_sampling_trace_used(void);

#endif
