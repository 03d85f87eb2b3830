/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_model.c: the OTF2 global reader behind trace_model.h: definitions read by the shared
 * loader (trace/otf2_defs_load.h) into tables by reference, events appended to their location,
 * then messages matched and counted. */
#include "tools/trace_model.h"
#include "trace/otf2_defs_load.h"
#include "trace/otf2_read_guard.h"

#include <otf2/otf2.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    uint64_t id;
    uint32_t index;
} locidx;

/* One send or receive waiting to be matched. */
typedef struct {
    uint32_t comm, from, to, tag, loc;
    uint64_t id, time;
    size_t event;
    int recv;
} pending;

typedef struct {
    otf2_defs defs; /* groups, communicators, windows: the events' ranks (its strings: t's) */
    locidx *index;
    uint32_t attr_msgid;
    int have_msgid;
    uint32_t param_cuda_ref; /* the parameter "CUDA correlation id" */
    int have_cuda_ref;
    pending *msgs;
    size_t n_msgs, cap_msgs;
    size_t cap_values;
    int oom;
} loader;

typedef struct {
    tm_trace *t;
    loader *ld;
} ctx;

/* ---- events ---- */

static tm_event *append(ctx *c, OTF2_LocationRef l, uint64_t time, tm_event_kind kind)
{
    uint32_t i = tm_location_index(c->t, l);
    if (i == TM_NONE)
        return NULL; /* an event of an undefined location: OTF2 would not deliver it */
    tm_location *loc = &c->t->locations[i];
    /* capacity: the next power of two from 64 on, so no separate field is needed */
    size_t n = loc->n_events;
    if (n == 0 || (n >= 64 && (n & (n - 1)) == 0)) {
        size_t cap = n == 0 ? 64 : 2 * n;
        tm_event *p = realloc(loc->events, cap * sizeof *p);
        if (!p) {
            c->ld->oom = 1;
            return NULL;
        }
        loc->events = p;
    }
    tm_event *e = &loc->events[loc->n_events++];
    memset(e, 0, sizeof *e);
    e->time = time;
    e->kind = (uint8_t)kind;
    e->message = TM_NONE;
    e->peer = TM_NONE;
    c->t->n_events++;
    c->t->events_by_kind[kind]++;
    return e;
}

#define APPEND(e, c, l, time, kind)                                                                \
    tm_event *e = append((c), (l), (time), (kind));                                                \
    if (!e)                                                                                        \
        return OTF2_CALLBACK_INTERRUPT;

/* The COMM_LOCATIONS group a member of group g indexes: that of g's paradigm, else MPI's
 * (OTF2_DEFS_NONE: none). */
static uint32_t locations_of(const otf2_defs *d, const otf2_defs_group *g)
{
    uint32_t lg = d->comm_locations[(uint8_t)g->paradigm];
    return lg != OTF2_DEFS_NONE ? lg : d->comm_locations[OTF2_PARADIGM_MPI];
}

/* member i of group g -> world rank, TM_NONE if there is none */
static uint32_t world_member(const ctx *c, uint32_t g, uint32_t i)
{
    const otf2_defs *d = &c->ld->defs;
    if (g >= d->n_groups || i >= d->groups[g].n)
        return TM_NONE;
    uint32_t lg = locations_of(d, &d->groups[g]);
    if (lg >= d->n_groups)
        return TM_NONE;
    const otf2_defs_group *w = &d->groups[lg];
    uint64_t idx = d->groups[g].members[i];
    if (idx >= w->n)
        return TM_NONE;
    uint32_t li = tm_location_index(c->t, w->members[idx]);
    return li == TM_NONE ? TM_NONE : c->t->locations[li].rank;
}

static int in_group(const ctx *c, uint32_t g, uint32_t world)
{
    const otf2_defs *d = &c->ld->defs;
    for (uint32_t i = 0; g < d->n_groups && i < d->groups[g].n; i++)
        if (world_member(c, g, i) == world)
            return 1;
    return 0;
}

/* The peer of an event on COMM (a rank in it; on an InterComm a rank in the group the
 * process is not in, as OTF2 specifies) as a world rank. */
static uint32_t world_of(const ctx *c, uint32_t cm, uint32_t peer, uint32_t me)
{
    const otf2_defs *d = &c->ld->defs;
    if (cm >= d->n_comms || !d->comms[cm].defined)
        return TM_NONE;
    const otf2_defs_comm *k = &d->comms[cm];
    uint32_t g = k->inter && in_group(c, k->group, me) ? k->group_b : k->group;
    return world_member(c, g, peer);
}

static uint64_t msg_id(const ctx *c, OTF2_AttributeList *a)
{
    uint32_t n = a && c->ld->have_msgid ? OTF2_AttributeList_GetNumberOfElements(a) : 0;
    for (uint32_t i = 0; i < n; i++) {
        OTF2_AttributeRef ref;
        OTF2_Type type;
        OTF2_AttributeValue v;
        if (OTF2_AttributeList_GetAttributeByIndex(a, i, &ref, &type, &v) == OTF2_SUCCESS &&
            ref == c->ld->attr_msgid)
            return v.uint64;
    }
    return 0;
}

