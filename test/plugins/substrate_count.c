/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_count.c: a substrate plugin built the way third-party ones are (Score-P's
 * public headers only, a shared module libscorep_substrate_<name>.so): it counts the
 * events it receives per region, location and kind (atomically: events come from every
 * thread), logs the order of its life cycle calls, and writes all of it at write_data to
 * $SUBSTRATE_COUNT_OUT.<rank>. The memory events of the first location are logged one by one
 * (line "mem_main"); the metric values of enters and exits of the first location to
 * $SUBSTRATE_COUNT_OUT.<rank>.metrics; the first location's rewind points and checks and
 * trace buffer flushes with their timestamps (lines "rewind_main", "flush_main"); the
 * post-mortem metric values to $SUBSTRATE_COUNT_OUT.<rank>.postmortem.
 * -DPLUGIN_NAME=x names the entry; -DPLUGIN_NEWER claims a newer interface version. */
#include <scorep/SCOREP_SubstratePlugins.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PLUGIN_NAME
#define PLUGIN_NAME count
#endif

enum { MAX_REGIONS = 4096 };

static const SCOREP_SubstratePluginCallbacks *cb;
static size_t my_id = 999;
static char order[64];
static unsigned n_order;
static unsigned long enters[MAX_REGIONS], exits[MAX_REGIONS];
static char announced[MAX_REGIONS];
static unsigned long unannounced, n_regions_announced;
static unsigned long created, activated, deactivated, deleted, loc_enters, data_lost;
/* deactivations before PROGRAM_END (threads that ended), and events after a deactivation */
static int program_ended;
static unsigned long deactivated_early;
/* an activation of an active location, or a deactivation of one not active */
static unsigned long activation_errors;
static unsigned long sends, recvs, send_bytes, recv_bytes, isends, irecvs;
static unsigned long isend_done, irecv_req;
static unsigned long coll_begins, coll_ends, coll_types[32];
static unsigned long t_create, t_wait, t_begin, t_end, t_fork, t_join, t_team_begin;
static unsigned long params, backwards, rec_on, rec_off;
static long long counter_int;
static double counter_double;
static char counter_desc[512];
static char program[256];
/* memory: the first location's events in order; the others' summed */
static char mem_main[8192];
static unsigned long mem_other[6]; /* allocs, bytes, frees, bytes, reallocs, new bytes */
static unsigned long mem_bad_data;  /* substrateData NULL or a slot not NULL */
/* I/O */
enum { MAX_IO = 4096 };
static char io_announced[MAX_IO], io_file_announced[MAX_IO];
static unsigned long io_paradigms, io_files, io_handles, io_unannounced;
static unsigned long io_ev[16]; /* create, destroy, dup, seek, status, delete, begin, issued,
                                   test, complete, cancelled, acquire lock, release lock, try lock */
static unsigned long io_ops[3], io_bytes[3], io_unsized; /* unsized: bytes unknown (failed, fscanf) */
static char io_creates[1024], io_seeks[1024];
/* metrics at enter and exit */
static unsigned long with_metrics, without_metrics, metric_mismatch, metric_backwards;
static char *metric_log;
static size_t metric_log_len, metric_log_cap;
static uint64_t metric_last[64];

/* locations announced (new_definition_handle, SCOREP_HANDLE_TYPE_LOCATION), and created
 * without their handle (its id + 1) announced before */
static char loc_announced[MAX_REGIONS];
static unsigned long locs_announced, locs_unannounced, groups_announced, systree_announced;

static void step(char c)
{
    if (n_order + 1 < sizeof order)
        order[n_order++] = c;
}

static int init(void)
{
    step('I');
    return 0;
}

static void set_callbacks(const SCOREP_SubstratePluginCallbacks *c, size_t size)
{
    step('C');
    if (size >= sizeof *c)
        cb = c;
}

static void assign_id(size_t id)
{
    step('A');
    my_id = id;
}

static void init_mpp(void)
{
    step('M');
}

/* strings, parameters, metrics, sampling sets, paradigms announced (bit 1 << type) and
 * handles of those kinds in events that were not */
static unsigned char other_announced[MAX_REGIONS];
static unsigned long other_unannounced, paradigms_announced;
static int other_bit(SCOREP_HandleType type)
{
    switch (type) {
    case SCOREP_HANDLE_TYPE_STRING: return 1;
    case SCOREP_HANDLE_TYPE_PARAMETER: return 2;
    case SCOREP_HANDLE_TYPE_METRIC: return 4;
    case SCOREP_HANDLE_TYPE_SAMPLING_SET: return 8;
    case SCOREP_HANDLE_TYPE_PARADIGM: return 16;
    default: return 0;
    }
}

static void need_other(SCOREP_AnyHandle h, SCOREP_HandleType type)
{
    if (h == 0 || h >= MAX_REGIONS ||
        !(__atomic_load_n(&other_announced[h], __ATOMIC_RELAXED) & other_bit(type)))
        __atomic_fetch_add(&other_unannounced, 1, __ATOMIC_RELAXED);
}

