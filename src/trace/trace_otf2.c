/* trace_otf2.c: writes traces.otf2 at finalize: every location's buffer merged by time into
 * its OTF2 event writer, then the global definitions (system tree, regions, ...). */
#include "config.h"
#include "core/location.h"
#include "core/runtime.h"
#include "core/system_tree.h"
#include "core/timer.h"
#include "defs/defs.h"

#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

enum { PTHREAD_COMM = 0, GROUP_LOCATIONS = 0, GROUP_COMM = 1 };

/* ------------------------------------------------------------ string table */
/* Ids 0..S-1 are the definition layer's strings (parameter values refer to them); names
 * the writer needs get ids after those. */
typedef struct {
    char **s;
    uint32_t n, cap;
    uint32_t *slots, nslots;
} strtab;

static uint32_t str_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static int strtab_grow(strtab *t)
{
    uint32_t ns = t->nslots ? t->nslots * 2 : 1024;
    uint32_t *sl = malloc(ns * sizeof *sl);
    if (!sl)
        return -1;
    memset(sl, 0xff, ns * sizeof *sl);
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t j = str_hash(t->s[i]) & (ns - 1);
        while (sl[j] != UINT32_MAX)
            j = (j + 1) & (ns - 1);
        sl[j] = i;
    }
    free(t->slots);
    t->slots = sl;
    t->nslots = ns;
    return 0;
}

static uint32_t strtab_add(strtab *t, const char *s, int dedup)
{
    if (!s)
        s = "";
    if ((t->n + 1) * 2 > t->nslots && strtab_grow(t) != 0)
        return 0;
    uint32_t j = str_hash(s) & (t->nslots - 1);
    for (; t->slots[j] != UINT32_MAX; j = (j + 1) & (t->nslots - 1))
        if (dedup && strcmp(t->s[t->slots[j]], s) == 0)
            return t->slots[j];
    if (t->n == t->cap) {
        uint32_t c = t->cap ? t->cap * 2 : 256;
        char **ns = realloc(t->s, c * sizeof *ns);
        if (!ns)
            return 0;
        t->s = ns;
        t->cap = c;
    }
    t->s[t->n] = (char *)s;
    t->slots[j] = t->n;
    return t->n++;
}

/* ------------------------------------------------------------------ events */
typedef struct {
    OTF2_EvtWriter *w;
    uint32_t *stack;
    uint32_t depth, cap;
    uint64_t last;
} evt_state;

static int push(evt_state *s, uint32_t region)
{
    if (s->depth == s->cap) {
        uint32_t c = s->cap ? s->cap * 2 : 64;
        uint32_t *n = realloc(s->stack, c * sizeof *n);
        if (!n)
            return -1;
        s->stack = n;
        s->cap = c;
    }
    s->stack[s->depth++] = region;
    return 0;
}

static OTF2_Type metric_otf2_type(scorep_metric_type t)
{
    return t == SCOREP_METRIC_INT64 ? OTF2_TYPE_INT64
           : t == SCOREP_METRIC_UINT64 ? OTF2_TYPE_UINT64
                                       : OTF2_TYPE_DOUBLE;
}

static void write_item(evt_state *s, const buf_item *it)
{
    OTF2_EvtWriter *w = s->w;
    uint64_t t = it->ts;
    switch (it->type) {
    case BUF_ENTER:
        push(s, it->a);
        OTF2_EvtWriter_Enter(w, NULL, t, it->a);
        break;
    case BUF_LEAVE:
        if (s->depth)
            s->depth--;
        OTF2_EvtWriter_Leave(w, NULL, t, it->a);
        break;
    case BUF_EV_THREAD_CREATE:
        OTF2_EvtWriter_ThreadCreate(w, NULL, t, PTHREAD_COMM, it->b);
        break;
    case BUF_EV_THREAD_BEGIN:
        OTF2_EvtWriter_ThreadBegin(w, NULL, t, PTHREAD_COMM, it->b);
        break;
    case BUF_EV_THREAD_WAIT:
        OTF2_EvtWriter_ThreadWait(w, NULL, t, PTHREAD_COMM, it->b);
        break;
    case BUF_EV_PARAM_INT:
        OTF2_EvtWriter_ParameterInt(w, NULL, t, it->a, (int64_t)it->b);
        break;
    case BUF_EV_PARAM_UINT:
        OTF2_EvtWriter_ParameterUnsignedInt(w, NULL, t, it->a, it->b);
        break;
    case BUF_EV_PARAM_STRING:
        OTF2_EvtWriter_ParameterString(w, NULL, t, it->a, (OTF2_StringRef)it->b);
        break;
    case BUF_EV_METRIC: {
        OTF2_Type type = metric_otf2_type(scorep_defs_metric_get(it->a)->type);
        OTF2_MetricValue v;
        v.unsigned_int = it->b;
        OTF2_EvtWriter_Metric(w, NULL, t, it->a, 1, &type, &v);
        break;
    }
    case BUF_EV_MEASUREMENT_ON:
    case BUF_EV_MEASUREMENT_OFF:
        OTF2_EvtWriter_MeasurementOnOff(
            w, NULL, t, it->type == BUF_EV_MEASUREMENT_ON ? OTF2_MEASUREMENT_ON : OTF2_MEASUREMENT_OFF);
        break;
    default:
        break;
    }
    s->last = t;
}