static OTF2_CallbackCode p2p(ctx *c, OTF2_LocationRef l, uint64_t time, tm_event_kind kind,
                             OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef cm, uint32_t tag,
                             uint64_t len, uint64_t req)
{
    APPEND(e, c, l, time, kind);
    tm_location *loc = &c->t->locations[tm_location_index(c->t, l)];
    int recv = kind == TM_EV_RECV || kind == TM_EV_IRECV;
    e->ref = cm;
    e->peer = world_of(c, cm, peer, loc->rank);
    e->tag = tag;
    e->u = len;
    e->x = msg_id(c, a);
    e->y = req;
    loader *ld = c->ld;
    if (ld->n_msgs == ld->cap_msgs) {
        size_t cap = ld->cap_msgs ? 2 * ld->cap_msgs : 1024;
        pending *p = realloc(ld->msgs, cap * sizeof *p);
        if (!p) {
            ld->oom = 1;
            return OTF2_CALLBACK_INTERRUPT;
        }
        ld->msgs = p;
        ld->cap_msgs = cap;
    }
    ld->msgs[ld->n_msgs++] = (pending){cm,
                                       recv ? e->peer : loc->rank,
                                       recv ? loc->rank : e->peer,
                                       tag,
                                       (uint32_t)(loc - c->t->locations),
                                       e->x,
                                       time,
                                       loc->n_events - 1,
                                       recv};
    return OTF2_CALLBACK_SUCCESS;
}

/* The OTF2 callbacks below differ only in the kind they record: one macro per signature. */
#define P2P_EVENT(fn, kind)                                                                        \
    static OTF2_CallbackCode fn(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,       \
                                OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef cm,             \
                                uint32_t tag, uint64_t len)                                        \
    {                                                                                              \
        (void)pos;                                                                                 \
        return p2p(u, l, t, kind, a, peer, cm, tag, len, 0);                                       \
    }
#define P2P_REQUEST_EVENT(fn, kind)                                                                \
    static OTF2_CallbackCode fn(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,       \
                                OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef cm,             \
                                uint32_t tag, uint64_t len, uint64_t req)                          \
    {                                                                                              \
        (void)pos;                                                                                 \
        return p2p(u, l, t, kind, a, peer, cm, tag, len, req);                                     \
    }
P2P_EVENT(ev_send, TM_EV_SEND)
P2P_EVENT(ev_recv, TM_EV_RECV)
P2P_REQUEST_EVENT(ev_isend, TM_EV_ISEND)
P2P_REQUEST_EVENT(ev_irecv, TM_EV_IRECV)

static OTF2_CallbackCode ev_request(OTF2_LocationRef l, uint64_t t, ctx *c, tm_event_kind k,
                                    uint64_t req)
{
    APPEND(e, c, l, t, k);
    e->y = req;
    return OTF2_CALLBACK_SUCCESS;
}

#define REQUEST_EVENT(fn, kind)                                                                    \
    static OTF2_CallbackCode fn(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,       \
                                OTF2_AttributeList *a, uint64_t req)                               \
    {                                                                                              \
        (void)pos;                                                                                 \
        (void)a;                                                                                   \
        return ev_request(l, t, u, kind, req);                                                     \
    }
REQUEST_EVENT(ev_isend_complete, TM_EV_ISEND_COMPLETE)
REQUEST_EVENT(ev_irecv_request, TM_EV_IRECV_REQUEST)

static OTF2_CallbackCode ev_region(OTF2_LocationRef l, uint64_t t, ctx *c, tm_event_kind k,
                                   uint32_t ref, uint32_t peer, uint32_t tag, uint64_t u)
{
    APPEND(e, c, l, t, k);
    e->ref = ref;
    e->peer = peer;
    e->tag = tag;
    e->u = u;
    return OTF2_CALLBACK_SUCCESS;
}

/* Events with one reference (a region, thread team or calling context), all uint32_t. */
#define REF_EVENT(fn, kind)                                                                        \
    static OTF2_CallbackCode fn(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,       \
                                OTF2_AttributeList *a, uint32_t ref)                               \
    {                                                                                              \
        (void)pos;                                                                                 \
        (void)a;                                                                                   \
        return ev_region(l, t, u, kind, ref, TM_NONE, 0, 0);                                       \
    }
REF_EVENT(ev_enter, TM_EV_ENTER)
REF_EVENT(ev_leave, TM_EV_LEAVE)
REF_EVENT(ev_team_begin, TM_EV_TEAM_BEGIN)
REF_EVENT(ev_team_end, TM_EV_TEAM_END)
REF_EVENT(ev_cc_leave, TM_EV_CC_LEAVE)

static OTF2_CallbackCode ev_coll_begin(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                       OTF2_AttributeList *a)
{
    (void)pos;
    (void)a;
    return ev_region(l, t, u, TM_EV_COLL_BEGIN, TM_NONE, TM_NONE, 0, 0);
}

