/* SPDX-License-Identifier: BSD-3-Clause */
/* an_load_otf2.c: post-mortem input of the analysis: reads the global definitions of an OTF2
 * archive once (the shared loader, trace/otf2_defs_load.h) and the events of this rank's
 * locations (OTF2's reader with those locations selected), into the event model of
 * an_trace.h: its master thread's events into t->events, those of its other thread locations
 * (OpenMP workers, MPI's helper threads) into t->threads. The location of rank r is member r
 * of MPI's COMM_LOCATIONS group, as the runtime writes it (docs/trace-export.md); a trace
 * without MPI ranks is one process's (its lowest thread location the master, rank 0 of 1). */
#include "analysis/an_load.h"
#include "core/events_thread.h"
#include "trace/otf2_defs_load.h"
#include "trace/otf2_read_guard.h"

#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { A_MSGID, A_PSRC, A_PTAG, A_PCOMM, A_HANDLE, A_N };
static const char *const attr_names[A_N] = {"mpi_message_id", "mpi_probe_source", "mpi_probe_tag",
                                            "mpi_probe_comm", "mpi_message_handle"};

typedef struct {
    an_trace *t;
    otf2_defs defs;               /* the global definitions (their strings handed to t) */
    uint64_t rma_begin;           /* the last RmaCollectiveBegin's time (its End carries it) */
    uint32_t attr[A_N];           /* attribute refs by meaning, AN_NONE if not defined */
    const otf2_defs_location *me; /* this rank's master thread location */
    int worker;                   /* reading a worker thread: no call paths yet (an_omp_map) */
    int in_program;               /* ProgramBegin entered the program region (e_program_begin) */
    uint32_t program_region;      /* ... this one */
    an_calls calls;               /* the open calls */
    int oom, nesting_error, flushes;
    uint8_t *param_dep; /* per parameter: its depend item type + 1 (0: no depend item) */
    size_t n_param;
    an_task_state task; /* tasks of the location being read */
    int ids;            /* how this process's location ids number its locations (local_number) */
} ld;

static const char *str(const ld *l, uint32_t ref)
{
    return ref < l->t->n_strings && l->t->strings[ref] ? l->t->strings[ref] : "";
}

/* ------------------------------------------------------------------ definitions */
/* the regions of an_trace.h by reference (never defined: zero) */
static int take_regions(ld *l)
{
    const otf2_defs *d = &l->defs;
    an_trace *t = l->t;
    if (!(t->regions = calloc(d->n_regions ? d->n_regions : 1, sizeof *t->regions)))
        return -1;
    t->n_regions = d->n_regions;
    for (size_t i = 0; i < d->n_regions; i++) {
        const otf2_defs_region *r = &d->regions[i];
        if (r->defined)
            t->regions[i] = (an_region){.name = str(l, r->name),
                                        .role = r->role,
                                        .paradigm = r->paradigm,
                                        .file = str(l, r->file),
                                        .begin = (int)r->begin_line,
                                        .end = (int)r->end_line};
    }
    return 0;
}

/* the attributes the events are read with, by name; the parameters of the depend items of
 * tasks (trace_threads.c writes them) */
static int find_named(ld *l)
{
    const otf2_defs *d = &l->defs;
    for (size_t i = 0; i < d->n_attributes; i++)
        for (int k = 0; d->attributes[i].defined && k < A_N; k++)
            if (strcmp(str(l, d->attributes[i].name), attr_names[k]) == 0)
                l->attr[k] = (uint32_t)i;
    if (d->n_parameters && !(l->param_dep = calloc(d->n_parameters, sizeof *l->param_dep)))
        return -1;
    l->n_param = d->n_parameters;
    for (size_t i = 0; i < d->n_parameters; i++) {
        const otf2_defs_named *p = &d->parameters[i];
        int dep = p->defined && p->type == OTF2_PARAMETER_TYPE_UINT64
                      ? scorep_task_depend_type_of(str(l, p->name))
                      : -1;
        l->param_dep[i] = (uint8_t)(dep + 1);
    }
    return 0;
}

/* ------------------------------------------------------------------ events */
static uint32_t world_rank(const ld *l, uint32_t comm, uint32_t peer)
{
    if (comm >= l->t->n_comms)
        return AN_NONE;
    return an_comm_peer(&l->t->comms[comm], peer);
}

static an_event *push(ld *l, uint64_t time, an_event_kind kind)
{
    an_event *e = an_calls_event(l->t, &l->calls, time, kind);
    l->oom |= !e;
    return e;
}