static uint64_t next_ts(evt_state *s, uint64_t want)
{
    s->last = want > s->last ? want : s->last + 1;
    return s->last;
}

/* After the buffer: the marker of a full buffer, leaves of calls still open, thread end. */
static void write_epilogue(evt_state *s, const scorep_location *l, int exit_status)
{
    if (l->buffer.full)
        OTF2_EvtWriter_MeasurementOnOff(s->w, NULL, next_ts(s, l->buffer.full_ts),
                                        OTF2_MEASUREMENT_OFF);
    while (s->depth > 0) {
        s->depth--;
        OTF2_EvtWriter_Leave(s->w, NULL, next_ts(s, l->end_ts), s->stack[s->depth]);
    }
    if (l->id == 0)
        OTF2_EvtWriter_ProgramEnd(s->w, NULL, next_ts(s, l->end_ts), exit_status);
    else if (l->create_seq)
        OTF2_EvtWriter_ThreadEnd(s->w, NULL, next_ts(s, l->end_ts), PTHREAD_COMM, l->create_seq);
}

static int write_location(OTF2_Archive *a, const scorep_location *l, uint32_t program_name,
                          int exit_status, uint64_t *n_events)
{
    evt_state s = {OTF2_Archive_GetEvtWriter(a, l->id), NULL, 0, 0, 0};
    if (!s.w)
        return -1;
    if (l->id == 0)
        OTF2_EvtWriter_ProgramBegin(s.w, NULL, next_ts(&s, scorep_program_begin_ts()),
                                    program_name, 0, NULL);
    buf_merge *m = buf_merge_new(&l->buffer);
    buf_item it;
    while (m && buf_merge_next(m, &it))
        write_item(&s, &it);
    buf_merge_free(m);
    write_epilogue(&s, l, exit_status);
    free(s.stack);
    OTF2_EvtWriter_GetNumberOfEvents(s.w, n_events);
    return OTF2_Archive_CloseEvtWriter(a, s.w) == OTF2_SUCCESS && m ? 0 : -1;
}

/* ------------------------------------------------------------- definitions */
/* Definitions are produced twice: a first pass with g == NULL only collects the strings,
 * which OTF2 wants defined before the records that refer to them. */
static OTF2_Paradigm otf2_paradigm(scorep_paradigm p)
{
    static const OTF2_Paradigm map[] = {OTF2_PARADIGM_MEASUREMENT_SYSTEM, OTF2_PARADIGM_USER,
                                        OTF2_PARADIGM_COMPILER, OTF2_PARADIGM_PTHREAD,
                                        OTF2_PARADIGM_MPI, OTF2_PARADIGM_OPENMP,
                                        OTF2_PARADIGM_SHMEM, OTF2_PARADIGM_CUDA};
    return map[p];
}

static OTF2_RegionRole otf2_role(scorep_role r)
{
    static const OTF2_RegionRole map[] = {OTF2_REGION_ROLE_FUNCTION, OTF2_REGION_ROLE_CODE,
                                          OTF2_REGION_ROLE_LOOP, OTF2_REGION_ROLE_CODE,
                                          OTF2_REGION_ROLE_CODE, OTF2_REGION_ROLE_ARTIFICIAL,
                                          OTF2_REGION_ROLE_WRAPPER};
    return map[r];
}