static OTF2_CallbackCode ev_coll_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *a, OTF2_CollectiveOp op, OTF2_CommRef cm,
                                     uint32_t root, uint64_t sent, uint64_t received)
{
    (void)pos;
    (void)a;
    ctx *c = u;
    APPEND(e, c, l, t, TM_EV_COLL_END);
    e->ref = cm;
    e->tag = op;
    e->peer = root == OTF2_UNDEFINED_UINT32
                  ? TM_NONE
                  : world_of(c, cm, root, c->t->locations[tm_location_index(c->t, l)].rank);
    e->u = sent;
    e->x = received;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_fork(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *a, OTF2_Paradigm p, uint32_t n)
{
    (void)pos;
    (void)a;
    return ev_region(l, t, u, TM_EV_THREAD_FORK, TM_NONE, n, p, 0);
}

static OTF2_CallbackCode ev_join(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *a, OTF2_Paradigm p)
{
    (void)pos;
    (void)a;
    return ev_region(l, t, u, TM_EV_THREAD_JOIN, TM_NONE, TM_NONE, p, 0);
}

#define TASK_EVENT(fn, kind)                                                                       \
    static OTF2_CallbackCode fn(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,       \
                                OTF2_AttributeList *a, OTF2_CommRef team, uint32_t creator,        \
                                uint32_t gen)                                                      \
    {                                                                                              \
        (void)pos;                                                                                 \
        (void)a;                                                                                   \
        return ev_region(l, t, u, kind, team, creator, gen, 0);                                    \
    }
TASK_EVENT(ev_task_create, TM_EV_TASK_CREATE)
TASK_EVENT(ev_task_switch, TM_EV_TASK_SWITCH)
TASK_EVENT(ev_task_complete, TM_EV_TASK_COMPLETE)

#define THREAD_EVENT(fn, kind)                                                                     \
    static OTF2_CallbackCode fn(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,       \
                                OTF2_AttributeList *a, OTF2_CommRef contingent, uint64_t seq)      \
    {                                                                                              \
        (void)pos;                                                                                 \
        (void)a;                                                                                   \
        return ev_region(l, t, u, kind, contingent, TM_NONE, 0, seq);                              \
    }
THREAD_EVENT(ev_thread_create, TM_EV_THREAD_CREATE)
THREAD_EVENT(ev_thread_begin, TM_EV_THREAD_BEGIN)
THREAD_EVENT(ev_thread_wait, TM_EV_THREAD_WAIT)
THREAD_EVENT(ev_thread_end, TM_EV_THREAD_END)

static OTF2_CallbackCode ev_metric(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *a, OTF2_MetricRef m, uint8_t n,
                                   const OTF2_Type *types, const OTF2_MetricValue *values)
{
    (void)pos;
    (void)a;
    (void)types;
    ctx *c = u;
    tm_trace *tr = c->t;
    if (tr->n_values + n > c->ld->cap_values) {
        size_t cap = c->ld->cap_values ? 2 * c->ld->cap_values : 4096;
        while (cap < tr->n_values + n)
            cap *= 2;
        tm_value *p = realloc(tr->values, cap * sizeof *p);
        if (!p) {
            c->ld->oom = 1;
            return OTF2_CALLBACK_INTERRUPT;
        }
        tr->values = p;
        c->ld->cap_values = cap;
    }
    APPEND(e, c, l, t, TM_EV_METRIC);
    e->ref = m;
    e->u = tr->n_values;
    e->tag = n;
    for (uint8_t i = 0; i < n; i++)
        tr->values[tr->n_values++].u = values[i].unsigned_int;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_param_uint(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                       OTF2_AttributeList *a, OTF2_ParameterRef p, uint64_t v)
{
    (void)pos;
    (void)a;
    ctx *c = u;
    if (!c->ld->have_cuda_ref || p != c->ld->param_cuda_ref)
        return OTF2_CALLBACK_SUCCESS;
    APPEND(e, c, l, t, TM_EV_CUDA_REF);
    e->u = v;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_cc_enter(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *a, OTF2_CallingContextRef cc,
                                     uint32_t dist)
{
    (void)pos;
    (void)a;
    return ev_region(l, t, u, TM_EV_CC_ENTER, cc, TM_NONE, dist, 0);
}

static OTF2_CallbackCode ev_sample(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *a, OTF2_CallingContextRef cc, uint32_t dist,
                                   OTF2_InterruptGeneratorRef g)
{
    (void)pos;
    (void)a;
    (void)g;
    return ev_region(l, t, u, TM_EV_SAMPLE, cc, TM_NONE, dist, 0);
}

/* A one-sided operation: its target REMOTE is a rank in the window's communicator. */
static OTF2_CallbackCode ev_rma(ctx *c, OTF2_LocationRef l, uint64_t t, tm_event_kind k,
                                OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
                                uint64_t matching)
{
    APPEND(e, c, l, t, k);
    const otf2_defs *d = &c->ld->defs;
    const otf2_defs_rma_win *w =
        win < d->n_rma_wins && d->rma_wins[win].defined ? &d->rma_wins[win] : NULL;
    uint32_t me = c->t->locations[tm_location_index(c->t, l)].rank;
    e->ref = win;
    e->peer = w ? world_of(c, w->comm, remote, me) : TM_NONE;
    e->u = bytes;
    e->x = matching;
    return OTF2_CALLBACK_SUCCESS;
}

#define RMA_EVENT(fn, kind)                                                                        \
    static OTF2_CallbackCode fn(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,       \
                                OTF2_AttributeList *a, OTF2_RmaWinRef win, uint32_t remote,        \
                                uint64_t bytes, uint64_t matching)                                 \
    {                                                                                              \
        (void)pos;                                                                                 \
        (void)a;                                                                                   \
        return ev_rma(u, l, t, kind, win, remote, bytes, matching);                                \
    }
RMA_EVENT(ev_rma_put, TM_EV_RMA_PUT)
RMA_EVENT(ev_rma_get, TM_EV_RMA_GET)

static OTF2_CallbackCode ev_rma_atomic(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                       OTF2_AttributeList *a, OTF2_RmaWinRef win, uint32_t remote,
                                       OTF2_RmaAtomicType type, uint64_t sent, uint64_t received,
                                       uint64_t matching)
{
    (void)pos;
    (void)a;
    ctx *c = u;
    OTF2_CallbackCode rc = ev_rma(c, l, t, TM_EV_RMA_ATOMIC, win, remote, sent, matching);
    if (rc == OTF2_CALLBACK_SUCCESS) {
        tm_location *loc = &c->t->locations[tm_location_index(c->t, l)];
        loc->events[loc->n_events - 1].tag = type;
        loc->events[loc->n_events - 1].y = received;
    }
    return rc;
}

/* ---- after the definitions ---- */

static int cmp_locidx(const void *a, const void *b)
{
    const locidx *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The name of the system tree node of class "node" at or above NODE (the host). */
static const char *hostname(const tm_trace *t, const otf2_defs *d, uint32_t node)
{
    for (int depth = 0; node < d->n_nodes && d->nodes[node].defined && depth < 64; depth++) {
        const char *cls = tm_string(t, d->nodes[node].cls);
        if (cls && strcmp(cls, "node") == 0)
            return tm_string(t, d->nodes[node].name);
        node = d->nodes[node].parent;
    }
    return NULL;
}

static tm_location_kind location_kind(int type)
{
    return type == OTF2_LOCATION_TYPE_CPU_THREAD           ? TM_LOC_CPU
           : type == OTF2_LOCATION_TYPE_ACCELERATOR_STREAM ? TM_LOC_GPU
           : type == OTF2_LOCATION_TYPE_METRIC             ? TM_LOC_METRIC
                                                           : TM_LOC_OTHER;
}

/* Location groups and locations with their ranks, hosts and thread numbers. */
static void copy_groups_locations(tm_trace *t, const otf2_defs *d)
{
    uint32_t max_rank = 0;
    for (size_t k = 0; k < d->n_lgroups; k++) {
        const otf2_defs_lgroup *o = &d->lgroups[k];
        t->groups[k] =
            (tm_group){o->id, tm_string(t, o->name), o->type == OTF2_LOCATION_GROUP_TYPE_PROCESS,
                       o->id > UINT32_MAX ? TM_NONE : (uint32_t)o->id, hostname(t, d, o->parent)};
    }
    t->n_groups = d->n_lgroups;
    for (size_t k = 0; k < t->n_groups; k++) { /* an accelerator group: its creator's rank */
        tm_group *g = &t->groups[k];
        uint32_t creator = otf2_defs_lgroup_index(d, d->lgroups[k].creator);
        if (!g->is_process && creator != OTF2_DEFS_NONE)
            g->rank = t->groups[creator].rank;
        if (g->is_process && g->rank != TM_NONE && g->rank + 1 > max_rank)
            max_rank = g->rank + 1;
    }
    t->n_ranks = max_rank;
    for (size_t i = 0; i < d->n_locations; i++) {
        const otf2_defs_location *o = &d->locations[i];
        tm_location *l = &t->locations[i];
        *l = (tm_location){o->id,
                           tm_string(t, o->name),
                           location_kind(o->type),
                           otf2_defs_lgroup_index(d, o->group),
                           TM_NONE,
                           0,
                           o->n_events,
                           NULL,
                           0};
        l->rank = l->group == TM_NONE ? TM_NONE : t->groups[l->group].rank;
        for (size_t k = 0; k < i; k++)
            l->thread += t->locations[k].group == l->group;
    }
    t->n_locations = d->n_locations;
}

/* Regions, metrics and calling contexts by reference (never defined: zero); the metric
 * classes' member lists are handed over. */
static void copy_tables(tm_trace *t, otf2_defs *d)
{
    for (size_t i = 0; i < d->n_regions; i++) {
        const otf2_defs_region *r = &d->regions[i];
        if (r->defined)
            t->regions[i] = (tm_region){tm_string(t, r->name),
                                        tm_string(t, r->canonical),
                                        tm_string(t, r->file),
                                        r->begin_line,
                                        r->end_line,
                                        r->role,
                                        r->paradigm};
    }
    for (size_t i = 0; i < d->n_metric_members; i++) {
        const otf2_defs_metric_member *m = &d->metric_members[i];
        if (m->defined)
            t->metric_members[i] = (tm_metric_member){tm_string(t, m->name),
                                                      tm_string(t, m->unit),
                                                      tm_string(t, m->description),
                                                      m->type,
                                                      m->mode,
                                                      m->value_type,
                                                      m->base,
                                                      m->exponent};
    }
    for (size_t i = 0; i < d->n_metric_classes; i++) {
        t->metric_classes[i] =
            (tm_metric_class){d->metric_classes[i].n, d->metric_classes[i].members};
        d->metric_classes[i].members = NULL;
    }
    for (size_t i = 0; i < d->n_calling_contexts; i++)
        if (d->calling_contexts[i].defined)
            t->calling_contexts[i] =
                (tm_calling_context){d->calling_contexts[i].region, d->calling_contexts[i].parent};
}

/* The attribute and the parameter the events are read with, found by name. */
static void find_named(loader *ld, const tm_trace *t)
{
    const otf2_defs *d = &ld->defs;
    for (size_t i = 0; i < d->n_attributes; i++) {
        const char *s = d->attributes[i].defined ? tm_string(t, d->attributes[i].name) : NULL;
        if (s && strcmp(s, "mpi_message_id") == 0) {
            ld->attr_msgid = (uint32_t)i;
            ld->have_msgid = 1;
        }
    }
    for (size_t i = 0; i < d->n_parameters; i++) {
        const otf2_defs_named *p = &d->parameters[i];
        const char *s = p->defined ? tm_string(t, p->name) : NULL;
        if (s && p->type == OTF2_PARAMETER_TYPE_UINT64 && strcmp(s, "CUDA correlation id") == 0) {
            ld->param_cuda_ref = (uint32_t)i;
            ld->have_cuda_ref = 1;
        }
    }
}

/* calloc of N elements of SIZE (at least one: no NULL for an empty table) */
static void *table(size_t n, size_t size)
{
    return calloc(n ? n : 1, size);
}

/* The model's tables from the definitions (the strings handed over), and the location index;
 * -1 when memory runs out. */
static int copy_definitions(tm_trace *t, loader *ld)
{
    otf2_defs *d = &ld->defs;
    t->clock =
        (tm_clock){d->clock.resolution, d->clock.global_offset, d->clock.length, d->clock.realtime};
    t->strings = otf2_defs_take_strings(d, &t->n_strings);
    t->groups = table(d->n_lgroups, sizeof *t->groups);
    t->locations = table(d->n_locations, sizeof *t->locations);
    t->regions = table(t->n_regions = d->n_regions, sizeof *t->regions);
    t->metric_members = table(t->n_metric_members = d->n_metric_members, sizeof *t->metric_members);
    t->metric_classes = table(t->n_metric_classes = d->n_metric_classes, sizeof *t->metric_classes);
    t->calling_contexts =
        table(t->n_calling_contexts = d->n_calling_contexts, sizeof *t->calling_contexts);
    ld->index = table(d->n_locations, sizeof *ld->index);
    if (!t->groups || !t->locations || !t->regions || !t->metric_members || !t->metric_classes ||
        !t->calling_contexts || !ld->index) {
        t->n_metric_classes = 0; /* their member lists are still the loader's */
        return -1;
    }
    copy_groups_locations(t, d);
    copy_tables(t, d);
    find_named(ld, t);
    for (size_t i = 0; i < t->n_locations; i++)
        ld->index[i] = (locidx){t->locations[i].id, (uint32_t)i};
    qsort(ld->index, t->n_locations, sizeof *ld->index, cmp_locidx);
    return 0;
}

/* ---- message matching ---- */

/* (comm, from, to, tag, id), sends before receives, then time, then location order. */
static int cmp_pending(const void *pa, const void *pb)
{
    const pending *x = pa, *y = pb;
#define CMP(f)                                                                                     \
    if (x->f != y->f)                                                                              \
        return x->f < y->f ? -1 : 1;
    CMP(comm)
    CMP(from)
    CMP(to)
    CMP(tag)
    CMP(id)
    CMP(recv)
    CMP(time)
    CMP(event)
#undef CMP
    return 0;
}

static int same_key(const pending *x, const pending *y)
{
    return x->comm == y->comm && x->from == y->from && x->to == y->to && x->tag == y->tag &&
           x->id == y->id;
}

static int cmp_message(const void *pa, const void *pb)
{
    const tm_message *x = pa, *y = pb;
    if (x->send_time != y->send_time)
        return x->send_time < y->send_time ? -1 : 1;
    if (x->send_loc != y->send_loc)
        return x->send_loc < y->send_loc ? -1 : 1;
    return x->send_event < y->send_event ? -1 : x->send_event > y->send_event;
}

/* A zeroed n_ranks x n_ranks matrix, NULL when memory runs out. */
static uint64_t *rank_square(const tm_trace *t)
{
    size_t n = (size_t)t->n_ranks * t->n_ranks;
    return calloc(n ? n : 1, sizeof(uint64_t));
}

/* Pairs the k-th send with the k-th receive of each key, fills messages[], the events'
 * message indices and the matrix; -1 when memory runs out. */
static int match_messages(tm_trace *t, loader *ld)
{
    if (ld->n_msgs > 1) /* none: no array, which qsort wants (found by fuzz_otf2) */
        qsort(ld->msgs, ld->n_msgs, sizeof *ld->msgs, cmp_pending);
    t->messages = malloc((ld->n_msgs / 2 + 1) * sizeof *t->messages);
    if (!t->messages)
        return -1;
    for (size_t g = 0; g < ld->n_msgs;) {
        size_t e = g, ns = 0;
        while (e < ld->n_msgs && same_key(&ld->msgs[g], &ld->msgs[e]))
            ns += !ld->msgs[e++].recv;
        size_t nr = (e - g) - ns, pairs = ns < nr ? ns : nr;
        for (size_t k = 0; k < pairs && ld->msgs[g].from != TM_NONE && ld->msgs[g].to != TM_NONE;
             k++) {
            const pending *s = &ld->msgs[g + k], *r = &ld->msgs[g + ns + k];
            uint64_t bytes = t->locations[s->loc].events[s->event].u;
            t->messages[t->n_messages++] =
                (tm_message){s->loc,  r->loc,  s->event, r->event, s->from, s->to,
                             s->time, r->time, bytes,    s->tag,   s->comm};
        }
        size_t made = ld->msgs[g].from != TM_NONE && ld->msgs[g].to != TM_NONE ? pairs : 0;
        t->unmatched_sends += ns - made;
        t->unmatched_recvs += nr - made;
        g = e;
    }
    qsort(t->messages, t->n_messages, sizeof *t->messages, cmp_message);
    if (!(t->matrix_messages = rank_square(t)) || !(t->matrix_bytes = rank_square(t)))
        return -1;
    for (size_t i = 0; i < t->n_messages; i++) {
        const tm_message *m = &t->messages[i];
        t->locations[m->send_loc].events[m->send_event].message = (uint32_t)i;
        t->locations[m->recv_loc].events[m->recv_event].message = (uint32_t)i;
        if (m->from < t->n_ranks && m->to < t->n_ranks) {
            t->matrix_messages[(size_t)m->from * t->n_ranks + m->to]++;
            t->matrix_bytes[(size_t)m->from * t->n_ranks + m->to] += m->bytes;
        }
    }
    return 0;
}

static int alloc_rank_matrix(const tm_trace *t, tm_rank_matrix *m, int with_received)
{
    m->ops = rank_square(t);
    m->bytes = rank_square(t);
    m->received = with_received ? rank_square(t) : NULL;
    return m->ops && m->bytes && (m->received || !with_received) ? 0 : -1;
}

static void free_rank_matrix(tm_rank_matrix *m)
{
    free(m->ops);
    free(m->bytes);
    free(m->received);
}

/* The RMA matrices from the RMA events of every location; -1 when memory runs out. */
static int count_rma(tm_trace *t)
{
    if (alloc_rank_matrix(t, &t->rma_put, 0) || alloc_rank_matrix(t, &t->rma_get, 0) ||
        alloc_rank_matrix(t, &t->rma_atomic, 1))
        return -1;
    for (size_t i = 0; i < t->n_locations; i++) {
        const tm_location *l = &t->locations[i];
        for (size_t k = 0; k < l->n_events; k++) {
            const tm_event *e = &l->events[k];
            tm_rank_matrix *m = e->kind == TM_EV_RMA_PUT      ? &t->rma_put
                                : e->kind == TM_EV_RMA_GET    ? &t->rma_get
                                : e->kind == TM_EV_RMA_ATOMIC ? &t->rma_atomic
                                                              : NULL;
            if (!m || l->rank >= t->n_ranks || e->peer >= t->n_ranks)
                continue;
            size_t cell = (size_t)l->rank * t->n_ranks + e->peer;
            m->ops[cell]++;
            m->bytes[cell] += e->u;
            if (m->received)
                m->received[cell] += e->y;
        }
    }
    return 0;
}

/* ---- reading ---- */

static void set_event_callbacks(OTF2_EvtReaderCallbacks *e)
{
    OTF2_EvtReaderCallbacks_SetEnterCallback(e, ev_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(e, ev_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(e, ev_send);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(e, ev_isend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(e, ev_isend_complete);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(e, ev_irecv_request);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(e, ev_recv);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(e, ev_irecv);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(e, ev_coll_begin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(e, ev_coll_end);
    OTF2_EvtReaderCallbacks_SetThreadForkCallback(e, ev_fork);
    OTF2_EvtReaderCallbacks_SetThreadJoinCallback(e, ev_join);
    OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(e, ev_team_begin);
    OTF2_EvtReaderCallbacks_SetThreadTeamEndCallback(e, ev_team_end);
    OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(e, ev_task_create);
    OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(e, ev_task_switch);
    OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(e, ev_task_complete);
    OTF2_EvtReaderCallbacks_SetThreadCreateCallback(e, ev_thread_create);
    OTF2_EvtReaderCallbacks_SetThreadBeginCallback(e, ev_thread_begin);
    OTF2_EvtReaderCallbacks_SetThreadWaitCallback(e, ev_thread_wait);
    OTF2_EvtReaderCallbacks_SetThreadEndCallback(e, ev_thread_end);
    OTF2_EvtReaderCallbacks_SetMetricCallback(e, ev_metric);
    OTF2_EvtReaderCallbacks_SetCallingContextEnterCallback(e, ev_cc_enter);
    OTF2_EvtReaderCallbacks_SetCallingContextLeaveCallback(e, ev_cc_leave);
    OTF2_EvtReaderCallbacks_SetCallingContextSampleCallback(e, ev_sample);
    OTF2_EvtReaderCallbacks_SetRmaPutCallback(e, ev_rma_put);
    OTF2_EvtReaderCallbacks_SetRmaGetCallback(e, ev_rma_get);
    OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(e, ev_rma_atomic);
    OTF2_EvtReaderCallbacks_SetParameterUnsignedIntCallback(e, ev_param_uint);
}

static int fail(char *err, size_t len, const char *what, OTF2_ErrorCode rc)
{
    if (otf2_read_guard_damage()[0]) /* names the file */
        snprintf(err, len, "%s: %s", what, otf2_read_guard_damage());
    else if (otf2_read_guard_error()[0])
        snprintf(err, len, "%s: %s", what, otf2_read_guard_error());
    else if (rc != OTF2_SUCCESS)
        snprintf(err, len, "%s: %s", what, OTF2_Error_GetDescription(rc));
    else
        snprintf(err, len, "%s", what);
    return -1;
}

/* The global definitions into the model; *R: the open reader for the events. */
static int read_definitions(const char *path, OTF2_Reader **r, ctx *c, char *err, size_t len)
{
    const otf2_defs *d = &c->ld->defs;
    if (otf2_defs_load(path, r, &c->ld->defs, err, len))
        return -1;
    if (d->n_locations == 0)
        return fail(err, len, "the trace defines no location", OTF2_SUCCESS);
    if (d->clock.resolution == 0)
        return fail(err, len, "the trace has no clock properties", OTF2_SUCCESS);
    if (copy_definitions(c->t, c->ld))
        return fail(err, len, "out of memory", OTF2_SUCCESS);
    return 0;
}

/* Opens every location's files and reads its local definitions: the event reader applies the
 * clock offsets found there to every timestamp. */
static int open_locations(OTF2_Reader *r, const char *path, tm_trace *t, char *err, size_t len)
{
    uint64_t *ids = malloc(t->n_locations * sizeof *ids);
    if (!ids)
        return fail(err, len, "out of memory", OTF2_SUCCESS);
    for (size_t i = 0; i < t->n_locations; i++)
        ids[i] = t->locations[i].id;
    int rc = otf2_defs_open_locations(r, path, ids, t->n_locations, err, len);
    free(ids);
    return rc;
}

static int read_events(OTF2_Reader *r, ctx *c, char *err, size_t len)
{
    OTF2_EvtReaderCallbacks *ec = OTF2_EvtReaderCallbacks_New();
    if (!ec)
        return fail(err, len, "cannot read the events", OTF2_SUCCESS);
    set_event_callbacks(ec);
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    for (size_t i = 0; rc == OTF2_SUCCESS && !c->ld->oom && i < c->t->n_locations; i++) {
        uint64_t id = c->t->locations[i].id, n;
        if (otf2_defs_location_lost(id))
            continue; /* its event file did not open: noted as damage, the rest is read */
        OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(r, id);
        if (!er) {
            OTF2_EvtReaderCallbacks_Delete(ec);
            return fail(err, len, "cannot read the events of a location", OTF2_SUCCESS);
        }
        rc = OTF2_Reader_RegisterEvtCallbacks(r, er, ec, c);
        if (rc != OTF2_SUCCESS) {
            OTF2_EvtReaderCallbacks_Delete(ec);
            return fail(err, len, "cannot read the events of a location", rc);
        }
        rc = otf2_read_guard_events(r, er, id, &n);
        OTF2_Reader_CloseEvtReader(r, er); /* frees it; its error would be the read's */
        if (rc != OTF2_SUCCESS && rc != OTF2_ERROR_INTERRUPTED_BY_CALLBACK) {
            rc = OTF2_SUCCESS; /* noted as the file's damage: its events before it are kept */
            otf2_read_guard_clear();
        }
    }
    OTF2_EvtReaderCallbacks_Delete(ec);
    OTF2_ErrorCode rc_close = OTF2_Reader_CloseEvtFiles(r);
    if (c->ld->oom)
        return fail(err, len, "out of memory reading the events", OTF2_SUCCESS);
    if (rc != OTF2_SUCCESS || otf2_read_guard_error()[0])
        return fail(err, len, "the events are unreadable (truncated trace?)", rc);
    if (rc_close != OTF2_SUCCESS)
        return fail(err, len, "cannot close the event files", rc_close);
    /* events of kinds not kept are not counted, so only more than announced is an error */
    for (size_t i = 0; i < c->t->n_locations; i++) {
        const tm_location *l = &c->t->locations[i];
        if (l->n_events > l->defined_events) {
            snprintf(err, len, "location %s (%llu) has more events than its definition announces",
                     l->name ? l->name : "?", (unsigned long long)l->id);
            return -1;
        }
    }
    return 0;
}

static void free_loader(loader *ld)
{
    otf2_defs_free(&ld->defs);
    free(ld->index);
    free(ld->msgs);
    free(ld);
}

static int load(const char *path, tm_trace *t, loader *ld, char *err, size_t len)
{
    ctx c = {t, ld};
    OTF2_Reader *r = NULL;
    int rc = read_definitions(path, &r, &c, err, len);
    if (!rc)
        rc = open_locations(r, path, t, err, len);
    if (!rc)
        rc = read_events(r, &c, err, len);
    if (r && OTF2_Reader_Close(r) != OTF2_SUCCESS && !rc)
        rc = fail(err, len, "cannot close the OTF2 reader", OTF2_SUCCESS);
    if (!rc && match_messages(t, ld))
        rc = fail(err, len, "out of memory matching the messages", OTF2_SUCCESS);
    if (!rc && count_rma(t))
        rc = fail(err, len, "out of memory counting the one-sided operations", OTF2_SUCCESS);
    return rc;
}

/* PATH itself, or PATH/traces.otf2 when PATH is an experiment directory; NULL (with the
 * reason in ERR) when neither is a file. The result is malloc'ed. */
static char *anchor_file(const char *path, char *err, size_t len)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, len, "%s", strerror(errno));
        return NULL;
    }
    size_t n = strlen(path) + sizeof "/traces.otf2";
    char *anchor = malloc(n);
    if (!anchor) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    if (!S_ISDIR(st.st_mode)) {
        memcpy(anchor, path, strlen(path) + 1);
        return anchor;
    }
    snprintf(anchor, n, "%s/traces.otf2", path);
    if (stat(anchor, &st) == 0 && !S_ISDIR(st.st_mode))
        return anchor;
    free(anchor);
    snprintf(err, len,
             "a directory without traces.otf2 (measured without "
             "SCOREP_ENABLE_TRACING=true?)");
    return NULL;
}

int tm_load(const char *path, tm_trace **out, char *err, size_t len)
{
    *out = NULL;
    char *anchor = anchor_file(path, err, len);
    if (!anchor)
        return -1;
    tm_trace *t = calloc(1, sizeof *t);
    loader *ld = calloc(1, sizeof *ld);
    if (!t || !ld) {
        free(t);
        free(ld);
        free(anchor);
        snprintf(err, len, "out of memory");
        return -1;
    }
    t->internal = ld;
    otf2_read_guard_begin(anchor); /* errors kept, damaged files found before OTF2 reads */
    int rc = load(anchor, t, ld, err, len);
    snprintf(t->damage, sizeof t->damage, "%s", otf2_read_guard_damage());
    otf2_read_guard_end();
    free(anchor);
    if (rc) {
        tm_free(t);
        return -1;
    }
    *out = t;
    return 0;
}

void tm_free(tm_trace *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_strings; i++)
        free(t->strings[i]);
    free(t->strings);
    for (size_t i = 0; i < t->n_locations; i++)
        free(t->locations[i].events);
    free(t->locations);
    free(t->groups);
    free(t->regions);
    free(t->metric_members);
    for (size_t i = 0; i < t->n_metric_classes; i++)
        free(t->metric_classes[i].members);
    free(t->metric_classes);
    free(t->values);
    free(t->calling_contexts);
    free(t->messages);
    free(t->matrix_messages);
    free(t->matrix_bytes);
    free_rank_matrix(&t->rma_put);
    free_rank_matrix(&t->rma_get);
    free_rank_matrix(&t->rma_atomic);
    if (t->internal)
        free_loader(t->internal);
    free(t);
}

const char *tm_string(const tm_trace *t, uint32_t ref)
{
    return ref < t->n_strings ? t->strings[ref] : NULL;
}

const char *tm_region_name(const tm_trace *t, uint32_t region)
{
    const char *s = region < t->n_regions ? t->regions[region].name : NULL;
    return s ? s : "?";
}

uint32_t tm_location_index(const tm_trace *t, uint64_t id)
{
    const loader *ld = t->internal;
    if (!ld || !ld->index)
        return TM_NONE;
    size_t lo = 0, hi = t->n_locations;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ld->index[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n_locations && ld->index[lo].id == id ? ld->index[lo].index : TM_NONE;
}

uint64_t tm_ns(const tm_trace *t, uint64_t time)
{
    if (time <= t->clock.global_offset || t->clock.resolution == 0)
        return 0;
    unsigned __int128 d = time - t->clock.global_offset;
    return (uint64_t)(d * 1000000000u / t->clock.resolution);
}
