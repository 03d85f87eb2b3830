/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_plugins.c: SCOREP_SUBSTRATE_PLUGINS: Score-P substrate plugins
 * (libscorep_substrate_<name>.so) loaded through the dynamic loader, driven through
 * scorep/SCOREP_SubstratePlugins.h (interface version 3), and the events they receive.
 * Event dispatch walks a NULL-terminated array of the plugins' functions per event type,
 * filled once at load: no lock, no allocation, no system call. */
#include "substrates/substrates.h"
#include "substrates/substrates_bridge.h"

#include <scorep/SCOREP_SubstratePlugins.h>

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The layout of Score-P's interface version 3 on LP64, which plugins are built against. */
#define ABI(cond) _Static_assert(cond, "substrate plugin ABI: " #cond)
ABI(sizeof(SCOREP_SubstratePluginInfo) == 8 + 17 * 8 + 99 * 8);
ABI(offsetof(SCOREP_SubstratePluginInfo, init) == 8);
ABI(offsetof(SCOREP_SubstratePluginInfo, new_definition_handle) == 8 + 12 * 8);
ABI(offsetof(SCOREP_SubstratePluginInfo, dump_manifest) == 8 + 16 * 8);
ABI(offsetof(SCOREP_SubstratePluginCallbacks, SCOREP_Location_GetType) == 14 * 8);
ABI(offsetof(SCOREP_SubstratePluginCallbacks, SCOREP_RegionHandle_GetName) == 33 * 8);
ABI(sizeof(SCOREP_SubstratePluginCallbacks) == 53 * 8);
ABI(SCOREP_EVENT_ENTER_REGION == 4 && SCOREP_EVENT_MPI_SEND == 11);
ABI(SCOREP_EVENT_THREAD_FORK_JOIN_FORK == 47 && SCOREP_EVENT_THREAD_CREATE_WAIT_CREATE == 55);
ABI(SCOREP_EVENT_PROGRAM_BEGIN == 63 && SCOREP_EVENT_COMM_DESTROY == 82);
ABI(SCOREP_SUBSTRATES_NUM_EVENTS == 83);
ABI(SCOREP_EVENT_ON_TRACING_BUFFER_FLUSH_BEGIN == 2 &&
    SCOREP_EVENT_ON_TRACING_BUFFER_FLUSH_END == 3);
ABI(SCOREP_EVENT_ENTER_REWIND_REGION == 9 && SCOREP_EVENT_EXIT_REWIND_REGION == 10);
ABI(SCOREP_EVENT_WRITE_POST_MORTEM_METRICS == 62);
ABI(SCOREP_HANDLE_TYPE_REGION == 11 && SCOREP_PARADIGM_PTHREAD == 9 && SCOREP_PARADIGM_IO == 14);
ABI(SCOREP_REGION_COLL_ONE2ALL == 11 && SCOREP_REGION_KERNEL == 46);
ABI(SCOREP_REGION_ATOMIC == 23 && SCOREP_REGION_FILE_IO_METADATA == 44);
ABI(SCOREP_REGION_PARALLEL == 16 && SCOREP_REGION_MASTER == 21 && SCOREP_REGION_CRITICAL == 22);
ABI(SCOREP_REGION_IMPLICIT_BARRIER == 25 && SCOREP_REGION_SINGLE_SBLOCK == 28);
ABI(SCOREP_REGION_TASK_CREATE == 33 && SCOREP_REGION_ORDERED_SBLOCK == 35);
ABI(SCOREP_EVENT_TRACK_ALLOC == 59 && SCOREP_EVENT_IO_CREATE_HANDLE == 65);
ABI(SCOREP_EVENT_IO_RELEASE_LOCK == 78 && SCOREP_HANDLE_TYPE_IO_PARADIGM == 25);
ABI(SCOREP_EVENT_MPI_NON_BLOCKING_COLLECTIVE_REQUEST == 79 && SCOREP_EVENT_RMA_WIN_CREATE == 21);
ABI(SCOREP_EVENT_RMA_OP_COMPLETE_REMOTE == 38 && SCOREP_EVENT_COMM_CREATE == 81);
ABI(SCOREP_HANDLE_TYPE_GROUP == 2 && SCOREP_HANDLE_TYPE_INTERIM_COMMUNICATOR == 3 &&
    SCOREP_HANDLE_TYPE_RMA_WINDOW == 12 && SCOREP_HANDLE_TYPE_LOCATION == 5);
/* OTF2's one-sided values that pass unchanged (events_mpi.h records OTF2's numbers); the
 * atomic types differ from FETCH_AND_ACCUMULATE on (Score-P has ADD before it) */
ABI(SCOREP_RMA_SYNC_LEVEL_PROCESS == 1 && SCOREP_RMA_SYNC_LEVEL_MEMORY == 2);
ABI(SCOREP_LOCK_EXCLUSIVE == 0 && SCOREP_LOCK_SHARED == 1);
ABI(SCOREP_RMA_SYNC_TYPE_MEMORY == 0 && SCOREP_RMA_SYNC_TYPE_NOTIFY_OUT == 2);
ABI(SCOREP_RMA_ATOMIC_TYPE_FETCH_AND_INCREMENT == 6 && SCOREP_RMA_ATOMIC_TYPE_ADD == 7 &&
    SCOREP_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE == 8);
/* OTF2's I/O values that pass unchanged (events_io.h records OTF2's numbers) */
ABI(SCOREP_IO_STATUS_FLAG_DELETE_ON_CLOSE == 1 << 8 && SCOREP_IO_CREATION_FLAG_UNIQUE == 1 << 10);
ABI(SCOREP_IO_SEEK_HOLE == 4 && SCOREP_IO_OPERATION_MODE_FLUSH == 2);
ABI(SCOREP_IO_OPERATION_FLAG_COLLECTIVE == 2 && SCOREP_IO_PARADIGM_MPI == 2);

enum { MAX_PLUGINS = SCOREP_SUBSTRATES_MAX_PLUGINS };

typedef struct {
    char name[64];
    SCOREP_SubstratePluginInfo info;
} plugin;

static plugin plugins[MAX_PLUGINS];
static uint32_t n_plugins;

/* per event type: the plugins' functions (recording enabled), NULL-terminated */
static SCOREP_Substrates_Callback events[SCOREP_SUBSTRATES_NUM_EVENTS][MAX_PLUGINS + 1];

/* SCOREP_ENABLE_UNWINDING: Score-P hands its substrates CALLING_CONTEXT_ENTER and _EXIT in
 * place of ENTER_REGION and EXIT_REGION (SCOREP_Events.c), and SAMPLE */
static bool cc_mode;
/* some plugin takes one of the three: else no context is made */
static bool cc_wanted;

#define EACH(E, T, c) for (T const *c = (T const *)events[E]; *c; c++)
#define LOC(l) ((struct SCOREP_Location *)(l))

/* Score-P handles: scorep-rt's id + 1 (0 is Score-P's invalid handle) */
static inline SCOREP_AnyHandle handle(uint32_t id)
{
    return id == UINT32_MAX ? SCOREP_MOVABLE_NULL : id + 1;
}

static inline bool id_of(SCOREP_AnyHandle h, uint32_t *id)
{
    *id = h - 1;
    return h != SCOREP_MOVABLE_NULL;
}

/* ---------------------------------------------------------------- callbacks */
static int ipc_size(void)
{
    return scorep_substrates_ipc_size();
}

static int ipc_rank(void)
{
    return scorep_substrates_ipc_rank();
}

static size_t type_size(SCOREP_Ipc_Datatype t)
{
    static const size_t sz[SCOREP_IPC_NUMBER_OF_DATATYPES] = {1, 1, 1, sizeof(int), sizeof(unsigned),
                                                              4, 4, 8, 8, sizeof(double)};
    return (unsigned)t < SCOREP_IPC_NUMBER_OF_DATATYPES ? sz[t] : 0;
}

static int ipc_send(const void *buf, int count, SCOREP_Ipc_Datatype t, int dest)
{
    return count < 0 || !type_size(t) ? -1
                                      : scorep_substrates_ipc_send(buf, count * type_size(t), dest);
}

static int ipc_recv(void *buf, int count, SCOREP_Ipc_Datatype t, int source)
{
    return count < 0 || !type_size(t)
               ? -1
               : scorep_substrates_ipc_recv(buf, count * type_size(t), source);
}

static int ipc_barrier(void)
{
    return scorep_substrates_ipc_barrier();
}

static int ipc_bcast(void *buf, int count, SCOREP_Ipc_Datatype t, int root)
{
    return count < 0 || !type_size(t)
               ? -1
               : scorep_substrates_ipc_bcast(buf, count * type_size(t), root);
}

static int ipc_gather(const void *send, void *recv, int count, SCOREP_Ipc_Datatype t, int root)
{
    return count < 0 || !type_size(t)
               ? -1
               : scorep_substrates_ipc_gather(send, count * type_size(t), recv, root);
}

/* counts and displacements in bytes for the ipc layer (root only); NULL on failure */
static size_t *byte_layout(const int *counts, size_t es, size_t **displs)
{
    int n = scorep_substrates_ipc_size();
    size_t *c = calloc((size_t)n * 2, sizeof *c);
    if (!c)
        return NULL;
    *displs = c + n;
    for (int r = 0, off = 0; r < n; off += counts[r], r++) {
        c[r] = (size_t)counts[r] * es;
        (*displs)[r] = (size_t)off * es;
    }
    return c;
}

static int ipc_gatherv(const void *send, int sendcount, void *recv, const int *recvcnts,
                       SCOREP_Ipc_Datatype t, int root)
{
    size_t es = type_size(t), *counts = NULL, *displs = NULL;
    if (!es || sendcount < 0)
        return -1;
    if (scorep_substrates_ipc_rank() == root && !(counts = byte_layout(recvcnts, es, &displs)))
        return -1;
    int rc = scorep_substrates_ipc_gatherv(send, (size_t)sendcount * es, recv, counts, displs, root);
    free(counts);
    return rc;
}