static void write_regions(OTF2_GlobalDefWriter *g, strtab *st)
{
    uint32_t n = scorep_defs_region_count();
    for (uint32_t i = 0; i < n; i++) {
        const scorep_region_def *r = scorep_defs_region_get(i);
        OTF2_RegionFlag flags = r->role == SCOREP_ROLE_PHASE     ? OTF2_REGION_FLAG_PHASE
                                : r->role == SCOREP_ROLE_DYNAMIC ? OTF2_REGION_FLAG_DYNAMIC
                                                                 : OTF2_REGION_FLAG_NONE;
        uint32_t name = strtab_add(st, r->name, 1);
        uint32_t canon = strtab_add(st, r->mangled, 1);
        uint32_t file = strtab_add(st, r->file ? r->file : "", 1);
        uint32_t empty = strtab_add(st, "", 1);
        if (g)
            OTF2_GlobalDefWriter_WriteRegion(g, i, name, canon, empty, otf2_role(r->role),
                                             otf2_paradigm(r->paradigm), flags, file,
                                             (uint32_t)r->begin_line, (uint32_t)r->end_line);
    }
}

static void write_params_metrics(OTF2_GlobalDefWriter *g, strtab *st)
{
    for (uint32_t i = 0; i < scorep_defs_parameter_count(); i++) {
        const scorep_parameter_def *p = scorep_defs_parameter_get(i);
        OTF2_ParameterType t = p->type == SCOREP_PARAM_INT64    ? OTF2_PARAMETER_TYPE_INT64
                               : p->type == SCOREP_PARAM_UINT64 ? OTF2_PARAMETER_TYPE_UINT64
                                                                : OTF2_PARAMETER_TYPE_STRING;
        uint32_t name = strtab_add(st, p->name, 1);
        if (g)
            OTF2_GlobalDefWriter_WriteParameter(g, i, name, t);
    }
    for (uint32_t i = 0; i < scorep_defs_metric_count(); i++) {
        const scorep_metric_def *m = scorep_defs_metric_get(i);
        OTF2_MetricMemberRef member = i;
        uint32_t name = strtab_add(st, m->name, 1), descr = strtab_add(st, "user metric", 1);
        uint32_t unit = strtab_add(st, m->unit, 1);
        if (!g)
            continue;
        OTF2_GlobalDefWriter_WriteMetricMember(g, i, name, descr, OTF2_METRIC_TYPE_USER,
                                               OTF2_METRIC_ABSOLUTE_POINT,
                                               metric_otf2_type(m->type), OTF2_BASE_DECIMAL, 0,
                                               unit);
        OTF2_GlobalDefWriter_WriteMetricClass(g, i, 1, &member, OTF2_METRIC_ASYNCHRONOUS,
                                              OTF2_RECORDER_KIND_ABSTRACT);
    }
}

static void write_threads(OTF2_GlobalDefWriter *g, strtab *st, uint32_t n_loc)
{
    uint32_t empty = strtab_add(st, "", 1);
    uint32_t name = strtab_add(st, "Pthread thread contingent", 1);
    uint64_t *members = malloc((n_loc ? n_loc : 1) * sizeof *members);
    if (!g || !members) {
        free(members);
        return;
    }
    for (uint32_t i = 0; i < n_loc; i++)
        members[i] = i;
    OTF2_GlobalDefWriter_WriteGroup(g, GROUP_LOCATIONS, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_PTHREAD, OTF2_GROUP_FLAG_NONE, n_loc, members);
    OTF2_GlobalDefWriter_WriteGroup(g, GROUP_COMM, empty, OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_PTHREAD, OTF2_GROUP_FLAG_NONE, n_loc, members);
    OTF2_GlobalDefWriter_WriteComm(g, PTHREAD_COMM, name, GROUP_COMM, OTF2_UNDEFINED_COMM,
                                   OTF2_COMM_FLAG_NONE);
    free(members);
}

static void write_system_tree(OTF2_GlobalDefWriter *g, strtab *st, const uint64_t *n_events)
{
    uint32_t machine = strtab_add(st, scorep_machine_name(), 1);
    uint32_t machine_class = strtab_add(st, "machine", 1);
    uint32_t node = strtab_add(st, scorep_node_name(), 1);
    uint32_t node_class = strtab_add(st, "node", 1);
    uint32_t process = strtab_add(st, scorep_process_name(), 1);
    if (g) {
        OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, machine, machine_class,
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE);
        OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 1, node, node_class, 0);
        OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, process, OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                1, OTF2_UNDEFINED_LOCATION_GROUP);
    }
    uint32_t i = 0;
    for (scorep_location *l = scorep_location_first(); l; l = l->next, i++) {
        uint32_t name = strtab_add(st, l->name, 1);
        if (g)
            OTF2_GlobalDefWriter_WriteLocation(g, l->id, name, OTF2_LOCATION_TYPE_CPU_THREAD,
                                               n_events[i], 0);
    }
}