static void new_handle(SCOREP_AnyHandle h, SCOREP_HandleType type)
{
    if (other_bit(type) && h < MAX_REGIONS)
        __atomic_fetch_or(&other_announced[h], other_bit(type), __ATOMIC_RELAXED);
    if (type == SCOREP_HANDLE_TYPE_PARADIGM)
        __atomic_fetch_add(&paradigms_announced, 1, __ATOMIC_RELAXED);
    if (type == SCOREP_HANDLE_TYPE_IO_PARADIGM)
        __atomic_fetch_add(&io_paradigms, 1, __ATOMIC_RELAXED);
    if (type == SCOREP_HANDLE_TYPE_IO_FILE && h < MAX_IO) {
        __atomic_store_n(&io_file_announced[h], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&io_files, 1, __ATOMIC_RELAXED);
    }
    if (type == SCOREP_HANDLE_TYPE_IO_HANDLE && h < MAX_IO) {
        __atomic_store_n(&io_announced[h], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&io_handles, 1, __ATOMIC_RELAXED);
    }
    if (type == SCOREP_HANDLE_TYPE_LOCATION_GROUP)
        __atomic_fetch_add(&groups_announced, 1, __ATOMIC_RELAXED);
    if (type == SCOREP_HANDLE_TYPE_SYSTEM_TREE_NODE)
        __atomic_fetch_add(&systree_announced, 1, __ATOMIC_RELAXED);
    if (type == SCOREP_HANDLE_TYPE_LOCATION && h < MAX_REGIONS) {
        __atomic_store_n(&loc_announced[h], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&locs_announced, 1, __ATOMIC_RELAXED);
    }
    if (type != SCOREP_HANDLE_TYPE_REGION || h >= MAX_REGIONS)
        return;
    __atomic_store_n(&announced[h], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&n_regions_announced, 1, __ATOMIC_RELAXED);
}

static void create_location(const struct SCOREP_Location *l, const struct SCOREP_Location *parent)
{
    (void)parent;
    __atomic_fetch_add(&created, 1, __ATOMIC_RELAXED);
    uint32_t h = cb->SCOREP_Location_GetId(l) + 1;
    if (h >= MAX_REGIONS || !__atomic_load_n(&loc_announced[h], __ATOMIC_RELAXED))
        __atomic_fetch_add(&locs_unannounced, 1, __ATOMIC_RELAXED);
    if (cb->SCOREP_Location_GetId(l) == 0)
        step('L');
    /* enters, last timestamp, events with and without metric values, the last timestamp
     * before its deactivation, active (an OpenMP worker is (de)activated at each team) */
    cb->SCOREP_Location_SetData(l, my_id, calloc(1, sizeof(unsigned long) * 6));
}

static void activate(const struct SCOREP_Location *l, const struct SCOREP_Location *parent,
                     uint32_t fork_seq)
{
    (void)parent, (void)fork_seq;
    __atomic_fetch_add(&activated, 1, __ATOMIC_RELAXED);
    unsigned long *d = cb->SCOREP_Location_GetData(l, my_id);
    if (d) {
        if (d[5])
            __atomic_fetch_add(&activation_errors, 1, __ATOMIC_RELAXED); /* active already */
        d[5] = 1;
        if (d[1] == UINT64_MAX)
            d[1] = d[4]; /* events may come again */
    }
    if (cb->SCOREP_Location_GetId(l) == 0)
        step('V');
}

static void deactivate(const struct SCOREP_Location *l, const struct SCOREP_Location *parent)
{
    (void)parent;
    __atomic_fetch_add(&deactivated, 1, __ATOMIC_RELAXED);
    if (!__atomic_load_n(&program_ended, __ATOMIC_ACQUIRE))
        __atomic_fetch_add(&deactivated_early, 1, __ATOMIC_RELAXED);
    unsigned long *d = cb->SCOREP_Location_GetData(l, my_id);
    if (d) {
        if (!d[5])
            __atomic_fetch_add(&activation_errors, 1, __ATOMIC_RELAXED); /* not active */
        d[5] = 0;
        d[4] = d[1];
        d[1] = UINT64_MAX; /* check_time counts any later event of l as going back */
    }
    if (cb->SCOREP_Location_GetId(l) == 0)
        step('X');
}

static void delete_location(const struct SCOREP_Location *l)
{
    unsigned long *d = cb->SCOREP_Location_GetData(l, my_id);
    __atomic_fetch_add(&deleted, 1, __ATOMIC_RELAXED);
    if (cb->SCOREP_Location_GetId(l) == 0)
        step('Z');
    if (!d) {
        __atomic_fetch_add(&data_lost, 1, __ATOMIC_RELAXED);
        return;
    }
    __atomic_fetch_add(&loc_enters, d[0], __ATOMIC_RELAXED);
    __atomic_fetch_add(&with_metrics, d[2], __ATOMIC_RELAXED);
    __atomic_fetch_add(&without_metrics, d[3], __ATOMIC_RELAXED);
}

static void pre_unify(void)
{
    step('P');
}

static void dump_manifest(FILE *f, const char *rel, const char *dir)
{
    (void)rel, (void)dir;
    step('G');
    cb->SCOREP_ConfigManifestSectionHeader(f, "Substrate plugin count");
    cb->SCOREP_ConfigManifestSectionEntry(f, "count.txt", "Events per region, %d ranks.",
                                          cb->SCOREP_Ipc_GetSize());
}

/* the location's last timestamp: events come in time order per location */
static void check_time(struct SCOREP_Location *l, uint64_t t)
{
    unsigned long *d = cb->SCOREP_Location_GetData(l, my_id);
    if (d) {
        if (t < d[1])
            __atomic_fetch_add(&backwards, 1, __ATOMIC_RELAXED);
        d[1] = t;
    }
}

/* the first location's metric values, through SCOREP_Metric_WriteStrictlySynchronousMetrics
 * and then _WriteSynchronousMetrics: "name=value" each, checked against the event's
 * metricValues (the same array, strictly synchronous metrics first, in order) */
static uint64_t *write_expect;
static unsigned write_i;

