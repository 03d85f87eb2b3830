/* SPDX-License-Identifier: BSD-3-Clause */
/* metrics.h: metric sources (rusage, PAPI, metric plugins): set-up at start, one value array
 * per location read at every enter and leave, asynchronous plugin values at the end. The
 * readers of a location are called in the order their groups were added. */
#ifndef SCOREP_METRICS_H
#define SCOREP_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct scorep_location;

enum { SCOREP_METRICS_MAX_GROUPS = 32 };

/* One read call of a source for one location: fills out[0..n). */
typedef void (*scorep_metric_read_fn)(void *state, uint64_t *out);

typedef struct {
    scorep_metric_read_fn read;   /* NULL: a perf counter group (scorep_perf_read) */
    void (*release)(void *state); /* at thread end; may be NULL */
    void *state;
    uint64_t *out;
} scorep_metric_reader;

/* The values of one location; built (allocated) when the location is created, so that the
 * event path only calls the readers and copies values. */
typedef struct scorep_metric_set {
    uint32_t n; /* values per event */
    uint32_t n_readers;
    uint64_t *values; /* the latest read */
    uint32_t *ids;    /* defs metric id of each value */
    scorep_metric_reader readers[SCOREP_METRICS_MAX_GROUPS];
} scorep_metric_set;

/* A group of values that a source reads with one call (e.g. one PAPI event set). */
typedef struct scorep_metric_group {
    uint32_t n;
    uint32_t *ids;    /* defs metric ids, n of them */
    bool master_only; /* per process: only the first location records it */
    bool others_only; /* every location but the first (which reads these values in a
                         group of its own, e.g. PAPI's one event set per thread) */
    /* Creates the per-thread state on the thread itself; 0 or -1 (then not recorded). */
    int (*attach)(struct scorep_metric_group *g, struct scorep_location *l, void **state);
    scorep_metric_read_fn read;   /* NULL: state is a scorep_perf_thread (metric_perf.h) */
    void (*release)(void *state); /* frees what attach made, on the thread; may be NULL */
    void *ctx;
} scorep_metric_group;

/* The runtime's handle on the metric sources (core/subsystem.h): init, begin, a new
 * location's readers, end (stop), finalize (end). */
struct scorep_subsystem;
extern const struct scorep_subsystem scorep_subsystem_metrics;

/* Reads SCOREP_METRIC_* and sets up the sources; bad input is reported, never fatal. */
void scorep_metrics_init(void);
/* Called by the sources during init. 0 or -1 (too many groups). */
int scorep_metrics_add_group(scorep_metric_group *g);
/* Builds l->metrics on the thread of l (location creation). 0 or -1 (out of memory). */
int scorep_metrics_attach(struct scorep_location *l);
/* The thread of l ends (on that thread): its sources are released; l keeps its last values
 * for the events that others still write for it. */
void scorep_metrics_thread_end(struct scorep_location *l);
/* Measurement begins (after the first location exists); stops (before the locations get
 * their end time: asynchronous values all lie before it); ends (values recorded, plugins
 * finalized; before writing). */
void scorep_metrics_begin(bool mpi);
void scorep_metrics_stop(void);
void scorep_metrics_end(void);

/* The strictly synchronous per-thread metrics that every location reads at each enter and
 * leave (Score-P's one sampling set of them; per-process groups are not part of it): defs
 * ids in Score-P's source order (PAPI, rusage, plugins, perf), then in the order read.
 * Without metric sources (scorep-recover) from the definitions (scorep_metric_def.per).
 * Returns how many there are; writes at most cap of them. */
uint32_t scorep_metrics_strict_set(uint32_t *ids, uint32_t cap);

/* An asynchronous value: timestamp in timer ticks (the plugin's clock), defs metric id. */
typedef struct {
    uint64_t ts, value;
    uint32_t id;
    uint32_t post_mortem; /* 1: an ASYNC plugin's (Score-P's post-mortem metrics), 0: ASYNC_EVENT */
} scorep_async_value;
/* Records all asynchronous values of location l into its trace (sorted here: they must
 * merge with the other events by time); values outside l's lifetime are dropped, with a
 * warning unless taken after its end but not after stopped_ts, the time the plugins were
 * told to stop (their threads sample until then: finalize's end comes first). */
void scorep_metrics_record_async(struct scorep_location *l, scorep_async_value *v, size_t n,
                                 uint64_t stopped_ts);

/* The sources (metric_rusage.c, metric_papi.c, metric_perf.c, metric_plugins.c). */
void scorep_metric_rusage_init(const char *names, bool per_process, const char *sep);
void scorep_metric_papi_init(const char *names, bool per_process, const char *sep);
/* After both PAPI lists: sets up the perf:: events that metric_perf.c counts for PAPI. */
void scorep_metric_papi_end(void);
void scorep_metric_perf_init(const char *names, bool per_process, const char *sep);
/* PAPI's perf_event component is disabled: counts PAPI event name (perf::TASK-CLOCK and the
 * other perf:: software events) with perf_event_open, with PAPI's name and semantics.
 * 0 added; -1 recognised but not countable (reported); 1 not such an event. */
int scorep_metric_perf_papi_add(const char *name, bool absolute, bool per_process);
/* Registers what scorep_metric_perf_papi_add took and says so in one line (reason: why
 * PAPI's component is disabled; NULL when nothing was taken). */
void scorep_metric_perf_papi_end(const char *reason);
void scorep_metric_plugins_init(const char *names, const char *sep);
void scorep_metric_plugins_begin(bool mpi);
void scorep_metric_plugins_stop(void);
void scorep_metric_plugins_end(void);
/* The asynchronous plugins' values of every location, collected now (once: the recording at
 * scorep_metric_plugins_end takes the same), each location's in the plugins' order: fn once
 * per location that has values. For the substrate plugins' WRITE_POST_MORTEM_METRICS, which
 * Score-P hands over before the locations are deactivated. */
void scorep_metric_plugins_post_mortem(void (*fn)(struct scorep_location *l,
                                                  const scorep_async_value *v, size_t n));
/* true when base is the load address of a loaded metric plugin (its threads get no location) */
bool scorep_metric_plugin_owns(const void *base);

/* Splits s at any character of sep; calls fn for each non-empty, trimmed token. */
void scorep_metrics_tokens(const char *s, const char *sep, void (*fn)(const char *tok, void *arg),
                           void *arg);

#endif