static void write_clock(OTF2_GlobalDefWriter *g)
{
    uint64_t lo = scorep_program_begin_ts(), hi = 0;
    for (scorep_location *l = scorep_location_first(); l; l = l->next) {
        if (l->first_ts < lo)
            lo = l->first_ts;
        if (l->last_ts + 8 > hi)
            hi = l->last_ts + 8; /* room for the epilogue's records */
    }
    OTF2_GlobalDefWriter_WriteClockProperties(g, scorep_timer_resolution(), lo, hi - lo,
                                              scorep_timer_realtime_ns(lo));
}

static void write_all_defs(OTF2_GlobalDefWriter *g, strtab *st, const uint64_t *n_events,
                           uint32_t n_loc)
{
    write_system_tree(g, st, n_events);
    write_regions(g, st);
    write_threads(g, st, n_loc);
    write_params_metrics(g, st);
}

static int write_global_defs(OTF2_Archive *a, const uint64_t *n_events, uint32_t n_loc)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
    if (!g)
        return -1;
    strtab st = {0};
    for (uint32_t i = 0; i < scorep_defs_string_count(); i++)
        strtab_add(&st, scorep_defs_string_get(i), 0);
    strtab_add(&st, scorep_program_name(), 0); /* id == string count: see ProgramBegin */
    write_all_defs(NULL, &st, n_events, n_loc);
    write_clock(g);
    for (uint32_t i = 0; i < st.n; i++)
        OTF2_GlobalDefWriter_WriteString(g, i, st.s[i]);
    write_all_defs(g, &st, n_events, n_loc);
    free(st.s);
    free(st.slots);
    return OTF2_Archive_CloseGlobalDefWriter(a, g) == OTF2_SUCCESS ? 0 : -1;
}

/* ----------------------------------------------------------------- archive */
static OTF2_FlushType pre_flush(void *user, OTF2_FileType ft, OTF2_LocationRef loc, void *cb,
                                bool final)
{
    (void)user;
    (void)ft;
    (void)loc;
    (void)cb;
    (void)final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType ft, OTF2_LocationRef loc)
{
    (void)user;
    (void)ft;
    (void)loc;
    return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

int scorep_trace_write_otf2(const char *dir, int exit_status)
{
    uint32_t n_loc = scorep_location_count();
    uint64_t *n_events = calloc(n_loc ? n_loc : 1, sizeof *n_events);
    OTF2_Archive *a = n_events ? OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE,
                                                   1024 * 1024, 4 * 1024 * 1024,
                                                   OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE)
                               : NULL;
    if (!a) {
        free(n_events);
        scorep_warn("cannot create the OTF2 archive in '%s'", dir);
        return -1;
    }
    OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(a);
    OTF2_Archive_SetCreator(a, "scorep-rt " PACKAGE_VERSION);
    OTF2_Archive_SetMachineName(a, scorep_machine_name());
    OTF2_Archive_OpenEvtFiles(a);
    int rc = 0;
    uint32_t program = scorep_defs_string_count(); /* see write_global_defs */
    uint32_t i = 0;
    for (scorep_location *l = scorep_location_first(); l && i < n_loc; l = l->next, i++)
        if (write_location(a, l, program, exit_status, &n_events[i]) != 0)
            rc = -1;
    OTF2_Archive_CloseEvtFiles(a);
    OTF2_Archive_OpenDefFiles(a);
    for (scorep_location *l = scorep_location_first(); l; l = l->next) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, l->id);
        if (d)
            OTF2_Archive_CloseDefWriter(a, d);
    }
    OTF2_Archive_CloseDefFiles(a);
    if (write_global_defs(a, n_events, n_loc) != 0)
        rc = -1;
    if (OTF2_Archive_Close(a) != OTF2_SUCCESS)
        rc = -1;
    free(n_events);
    if (rc != 0)
        scorep_warn("writing the trace in '%s' failed", dir);
    return rc;
}