static void log_metric(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_metric(const char *fmt, ...)
{
    if (metric_log_len + 512 > metric_log_cap) {
        size_t cap = metric_log_cap ? 2 * metric_log_cap : 1 << 16;
        char *n = realloc(metric_log, cap);
        if (!n)
            return;
        metric_log = n;
        metric_log_cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(metric_log + metric_log_len, metric_log_cap - metric_log_len, fmt, ap);
    va_end(ap);
    if (k > 0 && (size_t)k < metric_log_cap - metric_log_len)
        metric_log_len += (size_t)k;
}

static void write_cb(struct SCOREP_Location *l, uint64_t t, SCOREP_SamplingSetHandle s,
                     const uint64_t *v)
{
    (void)l, (void)t;
    const SCOREP_MetricHandle *m = cb->SCOREP_SamplingSetHandle_GetMetricHandles(s);
    if (!write_expect || write_i >= 64 || !m || *v != write_expect[write_i])
        metric_mismatch++;
    else if (*v < metric_last[write_i])
        metric_backwards++; /* rusage values only grow */
    else
        metric_last[write_i] = *v;
    log_metric(" %s=%llu", m ? cb->SCOREP_MetricHandle_GetName(m[0]) : "?", (unsigned long long)*v);
    write_i++;
}

/* the first location's values of an enter or exit: logged with the region and timestamp */
static void log_metrics(const char *what, struct SCOREP_Location *l, uint64_t t,
                        SCOREP_RegionHandle r, uint64_t *m)
{
    log_metric("%s %s %llu", what, cb->SCOREP_RegionHandle_GetName(r), (unsigned long long)t);
    write_expect = m;
    write_i = 0;
    cb->SCOREP_Metric_WriteStrictlySynchronousMetrics(l, t, write_cb);
    log_metric(" |");
    cb->SCOREP_Metric_WriteSynchronousMetrics(l, t, write_cb);
    log_metric("\n");
}

/* per enter and exit one callback (GetData): the location's counts, summed at its deletion */
static unsigned long *region_event(struct SCOREP_Location *l, uint64_t t, uint64_t *m)
{
    unsigned long *d = cb->SCOREP_Location_GetData(l, my_id);
    if (d) {
        if (t < d[1])
            __atomic_fetch_add(&backwards, 1, __ATOMIC_RELAXED);
        d[1] = t;
        d[m ? 2 : 3]++;
    }
    return d;
}

static void enter(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m)
{
    unsigned long *d = region_event(l, t, m);
    if (d)
        d[0]++;
    if (r < MAX_REGIONS && announced[r])
        __atomic_fetch_add(&enters[r], 1, __ATOMIC_RELAXED);
    else
        __atomic_fetch_add(&unannounced, 1, __ATOMIC_RELAXED);
    need_other(cb->SCOREP_RegionHandle_GetParadigmType(r) + 1, SCOREP_HANDLE_TYPE_PARADIGM);
    if (m && cb->SCOREP_Location_GetId(l) == 0)
        log_metrics("ENTER", l, t, r, m);
}

static void exit_(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m)
{
    region_event(l, t, m);
    if (r < MAX_REGIONS)
        __atomic_fetch_add(&exits[r], 1, __ATOMIC_RELAXED);
    if (m && cb->SCOREP_Location_GetId(l) == 0)
        log_metrics("LEAVE", l, t, r, m);
}

static void program_begin(struct SCOREP_Location *l, uint64_t t, SCOREP_StringHandle name,
                          uint32_t argc, SCOREP_StringHandle *argv, SCOREP_RegionHandle r,
                          uint64_t pid, uint64_t tid)
{
    (void)l, (void)t, (void)argc, (void)argv, (void)r, (void)tid;
    step('B');
    need_other(name, SCOREP_HANDLE_TYPE_STRING);
    const char *s = cb->SCOREP_StringHandle_Get(name);
    const char *b = s ? strrchr(s, '/') : NULL;
    snprintf(program, sizeof program, "%s pid_ok=%d", b ? b + 1 : s ? s : "(null)",
             pid == (uint64_t)getpid());
}

static void program_end(struct SCOREP_Location *l, uint64_t t, SCOREP_ExitStatus st,
                        SCOREP_RegionHandle r)
{
    (void)l, (void)t, (void)st, (void)r;
    __atomic_store_n(&program_ended, 1, __ATOMIC_RELEASE);
    step('N');
}

static void mpi_send(struct SCOREP_Location *l, uint64_t t, SCOREP_MpiRank dest,
                     SCOREP_InterimCommunicatorHandle comm, uint32_t tag, uint64_t bytes)
{
    (void)dest, (void)comm, (void)tag;
    check_time(l, t);
    __atomic_fetch_add(&sends, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&send_bytes, bytes, __ATOMIC_RELAXED);
}

static void mpi_recv(struct SCOREP_Location *l, uint64_t t, SCOREP_MpiRank src,
                     SCOREP_InterimCommunicatorHandle comm, uint32_t tag, uint64_t bytes)
{
    (void)src, (void)comm, (void)tag;
    check_time(l, t);
    __atomic_fetch_add(&recvs, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&recv_bytes, bytes, __ATOMIC_RELAXED);
}

static void mpi_isend(struct SCOREP_Location *l, uint64_t t, SCOREP_MpiRank dest,
                      SCOREP_InterimCommunicatorHandle comm, uint32_t tag, uint64_t bytes,
                      SCOREP_MpiRequestId req)
{
    (void)l, (void)t, (void)dest, (void)comm, (void)tag, (void)req;
    __atomic_fetch_add(&isends, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&send_bytes, bytes, __ATOMIC_RELAXED);
}

static void mpi_irecv(struct SCOREP_Location *l, uint64_t t, SCOREP_MpiRank src,
                      SCOREP_InterimCommunicatorHandle comm, uint32_t tag, uint64_t bytes,
                      SCOREP_MpiRequestId req)
{
    (void)l, (void)t, (void)src, (void)comm, (void)tag, (void)req;
    __atomic_fetch_add(&irecvs, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&recv_bytes, bytes, __ATOMIC_RELAXED);
}

static void isend_complete(struct SCOREP_Location *l, uint64_t t, SCOREP_MpiRequestId req)
{
    (void)l, (void)t, (void)req;
    __atomic_fetch_add(&isend_done, 1, __ATOMIC_RELAXED);
}

static void irecv_request(struct SCOREP_Location *l, uint64_t t, SCOREP_MpiRequestId req)
{
    (void)l, (void)t, (void)req;
    __atomic_fetch_add(&irecv_req, 1, __ATOMIC_RELAXED);
}

static void coll_begin(struct SCOREP_Location *l, uint64_t t)
{
    check_time(l, t);
    __atomic_fetch_add(&coll_begins, 1, __ATOMIC_RELAXED);
}

static void coll_end(struct SCOREP_Location *l, uint64_t t, SCOREP_InterimCommunicatorHandle comm,
                     SCOREP_MpiRank root, SCOREP_CollectiveType type, uint64_t sent,
                     uint64_t received)
{
    (void)comm, (void)root, (void)sent, (void)received;
    check_time(l, t);
    __atomic_fetch_add(&coll_ends, 1, __ATOMIC_RELAXED);
    if ((unsigned)type < 32)
        __atomic_fetch_add(&coll_types[type], 1, __ATOMIC_RELAXED);
}

#define THREAD_CB(name, counter)                                                               \
    static void name(struct SCOREP_Location *l, uint64_t t, SCOREP_ParadigmType p,            \
                     SCOREP_InterimCommunicatorHandle team, uint32_t seq)                     \
    {                                                                                         \
        (void)l, (void)t, (void)team, (void)seq;                                              \
        if (p == SCOREP_PARADIGM_PTHREAD)                                                     \
            __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);                                \
    }
THREAD_CB(t_create_cb, t_create)
THREAD_CB(t_wait_cb, t_wait)
THREAD_CB(t_end_cb, t_end)

static void t_begin_cb(struct SCOREP_Location *l, uint64_t t, SCOREP_ParadigmType p,
                       SCOREP_InterimCommunicatorHandle team, uint32_t seq, uint64_t tid)
{
    (void)l, (void)t, (void)team, (void)seq, (void)tid;
    if (p == SCOREP_PARADIGM_PTHREAD)
        __atomic_fetch_add(&t_begin, 1, __ATOMIC_RELAXED);
}

static void fork_cb(struct SCOREP_Location *l, uint64_t t, SCOREP_ParadigmType p, uint32_t n,
                    uint32_t seq)
{
    (void)l, (void)t, (void)n, (void)seq;
    if (p == SCOREP_PARADIGM_OPENMP)
        __atomic_fetch_add(&t_fork, 1, __ATOMIC_RELAXED);
}

static void join_cb(struct SCOREP_Location *l, uint64_t t, SCOREP_ParadigmType p)
{
    (void)l, (void)t;
    if (p == SCOREP_PARADIGM_OPENMP)
        __atomic_fetch_add(&t_join, 1, __ATOMIC_RELAXED);
}

static void team_begin_cb(struct SCOREP_Location *l, uint64_t t, SCOREP_ParadigmType p,
                          SCOREP_InterimCommunicatorHandle team, uint64_t tid)
{
    (void)l, (void)t, (void)team, (void)tid;
    if (p == SCOREP_PARADIGM_OPENMP)
        __atomic_fetch_add(&t_team_begin, 1, __ATOMIC_RELAXED);
}

static void param_int(struct SCOREP_Location *l, uint64_t t, SCOREP_ParameterHandle p, int64_t v)
{
    (void)l, (void)t, (void)v;
    need_other(p, SCOREP_HANDLE_TYPE_PARAMETER);
    __atomic_fetch_add(&params, 1, __ATOMIC_RELAXED);
}

static void recording_cb(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m,
                         unsigned long *counter)
{
    (void)l, (void)t, (void)r, (void)m;
    __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

static void rec_on_cb(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m)
{
    recording_cb(l, t, r, m, &rec_on);
}

static void rec_off_cb(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m)
{
    recording_cb(l, t, r, m, &rec_off);
}

/* the sampling set's one metric, described through the callbacks (first trigger only) */
static void describe(SCOREP_SamplingSetHandle s)
{
    const SCOREP_MetricHandle *m = cb->SCOREP_SamplingSetHandle_GetMetricHandles(s);
    size_t n = strlen(counter_desc);
    if (!m || n + 100 > sizeof counter_desc)
        return;
    snprintf(counter_desc + n, sizeof counter_desc - n, " %s:n=%u,occ=%d,type=%d,src=%d,mode=%d",
             cb->SCOREP_MetricHandle_GetName(m[0]),
             (unsigned)cb->SCOREP_SamplingSetHandle_GetNumberOfMetrics(s),
             (int)cb->SCOREP_SamplingSetHandle_GetMetricOccurrence(s),
             (int)cb->SCOREP_MetricHandle_GetValueType(m[0]),
             (int)cb->SCOREP_MetricHandle_GetSourceType(m[0]),
             (int)cb->SCOREP_MetricHandle_GetMode(m[0]));
}

/* the user metrics (counter_i, counter_d): triggered by the master thread only (substrate_more.c) */
static void counter_i(struct SCOREP_Location *l, uint64_t t, SCOREP_SamplingSetHandle s, int64_t v)
{
    (void)l, (void)t;
    need_other(s, SCOREP_HANDLE_TYPE_SAMPLING_SET);
    need_other(*cb->SCOREP_SamplingSetHandle_GetMetricHandles(s), SCOREP_HANDLE_TYPE_METRIC);
    if (counter_int == 0)
        describe(s);
    counter_int += v;
}

static void counter_d(struct SCOREP_Location *l, uint64_t t, SCOREP_SamplingSetHandle s, double v)
{
    (void)l, (void)t;
    need_other(s, SCOREP_HANDLE_TYPE_SAMPLING_SET);
    need_other(*cb->SCOREP_SamplingSetHandle_GetMetricHandles(s), SCOREP_HANDLE_TYPE_METRIC);
    if (counter_double == 0)
        describe(s);
    counter_double += v;
}

/* ---- memory */
static void mem_log(struct SCOREP_Location *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mem_log(struct SCOREP_Location *l, const char *fmt, ...)
{
    (void)l;
    size_t n = strlen(mem_main);
    va_list ap;
    va_start(ap, fmt);
    if (n + 64 < sizeof mem_main)
        vsnprintf(mem_main + n, sizeof mem_main - n, fmt, ap);
    va_end(ap);
}

static void check_data(void *d[])
{
    if (!d)
        __atomic_fetch_add(&mem_bad_data, 1, __ATOMIC_RELAXED);
    else
        for (int i = 0; i < 16; i++)
            if (d[i])
                __atomic_fetch_add(&mem_bad_data, 1, __ATOMIC_RELAXED);
}

/* an allocation (what 'A', counters mem_other[0..1]) or a free ('F', mem_other[2..3]): the
 * first location's in order in the log, the other threads' counted */
static void track(struct SCOREP_Location *l, uint64_t t, uint64_t addr, size_t bytes,
                  void *data[], size_t kind_total, size_t process_total, char what, int other)
{
    check_time(l, t);
    check_data(data);
    if (!addr)
        __atomic_fetch_add(&mem_bad_data, 1, __ATOMIC_RELAXED);
    if (cb->SCOREP_Location_GetId(l) == 0)
        mem_log(l, " %c%zu/%zu/%zu", what, bytes, kind_total, process_total);
    else {
        __atomic_fetch_add(&mem_other[other], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&mem_other[other + 1], bytes, __ATOMIC_RELAXED);
    }
}

static void track_alloc(struct SCOREP_Location *l, uint64_t t, uint64_t addr, size_t bytes,
                        void *data[], size_t kind_total, size_t process_total)
{
    track(l, t, addr, bytes, data, kind_total, process_total, 'A', 0);
}

static void track_free(struct SCOREP_Location *l, uint64_t t, uint64_t addr, size_t bytes,
                       void *data[], size_t kind_total, size_t process_total)
{
    track(l, t, addr, bytes, data, kind_total, process_total, 'F', 2);
}

/* "R<old>><new>" and m when the block moved, then the totals */
static void track_realloc(struct SCOREP_Location *l, uint64_t t, uint64_t old_addr,
                          size_t old_bytes, void *old_data[], uint64_t new_addr,
                          size_t new_bytes, void *new_data[], size_t kind_total,
                          size_t process_total)
{
    check_time(l, t);
    check_data(old_data);
    check_data(new_data);
    if (cb->SCOREP_Location_GetId(l) == 0)
        mem_log(l, " R%zu>%zu%s/%zu/%zu", old_bytes, new_bytes, old_addr != new_addr ? "m" : "",
                kind_total, process_total);
    else {
        __atomic_fetch_add(&mem_other[4], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&mem_other[5], new_bytes, __ATOMIC_RELAXED);
    }
}

/* ---- I/O: counts per event; operations and bytes per mode; every handle announced */
static void io_handle(SCOREP_IoHandleHandle h)
{
    if (h == 0 || h >= MAX_IO || !__atomic_load_n(&io_announced[h], __ATOMIC_RELAXED))
        __atomic_fetch_add(&io_unannounced, 1, __ATOMIC_RELAXED);
}

static void io_count(int k, struct SCOREP_Location *l, uint64_t t, SCOREP_IoHandleHandle h)
{
    check_time(l, t);
    __atomic_fetch_add(&io_ev[k], 1, __ATOMIC_RELAXED);
    io_handle(h);
}

static void append(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    if (n + 64 < size)
        vsnprintf(buf + n, size - n, fmt, ap);
    va_end(ap);
}

static void io_create(struct SCOREP_Location *l, uint64_t t, SCOREP_IoHandleHandle h,
                      SCOREP_IoAccessMode mode, SCOREP_IoCreationFlag cf, SCOREP_IoStatusFlag sf)
{
    io_count(0, l, t, h);
    append(io_creates, sizeof io_creates, " %d/%d/%d", (int)mode, (int)cf, (int)sf);
}

static void io_destroy(struct SCOREP_Location *l, uint64_t t, SCOREP_IoHandleHandle h)
{
    io_count(1, l, t, h);
}

static void io_dup(struct SCOREP_Location *l, uint64_t t, SCOREP_IoHandleHandle old,
                   SCOREP_IoHandleHandle h, SCOREP_IoStatusFlag sf)
{
    (void)sf;
    io_count(2, l, t, h);
    io_handle(old);
}

static void io_seek(struct SCOREP_Location *l, uint64_t t, SCOREP_IoHandleHandle h, int64_t off,
                    SCOREP_IoSeekOption whence, uint64_t result)
{
    io_count(3, l, t, h);
    append(io_seeks, sizeof io_seeks, " %lld/%d/%llu", (long long)off, (int)whence,
           (unsigned long long)result);
}

static void io_status(struct SCOREP_Location *l, uint64_t t, SCOREP_IoHandleHandle h,
                      SCOREP_IoStatusFlag sf)
{
    (void)sf;
    io_count(4, l, t, h);
}

static void io_delete(struct SCOREP_Location *l, uint64_t t, SCOREP_IoParadigmType p,
                      SCOREP_IoFileHandle f)
{
    (void)p;
    check_time(l, t);
    __atomic_fetch_add(&io_ev[5], 1, __ATOMIC_RELAXED);
    if (f == 0 || f >= MAX_IO || !io_file_announced[f])
        __atomic_fetch_add(&io_unannounced, 1, __ATOMIC_RELAXED);
}

static void io_begin(struct SCOREP_Location *l, uint64_t t, SCOREP_IoHandleHandle h,
                     SCOREP_IoOperationMode mode, SCOREP_IoOperationFlag f, uint64_t req,
                     uint64_t id, uint64_t offset)
{
    (void)mode, (void)f, (void)req, (void)id, (void)offset;
    io_count(6, l, t, h);
}

#define IO_REQ_CB(name, k)                                                                     \
    static void name(struct SCOREP_Location *l, uint64_t t, SCOREP_IoHandleHandle h,          \
                     uint64_t id)                                                             \
    {                                                                                         \
        (void)id;                                                                             \
        io_count(k, l, t, h);                                                                 \
    }
IO_REQ_CB(io_issued, 7)
IO_REQ_CB(io_test, 8)
IO_REQ_CB(io_cancelled, 10)

/* the file locks (lockf, flockfile, ...): acquisitions, releases, tries; all exclusive */
static unsigned long io_lock_other_type;
#define IO_LOCK_CB(name, k)                                                                    \
    static void name(struct SCOREP_Location *l, uint64_t t, SCOREP_IoHandleHandle h,          \
                     SCOREP_LockType type)                                                     \
    {                                                                                          \
        io_count(k, l, t, h);                                                                  \
        if (type != SCOREP_LOCK_EXCLUSIVE)                                                     \
            __atomic_fetch_add(&io_lock_other_type, 1, __ATOMIC_RELAXED);                      \
    }
IO_LOCK_CB(io_acquire, 11)
IO_LOCK_CB(io_release, 12)
IO_LOCK_CB(io_try, 13)

static void io_complete(struct SCOREP_Location *l, uint64_t t, SCOREP_IoHandleHandle h,
                        SCOREP_IoOperationMode mode, uint64_t bytes, uint64_t id)
{
    (void)id;
    io_count(9, l, t, h);
    if (bytes == UINT64_MAX)
        __atomic_fetch_add(&io_unsized, 1, __ATOMIC_RELAXED);
    else if ((unsigned)mode < 3) {
        __atomic_fetch_add(&io_ops[mode], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&io_bytes[mode], bytes, __ATOMIC_RELAXED);
    }
}

/* ---- rewind regions: counts, and the first location's in order ("P<region>@t" at the
 * point, "C<region>@t:<do_rewind>" at the check) */
static unsigned long rw_enters, rw_exits, rw_do;
static char rw_main[4096];

static void rewind_enter(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r)
{
    check_time(l, t);
    __atomic_fetch_add(&rw_enters, 1, __ATOMIC_RELAXED);
    if (r >= MAX_REGIONS || !announced[r])
        __atomic_fetch_add(&unannounced, 1, __ATOMIC_RELAXED);
    if (cb->SCOREP_Location_GetId(l) == 0)
        append(rw_main, sizeof rw_main, " P%s@%llu", cb->SCOREP_RegionHandle_GetName(r),
               (unsigned long long)t);
}

static void rewind_exit(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r,
                        bool do_rewind)
{
    check_time(l, t);
    __atomic_fetch_add(&rw_exits, 1, __ATOMIC_RELAXED);
    if (do_rewind)
        __atomic_fetch_add(&rw_do, 1, __ATOMIC_RELAXED);
    if (cb->SCOREP_Location_GetId(l) == 0)
        append(rw_main, sizeof rw_main, " C%s@%llu:%d", cb->SCOREP_RegionHandle_GetName(r),
               (unsigned long long)t, (int)do_rewind);
}

/* ---- trace buffer flushes: counts; a begin must be followed by its end on the same
 * location (unpaired otherwise); region invalid and no metric values (bad otherwise); the
 * first location's "<begin>-<end>" in order. The end's time lies after the record that
 * needed the memory, which comes next with its earlier time: not checked by check_time. */
static unsigned long fl_begins, fl_ends, fl_unpaired, fl_bad;
static __thread uint64_t fl_open; /* the begin's time + 1 while a flush runs on this thread */
static char fl_main[4096];

static void flush_begin(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m)
{
    __atomic_fetch_add(&fl_begins, 1, __ATOMIC_RELAXED);
    if (r != SCOREP_INVALID_REGION || m)
        __atomic_fetch_add(&fl_bad, 1, __ATOMIC_RELAXED);
    if (fl_open)
        __atomic_fetch_add(&fl_unpaired, 1, __ATOMIC_RELAXED);
    fl_open = t + 1;
    if (cb->SCOREP_Location_GetId(l) == 0)
        append(fl_main, sizeof fl_main, " %llu", (unsigned long long)t);
}

static void flush_end(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m)
{
    __atomic_fetch_add(&fl_ends, 1, __ATOMIC_RELAXED);
    if (r != SCOREP_INVALID_REGION || m)
        __atomic_fetch_add(&fl_bad, 1, __ATOMIC_RELAXED);
    if (!fl_open || t < fl_open)
        __atomic_fetch_add(&fl_unpaired, 1, __ATOMIC_RELAXED);
    fl_open = 0;
    if (cb->SCOREP_Location_GetId(l) == 0)
        append(fl_main, sizeof fl_main, "-%llu", (unsigned long long)t);
}

/* ---- post-mortem metrics: every value as "<metric> <location id> <time> <value>" */
static char *pm_log;
static size_t pm_len, pm_cap;
static unsigned long pm_values, pm_unannounced;

static void post_mortem(struct SCOREP_Location *l, uint64_t t, SCOREP_SamplingSetHandle s,
                        const uint64_t *v)
{
    if (s >= MAX_REGIONS || !(other_announced[s] & other_bit(SCOREP_HANDLE_TYPE_SAMPLING_SET)))
        pm_unannounced++;
    const SCOREP_MetricHandle *m = cb->SCOREP_SamplingSetHandle_GetMetricHandles(s);
    if (pm_values++ == 0)
        step('Q'); /* where the first comes in the life cycle */
    if (pm_len + 256 > pm_cap) {
        size_t cap = pm_cap ? 2 * pm_cap : 1 << 14;
        char *n = realloc(pm_log, cap);
        if (!n)
            return;
        pm_log = n;
        pm_cap = cap;
    }
    int k = snprintf(pm_log + pm_len, pm_cap - pm_len, "%s %u %llu %llu\n",
                     m ? cb->SCOREP_MetricHandle_GetName(m[0]) : "?", cb->SCOREP_Location_GetId(l),
                     (unsigned long long)t, (unsigned long long)*v);
    if (k > 0 && (size_t)k < pm_cap - pm_len)
        pm_len += (size_t)k;
}

static SCOREP_Substrates_Callback enabled[SCOREP_SUBSTRATES_NUM_EVENTS];
static SCOREP_Substrates_Callback disabled[SCOREP_SUBSTRATES_NUM_EVENTS];

#define SET(E, f) enabled[SCOREP_EVENT_##E] = (SCOREP_Substrates_Callback)(f)

static uint32_t get_event_functions(SCOREP_Substrates_Mode mode, SCOREP_Substrates_Callback **fn)
{
    step(mode == SCOREP_SUBSTRATES_RECORDING_ENABLED ? 'E' : 'D');
    SET(ENTER_REGION, enter);
    SET(EXIT_REGION, exit_);
    SET(PROGRAM_BEGIN, program_begin);
    SET(PROGRAM_END, program_end);
    SET(MPI_SEND, mpi_send);
    SET(MPI_RECV, mpi_recv);
    SET(MPI_ISEND, mpi_isend);
    SET(MPI_IRECV, mpi_irecv);
    SET(MPI_COLLECTIVE_BEGIN, coll_begin);
    SET(MPI_ISEND_COMPLETE, isend_complete);
    SET(MPI_IRECV_REQUEST, irecv_request);
    SET(MPI_COLLECTIVE_END, coll_end);
    SET(THREAD_CREATE_WAIT_CREATE, t_create_cb);
    SET(THREAD_CREATE_WAIT_WAIT, t_wait_cb);
    SET(THREAD_CREATE_WAIT_BEGIN, t_begin_cb);
    SET(THREAD_CREATE_WAIT_END, t_end_cb);
    SET(THREAD_FORK_JOIN_FORK, fork_cb);
    SET(THREAD_FORK_JOIN_JOIN, join_cb);
    SET(THREAD_FORK_JOIN_TEAM_BEGIN, team_begin_cb);
    SET(TRIGGER_PARAMETER_INT64, param_int);
    SET(ENABLE_RECORDING, rec_on_cb);
    SET(TRIGGER_COUNTER_INT64, counter_i);
    SET(TRIGGER_COUNTER_DOUBLE, counter_d);
    SET(DISABLE_RECORDING, rec_off_cb);
    SET(TRACK_ALLOC, track_alloc);
    SET(TRACK_FREE, track_free);
    SET(TRACK_REALLOC, track_realloc);
    SET(IO_CREATE_HANDLE, io_create);
    SET(IO_DESTROY_HANDLE, io_destroy);
    SET(IO_DUPLICATE_HANDLE, io_dup);
    SET(IO_SEEK, io_seek);
    SET(IO_CHANGE_STATUS_FLAGS, io_status);
    SET(IO_DELETE_FILE, io_delete);
    SET(IO_OPERATION_BEGIN, io_begin);
    SET(IO_OPERATION_ISSUED, io_issued);
    SET(IO_OPERATION_TEST, io_test);
    SET(IO_OPERATION_COMPLETE, io_complete);
    SET(IO_OPERATION_CANCELLED, io_cancelled);
    SET(IO_ACQUIRE_LOCK, io_acquire);
    SET(IO_RELEASE_LOCK, io_release);
    SET(IO_TRY_LOCK, io_try);
    SET(ENTER_REWIND_REGION, rewind_enter);
    SET(EXIT_REWIND_REGION, rewind_exit);
    SET(ON_TRACING_BUFFER_FLUSH_BEGIN, flush_begin);
    SET(ON_TRACING_BUFFER_FLUSH_END, flush_end);
    SET(WRITE_POST_MORTEM_METRICS, post_mortem);
    *fn = mode == SCOREP_SUBSTRATES_RECORDING_ENABLED ? enabled : disabled;
    return SCOREP_SUBSTRATES_NUM_EVENTS;
}

static void write_data(void)
{
    step('W');
    const char *out = getenv("SUBSTRATE_COUNT_OUT");
    if (!out)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s.%d", out, cb->SCOREP_Ipc_GetRank());
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "order %s\n", order);
    fprintf(f, "program %s\n", program);
    fprintf(f, "size %d\n", cb->SCOREP_Ipc_GetSize());
    int sum = cb->SCOREP_Ipc_GetRank() + 1, total = 0;
    cb->SCOREP_Ipc_Allreduce(&sum, &total, 1, SCOREP_IPC_INT, SCOREP_IPC_SUM);
    fprintf(f, "allreduce %d\n", total);
    for (SCOREP_RegionHandle r = 1; r < MAX_REGIONS; r++)
        if (enters[r] || exits[r])
            fprintf(f, "region %s %s %lu %lu\n", cb->SCOREP_RegionHandle_GetName(r),
                    cb->SCOREP_ParadigmHandle_GetName(cb->SCOREP_RegionHandle_GetParadigmType(r) + 1),
                    enters[r], exits[r]);
    fprintf(f, "unannounced %lu\n", unannounced);
    fprintf(f, "locations %lu %lu %lu %lu lost %lu\n", created, activated, deactivated, deleted,
            data_lost);
    unsigned long all = 0;
    for (int r = 0; r < MAX_REGIONS; r++)
        all += enters[r];
    fprintf(f, "location_defs %lu unannounced %lu groups %lu system_tree %lu\n", locs_announced,
            locs_unannounced, groups_announced, systree_announced);
    fprintf(f, "loc_enters %lu of %lu\n", loc_enters, all);
    fprintf(f, "backwards %lu\n", backwards);
    fprintf(f, "deactivated_early %lu\n", deactivated_early);
    fprintf(f, "activation_errors %lu\n", activation_errors);
    fprintf(f, "other_defs paradigms %lu unannounced %lu\n", paradigms_announced,
            other_unannounced);
    fprintf(f, "p2p %lu %lu %lu %lu bytes %lu %lu\n", sends, recvs, isends, irecvs, send_bytes,
            recv_bytes);
    fprintf(f, "requests isend_complete %lu irecv_request %lu\n", isend_done, irecv_req);
    fprintf(f, "coll %lu %lu barrier %lu allreduce %lu\n", coll_begins, coll_ends,
            coll_types[SCOREP_COLLECTIVE_BARRIER], coll_types[SCOREP_COLLECTIVE_ALLREDUCE]);
    fprintf(f, "pthread %lu %lu %lu %lu\n", t_create, t_wait, t_begin, t_end);
    fprintf(f, "omp %lu %lu %lu\n", t_fork, t_join, t_team_begin);
    fprintf(f, "params %lu\n", params);
    fprintf(f, "recording on %lu off %lu\n", rec_on, rec_off);
    fprintf(f, "counters %lld %g%s\n", counter_int, counter_double, counter_desc);
    fprintf(f, "mem_main%s\n", mem_main);
    fprintf(f, "mem_other allocs %lu bytes %lu frees %lu bytes %lu reallocs %lu bytes %lu bad %lu\n",
            mem_other[0], mem_other[1], mem_other[2], mem_other[3], mem_other[4], mem_other[5],
            mem_bad_data);
    fprintf(f, "io_defs paradigms %lu files %lu handles %lu unannounced %lu\n", io_paradigms,
            io_files, io_handles, io_unannounced);
    fprintf(f, "io_events create %lu destroy %lu dup %lu seek %lu status %lu delete %lu begin %lu "
               "issued %lu test %lu complete %lu cancelled %lu\n",
            io_ev[0], io_ev[1], io_ev[2], io_ev[3], io_ev[4], io_ev[5], io_ev[6], io_ev[7],
            io_ev[8], io_ev[9], io_ev[10]);
    fprintf(f, "io_locks acquire %lu release %lu try %lu not exclusive %lu\n", io_ev[11], io_ev[12],
            io_ev[13], io_lock_other_type);
    fprintf(f, "io_ops read %lu %lu write %lu %lu flush %lu unsized %lu\n", io_ops[0], io_bytes[0],
            io_ops[1], io_bytes[1], io_ops[2], io_unsized);
    fprintf(f, "io_creates%s\n", io_creates);
    fprintf(f, "io_seeks%s\n", io_seeks);
    fprintf(f, "metrics with %lu without %lu mismatch %lu backwards %lu\n", with_metrics,
            without_metrics, metric_mismatch, metric_backwards);
    fprintf(f, "rewind enter %lu exit %lu do_rewind %lu\n", rw_enters, rw_exits, rw_do);
    fprintf(f, "rewind_main%s\n", rw_main);
    fprintf(f, "flush begin %lu end %lu unpaired %lu bad %lu\n", fl_begins, fl_ends, fl_unpaired,
            fl_bad);
    fprintf(f, "flush_main%s\n", fl_main);
    fprintf(f, "post_mortem %lu unannounced %lu\n", pm_values, pm_unannounced);
    fclose(f);
    snprintf(path, sizeof path, "%s.%d.postmortem", out, cb->SCOREP_Ipc_GetRank());
    if (pm_len && (f = fopen(path, "w"))) {
        fwrite(pm_log, 1, pm_len, f);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s.%d.metrics", out, cb->SCOREP_Ipc_GetRank());
    if (metric_log_len && (f = fopen(path, "w"))) {
        fwrite(metric_log, 1, metric_log_len, f);
        fclose(f);
    }
}

#define ENTRY_(n) SCOREP_SUBSTRATE_PLUGIN_ENTRY(n)
#define ENTRY(n) ENTRY_(n)

ENTRY(PLUGIN_NAME)
{
    SCOREP_SubstratePluginInfo info;
    memset(&info, 0, sizeof info);
#ifdef PLUGIN_NEWER
    info.plugin_version = SCOREP_SUBSTRATE_PLUGIN_VERSION + 1;
#else
    info.plugin_version = SCOREP_SUBSTRATE_PLUGIN_VERSION;
#endif
    info.init = init;
    info.assign_id = assign_id;
    info.init_mpp = init_mpp;
    info.create_location = create_location;
    info.activate_cpu_location = activate;
    info.deactivate_cpu_location = deactivate;
    info.delete_location = delete_location;
    info.pre_unify = pre_unify;
    info.write_data = write_data;
    info.new_definition_handle = new_handle;
    info.get_event_functions = get_event_functions;
    info.set_callbacks = set_callbacks;
    info.dump_manifest = dump_manifest;
    return info;
}
