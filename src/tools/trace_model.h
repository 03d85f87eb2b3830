/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_model.h: loads an OTF2 archive (traces.otf2) into memory for the tools that look at
 * a whole trace (scorep-otf2-to-chrome, scorep-report): definitions, per-location events in
 * order, matched MPI messages, the per-rank-pair communication matrix and the per-rank-pair
 * matrices of one-sided operations (RMA: OpenSHMEM, MPI windows).
 *
 * Ownership: tm_load() returns one tm_trace that owns every array and string reachable from
 * it; tm_free() releases all of it. Everything is read-only for callers. Pointers into the
 * model stay valid until tm_free().
 *
 * Times are the trace's ticks as OTF2's reader delivers them (the clock offsets of the
 * local definitions applied), not shifted: subtract clock.global_offset and divide by
 * clock.resolution for seconds since the start (tm_ns() does it exactly in integers).
 *
 * What is kept (what our traces contain): Enter/Leave, MPI Send/Isend/Recv/Irecv,
 * IsendComplete/IrecvRequest, collective begin/end, thread fork/join, team begin/end,
 * task create/switch/complete, thread create/begin/wait/end, Metric, calling-context
 * enter/leave/sample, RmaPut, RmaGet, RmaAtomic. Not kept (none of our tools needs them
 * yet): the other RMA records (window create/destroy, op complete, sync, locks), parameters,
 * locks, MeasurementOnOff, I/O, and local definitions other than the clock offsets (which
 * the OTF2 reader applies itself).
 *
 * Ranks: a peer given as a rank in a communicator (MPI events) or in a window's
 * communicator (RMA events: RmaWin -> Comm -> Group) becomes a world rank through the
 * COMM_LOCATIONS group of the group's paradigm (MPI's for MPI, OpenSHMEM's for SHMEM). */
#ifndef SCOREP_TRACE_MODEL_H
#define SCOREP_TRACE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define TM_NONE UINT32_MAX /* an absent reference, rank or index */

typedef enum { TM_LOC_CPU, TM_LOC_GPU, TM_LOC_METRIC, TM_LOC_OTHER } tm_location_kind;

typedef enum {
    TM_EV_ENTER,          /* ref: region */
    TM_EV_LEAVE,          /* ref: region */
    TM_EV_SEND,           /* ref: comm, peer: receiver (world rank), tag, u: bytes, x: msg id */
    TM_EV_ISEND,          /* as SEND, y: request id */
    TM_EV_ISEND_COMPLETE, /* y: request id */
    TM_EV_IRECV_REQUEST,  /* y: request id */
    TM_EV_RECV,           /* ref: comm, peer: sender (world rank), tag, u: bytes, x: msg id */
    TM_EV_IRECV,          /* as RECV, y: request id */
    TM_EV_COLL_BEGIN,     /* MPI collective begins */
    TM_EV_COLL_END,       /* ref: comm, peer: root (TM_NONE: none), tag: OTF2_CollectiveOp,
                           * u: bytes sent, x: bytes received */
    TM_EV_THREAD_FORK,    /* peer: requested threads, tag: OTF2_Paradigm */
    TM_EV_THREAD_JOIN,    /* tag: OTF2_Paradigm */
    TM_EV_TEAM_BEGIN,     /* ref: thread team (comm) */
    TM_EV_TEAM_END,       /* ref: thread team (comm) */
    TM_EV_TASK_CREATE,    /* ref: team, peer: creating thread, tag: generation number */
    TM_EV_TASK_SWITCH,    /* the task (team, creator, generation) runs from here on */
    TM_EV_TASK_COMPLETE,  /* the task completed */
    TM_EV_THREAD_CREATE,  /* ref: thread contingent (comm), u: sequence count */
    TM_EV_THREAD_BEGIN,
    TM_EV_THREAD_WAIT,
    TM_EV_THREAD_END,
    TM_EV_METRIC,     /* ref: metric class, tag: number of values, u: index of the
                       * first in values[] */
    TM_EV_CC_ENTER,   /* ref: calling context, tag: unwind distance */
    TM_EV_CC_LEAVE,   /* ref: calling context */
    TM_EV_SAMPLE,     /* ref: calling context, tag: unwind distance */
    TM_EV_RMA_PUT,    /* ref: window, peer: target (world rank, TM_NONE if unresolved),
                       * u: bytes, x: matching id */
    TM_EV_RMA_GET,    /* as RMA_PUT */
    TM_EV_RMA_ATOMIC, /* as RMA_PUT, tag: OTF2_RmaAtomicType, u: bytes sent, y: bytes
                       * received (fetched) */
    TM_EV_CUDA_REF,   /* the parameter "CUDA correlation id" (SCOREP_CUDA_ENABLE references):
                       * u: the id; on a CPU thread the launch, on a GPU stream its kernel */
    TM_EV_KINDS
} tm_event_kind;

typedef struct {
    uint64_t time;
    uint64_t u, x, y; /* see tm_event_kind */
    uint32_t ref, peer, tag;
    uint32_t message; /* SEND/ISEND/RECV/IRECV: index in messages[] if matched, else TM_NONE */
    uint8_t kind;     /* tm_event_kind */
} tm_event;

typedef struct {
    uint64_t id;             /* OTF2 location reference */
    const char *name;        /* "Master thread", "OMP thread 1", ... */
    tm_location_kind kind;   /* CPU thread, GPU stream, metric location, other */
    uint32_t group;          /* index in groups[] */
    uint32_t rank;           /* rank of its process (groups[group].rank) */
    uint32_t thread;         /* number among its group's locations, in definition order */
    uint64_t defined_events; /* the number the definitions announce */
    tm_event *events;        /* in the trace's order (ascending time) */
    size_t n_events;
} tm_location;