static int attr_u64(const ld *l, OTF2_AttributeList *a, int which, uint64_t *v)
{
    if (!a || l->attr[which] == AN_NONE || !OTF2_AttributeList_TestAttributeByID(a, l->attr[which]))
        return 0;
    OTF2_Type type;
    OTF2_AttributeValue val;
    if (OTF2_AttributeList_GetAttributeByID(a, l->attr[which], &type, &val) != OTF2_SUCCESS)
        return 0;
    switch (type) {
    case OTF2_TYPE_UINT32:
        *v = val.uint32;
        break;
    case OTF2_TYPE_COMM:
        *v = val.commRef;
        break;
    default:
        *v = val.uint64;
    }
    return 1;
}

static OTF2_CallbackCode e_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *a, OTF2_RegionRef region)
{
    (void)loc;
    (void)pos;
    (void)a;
    ld *l = u;
    if (!an_calls_enter(l->t, &l->calls, t, region, l->worker)) {
        l->oom = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    return OTF2_CALLBACK_SUCCESS;
}

/* ProgramBegin and ProgramEnd: the call of the program region, found as Scalasca's pearl
 * finds it (Otf2EvtCallbacks.cpp): artificial, of paradigm measurement, named after the
 * executable without its directory. Its exclusive time is the run's time outside every
 * recorded region: computation for the summary and the POP efficiencies. A trace without
 * such a region (older scorep-rt) has no root call. */
static uint32_t program_region(const ld *l, OTF2_StringRef name)
{
    const char *path = str(l, name), *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < l->t->n_regions; i++) {
        const an_region *g = &l->t->regions[i];
        if (g->role == OTF2_REGION_ROLE_ARTIFICIAL &&
            g->paradigm == OTF2_PARADIGM_MEASUREMENT_SYSTEM && g->name &&
            strcmp(g->name, base) == 0)
            return (uint32_t)i;
    }
    return AN_NONE;
}

static OTF2_CallbackCode e_program_begin(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                         void *u, OTF2_AttributeList *a, OTF2_StringRef name,
                                         uint32_t n_args, const OTF2_StringRef *args)
{
    (void)n_args;
    (void)args;
    ld *l = u;
    uint32_t region = program_region(l, name);
    if (region == AN_NONE || l->calls.depth)
        return OTF2_CALLBACK_SUCCESS;
    l->program_region = region;
    l->in_program = 1;
    return e_enter(loc, t, pos, u, a, region);
}