static int ipc_allgather(const void *send, void *recv, int count, SCOREP_Ipc_Datatype t)
{
    size_t es = type_size(t);
    if (!es || count < 0)
        return -1;
    int rc = scorep_substrates_ipc_gather(send, count * es, recv, 0);
    int rc2 = scorep_substrates_ipc_bcast(recv, count * es * scorep_substrates_ipc_size(), 0);
    return rc ? rc : rc2;
}

/* BITS(x, y): x & y or x | y for the integer types; double has no bit operations */
#define REDUCE_LOOP(T, BITS)                                                                  \
    {                                                                                         \
        T *x = acc;                                                                           \
        const T *y = in;                                                                      \
        for (int i = 0; i < count; i++)                                                       \
            x[i] = op == SCOREP_IPC_MIN   ? (y[i] < x[i] ? y[i] : x[i])                       \
                   : op == SCOREP_IPC_MAX ? (y[i] > x[i] ? y[i] : x[i])                       \
                   : op == SCOREP_IPC_SUM ? (T)(x[i] + y[i])                                  \
                                          : BITS(x[i], y[i]);                                 \
        return 0;                                                                             \
    }
#define INT_BITS(a, b) (op == SCOREP_IPC_BAND ? (a) & (b) : (a) | (b))
#define NO_BITS(a, b) (a)
#define REDUCE_CASE(CT, T)                                                                    \
    case CT:                                                                                  \
        REDUCE_LOOP(T, INT_BITS)

static int combine(void *acc, const void *in, int count, SCOREP_Ipc_Datatype t,
                   SCOREP_Ipc_Operation op)
{
    if ((op == SCOREP_IPC_BAND || op == SCOREP_IPC_BOR) && t == SCOREP_IPC_DOUBLE)
        return -1;
    switch (t) {
        REDUCE_CASE(SCOREP_IPC_BYTE, unsigned char)
        REDUCE_CASE(SCOREP_IPC_CHAR, char)
        REDUCE_CASE(SCOREP_IPC_UNSIGNED_CHAR, unsigned char)
        REDUCE_CASE(SCOREP_IPC_INT, int)
        REDUCE_CASE(SCOREP_IPC_UNSIGNED, unsigned)
        REDUCE_CASE(SCOREP_IPC_INT32_T, int32_t)
        REDUCE_CASE(SCOREP_IPC_UINT32_T, uint32_t)
        REDUCE_CASE(SCOREP_IPC_INT64_T, int64_t)
        REDUCE_CASE(SCOREP_IPC_UINT64_T, uint64_t)
    case SCOREP_IPC_DOUBLE:
        REDUCE_LOOP(double, NO_BITS)
    default:
        return -1;
    }
}

/* gathered at root and combined there, rank by rank */
static int ipc_reduce(const void *send, void *recv, int count, SCOREP_Ipc_Datatype t,
                      SCOREP_Ipc_Operation op, int root)
{
    size_t es = type_size(t), n = (size_t)scorep_substrates_ipc_size();
    if (!es || count < 0 || (unsigned)op >= SCOREP_IPC_NUMBER_OF_OPERATIONS)
        return -1;
    bool at_root = scorep_substrates_ipc_rank() == root;
    unsigned char *all = at_root ? malloc(n * count * es + 1) : NULL;
    int bad = at_root && !all;
    if (scorep_substrates_ipc_bcast(&bad, sizeof bad, root) != 0 || bad) {
        free(all);
        return -1;
    }
    int rc = scorep_substrates_ipc_gather(send, count * es, all, root);
    if (at_root && rc == 0) {
        memcpy(recv, all, count * es);
        for (size_t r = 1; r < n && rc == 0; r++)
            rc = combine(recv, all + r * count * es, count, t, op);
    }
    free(all);
    return rc;
}

static int ipc_allreduce(const void *send, void *recv, int count, SCOREP_Ipc_Datatype t,
                         SCOREP_Ipc_Operation op)
{
    int rc = ipc_reduce(send, recv, count, t, op, 0);
    int rc2 = scorep_substrates_ipc_bcast(recv, count * type_size(t), 0);
    return rc ? rc : rc2;
}

static int ipc_scatterv(const void *send, const int *sendcounts, void *recv, int recvcount,
                        SCOREP_Ipc_Datatype t, int root)
{
    size_t es = type_size(t), *counts = NULL, *displs = NULL;
    if (!es || recvcount < 0)
        return -1;
    if (scorep_substrates_ipc_rank() == root && !(counts = byte_layout(sendcounts, es, &displs)))
        return -1;
    int rc =
        scorep_substrates_ipc_scatterv(send, counts, displs, recv, (size_t)recvcount * es, root);
    free(counts);
    return rc;
}

static int ipc_scatter(const void *send, void *recv, int count, SCOREP_Ipc_Datatype t, int root)
{
    int n = scorep_substrates_ipc_size();
    int *counts = malloc((size_t)n * sizeof *counts);
    if (!counts)
        return -1;
    for (int r = 0; r < n; r++)
        counts[r] = count;
    int rc = ipc_scatterv(send, counts, recv, count, t, root);
    free(counts);
    return rc;
}

static SCOREP_LocationType loc_type(const struct SCOREP_Location *l)
{
    return scorep_substrates_location_gpu((const struct scorep_location *)l)
               ? SCOREP_LOCATION_TYPE_GPU
               : SCOREP_LOCATION_TYPE_CPU_THREAD;
}

static const char *loc_name(const struct SCOREP_Location *l)
{
    return scorep_substrates_location_name((const struct scorep_location *)l);
}

static uint32_t loc_id(const struct SCOREP_Location *l)
{
    return scorep_substrates_location_id((const struct scorep_location *)l);
}

static uint64_t loc_global_id(const struct SCOREP_Location *l)
{
    return scorep_substrates_location_global_id((const struct scorep_location *)l);
}

static void loc_set_data(const struct SCOREP_Location *l, size_t plugin_id, void *data)
{
    scorep_substrate_loc *d = scorep_substrates_location_data((const struct scorep_location *)l);
    if (d && plugin_id < MAX_PLUGINS)
        d->data[plugin_id] = data;
}

static void *loc_get_data(const struct SCOREP_Location *l, size_t plugin_id)
{
    scorep_substrate_loc *d = scorep_substrates_location_data((const struct scorep_location *)l);
    return d && plugin_id < MAX_PLUGINS ? d->data[plugin_id] : NULL;
}

/* Calling contexts (SCOREP_ENABLE_UNWINDING): the process's table of the runtime side
 * (sampling/sampling_plugins.c), handle = id + 1 */
static SCOREP_RegionHandle cc_region(SCOREP_CallingContextHandle h)
{
    uint32_t id, region, parent;
    return id_of(h, &id) && scorep_substrates_cc_get(id, &region, &parent)
               ? handle(region)
               : SCOREP_INVALID_REGION;
}

static SCOREP_CallingContextHandle cc_parent(SCOREP_CallingContextHandle h)
{
    uint32_t id, region, parent;
    return id_of(h, &id) && scorep_substrates_cc_get(id, &region, &parent)
               ? handle(parent)
               : SCOREP_MOVABLE_NULL;
}

/* metric handles and sampling set handles: the metric's id + 1 (each metric its own
 * one-metric sampling set, as Score-P's user metrics) */
static bool metric_get(SCOREP_MetricHandle h, scorep_substrates_metric *m)
{
    uint32_t id;
    return id_of(h, &id) && scorep_substrates_metric_get(id, m);
}

static SCOREP_MetricValueType metric_value_type(SCOREP_MetricHandle h)
{
    scorep_substrates_metric m;
    return metric_get(h, &m) ? (SCOREP_MetricValueType)m.value_type : SCOREP_METRIC_VALUE_UINT64;
}

static const char *metric_name(SCOREP_MetricHandle h)
{
    scorep_substrates_metric m;
    return metric_get(h, &m) ? m.name : NULL;
}

static SCOREP_MetricProfilingType metric_profiling_type(SCOREP_MetricHandle h)
{
    scorep_substrates_metric m;
    return metric_get(h, &m) && m.exclusive ? SCOREP_METRIC_PROFILING_TYPE_EXCLUSIVE
                                            : SCOREP_METRIC_PROFILING_TYPE_INCLUSIVE;
}

static SCOREP_MetricMode metric_mode(SCOREP_MetricHandle h)
{
    scorep_substrates_metric m;
    return metric_get(h, &m) ? (SCOREP_MetricMode)m.mode : SCOREP_INVALID_METRIC_MODE;
}

static SCOREP_MetricSourceType metric_source(SCOREP_MetricHandle h)
{
    scorep_substrates_metric m;
    return metric_get(h, &m) ? (SCOREP_MetricSourceType)m.source
                             : SCOREP_INVALID_METRIC_SOURCE_TYPE;
}

/* paradigm handles: the Score-P paradigm type + 1 */
static SCOREP_ParadigmType paradigm_type(SCOREP_ParadigmHandle h)
{
    return h && h <= SCOREP_INVALID_PARADIGM_TYPE ? (SCOREP_ParadigmType)(h - 1)
                                                  : SCOREP_INVALID_PARADIGM_TYPE;
}

static SCOREP_ParadigmClass paradigm_class(SCOREP_ParadigmHandle h)
{
    switch (paradigm_type(h)) {
    case SCOREP_PARADIGM_MPI:
    case SCOREP_PARADIGM_SHMEM:
        return SCOREP_PARADIGM_CLASS_MPP;
    case SCOREP_PARADIGM_OPENMP:
        return SCOREP_PARADIGM_CLASS_THREAD_FORK_JOIN;
    case SCOREP_PARADIGM_PTHREAD:
        return SCOREP_PARADIGM_CLASS_THREAD_CREATE_WAIT;
    case SCOREP_PARADIGM_CUDA:
        return SCOREP_PARADIGM_CLASS_ACCELERATOR;
    default:
        return SCOREP_INVALID_PARADIGM_CLASS;
    }
}

static const char *paradigm_name(SCOREP_ParadigmHandle h)
{
    return scorep_substrates_paradigm_name(paradigm_type(h));
}

static const char *parameter_name(SCOREP_ParameterHandle h)
{
    uint32_t id;
    int type;
    return id_of(h, &id) ? scorep_substrates_parameter_get(id, &type) : NULL;
}