typedef struct {
    uint64_t id;          /* OTF2 location group reference */
    const char *name;     /* "Process", "MPI Rank 1", ... */
    int is_process;       /* OTF2_LOCATION_GROUP_TYPE_PROCESS */
    uint32_t rank;        /* the process's rank; an accelerator group: its creator's rank */
    const char *hostname; /* system tree node of class "node" above it, NULL if none */
} tm_group;

typedef struct {
    const char *name, *canonical, *file; /* file: NULL if unknown */
    uint32_t begin_line, end_line;
    int role, paradigm; /* OTF2_RegionRole, OTF2_Paradigm */
} tm_region;

typedef struct {
    const char *name, *unit, *description;
    int type, mode, value_type, base; /* OTF2_MetricType, _MetricMode, OTF2_Type, OTF2_Base */
    int64_t exponent;
} tm_metric_member;

typedef struct {
    uint32_t n;        /* number of members */
    uint32_t *members; /* indices in metric_members[] */
} tm_metric_class;

typedef union {
    int64_t i;
    uint64_t u;
    double d;
} tm_value; /* as OTF2_MetricValue; which one: the member's value_type */

typedef struct {
    uint32_t region; /* TM_NONE if the definition names none */
    uint32_t parent; /* TM_NONE at a root */
} tm_calling_context;

/* A send matched with its receive: same communicator, sender, receiver, tag and
 * mpi_message_id attribute, k-th send with k-th receive (MPI's non-overtaking order). */
typedef struct {
    uint32_t send_loc, recv_loc;   /* indices in locations[] */
    size_t send_event, recv_event; /* indices in those locations' events[] */
    uint32_t from, to;             /* world ranks */
    uint64_t send_time, recv_time, bytes;
    uint32_t tag, comm;
} tm_message;

/* Operations and bytes per (origin, target) world rank pair: [origin * n_ranks + target].
 * An operation whose origin or target rank is unresolved is counted in events_by_kind only. */
typedef struct {
    uint64_t *ops;
    uint64_t *bytes;    /* put: bytes written to the target, get: bytes read from it,
                         * atomic: bytes sent to the target (operands) */
    uint64_t *received; /* atomics only (NULL otherwise): bytes fetched from the target */
} tm_rank_matrix;

typedef struct {
    uint64_t resolution;    /* ticks per second */
    uint64_t global_offset; /* the first tick of the trace */
    uint64_t length;        /* ticks from global_offset to the last event */
    uint64_t realtime;      /* ns since the epoch at global_offset, 0 if unknown */
} tm_clock;

typedef struct tm_trace {
    tm_clock clock;
    /* Tables by OTF2 reference (n_*: their size, not a count of definitions; entries never
     * defined are zero: NULL names) */
    char **strings;
    size_t n_strings;
    tm_location *locations; /* in definition order */
    size_t n_locations;
    tm_group *groups;
    size_t n_groups;
    tm_region *regions; /* by OTF2 region reference */
    size_t n_regions;
    tm_metric_member *metric_members; /* by OTF2 metric member reference */
    size_t n_metric_members;
    tm_metric_class *metric_classes; /* by OTF2 metric reference */
    size_t n_metric_classes;
    tm_value *values; /* metric values of all METRIC events */
    size_t n_values;
    tm_calling_context *calling_contexts; /* by OTF2 calling context reference */
    size_t n_calling_contexts;
    tm_message *messages; /* ordered by send time */
    size_t n_messages;
    size_t unmatched_sends, unmatched_recvs;
    uint32_t n_ranks;          /* 1 + the highest process rank */
    uint64_t *matrix_messages; /* [from * n_ranks + to]: matched messages */
    uint64_t *matrix_bytes;    /* [from * n_ranks + to]: their bytes */
    /* One-sided operations by the origin (the rank that issues them; a get moves data from
     * target to origin): RmaPut, RmaGet, RmaAtomic records. */
    tm_rank_matrix rma_put, rma_get, rma_atomic;
    size_t n_events; /* in all locations */
    size_t events_by_kind[TM_EV_KINDS];
    void *internal; /* the loader's look-up tables */
    /* damaged files of the trace whose intact part was read (otf2_read_guard.h: "FILE: what
     * is missing; ..."), "" when none: the tools warn with it */
    char damage[1024];
} tm_trace;

/* Loads the archive whose anchor file is PATH (".../traces.otf2"; an experiment directory
 * stands for its traces.otf2). Returns 0 and sets *out,
 * or returns -1 with a one-line reason in ERR (no "file:" prefix; the caller adds the tool's
 * name): a missing or unreadable file, an archive OTF2 cannot read (truncated, corrupt), one
 * without locations. OTF2's own error messages are kept off stderr meanwhile. */
int tm_load(const char *path, tm_trace **out, char *err, size_t errlen);
void tm_free(tm_trace *t);

/* Name of a region, "?" if the reference or its name is undefined. */
const char *tm_region_name(const tm_trace *t, uint32_t region);
/* String by reference, NULL if undefined. */
const char *tm_string(const tm_trace *t, uint32_t ref);
/* Index in locations[] of an OTF2 location reference, TM_NONE if there is none. */
uint32_t tm_location_index(const tm_trace *t, uint64_t id);
/* Nanoseconds since clock.global_offset, rounded down, computed exactly (no floating
 * point): monotonic in TIME, so nesting in ticks stays nesting in nanoseconds. */
uint64_t tm_ns(const tm_trace *t, uint64_t time);

#endif