static OTF2_CallbackCode e_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *a, OTF2_RegionRef region)
{
    (void)loc;
    (void)pos;
    ld *l = u;
    const an_event *top = an_calls_top(l->t, &l->calls);
    if (!top || top->region != region) {
        l->nesting_error = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    uint64_t src, tag, comm, id = 0, handle = 0;
    if (attr_u64(l, a, A_PSRC, &src) && attr_u64(l, a, A_PTAG, &tag) &&
        attr_u64(l, a, A_PCOMM, &comm)) {
        an_event *p = push(l, t, AN_PROBE);
        if (!p)
            return OTF2_CALLBACK_INTERRUPT;
        attr_u64(l, a, A_MSGID, &id);
        attr_u64(l, a, A_HANDLE, &handle);
        p->comm = (uint32_t)comm;
        p->peer = world_rank(l, (uint32_t)comm, (uint32_t)src);
        p->tag = (uint32_t)tag;
        p->msg_id = id;
        p->request = handle;
    }
    if (!an_calls_leave(l->t, &l->calls, t)) {
        l->oom = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode p2p(ld *l, uint64_t t, an_event_kind kind, OTF2_AttributeList *a,
                             uint32_t peer, uint32_t comm, uint32_t tag, uint64_t len, uint64_t req)
{
    an_event *e = push(l, t, kind);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->comm = comm;
    e->peer = world_rank(l, comm, peer);
    e->tag = tag;
    e->bytes = len;
    e->request = req;
    attr_u64(l, a, A_MSGID, &e->msg_id);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_program_end(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                       void *u, OTF2_AttributeList *a, int64_t status)
{
    (void)status;
    ld *l = u;
    if (!l->in_program)
        return OTF2_CALLBACK_SUCCESS;
    l->in_program = 0;
    return e_leave(loc, t, pos, u, a, l->program_region);
}

static OTF2_CallbackCode e_send(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c, uint32_t tag,
                                uint64_t len)
{
    (void)loc;
    (void)pos;
    return p2p(u, t, AN_SEND, a, peer, c, tag, len, 0);
}

static OTF2_CallbackCode e_recv(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c, uint32_t tag,
                                uint64_t len)
{
    (void)loc;
    (void)pos;
    return p2p(u, t, AN_RECV, a, peer, c, tag, len, 0);
}

static OTF2_CallbackCode e_isend(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c, uint32_t tag,
                                 uint64_t len, uint64_t req)
{
    (void)loc;
    (void)pos;
    return p2p(u, t, AN_ISEND, a, peer, c, tag, len, req);
}

static OTF2_CallbackCode e_irecv(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c, uint32_t tag,
                                 uint64_t len, uint64_t req)
{
    (void)loc;
    (void)pos;
    return p2p(u, t, AN_IRECV, a, peer, c, tag, len, req);
}

static OTF2_CallbackCode request_event(ld *l, uint64_t t, an_event_kind kind, uint64_t req)
{
    an_event *e = push(l, t, kind);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->request = req;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_isend_complete(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                          void *u, OTF2_AttributeList *a, uint64_t req)
{
    (void)loc;
    (void)pos;
    (void)a;
    return request_event(u, t, AN_ISEND_COMPLETE, req);
}

static OTF2_CallbackCode e_irecv_request(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                         void *u, OTF2_AttributeList *a, uint64_t req)
{
    (void)loc;
    (void)pos;
    (void)a;
    return request_event(u, t, AN_IRECV_REQUEST, req);
}

static OTF2_CallbackCode e_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                    OTF2_AttributeList *a, OTF2_CollectiveOp op, OTF2_CommRef c,
                                    uint32_t root, uint64_t sent, uint64_t received)
{
    (void)loc;
    (void)pos;
    (void)a;
    ld *l = u;
    an_event *e = push(l, t, AN_COLL_END);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->comm = c;
    e->tag = op;
    e->peer = root == OTF2_UNDEFINED_UINT32 ? AN_NONE : world_rank(l, c, root);
    e->bytes = sent;
    e->bytes2 = received;
    return OTF2_CALLBACK_SUCCESS;
}

/* one-sided events (an_pattern_rma.c): the window and its communicator */
static an_event *rma_event(ld *l, uint64_t t, an_event_kind kind, OTF2_RmaWinRef win)
{
    an_event *e = push(l, t, kind);
    if (e) {
        e->request = win;
        const otf2_defs *d = &l->defs;
        e->comm = win < d->n_rma_wins && d->rma_wins[win].defined ? d->rma_wins[win].comm : AN_NONE;
    }
    return e;
}

static OTF2_CallbackCode rma_op(ld *l, uint64_t t, an_event_kind kind, OTF2_RmaWinRef win,
                                uint32_t remote, uint64_t bytes)
{
    an_event *e = rma_event(l, t, kind, win);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->peer = e->comm == AN_NONE ? AN_NONE : world_rank(l, e->comm, remote);
    e->bytes = bytes;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_rma_put(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *a, OTF2_RmaWinRef win, uint32_t remote,
                                   uint64_t bytes, uint64_t match)
{
    (void)loc;
    (void)pos;
    (void)a;
    (void)match;
    return rma_op(u, t, AN_RMA_PUT, win, remote, bytes);
}

static OTF2_CallbackCode e_rma_get(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *a, OTF2_RmaWinRef win, uint32_t remote,
                                   uint64_t bytes, uint64_t match)
{
    (void)loc;
    (void)pos;
    (void)a;
    (void)match;
    return rma_op(u, t, AN_RMA_GET, win, remote, bytes);
}

static OTF2_CallbackCode e_rma_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                          void *u, OTF2_AttributeList *a)
{
    (void)loc;
    (void)pos;
    (void)a;
    ((ld *)u)->rma_begin = t;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_rma_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                        void *u, OTF2_AttributeList *a, OTF2_CollectiveOp op,
                                        OTF2_RmaSyncLevel level, OTF2_RmaWinRef win, uint32_t root,
                                        uint64_t sent, uint64_t received)
{
    (void)loc;
    (void)pos;
    (void)a;
    (void)level;
    (void)root;
    (void)sent;
    (void)received;
    ld *l = u;
    an_event *e = rma_event(l, t, AN_RMA_COLL_END, win);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->tag = op;
    e->bytes2 = l->rma_begin;
    return OTF2_CALLBACK_SUCCESS;
}

/* ThreadAcquireLock / ThreadReleaseLock: the lock contention patterns (an_pattern_lock.c) */
static OTF2_CallbackCode lock_event(ld *l, uint64_t t, an_event_kind kind, OTF2_Paradigm model,
                                    uint32_t lock, uint32_t order)
{
    an_event *e = push(l, t, kind);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->request = lock;
    e->tag = order;
    e->bytes = model;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_acquire(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *a, OTF2_Paradigm model, uint32_t lock,
                                   uint32_t order)
{
    (void)loc;
    (void)pos;
    (void)a;
    return lock_event(u, t, AN_LOCK_ACQUIRE, model, lock, order);
}

static OTF2_CallbackCode e_release(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *a, OTF2_Paradigm model, uint32_t lock,
                                   uint32_t order)
{
    (void)loc;
    (void)pos;
    (void)a;
    return lock_event(u, t, AN_LOCK_RELEASE, model, lock, order);
}

/* ThreadTask*: the task events of an_trace.h, on the location that has them */
static OTF2_CallbackCode task_event(ld *l, uint64_t t, an_event_kind kind, OTF2_CommRef team,
                                    uint32_t creator, uint32_t generation)
{
    const an_event *top = an_calls_top(l->t, &l->calls);
    uint32_t create_region = top ? top->region : AN_NONE;
    an_event *e = push(l, t, kind);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    an_task_fill(e, team, creator, generation);
    if (kind == AN_TASK_CREATE) {
        e->region = an_task_region(&l->task, l->t, create_region);
        an_task_created(&l->task, team, creator, generation);
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_task_create(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                       void *u, OTF2_AttributeList *a, OTF2_CommRef team,
                                       uint32_t creator, uint32_t generation)
{
    (void)loc;
    (void)pos;
    (void)a;
    return task_event(u, t, AN_TASK_CREATE, team, creator, generation);
}

static OTF2_CallbackCode e_task_switch(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                       void *u, OTF2_AttributeList *a, OTF2_CommRef team,
                                       uint32_t creator, uint32_t generation)
{
    (void)loc;
    (void)pos;
    (void)a;
    return task_event(u, t, AN_TASK_SWITCH, team, creator, generation);
}

static OTF2_CallbackCode e_task_complete(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                         void *u, OTF2_AttributeList *a, OTF2_CommRef team,
                                         uint32_t creator, uint32_t generation)
{
    (void)loc;
    (void)pos;
    (void)a;
    return task_event(u, t, AN_TASK_COMPLETE, team, creator, generation);
}

/* ThreadFork / ThreadJoin (an_trace.h): the team's fork and join on the forking thread */
static OTF2_CallbackCode fork_join(ld *l, uint64_t t, an_event_kind kind, OTF2_Paradigm model,
                                   uint32_t threads)
{
    an_event *e = push(l, t, kind);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->tag = threads;
    e->bytes = model;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_fork(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                OTF2_AttributeList *a, OTF2_Paradigm model, uint32_t threads)
{
    (void)loc;
    (void)pos;
    (void)a;
    return fork_join(u, t, AN_THREAD_FORK, model, threads);
}

static OTF2_CallbackCode e_join(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                OTF2_AttributeList *a, OTF2_Paradigm model)
{
    (void)loc;
    (void)pos;
    (void)a;
    return fork_join(u, t, AN_THREAD_JOIN, model, 0);
}

/* a depend item of the task created last on this location (docs/openmp.md); other
 * parameters are no events of the analysis */
static OTF2_CallbackCode e_param_uint(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                      OTF2_AttributeList *a, OTF2_ParameterRef param,
                                      uint64_t value)
{
    (void)loc;
    (void)pos;
    (void)a;
    ld *l = u;
    if (param >= l->n_param || !l->param_dep[param] || !l->task.has_last)
        return OTF2_CALLBACK_SUCCESS;
    an_event *e = push(l, t, AN_TASK_DEPEND);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    an_task_depend(&l->task, e, value, l->param_dep[param] - 1u);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_flush(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *a, OTF2_TimeStamp stop)
{
    (void)loc;
    (void)pos;
    (void)t;
    (void)a;
    (void)stop;
    ((ld *)u)->flushes++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_onoff(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *a, OTF2_MeasurementMode mode)
{
    (void)loc;
    (void)pos;
    (void)t;
    (void)a;
    (void)mode;
    ((ld *)u)->flushes++;
    return OTF2_CALLBACK_SUCCESS;
}

/* ------------------------------------------------------------------ driver */
static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* the definitions the analysis keeps: clock, strings, regions; attributes and parameters */
static int take_definitions(ld *l, char *err, size_t len)
{
    an_trace *t = l->t;
    if (l->defs.clock.resolution == 0)
        return fail(err, len, "the trace has no clock properties");
    t->resolution = l->defs.clock.resolution;
    t->global_offset = l->defs.clock.global_offset;
    t->strings = otf2_defs_take_strings(&l->defs, &t->n_strings);
    if (take_regions(l) || find_named(l))
        return fail(err, len, "out of memory reading the definitions");
    return 0;
}

/* a group's members as world ranks: a COMM_GROUP's members index MPI's COMM_LOCATIONS group,
 * whose member r is the location of rank r */
static uint32_t *world_ranks(const an_trace *t, const otf2_defs_group *g)
{
    uint32_t *ranks = malloc((g->n ? g->n : 1) * sizeof *ranks);
    for (uint32_t i = 0; ranks && i < g->n; i++)
        ranks[i] = g->members[i] < t->n_ranks ? (uint32_t)g->members[i] : AN_NONE;
    return ranks;
}

/* communicators as lists of world ranks */
static int resolve_comms(ld *l, char *err, size_t len)
{
    const otf2_defs *d = &l->defs;
    an_trace *t = l->t;
    t->n_comms = d->n_comms;
    if (!(t->comms = calloc(d->n_comms ? d->n_comms : 1, sizeof *t->comms)))
        return fail(err, len, "out of memory");
    for (size_t c = 0; c < d->n_comms; c++) {
        const otf2_defs_comm *o = &d->comms[c];
        if (!o->defined || o->group >= d->n_groups)
            continue;
        an_comm *k = &t->comms[c];
        if (!(k->ranks = world_ranks(t, &d->groups[o->group])))
            return fail(err, len, "out of memory");
        k->n = d->groups[o->group].n;
        k->inter = o->inter;
        k->defined = 1;
        if (k->inter && o->group_b < d->n_groups) {
            if (!(k->ranks_b = world_ranks(t, &d->groups[o->group_b])))
                return fail(err, len, "out of memory");
            k->n_b = d->groups[o->group_b].n;
        }
        an_comm_set_side(k, t->rank);
    }
    return 0;
}

static OTF2_CallbackCode count_marker(void *u, OTF2_TimeStamp t, OTF2_TimeStamp d, OTF2_MarkerRef m,
                                      OTF2_MarkerScope scope, uint64_t ref, const char *text)
{
    (void)t;
    (void)d;
    (void)m;
    (void)scope;
    (void)ref;
    (void)text;
    ++*(uint64_t *)u;
    return OTF2_CALLBACK_SUCCESS;
}

/* the runtime marks every reduction of a trace (trace_reduction.c): any marker means that
 * events are missing somewhere; a trace without a marker file has none (OTF2 then makes no
 * marker reader, or fails to read it: no error) */
static uint64_t count_markers(OTF2_Reader *r)
{
    uint64_t n = 0, read;
    OTF2_MarkerReader *mr = OTF2_Reader_GetMarkerReader(r);
    OTF2_MarkerReaderCallbacks *cb = OTF2_MarkerReaderCallbacks_New();
    if (mr && cb) {
        OTF2_MarkerReaderCallbacks_SetMarkerCallback(cb, count_marker);
        if (OTF2_Reader_RegisterMarkerCallbacks(r, mr, cb, &n) == OTF2_SUCCESS)
            otf2_read_guard_markers(r, mr, &read);
    }
    OTF2_MarkerReaderCallbacks_Delete(cb);
    if (mr) /* a failure to close it (as to read it) only loses the markers' count */
        OTF2_Reader_CloseMarkerReader(r, mr);
    otf2_read_guard_clear(); /* no marker file is no error */
    return n;
}

static void set_event_callbacks(OTF2_EvtReaderCallbacks *ec)
{
    OTF2_EvtReaderCallbacks_SetEnterCallback(ec, e_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(ec, e_leave);
    OTF2_EvtReaderCallbacks_SetProgramBeginCallback(ec, e_program_begin);
    OTF2_EvtReaderCallbacks_SetProgramEndCallback(ec, e_program_end);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(ec, e_send);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(ec, e_isend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(ec, e_isend_complete);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(ec, e_irecv_request);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(ec, e_recv);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(ec, e_irecv);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(ec, e_coll_end);
    OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(ec, e_acquire);
    OTF2_EvtReaderCallbacks_SetThreadReleaseLockCallback(ec, e_release);
    OTF2_EvtReaderCallbacks_SetBufferFlushCallback(ec, e_flush);
    OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(ec, e_onoff);
    OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(ec, e_task_create);
    OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(ec, e_task_switch);
    OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(ec, e_task_complete);
    OTF2_EvtReaderCallbacks_SetThreadForkCallback(ec, e_fork);
    OTF2_EvtReaderCallbacks_SetThreadJoinCallback(ec, e_join);
    OTF2_EvtReaderCallbacks_SetParameterUnsignedIntCallback(ec, e_param_uint);
    OTF2_EvtReaderCallbacks_SetRmaPutCallback(ec, e_rma_put);
    OTF2_EvtReaderCallbacks_SetRmaGetCallback(ec, e_rma_get);
    OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(ec, e_rma_coll_begin);
    OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(ec, e_rma_coll_end);
}

/* reads the events of location LOC into l->t->events; ANNOUNCED: the count its definition
 * gives */
static int read_location(OTF2_Reader *r, ld *l, uint64_t loc, uint64_t announced, char *err,
                         size_t len)
{
    if (otf2_defs_location_lost(loc)) /* the analysis needs every rank's events */
        return fail(err, len, "the events of rank %u are lost (%s)", l->t->rank,
                    otf2_read_guard_damage());
    OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(r, loc);
    OTF2_EvtReaderCallbacks *ec = OTF2_EvtReaderCallbacks_New();
    if (!er || !ec) {
        OTF2_EvtReaderCallbacks_Delete(ec);
        return fail(err, len, "cannot read the events of rank %u", l->t->rank);
    }
    set_event_callbacks(ec);
    l->task.has_last = 0; /* depend items follow their task's creation on one location */
    uint64_t n = 0;
    OTF2_ErrorCode rc = OTF2_Reader_RegisterEvtCallbacks(r, er, ec, l);
    if (rc == OTF2_SUCCESS)
        rc = otf2_read_guard_events(r, er, loc, &n); /* bounded by its file */
    OTF2_EvtReaderCallbacks_Delete(ec);
    OTF2_ErrorCode rc_close = OTF2_Reader_CloseEvtReader(r, er);
    if (l->oom)
        return fail(err, len, "out of memory reading the events of rank %u", l->t->rank);
    if (l->nesting_error)
        return fail(err, len, "the events of rank %u are not properly nested", l->t->rank);
    if (rc != OTF2_SUCCESS || n < announced)
        return fail(err, len,
                    "the events of rank %u end early: %llu of the %llu its definitions "
                    "announce (truncated trace?)",
                    l->t->rank, (unsigned long long)n, (unsigned long long)announced);
    if (rc_close != OTF2_SUCCESS)
        return fail(err, len, "cannot close the events of rank %u's location %llu (%s)", l->t->rank,
                    (unsigned long long)loc, OTF2_Error_GetDescription(rc_close));
    if (l->calls.depth)
        return fail(err, len, "a thread of rank %u ends inside %zu open calls (truncated trace?)",
                    l->t->rank, l->calls.depth);
    return 0;
}

/* How a process's location ids give its locations' numbers: the trace writer (since session 25)
 * and Score-P number location LOCAL of rank R as LOCAL << 32 | R (scorep_location_global_id,
 * SCOREP_Location_CalculateGlobalId; Scalasca's pearl reads a thread's number so:
 * Location::getThreadId), our writer before as LOCAL x ranks + R (older traces). OTF2 allows any
 * ids: a scheme is taken only when every analysed location of the process fits it (its LOCAL
 * below the trace's number of locations), else each location's position in the definitions
 * (the master 0). Deciding per id mixed schemes: ids of another numbering that happened to fit
 * one formula got numbers of it, others their position, two threads the same number. */
enum { IDS_SCOREP, IDS_DENSE, IDS_ORDINAL };

static int ids_fit(const ld *l, int scheme, uint64_t id)
{
    uint64_t n = l->t->n_ranks ? l->t->n_ranks : 1, bound = l->defs.n_locations;
    if (scheme == IDS_SCOREP)
        return (id & 0xffffffffu) == l->t->rank && id >> 32 < bound;
    return id % n == l->t->rank && id / n < bound;
}

/* the rank's other thread locations: CPU threads of its location group but the master */
static int is_worker(const ld *l, const otf2_defs_location *o);

static int choose_ids(const ld *l)
{
    for (int scheme = IDS_SCOREP; scheme < IDS_ORDINAL; scheme++) {
        int fit = ids_fit(l, scheme, l->me->id);
        for (size_t i = 0; fit && i < l->defs.n_locations; i++)
            if (is_worker(l, &l->defs.locations[i]))
                fit = ids_fit(l, scheme, l->defs.locations[i].id);
        if (fit)
            return scheme;
    }
    return IDS_ORDINAL;
}

/* a location's number in its process (l->ids); ORDINAL its position among the analysed ones */
static uint32_t local_number(const ld *l, uint64_t id, size_t ordinal)
{
    uint64_t n = l->t->n_ranks ? l->t->n_ranks : 1;
    return l->ids == IDS_SCOREP  ? (uint32_t)(id >> 32)
           : l->ids == IDS_DENSE ? (uint32_t)(id / n)
                                 : (uint32_t)ordinal;
}

/* the rank's other thread locations: CPU threads of its location group but the master */
static int is_worker(const ld *l, const otf2_defs_location *o)
{
    return o->type == OTF2_LOCATION_TYPE_CPU_THREAD && o->id != l->me->id &&
           o->group == l->me->group;
}

/* selects the master and the workers, reads their local definitions, opens their events */
static int open_my_locations(OTF2_Reader *r, const char *anchor, ld *l, size_t *n_workers,
                             char *err, size_t len)
{
    const otf2_defs *d = &l->defs;
    uint64_t *ids = malloc((d->n_locations + 1) * sizeof *ids);
    if (!ids)
        return fail(err, len, "out of memory reading the events of rank %u", l->t->rank);
    size_t n = 0;
    ids[n++] = l->me->id;
    for (size_t i = 0; i < d->n_locations; i++)
        if (is_worker(l, &d->locations[i]))
            ids[n++] = d->locations[i].id;
    *n_workers = n - 1;
    int rc = otf2_defs_open_locations(r, anchor, ids, n, err, len);
    free(ids);
    return rc;
}

/* the workers' events: read into t->events, moved to their thread afterwards */
static int read_workers(OTF2_Reader *r, ld *l, char *err, size_t len)
{
    an_trace *t = l->t;
    an_event *master = t->events;
    size_t n_master = t->n_events, cap_master = t->cap_events;
    int has_mpi = t->has_mpi, rc = 0;
    l->worker = 1;
    for (size_t i = 0; !rc && i < l->defs.n_locations; i++) {
        const otf2_defs_location *o = &l->defs.locations[i];
        if (!is_worker(l, o))
            continue;
        t->events = NULL;
        t->n_events = t->cap_events = 0;
        rc = read_location(r, l, o->id, o->n_events, err, len);
        struct an_thread *th = &t->threads[t->n_threads++];
        th->events = t->events;
        th->n_events = t->n_events;
        th->cap_events = t->cap_events;
        th->local = local_number(l, o->id, t->n_threads);
        snprintf(th->name, sizeof th->name, "%s", str(l, o->name));
    }
    l->worker = 0;
    t->events = master;
    t->n_events = n_master;
    t->cap_events = cap_master;
    t->has_mpi = has_mpi;
    return rc;
}

/* the master thread's events, then those of the rank's other thread locations (OpenMP
 * workers, MPI's helper threads) into t->threads */
static int read_my_events(OTF2_Reader *r, const char *anchor, ld *l, char *err, size_t len)
{
    an_trace *t = l->t;
    l->ids = choose_ids(l);
    t->master_local = local_number(l, l->me->id, 0);
    snprintf(t->master_name, sizeof t->master_name, "%s", str(l, l->me->name));
    size_t n_workers = 0;
    if (open_my_locations(r, anchor, l, &n_workers, err, len))
        return -1;
    int rc = 0;
    if (n_workers && !(t->threads = calloc(n_workers, sizeof *t->threads)))
        rc = fail(err, len, "out of memory reading the events of rank %u", t->rank);
    if (!rc)
        rc = read_location(r, l, l->me->id, l->me->n_events, err, len);
    if (!rc)
        rc = read_workers(r, l, err, len);
    OTF2_ErrorCode rc_close = OTF2_Reader_CloseEvtFiles(r);
    if (!rc && rc_close != OTF2_SUCCESS)
        rc = fail(err, len, "cannot close the event files of rank %u (%s)", t->rank,
                  OTF2_Error_GetDescription(rc_close));
    if (!rc)
        l->t->reduced |= l->flushes > 0;
    return rc;
}

/* the location with reference ID, NULL if none is defined */
static const otf2_defs_location *location(const otf2_defs *d, uint64_t id)
{
    for (size_t i = 0; i < d->n_locations; i++)
        if (d->locations[i].id == id)
            return &d->locations[i];
    return NULL;
}

/* a trace without MPI ranks: one process's threads, analysed by one process (an_net_single):
 * the lowest CPU thread location is the master; all of them must be of its location group */
static int one_process(ld *l, uint32_t n_procs, char *err, size_t len)
{
    const otf2_defs *d = &l->defs;
    const otf2_defs_location *first = NULL, *lowest = NULL;
    int other_process = 0;
    for (size_t i = 0; i < d->n_locations; i++) {
        const otf2_defs_location *o = &d->locations[i];
        if (o->type != OTF2_LOCATION_TYPE_CPU_THREAD)
            continue;
        first = first ? first : o;
        other_process |= o->group != first->group;
        lowest = lowest && lowest->id <= o->id ? lowest : o;
    }
    if (!lowest)
        return fail(err, len, "the trace has no thread locations");
    if (other_process)
        return fail(err, len,
                    "the trace has threads of several processes but no MPI ranks (processes "
                    "made by fork?): the analysis takes an MPI program's ranks or the threads of "
                    "one process");
    if (n_procs != 1)
        return fail(err, len,
                    "the trace has no MPI ranks (a program without MPI) but the analysis runs "
                    "with %u processes: run scorep-analyze EXPDIR without mpirun",
                    n_procs);
    l->t->n_ranks = 1;
    l->me = lowest;
    return 0;
}

/* this rank's master thread location: member RANK of MPI's COMM_LOCATIONS group, or the one
 * process's (one_process) */
static int find_me(ld *l, uint32_t rank, uint32_t n_procs, char *err, size_t len)
{
    const otf2_defs *d = &l->defs;
    uint32_t g = d->comm_locations[OTF2_PARADIGM_MPI];
    if (g == OTF2_DEFS_NONE)
        return one_process(l, n_procs, err, len);
    an_trace *t = l->t;
    t->n_ranks = d->groups[g].n;
    if (t->n_ranks != n_procs)
        return fail(err, len,
                    "the trace has %u MPI ranks but the analysis runs with %u processes: "
                    "run it as mpirun -np %u scorep-analyze ...",
                    t->n_ranks, n_procs, t->n_ranks);
    if (!(l->me = location(d, d->groups[g].members[rank])))
        return fail(err, len, "rank %u's location %llu is not defined in the trace", rank,
                    (unsigned long long)d->groups[g].members[rank]);
    return 0;
}

static int load(const char *anchor, uint32_t rank, uint32_t n_procs, an_trace *t, char *err,
                size_t len);

int an_load_otf2(const char *anchor, uint32_t rank, uint32_t n_procs, an_trace *t, char *err,
                 size_t len)
{
    otf2_read_guard_begin(anchor); /* errors kept, damaged files found before OTF2 reads */
    int rc = load(anchor, rank, n_procs, t, err, len);
    otf2_read_guard_end();
    const char *damage = otf2_read_guard_damage();
    if (rc && damage[0]) { /* names the damaged file */
        size_t n = strlen(err);
        if (!strstr(err, damage))
            snprintf(err + n, len - n, " (%s)", damage);
    } else if (rc) { /* OTF2's reason, and the trace: damage the guard did not see */
        size_t n = strlen(err);
        if (otf2_read_guard_error()[0] && !strstr(err, otf2_read_guard_error()))
            snprintf(err + n, len - n, " (OTF2: %s)", otf2_read_guard_error());
        n = strlen(err);
        if (!strstr(err, anchor))
            snprintf(err + n, len - n, " (in %s)", anchor);
    }
    return rc;
}

/* One reader for all: the global definitions are read once, with every location's (the
 * loader keeps them all), so this rank's locations are chosen from them and selected on the
 * same reader before its event files are opened. */
static int load(const char *anchor, uint32_t rank, uint32_t n_procs, an_trace *t, char *err,
                size_t len)
{
    memset(t, 0, sizeof *t);
    t->rank = rank;
    ld l = {.t = t};
    for (int i = 0; i < A_N; i++)
        l.attr[i] = AN_NONE;
    OTF2_Reader *r;
    if (otf2_defs_load(anchor, &r, &l.defs, err, len))
        return -1;
    int rc = take_definitions(&l, err, len);
    if (!rc)
        rc = find_me(&l, rank, n_procs, err, len);
    if (!rc) {
        t->reduced = count_markers(r) > 0;
        rc = resolve_comms(&l, err, len);
    }
    if (!rc)
        rc = read_my_events(r, anchor, &l, err, len);
    OTF2_ErrorCode rc_close = OTF2_Reader_Close(r);
    if (!rc && rc_close != OTF2_SUCCESS)
        rc = fail(err, len, "cannot close the trace (%s)", OTF2_Error_GetDescription(rc_close));
    otf2_defs_free(&l.defs);
    size_t open_calls = l.calls.depth;
    an_calls_free(&l.calls);
    free(l.param_dep);
    an_task_state_free(&l.task);
    if (!rc && open_calls)
        rc = fail(err, len, "rank %u's trace ends inside %zu open calls (truncated trace?)", rank,
                  open_calls);
    return rc;
}