static SCOREP_ParameterType parameter_type(SCOREP_ParameterHandle h)
{
    uint32_t id;
    int type = SCOREP_INVALID_PARAMETER_TYPE;
    if (id_of(h, &id))
        scorep_substrates_parameter_get(id, &type);
    return (SCOREP_ParameterType)type;
}

static bool region(SCOREP_RegionHandle h, scorep_substrates_region *r)
{
    uint32_t id;
    return id_of(h, &id) && scorep_substrates_region_get(id, r);
}

static uint32_t region_id(SCOREP_RegionHandle h)
{
    return h - 1; /* scorep-rt's process-local id: 0, 1, ... */
}

static const char *region_name(SCOREP_RegionHandle h)
{
    scorep_substrates_region r;
    return region(h, &r) ? r.name : NULL;
}

static const char *region_canonical_name(SCOREP_RegionHandle h)
{
    scorep_substrates_region r;
    return region(h, &r) ? r.mangled : NULL;
}

static const char *region_file(SCOREP_RegionHandle h)
{
    scorep_substrates_region r;
    return region(h, &r) ? r.file : NULL;
}

static SCOREP_LineNo region_begin(SCOREP_RegionHandle h)
{
    scorep_substrates_region r;
    return region(h, &r) ? r.begin_line : SCOREP_INVALID_LINE_NO;
}

static SCOREP_LineNo region_end(SCOREP_RegionHandle h)
{
    scorep_substrates_region r;
    return region(h, &r) ? r.end_line : SCOREP_INVALID_LINE_NO;
}

static SCOREP_RegionType region_type(SCOREP_RegionHandle h)
{
    scorep_substrates_region r;
    return region(h, &r) ? (SCOREP_RegionType)r.region_type : SCOREP_INVALID_REGION_TYPE;
}

static SCOREP_ParadigmType region_paradigm(SCOREP_RegionHandle h)
{
    scorep_substrates_region r;
    return region(h, &r) ? (SCOREP_ParadigmType)r.paradigm : SCOREP_INVALID_PARADIGM_TYPE;
}

static uint8_t sset_n(SCOREP_SamplingSetHandle h)
{
    scorep_substrates_metric m;
    return metric_get(h, &m) ? 1 : 0;
}

/* The metric handle array of a sampling set must stay valid: chunks of handles, made on
 * first request (a callback, not an event path) and kept until the process ends. */
enum { HANDLE_CHUNK = 1024, HANDLE_CHUNKS = 1024 };
static SCOREP_MetricHandle *handle_chunks[HANDLE_CHUNKS];

static const SCOREP_MetricHandle *sset_metrics(SCOREP_SamplingSetHandle h)
{
    scorep_substrates_metric m;
    uint32_t id;
    if (!metric_get(h, &m) || !id_of(h, &id) || id / HANDLE_CHUNK >= HANDLE_CHUNKS)
        return NULL;
    SCOREP_MetricHandle **slot = &handle_chunks[id / HANDLE_CHUNK];
    SCOREP_MetricHandle *c = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!c) {
        SCOREP_MetricHandle *n = malloc(HANDLE_CHUNK * sizeof *n);
        if (!n)
            return NULL;
        for (uint32_t k = 0; k < HANDLE_CHUNK; k++)
            n[k] = (id / HANDLE_CHUNK) * HANDLE_CHUNK + k + 1;
        if (__atomic_compare_exchange_n(slot, &c, n, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            c = n;
        else
            free(n); /* another thread's chunk won */
    }
    return &c[id % HANDLE_CHUNK];
}

static SCOREP_MetricOccurrence sset_occurrence(SCOREP_SamplingSetHandle h)
{
    scorep_substrates_metric m;
    return metric_get(h, &m) ? (SCOREP_MetricOccurrence)m.occurrence
                             : SCOREP_INVALID_METRIC_OCCURRENCE;
}

static bool sset_scoped(SCOREP_SamplingSetHandle h)
{
    (void)h;
    return false;
}

static SCOREP_MetricScope sset_scope(SCOREP_SamplingSetHandle h)
{
    (void)h;
    return SCOREP_INVALID_METRIC_SCOPE;
}

static SCOREP_SamplingSetClass sset_class(SCOREP_SamplingSetHandle h)
{
    (void)h;
    return SCOREP_SAMPLING_SET_CPU;
}

/* regions carry their file name themselves; there are no source file handles */
static const char *source_file_name(SCOREP_SourceFileHandle h)
{
    (void)h;
    return NULL;
}

static const char *string_get(SCOREP_StringHandle h)
{
    uint32_t id;
    return id_of(h, &id) ? scorep_substrates_string_get(id) : NULL;
}

/* The location's dense metric values (those of the latest enter or leave, the array that
 * the events pass as metricValues), each metric its own sampling set: one call of cb per
 * metric of the occurrence asked for (STRICTLY_SYNCHRONOUS or SYNCHRONOUS). Call them on the
 * location's thread, as the events come. */
static void write_metrics(struct SCOREP_Location *l, uint64_t t, SCOREP_Substrates_WriteMetricsCb cb,
                          SCOREP_MetricOccurrence occ)
{
    scorep_substrates_metric_values v;
    if (!cb || !scorep_substrates_location_metrics((struct scorep_location *)l, &v))
        return;
    for (uint32_t i = 0; i < v.n; i++) {
        scorep_substrates_metric m;
        if (scorep_substrates_metric_get(v.ids[i], &m) && m.occurrence == (int)occ)
            cb(l, t, handle(v.ids[i]), &v.values[i]);
    }
}

static void write_metrics_strict(struct SCOREP_Location *l, uint64_t t,
                                 SCOREP_Substrates_WriteMetricsCb cb)
{
    write_metrics(l, t, cb, SCOREP_METRIC_OCCURRENCE_SYNCHRONOUS_STRICT);
}

static void write_metrics_sync(struct SCOREP_Location *l, uint64_t t,
                               SCOREP_Substrates_WriteMetricsCb cb)
{
    write_metrics(l, t, cb, SCOREP_METRIC_OCCURRENCE_SYNCHRONOUS);
}

/* asynchronous values (metric plugins) are collected at the end, not while the program runs */
static void write_metrics_async(struct SCOREP_Location *l, SCOREP_Substrates_WriteMetricsCb cb)
{
    (void)l, (void)cb;
}

/* MANIFEST.md is Markdown: a section is a heading, an entry a list item */
static void manifest_header(FILE *out, const char *section)
{
    if (out && section)
        fprintf(out, "\n## %s\n\n", section);
}

static void manifest_entry(FILE *out, const char *file, const char *fmt, ...)
{
    if (!out || !file)
        return;
    fprintf(out, "- `%s`: ", file);
    va_list ap;
    va_start(ap, fmt);
    if (fmt)
        vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
}

static const SCOREP_SubstratePluginCallbacks callbacks = {
    .SCOREP_GetExperimentDirName = scorep_substrates_experiment_dir,
    .SCOREP_Ipc_GetSize = ipc_size,
    .SCOREP_Ipc_GetRank = ipc_rank,
    .SCOREP_Ipc_Send = ipc_send,
    .SCOREP_Ipc_Recv = ipc_recv,
    .SCOREP_Ipc_Barrier = ipc_barrier,
    .SCOREP_Ipc_Bcast = ipc_bcast,
    .SCOREP_Ipc_Gather = ipc_gather,
    .SCOREP_Ipc_Gatherv = ipc_gatherv,
    .SCOREP_Ipc_Allgather = ipc_allgather,
    .SCOREP_Ipc_Reduce = ipc_reduce,
    .SCOREP_Ipc_Allreduce = ipc_allreduce,
    .SCOREP_Ipc_Scatter = ipc_scatter,
    .SCOREP_Ipc_Scatterv = ipc_scatterv,
    .SCOREP_Location_GetType = loc_type,
    .SCOREP_Location_GetName = loc_name,
    .SCOREP_Location_GetId = loc_id,
    .SCOREP_Location_GetGlobalId = loc_global_id,
    .SCOREP_Location_SetData = loc_set_data,
    .SCOREP_Location_GetData = loc_get_data,
    .SCOREP_CallingContextHandle_GetRegion = cc_region,
    .SCOREP_CallingContextHandle_GetParent = cc_parent,
    .SCOREP_MetricHandle_GetValueType = metric_value_type,
    .SCOREP_MetricHandle_GetName = metric_name,
    .SCOREP_MetricHandle_GetProfilingType = metric_profiling_type,
    .SCOREP_MetricHandle_GetMode = metric_mode,
    .SCOREP_MetricHandle_GetSourceType = metric_source,
    .SCOREP_ParadigmHandle_GetClass = paradigm_class,
    .SCOREP_ParadigmHandle_GetName = paradigm_name,
    .SCOREP_ParadigmHandle_GetType = paradigm_type,
    .SCOREP_ParameterHandle_GetName = parameter_name,
    .SCOREP_ParameterHandle_GetType = parameter_type,
    .SCOREP_RegionHandle_GetId = region_id,
    .SCOREP_RegionHandle_GetName = region_name,
    .SCOREP_RegionHandle_GetCanonicalName = region_canonical_name,
    .SCOREP_RegionHandle_GetFileName = region_file,
    .SCOREP_RegionHandle_GetBeginLine = region_begin,
    .SCOREP_RegionHandle_GetEndLine = region_end,
    .SCOREP_RegionHandle_GetType = region_type,
    .SCOREP_RegionHandle_GetParadigmType = region_paradigm,
    .SCOREP_SamplingSetHandle_GetNumberOfMetrics = sset_n,
    .SCOREP_SamplingSetHandle_GetMetricHandles = sset_metrics,
    .SCOREP_SamplingSetHandle_GetMetricOccurrence = sset_occurrence,
    .SCOREP_SamplingSetHandle_IsScoped = sset_scoped,
    .SCOREP_SamplingSetHandle_GetScope = sset_scope,
    .SCOREP_SamplingSetHandle_GetSamplingSetClass = sset_class,
    .SCOREP_SourceFileHandle_GetName = source_file_name,
    .SCOREP_StringHandle_Get = string_get,
    .SCOREP_Metric_WriteStrictlySynchronousMetrics = write_metrics_strict,
    .SCOREP_Metric_WriteSynchronousMetrics = write_metrics_sync,
    .SCOREP_Metric_WriteAsynchronousMetrics = write_metrics_async,
    .SCOREP_ConfigManifestSectionHeader = manifest_header,
    .SCOREP_ConfigManifestSectionEntry = manifest_entry,
};

/* ------------------------------------------------------------------ loading */
/* NULL when the library, its symbol or its interface version does not fit; the message
 * says which and that the measurement goes on without it. */
static bool load_one(const char *name, SCOREP_SubstratePluginInfo *info)
{
    char lib[128], sym[192];
    snprintf(lib, sizeof lib, "libscorep_substrate_%s.so", name);
    snprintf(sym, sizeof sym, "SCOREP_SubstratePlugin_%s_get_info", name);
    void *dl = dlopen(lib, RTLD_NOW);
    if (!dl) {
        scorep_substrates_warn("SCOREP_SUBSTRATE_PLUGINS: substrate plugin '%s' not loaded: %s; "
                               "the measurement goes on without it (the dynamic loader "
                               "searches LD_LIBRARY_PATH for %s)",
                               name, dlerror(), lib);
        return false;
    }
    SCOREP_SubstratePluginInfo (*get_info)(void);
    *(void **)&get_info = dlsym(dl, sym);
    if (!get_info) {
        scorep_substrates_warn("SCOREP_SUBSTRATE_PLUGINS: %s has no function %s (is it a "
                               "substrate plugin built with SCOREP_SUBSTRATE_PLUGIN_ENTRY(%s)?); "
                               "the measurement goes on without it",
                               lib, sym, name);
        dlclose(dl);
        return false;
    }
    *info = get_info();
    if (info->plugin_version > SCOREP_SUBSTRATE_PLUGIN_VERSION) {
        scorep_substrates_warn("SCOREP_SUBSTRATE_PLUGINS: substrate plugin '%s' was built for "
                               "interface version %u, newer than this runtime's (%d); it is not "
                               "used: rebuild it against this runtime's "
                               "scorep/SCOREP_SubstratePlugins.h. The measurement goes on "
                               "without it",
                               name, (unsigned)info->plugin_version,
                               SCOREP_SUBSTRATE_PLUGIN_VERSION);
        dlclose(dl);
        return false;
    }
    int rc = info->init ? info->init() : 0;
    if (rc != 0) {
        scorep_substrates_warn("SCOREP_SUBSTRATE_PLUGINS: substrate plugin '%s' failed to "
                               "initialise (init returned %d); the measurement goes on without "
                               "it",
                               name, rc);
        dlclose(dl);
        return false;
    }
    return true; /* the library stays loaded: its functions are called until the end */
}

static void take_events(plugin *p)
{
    SCOREP_Substrates_Callback *fn = NULL;
    if (p->info.get_event_functions) {
        uint32_t n = p->info.get_event_functions(SCOREP_SUBSTRATES_RECORDING_ENABLED, &fn);
        if (n > SCOREP_SUBSTRATES_NUM_EVENTS)
            n = SCOREP_SUBSTRATES_NUM_EVENTS; /* events of a newer Score-P: never produced */
        for (uint32_t e = 0; fn && e < n; e++) {
            if (!fn[e])
                continue;
            uint32_t k = 0;
            while (events[e][k])
                k++;
            events[e][k] = fn[e];
        }
        /* the set for recording switched off: asked for as Score-P does; scorep-rt
         * delivers no events while recording is off (docs/substrate-plugins.md) */
        p->info.get_event_functions(SCOREP_SUBSTRATES_RECORDING_DISABLED, &fn);
    }
}

static bool already(const char *name)
{
    for (uint32_t i = 0; i < n_plugins; i++)
        if (strcmp(plugins[i].name, name) == 0)
            return true;
    return false;
}

uint32_t scorep_substrates_load(const char *list, const char *sep)
{
    char *names = strdup(list ? list : ""), *save = NULL;
    if (!names)
        return 0;
    for (char *tok = strtok_r(names, sep && *sep ? sep : ",", &save); tok;
         tok = strtok_r(NULL, sep && *sep ? sep : ",", &save)) {
        if (already(tok))
            continue; /* Score-P loads each plugin once */
        if (n_plugins == MAX_PLUGINS || strlen(tok) >= sizeof plugins[0].name) {
            scorep_substrates_warn("SCOREP_SUBSTRATE_PLUGINS: '%s' not loaded: at most %d "
                                   "plugins with names under 64 characters",
                                   tok, MAX_PLUGINS);
            continue;
        }
        plugin *p = &plugins[n_plugins];
        if (!load_one(tok, &p->info))
            continue;
        snprintf(p->name, sizeof p->name, "%s", tok);
        n_plugins++;
    }
    free(names);
    for (uint32_t i = 0; i < n_plugins; i++)
        if (plugins[i].info.set_callbacks)
            plugins[i].info.set_callbacks(&callbacks, sizeof callbacks);
    for (uint32_t i = 0; i < n_plugins; i++)
        take_events(&plugins[i]);
    cc_mode = n_plugins && scorep_substrates_cc_mode();
    cc_wanted = events[SCOREP_EVENT_CALLING_CONTEXT_ENTER][0] ||
                events[SCOREP_EVENT_CALLING_CONTEXT_EXIT][0] || events[SCOREP_EVENT_SAMPLE][0];
    return n_plugins;
}

/* --------------------------------------------------------------- life cycle */
#define EACH_PLUGIN(member, ...)                                                               \
    for (uint32_t i_ = 0; i_ < n_plugins; i_++)                                              \
        if (plugins[i_].info.member)                                                         \
            plugins[i_].info.member(__VA_ARGS__)

void scorep_substrates_new_region(uint32_t id)
{
    EACH_PLUGIN(new_definition_handle, handle(id), SCOREP_HANDLE_TYPE_REGION);
}

void scorep_substrates_new_io_file(uint32_t id)
{
    EACH_PLUGIN(new_definition_handle, handle(id), SCOREP_HANDLE_TYPE_IO_FILE);
}

void scorep_substrates_new_io_handle(uint32_t id)
{
    EACH_PLUGIN(new_definition_handle, handle(id), SCOREP_HANDLE_TYPE_IO_HANDLE);
}

/* the I/O paradigms' handles: SCOREP_IoParadigmType + 1 */
void scorep_substrates_new_io_paradigms(void)
{
    for (uint32_t p = 0; p < SCOREP_NUM_IO_PARADIGMS; p++)
        EACH_PLUGIN(new_definition_handle, handle(p), SCOREP_HANDLE_TYPE_IO_PARADIGM);
}

void scorep_substrates_new_comm(uint32_t id)
{
    EACH_PLUGIN(new_definition_handle, handle(id), SCOREP_HANDLE_TYPE_INTERIM_COMMUNICATOR);
}

void scorep_substrates_new_group(uint32_t id)
{
    EACH_PLUGIN(new_definition_handle, handle(id), SCOREP_HANDLE_TYPE_GROUP);
}

void scorep_substrates_new_win(uint32_t id)
{
    EACH_PLUGIN(new_definition_handle, handle(id), SCOREP_HANDLE_TYPE_RMA_WINDOW);
}

void scorep_substrates_new_other(int kind, uint32_t id)
{
    /* defs.h scorep_defs_new_kind: string 0, parameter 1, metric 2 */
    if (kind == 0) {
        EACH_PLUGIN(new_definition_handle, handle(id), SCOREP_HANDLE_TYPE_STRING);
    } else if (kind == 1) {
        EACH_PLUGIN(new_definition_handle, handle(id), SCOREP_HANDLE_TYPE_PARAMETER);
    } else if (kind == 2) {
        EACH_PLUGIN(new_definition_handle, handle(id), SCOREP_HANDLE_TYPE_METRIC);
        EACH_PLUGIN(new_definition_handle, handle(id), SCOREP_HANDLE_TYPE_SAMPLING_SET);
    }
}

/* the Score-P paradigms scorep-rt's adapters record (substrates_core.c public_paradigm) */
void scorep_substrates_new_paradigms(void)
{
    static const SCOREP_ParadigmType used[] = {
        SCOREP_PARADIGM_MEASUREMENT, SCOREP_PARADIGM_USER,   SCOREP_PARADIGM_COMPILER,
        SCOREP_PARADIGM_SAMPLING,    SCOREP_PARADIGM_MEMORY, SCOREP_PARADIGM_LIBWRAP,
        SCOREP_PARADIGM_MPI,         SCOREP_PARADIGM_SHMEM,  SCOREP_PARADIGM_OPENMP,
        SCOREP_PARADIGM_PTHREAD,     SCOREP_PARADIGM_CUDA,   SCOREP_PARADIGM_IO};
    for (size_t i = 0; i < sizeof used / sizeof used[0]; i++)
        EACH_PLUGIN(new_definition_handle, handle((uint32_t)used[i]), SCOREP_HANDLE_TYPE_PARADIGM);
}

/* Score-P defines the system tree (machine, node and the levels its platform adds; here the
 * two of scorep-rt's: core/system_tree.h) and the process's location group at start-up,
 * after the plugins are loaded. Version 3's callbacks have no accessors for them: the
 * handles are keys (machine 1, node 2; the process 1). */
void scorep_substrates_new_system_tree(void)
{
    EACH_PLUGIN(new_definition_handle, 1, SCOREP_HANDLE_TYPE_SYSTEM_TREE_NODE);
    EACH_PLUGIN(new_definition_handle, 2, SCOREP_HANDLE_TYPE_SYSTEM_TREE_NODE);
    EACH_PLUGIN(new_definition_handle, 1, SCOREP_HANDLE_TYPE_LOCATION_GROUP);
}

void scorep_substrates_assign_ids(void)
{
    for (uint32_t i = 0; i < n_plugins; i++)
        if (plugins[i].info.assign_id)
            plugins[i].info.assign_id(i);
}

/* A CPU location's implicit task (Score-P creates it with the location and completes it at
 * its end): its handle is the location's substrate data, an address of its own. */
static SCOREP_TaskHandle implicit_task(struct scorep_location *l)
{
    return (SCOREP_TaskHandle)(void *)scorep_substrates_location_data(l);
}

void scorep_substrates_location_created(struct scorep_location *l, struct scorep_location *parent,
                                        bool active, uint32_t create_seq)
{
    /* Score-P defines a location (new_definition_handle of SCOREP_HANDLE_TYPE_LOCATION) as it
     * creates it, before the substrates' create_location; the handle: its id + 1 */
    EACH_PLUGIN(new_definition_handle, handle(loc_id(LOC(l))), SCOREP_HANDLE_TYPE_LOCATION);
    EACH_PLUGIN(create_location, LOC(l), LOC(parent));
    if (scorep_substrates_location_gpu(l))
        return;
    EACH_PLUGIN(core_task_create, LOC(l), implicit_task(l));
    if (active) {
        EACH_PLUGIN(activate_cpu_location, LOC(l), LOC(parent), create_seq);
    } else {
        scorep_substrate_loc *d = scorep_substrates_location_data(l);
        __atomic_store_n(&d->deactivated, 1, __ATOMIC_RELEASE);
    }
}

void scorep_substrates_location_activated(struct scorep_location *l,
                                          struct scorep_location *parent, uint32_t fork_seq)
{
    scorep_substrate_loc *d = scorep_substrates_location_data(l);
    if (d && __atomic_exchange_n(&d->deactivated, 0, __ATOMIC_ACQ_REL))
        EACH_PLUGIN(activate_cpu_location, LOC(l), LOC(parent), fork_seq);
}

void scorep_substrates_location_deactivated(struct scorep_location *l,
                                            struct scorep_location *parent, bool team_end)
{
    scorep_substrate_loc *d = scorep_substrates_location_data(l);
    if (d && !scorep_substrates_location_gpu(l) &&
        !__atomic_exchange_n(&d->deactivated, 1, __ATOMIC_ACQ_REL)) {
        /* Score-P: the unwinding's final sample (events phase) before the management call */
        if (cc_mode && cc_wanted)
            scorep_substrates_cc_deactivate(
                l, team_end ? scorep_substrates_next_tick(l) : scorep_substrates_now(l), team_end);
        EACH_PLUGIN(deactivate_cpu_location, LOC(l), LOC(parent));
    }
}

void scorep_substrates_location_ended(struct scorep_location *l, struct scorep_location *parent)
{
    scorep_substrates_location_deactivated(l, parent, false);
    if (cc_mode && cc_wanted) /* samples after its deactivation, its state */
        scorep_substrates_cc_end(l);
    if (!scorep_substrates_location_gpu(l))
        EACH_PLUGIN(core_task_complete, LOC(l), implicit_task(l));
    EACH_PLUGIN(delete_location, LOC(l));
}

void scorep_substrates_init_mpp(void)
{
    EACH_PLUGIN(init_mpp);
}

void scorep_substrates_pre_unify(void)
{
    EACH_PLUGIN(pre_unify);
}

static struct scorep_location *first_location;
static uint32_t program_name;

void scorep_substrates_program_begin(struct scorep_location *l, uint64_t t, uint32_t name,
                                     uint64_t pid, uint64_t tid)
{
    first_location = l;
    program_name = name;
    EACH(SCOREP_EVENT_PROGRAM_BEGIN, SCOREP_Substrates_ProgramBeginCb, c)
    (*c)(LOC(l), t, handle(name), 0, NULL, SCOREP_INVALID_REGION, pid, tid);
}

void scorep_substrates_program_end(int64_t exit_status)
{
    struct scorep_location *l = first_location;
    if (!l)
        return;
    uint64_t t = scorep_substrates_now(l);
    EACH(SCOREP_EVENT_PROGRAM_END, SCOREP_Substrates_ProgramEndCb, c)
    (*c)(LOC(l), t, exit_status, SCOREP_INVALID_REGION);
}

void scorep_substrates_write(const char *dir, bool manifest)
{
    if (manifest && n_plugins) {
        char path[4096];
        snprintf(path, sizeof path, "%s/MANIFEST.md", dir);
        FILE *f = fopen(path, "a");
        if (!f)
            scorep_substrates_warn("cannot append the substrate plugins' part to %s", path);
        const char *base = strrchr(dir, '/');
        for (uint32_t i = 0; f && i < n_plugins; i++)
            if (plugins[i].info.dump_manifest)
                plugins[i].info.dump_manifest(f, base ? base + 1 : dir, dir);
        if (f)
            fclose(f);
    }
    EACH_PLUGIN(write_data);
    EACH_PLUGIN(finalize);
}

/* ------------------------------------------------------------------- events */

void scorep_substrates_enter(struct scorep_location *l, uint64_t t, uint32_t region,
                             uint64_t *metrics)
{
    if (cc_mode) {
        if (cc_wanted)
            scorep_substrates_cc_enter(l, t, region, metrics);
        return;
    }
    EACH(SCOREP_EVENT_ENTER_REGION, SCOREP_Substrates_EnterRegionCb, c)
    (*c)(LOC(l), t, handle(region), metrics);
}

void scorep_substrates_exit(struct scorep_location *l, uint64_t t, uint32_t region,
                            uint64_t *metrics)
{
    if (cc_mode) {
        if (cc_wanted)
            scorep_substrates_cc_exit(l, t, metrics);
        return;
    }
    EACH(SCOREP_EVENT_EXIT_REGION, SCOREP_Substrates_ExitRegionCb, c)
    (*c)(LOC(l), t, handle(region), metrics);
}

bool scorep_substrates_cc_wanted(void)
{
    return cc_mode && cc_wanted;
}

void scorep_substrates_cc_deliver(scorep_substrates_cc_kind kind, struct scorep_location *l,
                                  uint64_t t, uint32_t cc, uint32_t prev, uint32_t distance,
                                  uint32_t gen, uint64_t *metrics)
{
    switch (kind) {
    case SCOREP_SUBSTRATES_CC_ENTER:
        EACH(SCOREP_EVENT_CALLING_CONTEXT_ENTER, SCOREP_Substrates_CallingContextEnterCb, c)
        (*c)(LOC(l), t, handle(cc), handle(prev), distance, metrics);
        break;
    case SCOREP_SUBSTRATES_CC_EXIT:
        EACH(SCOREP_EVENT_CALLING_CONTEXT_EXIT, SCOREP_Substrates_CallingContextExitCb, c)
        (*c)(LOC(l), t, handle(cc), handle(prev), distance, metrics);
        break;
    case SCOREP_SUBSTRATES_CC_SAMPLE:
        EACH(SCOREP_EVENT_SAMPLE, SCOREP_Substrates_SampleCb, c)
        (*c)(LOC(l), t, handle(cc), handle(prev), distance, handle(gen), metrics);
        break;
    }
}

void scorep_substrates_new_cc(uint32_t id)
{
    EACH_PLUGIN(new_definition_handle, handle(id), SCOREP_HANDLE_TYPE_CALLING_CONTEXT);
}

void scorep_substrates_new_generator(uint32_t gen)
{
    EACH_PLUGIN(new_definition_handle, handle(gen), SCOREP_HANDLE_TYPE_INTERRUPT_GENERATOR);
}

void scorep_substrates_mpi_send(struct scorep_location *l, uint64_t t, uint32_t comm,
                                uint32_t dest, uint32_t tag, uint64_t bytes)
{
    EACH(SCOREP_EVENT_MPI_SEND, SCOREP_Substrates_MpiSendCb, c)
    (*c)(LOC(l), t, (SCOREP_MpiRank)dest, handle(comm), tag, bytes);
}

void scorep_substrates_mpi_recv(struct scorep_location *l, uint64_t t, uint32_t comm,
                                uint32_t source, uint32_t tag, uint64_t bytes)
{
    EACH(SCOREP_EVENT_MPI_RECV, SCOREP_Substrates_MpiRecvCb, c)
    (*c)(LOC(l), t, (SCOREP_MpiRank)source, handle(comm), tag, bytes);
}

void scorep_substrates_mpi_isend(struct scorep_location *l, uint64_t t, uint32_t comm,
                                 uint32_t dest, uint32_t tag, uint64_t bytes, uint64_t request)
{
    EACH(SCOREP_EVENT_MPI_ISEND, SCOREP_Substrates_MpiIsendCb, c)
    (*c)(LOC(l), t, (SCOREP_MpiRank)dest, handle(comm), tag, bytes, request);
}

void scorep_substrates_mpi_irecv(struct scorep_location *l, uint64_t t, uint32_t comm,
                                 uint32_t source, uint32_t tag, uint64_t bytes, uint64_t request)
{
    EACH(SCOREP_EVENT_MPI_IRECV, SCOREP_Substrates_MpiIrecvCb, c)
    (*c)(LOC(l), t, (SCOREP_MpiRank)source, handle(comm), tag, bytes, request);
}

void scorep_substrates_mpi_request(struct scorep_location *l, uint64_t t,
                                   scorep_substrates_request_event which, uint64_t request)
{
    static const SCOREP_Substrates_EventType ev[] = {
        [SCOREP_SUBSTRATES_MPI_ISEND_COMPLETE] = SCOREP_EVENT_MPI_ISEND_COMPLETE,
        [SCOREP_SUBSTRATES_MPI_IRECV_REQUEST] = SCOREP_EVENT_MPI_IRECV_REQUEST,
        [SCOREP_SUBSTRATES_MPI_REQUEST_TESTED] = SCOREP_EVENT_MPI_REQUEST_TESTED,
        [SCOREP_SUBSTRATES_MPI_REQUEST_CANCELLED] = SCOREP_EVENT_MPI_REQUEST_CANCELLED};
    if ((unsigned)which >= sizeof ev / sizeof *ev)
        return;
    /* the four share one signature (location, timestamp, request id) */
    EACH(ev[which], SCOREP_Substrates_MpiRequestTestedCb, c)
    (*c)(LOC(l), t, request);
}

void scorep_substrates_mpi_collective_begin(struct scorep_location *l, uint64_t t)
{
    EACH(SCOREP_EVENT_MPI_COLLECTIVE_BEGIN, SCOREP_Substrates_MpiCollectiveBeginCb, c)
    (*c)(LOC(l), t);
}

/* OTF2_CollectiveOp (scorep-rt's) -> SCOREP_CollectiveType: the same names, but Score-P puts
 * REDUCE_SCATTER_BLOCK before SCAN */
static SCOREP_CollectiveType collective_type(int op)
{
    static const SCOREP_CollectiveType map[23] = {
        SCOREP_COLLECTIVE_BARRIER,        SCOREP_COLLECTIVE_BROADCAST,
        SCOREP_COLLECTIVE_GATHER,         SCOREP_COLLECTIVE_GATHERV,
        SCOREP_COLLECTIVE_SCATTER,        SCOREP_COLLECTIVE_SCATTERV,
        SCOREP_COLLECTIVE_ALLGATHER,      SCOREP_COLLECTIVE_ALLGATHERV,
        SCOREP_COLLECTIVE_ALLTOALL,       SCOREP_COLLECTIVE_ALLTOALLV,
        SCOREP_COLLECTIVE_ALLTOALLW,      SCOREP_COLLECTIVE_ALLREDUCE,
        SCOREP_COLLECTIVE_REDUCE,         SCOREP_COLLECTIVE_REDUCE_SCATTER,
        SCOREP_COLLECTIVE_SCAN,           SCOREP_COLLECTIVE_EXSCAN,
        SCOREP_COLLECTIVE_REDUCE_SCATTER_BLOCK, SCOREP_COLLECTIVE_CREATE_HANDLE,
        SCOREP_COLLECTIVE_DESTROY_HANDLE, SCOREP_COLLECTIVE_ALLOCATE,
        SCOREP_COLLECTIVE_DEALLOCATE,     SCOREP_COLLECTIVE_CREATE_HANDLE_AND_ALLOCATE,
        SCOREP_COLLECTIVE_DESTROY_HANDLE_AND_DEALLOCATE};
    return (unsigned)op < 23 ? map[op] : SCOREP_COLLECTIVE_BARRIER;
}

void scorep_substrates_mpi_collective_end(struct scorep_location *l, uint64_t t, uint32_t comm,
                                          uint32_t root, int op, uint64_t sent,
                                          uint64_t received)
{
    SCOREP_MpiRank r = root == UINT32_MAX ? SCOREP_INVALID_ROOT_RANK : (SCOREP_MpiRank)root;
    EACH(SCOREP_EVENT_MPI_COLLECTIVE_END, SCOREP_Substrates_MpiCollectiveEndCb, c)
    (*c)(LOC(l), t, handle(comm), r, collective_type(op), sent, received);
}

void scorep_substrates_thread_fork(struct scorep_location *l, uint64_t t, int paradigm,
                                   uint32_t requested, uint32_t fork_seq)
{
    SCOREP_ParadigmType p = (SCOREP_ParadigmType)scorep_substrates_public_paradigm(paradigm);
    EACH(SCOREP_EVENT_THREAD_FORK_JOIN_FORK, SCOREP_Substrates_ThreadForkJoinForkCb, c)
    (*c)(LOC(l), t, p, requested, fork_seq);
}

void scorep_substrates_thread(struct scorep_location *l, uint64_t t,
                              scorep_substrates_thread_event kind, int paradigm, uint32_t a)
{
    SCOREP_ParadigmType p = (SCOREP_ParadigmType)scorep_substrates_public_paradigm(paradigm);
    switch (kind) {
    case SCOREP_SUBSTRATES_THREAD_FORK_JOIN_JOIN:
        EACH(SCOREP_EVENT_THREAD_FORK_JOIN_JOIN, SCOREP_Substrates_ThreadForkJoinJoinCb, c)
        (*c)(LOC(l), t, p);
        break;
    case SCOREP_SUBSTRATES_THREAD_FORK_JOIN_TEAM_BEGIN:
        EACH(SCOREP_EVENT_THREAD_FORK_JOIN_TEAM_BEGIN, SCOREP_Substrates_ThreadForkJoinTeamBeginCb, c)
        (*c)(LOC(l), t, p, handle(a), SCOREP_INVALID_TID);
        break;
    case SCOREP_SUBSTRATES_THREAD_FORK_JOIN_TEAM_END:
        EACH(SCOREP_EVENT_THREAD_FORK_JOIN_TEAM_END, SCOREP_Substrates_ThreadForkJoinTeamEndCb, c)
        (*c)(LOC(l), t, p, handle(a));
        break;
    case SCOREP_SUBSTRATES_THREAD_CREATE_WAIT_CREATE:
        EACH(SCOREP_EVENT_THREAD_CREATE_WAIT_CREATE, SCOREP_Substrates_ThreadCreateWaitCreateCb, c)
        (*c)(LOC(l), t, p, SCOREP_MOVABLE_NULL, a);
        break;
    case SCOREP_SUBSTRATES_THREAD_CREATE_WAIT_WAIT:
        EACH(SCOREP_EVENT_THREAD_CREATE_WAIT_WAIT, SCOREP_Substrates_ThreadCreateWaitWaitCb, c)
        (*c)(LOC(l), t, p, SCOREP_MOVABLE_NULL, a);
        break;
    case SCOREP_SUBSTRATES_THREAD_CREATE_WAIT_BEGIN:
        EACH(SCOREP_EVENT_THREAD_CREATE_WAIT_BEGIN, SCOREP_Substrates_ThreadCreateWaitBeginCb, c)
        (*c)(LOC(l), t, p, SCOREP_MOVABLE_NULL, a, SCOREP_INVALID_TID);
        break;
    case SCOREP_SUBSTRATES_THREAD_CREATE_WAIT_END:
        EACH(SCOREP_EVENT_THREAD_CREATE_WAIT_END, SCOREP_Substrates_ThreadCreateWaitEndCb, c)
        (*c)(LOC(l), t, p, SCOREP_MOVABLE_NULL, a);
        break;
    default:
        break;
    }
}

void scorep_substrates_lock(struct scorep_location *l, uint64_t t, bool acquire, int paradigm,
                            uint32_t lock, uint32_t order)
{
    /* acquire and release share one signature */
    EACH(acquire ? SCOREP_EVENT_THREAD_ACQUIRE_LOCK : SCOREP_EVENT_THREAD_RELEASE_LOCK,
         SCOREP_Substrates_ThreadAcquireLockCb, c)
    (*c)(LOC(l), t, (SCOREP_ParadigmType)scorep_substrates_public_paradigm(paradigm), lock, order);
}

/* scorep-rt's parameter types are Score-P's values */
_Static_assert((int)SCOREP_SUBSTRATES_PARAMETER_INT64 == (int)SCOREP_PARAMETER_INT64 &&
                   (int)SCOREP_SUBSTRATES_PARAMETER_UINT64 == (int)SCOREP_PARAMETER_UINT64 &&
                   (int)SCOREP_SUBSTRATES_PARAMETER_STRING == (int)SCOREP_PARAMETER_STRING,
               "SCOREP_ParameterType");

void scorep_substrates_parameter(struct scorep_location *l, uint64_t t,
                                 scorep_substrates_parameter_type type, uint32_t param,
                                 uint64_t value)
{
    if (type == SCOREP_SUBSTRATES_PARAMETER_INT64) {
        EACH(SCOREP_EVENT_TRIGGER_PARAMETER_INT64, SCOREP_Substrates_TriggerParameterInt64Cb, c)
        (*c)(LOC(l), t, handle(param), (int64_t)value);
    } else if (type == SCOREP_SUBSTRATES_PARAMETER_UINT64) {
        EACH(SCOREP_EVENT_TRIGGER_PARAMETER_UINT64, SCOREP_Substrates_TriggerParameterUint64Cb, c)
        (*c)(LOC(l), t, handle(param), value);
    } else {
        EACH(SCOREP_EVENT_TRIGGER_PARAMETER_STRING, SCOREP_Substrates_TriggerParameterStringCb, c)
        (*c)(LOC(l), t, handle(param), handle((uint32_t)value));
    }
}

void scorep_substrates_counter(struct scorep_location *l, uint64_t t, uint32_t metric,
                               uint64_t bits, double as_double)
{
    scorep_substrates_metric m;
    if (!scorep_substrates_metric_get(metric, &m))
        return;
    if (m.value_type == SCOREP_METRIC_VALUE_INT64) {
        EACH(SCOREP_EVENT_TRIGGER_COUNTER_INT64, SCOREP_Substrates_TriggerCounterInt64Cb, c)
        (*c)(LOC(l), t, handle(metric), (int64_t)bits);
    } else if (m.value_type == SCOREP_METRIC_VALUE_UINT64) {
        EACH(SCOREP_EVENT_TRIGGER_COUNTER_UINT64, SCOREP_Substrates_TriggerCounterUint64Cb, c)
        (*c)(LOC(l), t, handle(metric), bits);
    } else {
        EACH(SCOREP_EVENT_TRIGGER_COUNTER_DOUBLE, SCOREP_Substrates_TriggerCounterDoubleCb, c)
        (*c)(LOC(l), t, handle(metric), as_double);
    }
}

void scorep_substrates_recording(struct scorep_location *l, uint64_t t, bool on,
                                 uint32_t off_region)
{
    /* enable and disable share one signature */
    EACH(on ? SCOREP_EVENT_ENABLE_RECORDING : SCOREP_EVENT_DISABLE_RECORDING,
         SCOREP_Substrates_EnableRecordingCb, c)
    (*c)(LOC(l), t, handle(off_region), NULL);
}

/* ------------------------------------------------- rewind, flush, post-mortem */
void scorep_substrates_rewind_enter(struct scorep_location *l, uint64_t t, uint32_t region)
{
    EACH(SCOREP_EVENT_ENTER_REWIND_REGION, SCOREP_Substrates_EnterRewindRegionCb, c)
    (*c)(LOC(l), t, handle(region));
}

void scorep_substrates_rewind_exit(struct scorep_location *l, uint64_t t, uint32_t region,
                                   bool do_rewind)
{
    EACH(SCOREP_EVENT_EXIT_REWIND_REGION, SCOREP_Substrates_ExitRewindRegionCb, c)
    (*c)(LOC(l), t, handle(region), do_rewind);
}

/* Score-P passes its "TRACE BUFFER FLUSH" region and the metric values read for the flush;
 * scorep-rt has no such region (the trace's BufferFlush record stands for it) and reads no
 * values for it: invalid region, no values. Begin and end share one signature. */
void scorep_substrates_buffer_flush(struct scorep_location *l, uint64_t t, bool end)
{
    EACH(end ? SCOREP_EVENT_ON_TRACING_BUFFER_FLUSH_END
             : SCOREP_EVENT_ON_TRACING_BUFFER_FLUSH_BEGIN,
         SCOREP_Substrates_OnTracingBufferFlushBeginCb, c)
    (*c)(LOC(l), t, SCOREP_INVALID_REGION, NULL);
}

void scorep_substrates_post_mortem_metric(struct scorep_location *l, uint64_t t, uint32_t metric,
                                          const uint64_t *value)
{
    EACH(SCOREP_EVENT_WRITE_POST_MORTEM_METRICS, SCOREP_Substrates_WriteMetricsCb, c)
    (*c)(LOC(l), t, handle(metric), value);
}

/* ------------------------------------------------------------------- memory */
/* substrateData: Score-P's per-block slots of its internal substrates, which plugins must
 * not touch (Score-P's header); scorep-rt keeps none per block: an array of NULLs on the
 * stack, so that a plugin that reads it anyway finds no pointer. */
enum { SUBSTRATE_DATA_SLOTS = MAX_PLUGINS + 4 };

void scorep_substrates_track_alloc(struct scorep_location *l, uint64_t t, uint64_t addr,
                                   uint64_t bytes, uint64_t kind_total, uint64_t process_total)
{
    void *data[SUBSTRATE_DATA_SLOTS] = {0};
    EACH(SCOREP_EVENT_TRACK_ALLOC, SCOREP_Substrates_TrackAllocCb, c)
    (*c)(LOC(l), t, addr, bytes, data, kind_total, process_total);
}

void scorep_substrates_track_free(struct scorep_location *l, uint64_t t, uint64_t addr,
                                  uint64_t bytes, uint64_t kind_total, uint64_t process_total)
{
    void *data[SUBSTRATE_DATA_SLOTS] = {0};
    EACH(SCOREP_EVENT_TRACK_FREE, SCOREP_Substrates_TrackFreeCb, c)
    (*c)(LOC(l), t, addr, bytes, data, kind_total, process_total);
}

void scorep_substrates_track_realloc(struct scorep_location *l, uint64_t t, uint64_t old_addr,
                                     uint64_t old_bytes, uint64_t new_addr, uint64_t new_bytes,
                                     uint64_t kind_total, uint64_t process_total)
{
    void *old_data[SUBSTRATE_DATA_SLOTS] = {0}, *new_data[SUBSTRATE_DATA_SLOTS] = {0};
    EACH(SCOREP_EVENT_TRACK_REALLOC, SCOREP_Substrates_TrackReallocCb, c)
    (*c)(LOC(l), t, old_addr, old_bytes, old_data, new_addr, new_bytes, new_data, kind_total,
         process_total);
}

/* ---------------------------------------------------------------------- I/O */
/* OTF2's access modes start at READ_ONLY = 0, Score-P's at NONE = 0, READ_ONLY = 1; the
 * creation flags, status flags, seek options, operation modes and flags have the same
 * values in both (checked at the top of this file). */
static SCOREP_IoAccessMode io_access(uint32_t otf2_access)
{
    return otf2_access < 5 ? (SCOREP_IoAccessMode)(otf2_access + 1) : SCOREP_IO_ACCESS_MODE_NONE;
}

void scorep_substrates_io_create_handle(struct scorep_location *l, uint64_t t, uint32_t h,
                                        uint32_t access, uint32_t creation, uint32_t status)
{
    EACH(SCOREP_EVENT_IO_CREATE_HANDLE, SCOREP_Substrates_IoCreateHandleCb, c)
    (*c)(LOC(l), t, handle(h), io_access(access), (SCOREP_IoCreationFlag)creation,
         (SCOREP_IoStatusFlag)status);
}

void scorep_substrates_io_destroy_handle(struct scorep_location *l, uint64_t t, uint32_t h)
{
    EACH(SCOREP_EVENT_IO_DESTROY_HANDLE, SCOREP_Substrates_IoDestroyHandleCb, c)
    (*c)(LOC(l), t, handle(h));
}

void scorep_substrates_io_duplicate_handle(struct scorep_location *l, uint64_t t,
                                           uint32_t old_handle, uint32_t new_handle,
                                           uint32_t status)
{
    EACH(SCOREP_EVENT_IO_DUPLICATE_HANDLE, SCOREP_Substrates_IoDuplicateHandleCb, c)
    (*c)(LOC(l), t, handle(old_handle), handle(new_handle), (SCOREP_IoStatusFlag)status);
}

void scorep_substrates_io_seek(struct scorep_location *l, uint64_t t, uint32_t h, int64_t offset,
                               uint32_t whence, uint64_t result)
{
    SCOREP_IoSeekOption w = whence < SCOREP_IO_SEEK_INVALID ? (SCOREP_IoSeekOption)whence
                                                            : SCOREP_IO_SEEK_INVALID;
    EACH(SCOREP_EVENT_IO_SEEK, SCOREP_Substrates_IoSeekCb, c)
    (*c)(LOC(l), t, handle(h), offset, w, result);
}

void scorep_substrates_io_change_status_flags(struct scorep_location *l, uint64_t t, uint32_t h,
                                              uint32_t status)
{
    EACH(SCOREP_EVENT_IO_CHANGE_STATUS_FLAGS, SCOREP_Substrates_IoChangeStatusFlagsCb, c)
    (*c)(LOC(l), t, handle(h), (SCOREP_IoStatusFlag)status);
}

void scorep_substrates_io_delete_file(struct scorep_location *l, uint64_t t, uint32_t io_paradigm,
                                      uint32_t file)
{
    EACH(SCOREP_EVENT_IO_DELETE_FILE, SCOREP_Substrates_IoDeleteFileCb, c)
    (*c)(LOC(l), t, (SCOREP_IoParadigmType)io_paradigm, handle(file));
}

void scorep_substrates_io_lock(struct scorep_location *l, uint64_t t, int which, uint32_t h,
                               uint32_t type)
{
    static const SCOREP_Substrates_EventType ev[] = {SCOREP_EVENT_IO_ACQUIRE_LOCK,
                                                     SCOREP_EVENT_IO_RELEASE_LOCK,
                                                     SCOREP_EVENT_IO_TRY_LOCK};
    if (which < 0 || which > 2)
        return;
    /* the three share one signature (location, timestamp, handle, lock type) */
    EACH(ev[which], SCOREP_Substrates_IoAcquireLockCb, c)
    (*c)(LOC(l), t, handle(h), (SCOREP_LockType)type);
}

void scorep_substrates_io_operation_begin(struct scorep_location *l, uint64_t t, uint32_t h,
                                          uint32_t mode, uint32_t flags, uint64_t requested,
                                          uint64_t matching_id)
{
    /* the offset of the operation is not recorded by scorep-rt's I/O adapter */
    EACH(SCOREP_EVENT_IO_OPERATION_BEGIN, SCOREP_Substrates_IoOperationBeginCb, c)
    (*c)(LOC(l), t, handle(h), (SCOREP_IoOperationMode)mode, (SCOREP_IoOperationFlag)flags,
         requested, matching_id, SCOREP_IO_UNKNOWN_OFFSET);
}

void scorep_substrates_io_operation_request(struct scorep_location *l, uint64_t t,
                                            scorep_substrates_io_request_event which,
                                            uint32_t h, uint64_t matching_id)
{
    static const SCOREP_Substrates_EventType ev[] = {
        [SCOREP_SUBSTRATES_IO_OPERATION_ISSUED] = SCOREP_EVENT_IO_OPERATION_ISSUED,
        [SCOREP_SUBSTRATES_IO_OPERATION_TEST] = SCOREP_EVENT_IO_OPERATION_TEST,
        [SCOREP_SUBSTRATES_IO_OPERATION_CANCELLED] = SCOREP_EVENT_IO_OPERATION_CANCELLED};
    if ((unsigned)which >= sizeof ev / sizeof ev[0])
        return;
    /* the three share one signature (location, timestamp, handle, matching id) */
    EACH(ev[which], SCOREP_Substrates_IoOperationIssuedCb, c)
    (*c)(LOC(l), t, handle(h), matching_id);
}

void scorep_substrates_io_operation_complete(struct scorep_location *l, uint64_t t, uint32_t h,
                                             uint32_t mode, uint64_t transferred,
                                             uint64_t matching_id)
{
    EACH(SCOREP_EVENT_IO_OPERATION_COMPLETE, SCOREP_Substrates_IoOperationCompleteCb, c)
    (*c)(LOC(l), t, handle(h), (SCOREP_IoOperationMode)mode, transferred, matching_id);
}

/* ------------------------------------------------- non-blocking collectives */
void scorep_substrates_mpi_nbc_request(struct scorep_location *l, uint64_t t, uint64_t request)
{
    EACH(SCOREP_EVENT_MPI_NON_BLOCKING_COLLECTIVE_REQUEST,
         SCOREP_Substrates_MpiNonBlockingCollectiveRequestCb, c)
    (*c)(LOC(l), t, request);
}

void scorep_substrates_mpi_nbc_complete(struct scorep_location *l, uint64_t t, uint32_t comm,
                                        uint32_t root, int op, uint64_t sent, uint64_t received,
                                        uint64_t request)
{
    SCOREP_MpiRank r = root == UINT32_MAX ? SCOREP_INVALID_ROOT_RANK : (SCOREP_MpiRank)root;
    EACH(SCOREP_EVENT_MPI_NON_BLOCKING_COLLECTIVE_COMPLETE,
         SCOREP_Substrates_MpiNonBlockingCollectiveCompleteCb, c)
    (*c)(LOC(l), t, handle(comm), r, collective_type(op), sent, received, request);
}

void scorep_substrates_comm(struct scorep_location *l, uint64_t t, bool create, uint32_t comm)
{
    /* create and destroy share one signature */
    EACH(create ? SCOREP_EVENT_COMM_CREATE : SCOREP_EVENT_COMM_DESTROY,
         SCOREP_Substrates_CommCreateCb, c)
    (*c)(LOC(l), t, handle(comm));
}

/* ---------------------------------------------------------------- one-sided */
/* A window's handle: its defs id + 1, announced as SCOREP_HANDLE_TYPE_RMA_WINDOW. The OpenMP
 * target adapter's transfers use a window of the trace's own (SCOREP_CUDA_WINDOW, no defs
 * entry): the invalid handle. */
static SCOREP_RmaWindowHandle win_handle(uint32_t win)
{
    return win >= UINT32_MAX - 1 ? SCOREP_MOVABLE_NULL : handle(win);
}

/* OTF2_RmaAtomicType -> SCOREP_RmaAtomicType: the same up to FETCH_AND_INCREMENT; OTF2's
 * FETCH_AND_ACCUMULATE (7) is Score-P's 8 (Score-P's ADD, 7, is not in OTF2's enum) */
static SCOREP_RmaAtomicType atomic_type(uint32_t otf2)
{
    return otf2 <= SCOREP_RMA_ATOMIC_TYPE_FETCH_AND_INCREMENT ? (SCOREP_RmaAtomicType)otf2
           : otf2 == 7 ? SCOREP_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE
                       : SCOREP_INVALID_RMA_ATOMIC_TYPE;
}

void scorep_substrates_rma_win(struct scorep_location *l, uint64_t t, bool create, uint32_t win)
{
    /* create and destroy share one signature */
    EACH(create ? SCOREP_EVENT_RMA_WIN_CREATE : SCOREP_EVENT_RMA_WIN_DESTROY,
         SCOREP_Substrates_RmaWinCreateCb, c)
    (*c)(LOC(l), t, win_handle(win));
}

void scorep_substrates_rma_collective_begin(struct scorep_location *l, uint64_t t, uint32_t level)
{
    EACH(SCOREP_EVENT_RMA_COLLECTIVE_BEGIN, SCOREP_Substrates_RmaCollectiveBeginCb, c)
    (*c)(LOC(l), t, (SCOREP_RmaSyncLevel)level);
}

void scorep_substrates_rma_collective_end(struct scorep_location *l, uint64_t t, int op,
                                          uint32_t level, uint32_t win, uint32_t root,
                                          uint64_t sent, uint64_t received)
{
    /* root: the rank, or UINT32_MAX (Score-P's SCOREP_INVALID_ROOT_RANK as uint32_t) */
    EACH(SCOREP_EVENT_RMA_COLLECTIVE_END, SCOREP_Substrates_RmaCollectiveEndCb, c)
    (*c)(LOC(l), t, collective_type(op), (SCOREP_RmaSyncLevel)level, win_handle(win), root, sent,
         received);
}

void scorep_substrates_rma_group_sync(struct scorep_location *l, uint64_t t, uint32_t level,
                                      uint32_t win, uint32_t group)
{
    EACH(SCOREP_EVENT_RMA_GROUP_SYNC, SCOREP_Substrates_RmaGroupSyncCb, c)
    (*c)(LOC(l), t, (SCOREP_RmaSyncLevel)level, win_handle(win), handle(group));
}

void scorep_substrates_rma_lock(struct scorep_location *l, uint64_t t, int which, uint32_t win,
                                uint32_t remote, uint64_t lock_id, uint32_t type)
{
    static const SCOREP_Substrates_EventType ev[] = {SCOREP_EVENT_RMA_REQUEST_LOCK,
                                                     SCOREP_EVENT_RMA_ACQUIRE_LOCK,
                                                     SCOREP_EVENT_RMA_TRY_LOCK};
    if (which < 0 || which > 2)
        return;
    /* request, acquire and try share one signature */
    EACH(ev[which], SCOREP_Substrates_RmaRequestLockCb, c)
    (*c)(LOC(l), t, win_handle(win), remote, lock_id, (SCOREP_LockType)type);
}

void scorep_substrates_rma_release_lock(struct scorep_location *l, uint64_t t, uint32_t win,
                                        uint32_t remote, uint64_t lock_id)
{
    EACH(SCOREP_EVENT_RMA_RELEASE_LOCK, SCOREP_Substrates_RmaReleaseLockCb, c)
    (*c)(LOC(l), t, win_handle(win), remote, lock_id);
}

void scorep_substrates_rma_sync(struct scorep_location *l, uint64_t t, uint32_t win,
                                uint32_t remote, uint32_t type)
{
    EACH(SCOREP_EVENT_RMA_SYNC, SCOREP_Substrates_RmaSyncCb, c)
    (*c)(LOC(l), t, win_handle(win), remote, (SCOREP_RmaSyncType)type);
}

void scorep_substrates_rma_transfer(struct scorep_location *l, uint64_t t, bool put, uint32_t win,
                                    uint32_t remote, uint64_t bytes, uint64_t matching_id)
{
    /* put and get share one signature */
    EACH(put ? SCOREP_EVENT_RMA_PUT : SCOREP_EVENT_RMA_GET, SCOREP_Substrates_RmaPutCb, c)
    (*c)(LOC(l), t, win_handle(win), remote, bytes, matching_id);
}

void scorep_substrates_rma_atomic(struct scorep_location *l, uint64_t t, uint32_t win,
                                  uint32_t remote, uint32_t type, uint64_t sent,
                                  uint64_t received, uint64_t matching_id)
{
    EACH(SCOREP_EVENT_RMA_ATOMIC, SCOREP_Substrates_RmaAtomicCb, c)
    (*c)(LOC(l), t, win_handle(win), remote, atomic_type(type), sent, received, matching_id);
}

void scorep_substrates_rma_op_complete(struct scorep_location *l, uint64_t t, bool blocking,
                                       uint32_t win, uint64_t matching_id)
{
    /* blocking and non-blocking share one signature */
    EACH(blocking ? SCOREP_EVENT_RMA_OP_COMPLETE_BLOCKING
                  : SCOREP_EVENT_RMA_OP_COMPLETE_NON_BLOCKING,
         SCOREP_Substrates_RmaOpCompleteBlockingCb, c)
    (*c)(LOC(l), t, win_handle(win), matching_id);
}

void scorep_substrates_rma_op_complete_remote(struct scorep_location *l, uint64_t t, uint32_t win,
                                              uint64_t matching_id)
{
    EACH(SCOREP_EVENT_RMA_OP_COMPLETE_REMOTE, SCOREP_Substrates_RmaOpCompleteRemoteCb, c)
    (*c)(LOC(l), t, win_handle(win), matching_id);
}

void scorep_substrates_rma_wait_change(struct scorep_location *l, uint64_t t, uint32_t win)
{
    EACH(SCOREP_EVENT_RMA_WAIT_CHANGE, SCOREP_Substrates_RmaWaitChangeCb, c)
    (*c)(LOC(l), t, win_handle(win));
}

/* ------------------------------------------------------------ OpenMP tasks */
static SCOREP_TaskHandle task_handle(struct scorep_location *l, const void *task)
{
    return task ? (SCOREP_TaskHandle)(void *)task : implicit_task(l);
}

void scorep_substrates_task_create(struct scorep_location *l, uint64_t t, uint32_t team,
                                   uint32_t creator, uint32_t generation)
{
    EACH(SCOREP_EVENT_THREAD_FORK_JOIN_TASK_CREATE, SCOREP_Substrates_ThreadForkJoinTaskCreateCb, c)
    (*c)(LOC(l), t, SCOREP_PARADIGM_OPENMP, handle(team), creator, generation);
}

void scorep_substrates_task_switch(struct scorep_location *l, uint64_t t, uint64_t *metrics,
                                   uint32_t team, uint32_t creator, uint32_t generation,
                                   const void *task)
{
    EACH(SCOREP_EVENT_THREAD_FORK_JOIN_TASK_SWITCH, SCOREP_Substrates_ThreadForkJoinTaskSwitchCb, c)
    (*c)(LOC(l), t, metrics, SCOREP_PARADIGM_OPENMP, handle(team), creator, generation,
         task_handle(l, task));
}

void scorep_substrates_task_begin(struct scorep_location *l, uint64_t t, uint32_t region,
                                  uint64_t *metrics, uint32_t team, uint32_t creator,
                                  uint32_t generation, const void *task)
{
    SCOREP_TaskHandle h = task_handle(l, task);
    if (cc_mode && cc_wanted)
        scorep_substrates_cc_task(l, t, region, true);
    /* Score-P creates its task object when the task begins, and says so first */
    EACH_PLUGIN(core_task_create, LOC(l), h);
    EACH(SCOREP_EVENT_THREAD_FORK_JOIN_TASK_BEGIN, SCOREP_Substrates_ThreadForkJoinTaskBeginCb, c)
    (*c)(LOC(l), t, handle(region), metrics, SCOREP_PARADIGM_OPENMP, handle(team), creator,
         generation, h);
}

void scorep_substrates_task_park(struct scorep_location *l, uint64_t t, const void *task,
                                 uint32_t n)
{
    if (cc_mode && cc_wanted)
        scorep_substrates_cc_park(l, t, task, n);
}

void scorep_substrates_task_resume(struct scorep_location *l, uint64_t t, const void *task)
{
    if (cc_mode && cc_wanted)
        scorep_substrates_cc_resume(l, t, task);
}

void scorep_substrates_task_end(struct scorep_location *l, uint64_t t, uint32_t region,
                                uint64_t *metrics, uint32_t team, uint32_t creator,
                                uint32_t generation, const void *task)
{
    SCOREP_TaskHandle h = task_handle(l, task);
    if (cc_mode && cc_wanted)
        scorep_substrates_cc_task(l, t, region, false);
    EACH(SCOREP_EVENT_THREAD_FORK_JOIN_TASK_END, SCOREP_Substrates_ThreadForkJoinTaskEndCb, c)
    (*c)(LOC(l), t, handle(region), metrics, SCOREP_PARADIGM_OPENMP, handle(team), creator,
         generation, h);
    EACH_PLUGIN(core_task_complete, LOC(l), h);
}
