/* SPDX-License-Identifier: BSD-3-Clause */
/* an_load_otf2.c: post-mortem input of the analysis: reads the global definitions of an OTF2
 * archive and the events of this rank's master-thread location only (OTF2's reader with one
 * selected location), into the event model of an_trace.h. The location of rank r is member r
 * of MPI's COMM_LOCATIONS group, as the runtime writes it (docs/trace-export.md); a trace
 * without MPI ranks is one process's (its lowest thread location the master, rank 0 of 1). */
#include "analysis/an_load.h"
#include "base/grow.h"
#include "core/events_thread.h"
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
    uint64_t *members;
    uint32_t n;
    int type, paradigm;
} ld_group;

typedef struct {
    an_trace *t;
    ld_group *groups;
    size_t n_groups;
    uint32_t *comm_group;   /* per comm: its group (AN_NONE: undefined) */
    uint32_t *comm_group_b; /* per intercommunicator: its group B */
    int *comm_inter;
    size_t n_comm;
    uint32_t *win_comm; /* per RMA window: its communicator (AN_NONE: undefined) */
    size_t n_win;
    uint64_t rma_begin; /* the last RmaCollectiveBegin's time (its End carries it) */
    uint32_t attr[A_N]; /* attribute refs by meaning, AN_NONE if not defined */
    uint64_t *mpi_locations;
    uint32_t n_mpi_locations;
    uint64_t n_locations_defined;
    uint64_t my_location, my_events_announced;
    /* the thread locations and their groups (second pass): this rank's other threads */
    uint64_t *loc_id, *loc_group, *loc_events;
    uint32_t *loc_name;
    uint32_t my_name;
    size_t n_loc, cap_loc;
    uint64_t my_group;
    int worker; /* reading a worker thread: no call paths yet (an_omp_map) */
    int in_program;          /* ProgramBegin entered the program region (e_program_begin) */
    uint32_t program_region; /* ... this one */
    uint32_t *stack; /* indices of open ENTER events */
    size_t depth, cap_stack;
    int oom, nesting_error, flushes;
    uint8_t *param_dep; /* per parameter: its depend item type + 1 (0: no depend item) */
    size_t n_param;
    an_task_state task; /* tasks of the location being read */
    /* without MPI: the lowest CPU thread location, its group, and a thread of another group */
    uint64_t first_thread, first_thread_group;
    int other_process;
} ld;

#define GROW(l, arr, cnt, idx)                                                                     \
    do {                                                                                           \
        size_t _cap = (cnt);                                                                       \
        if (scorep_grow((void **)&(arr), &_cap, (size_t)(idx) + 1, sizeof *(arr)) != 0) {          \
            (l)->oom = 1;                                                                          \
            return OTF2_CALLBACK_INTERRUPT;                                                        \
        }                                                                                          \
        (cnt) = _cap;                                                                              \
    } while (0)

/* ------------------------------------------------------------------ definitions */
static OTF2_CallbackCode d_string(void *u, OTF2_StringRef self, const char *s)
{
    ld *l = u;
    GROW(l, l->t->strings, l->t->n_strings, self);
    free(l->t->strings[self]);
    if (!(l->t->strings[self] = strdup(s))) {
        l->oom = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static const char *str(const ld *l, uint32_t ref)
{
    return ref < l->t->n_strings && l->t->strings[ref] ? l->t->strings[ref] : "";
}

static OTF2_CallbackCode d_clock(void *u, uint64_t res, uint64_t off, uint64_t len,
                                 uint64_t realtime)
{
    (void)len;
    (void)realtime;
    ld *l = u;
    l->t->resolution = res;
    l->t->global_offset = off;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                  OTF2_StringRef canon, OTF2_StringRef descr, OTF2_RegionRole role,
                                  OTF2_Paradigm paradigm, OTF2_RegionFlag flags,
                                  OTF2_StringRef file, uint32_t b, uint32_t e)
{
    (void)canon;
    (void)descr;
    (void)flags;
    ld *l = u;
    GROW(l, l->t->regions, l->t->n_regions, self);
    l->t->regions[self] =
        (an_region){str(l, name), role, paradigm, 0, str(l, file), (int)b, (int)e};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                 OTF2_GroupType type, OTF2_Paradigm p, OTF2_GroupFlag f, uint32_t n,
                                 const uint64_t *members)
{
    (void)name;
    (void)f;
    ld *l = u;
    GROW(l, l->groups, l->n_groups, self);
    ld_group *g = &l->groups[self];
    free(g->members);
    if (!(g->members = malloc((n ? n : 1) * sizeof *members))) {
        l->oom = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (n)
        memcpy(g->members, members, n * sizeof *members);
    g->n = n;
    g->type = type;
    g->paradigm = p;
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && p == OTF2_PARADIGM_MPI) {
        l->mpi_locations = g->members;
        l->n_mpi_locations = n;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag f)
{
    (void)name;
    (void)parent;
    (void)f;
    ld *l = u;
    size_t n = l->n_comm;
    size_t old = n, nb = n; /* GROW sets the count to the new capacity */
    GROW(l, l->comm_group, n, self);
    GROW(l, l->comm_group_b, nb, self);
    GROW(l, l->comm_inter, l->n_comm, self);
    for (size_t i = old; i < l->n_comm; i++)
        l->comm_group[i] = l->comm_group_b[i] = AN_NONE;
    l->comm_group[self] = group;
    l->comm_group_b[self] = AN_NONE;
    l->comm_inter[self] = 0;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_inter(void *u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef a,
                                 OTF2_GroupRef b, OTF2_CommRef common, OTF2_CommFlag f)
{
    (void)common;
    OTF2_CallbackCode rc = d_comm(u, self, name, a, OTF2_UNDEFINED_COMM, f);
    if (rc == OTF2_CALLBACK_SUCCESS) {
        ((ld *)u)->comm_inter[self] = 1;
        ((ld *)u)->comm_group_b[self] = b;
    }
    return rc;
}

/* an RMA window: its communicator, which its collective operations synchronise */
static OTF2_CallbackCode d_win(void *u, OTF2_RmaWinRef self, OTF2_StringRef name,
                               OTF2_CommRef comm, OTF2_RmaWinFlag f)
{
    (void)name;
    (void)f;
    ld *l = u;
    size_t old = l->n_win;
    GROW(l, l->win_comm, l->n_win, self);
    for (size_t i = old; i < l->n_win; i++)
        l->win_comm[i] = AN_NONE;
    l->win_comm[self] = comm == OTF2_UNDEFINED_COMM ? AN_NONE : comm;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_attr(void *u, OTF2_AttributeRef self, OTF2_StringRef name,
                                OTF2_StringRef descr, OTF2_Type type)
{
    (void)descr;
    (void)type;
    ld *l = u;
    for (int i = 0; i < A_N; i++)
        if (strcmp(str(l, name), attr_names[i]) == 0)
            l->attr[i] = self;
    return OTF2_CALLBACK_SUCCESS;
}

/* the parameters of the depend items of tasks (trace_threads.c writes them) */
static OTF2_CallbackCode d_param(void *u, OTF2_ParameterRef self, OTF2_StringRef name,
                                 OTF2_ParameterType type)
{
    ld *l = u;
    int dep = type == OTF2_PARAMETER_TYPE_UINT64 ? scorep_task_depend_type_of(str(l, name)) : -1;
    if (dep < 0)
        return OTF2_CALLBACK_SUCCESS;
    GROW(l, l->param_dep, l->n_param, self);
    l->param_dep[self] = (uint8_t)(dep + 1);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                    OTF2_LocationType type, uint64_t events,
                                    OTF2_LocationGroupRef group)
{
    ld *l = u;
    l->n_locations_defined++;
    if (type == OTF2_LOCATION_TYPE_CPU_THREAD && l->my_location == UINT64_MAX) {
        if (l->first_thread == UINT64_MAX)
            l->first_thread_group = group;
        l->other_process |= group != l->first_thread_group;
        if (self < l->first_thread)
            l->first_thread = self;
    }
    if (self == l->my_location) {
        l->my_events_announced = events;
        l->my_group = group;
        l->my_name = name;
    } else if (type == OTF2_LOCATION_TYPE_CPU_THREAD && l->my_location != UINT64_MAX) {
        /* four parallel arrays of one capacity: each grows from the same one to the same one */
        size_t need = l->n_loc + 1, c1 = l->cap_loc, c2 = c1, c3 = c1, c4 = c1;
        if (scorep_grow((void **)&l->loc_id, &c1, need, sizeof *l->loc_id) != 0 ||
            scorep_grow((void **)&l->loc_group, &c2, need, sizeof *l->loc_group) != 0 ||
            scorep_grow((void **)&l->loc_events, &c3, need, sizeof *l->loc_events) != 0 ||
            scorep_grow((void **)&l->loc_name, &c4, need, sizeof *l->loc_name) != 0) {
            l->oom = 1;
            return OTF2_CALLBACK_INTERRUPT;
        }
        l->cap_loc = c1;
        l->loc_id[l->n_loc] = self;
        l->loc_group[l->n_loc] = group;
        l->loc_name[l->n_loc] = name;
        l->loc_events[l->n_loc++] = events;
    }
    return OTF2_CALLBACK_SUCCESS;
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
    an_event *e = an_event_append(l->t);
    if (!e) {
        l->oom = 1;
        return NULL;
    }
    e->time = time;
    e->kind = kind;
    if (l->depth) {
        e->enter = l->stack[l->depth - 1];
        e->cnode = l->t->events[e->enter].cnode;
    }
    if (AN_IS_MPI_EVENT(kind))
        l->t->has_mpi = 1;
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
    uint32_t parent = l->depth ? l->t->events[l->stack[l->depth - 1]].cnode : AN_NONE;
    an_event *e = push(l, t, AN_ENTER);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->region = region;
    e->cnode = l->worker ? AN_NONE : an_cnode_get(l->t, parent, region);
    if (e->cnode == AN_NONE && !l->worker) {
        l->oom = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    size_t cap = l->cap_stack;
    if (scorep_grow((void **)&l->stack, &cap, l->depth + 1, sizeof *l->stack) != 0) {
        l->oom = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    l->cap_stack = cap;
    l->stack[l->depth++] = (uint32_t)(l->t->n_events - 1);
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
    if (region == AN_NONE || l->depth)
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
    if (!l->depth || l->t->events[l->stack[l->depth - 1]].region != region) {
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
    an_event *e = push(l, t, AN_LEAVE);
    if (!e)
        return OTF2_CALLBACK_INTERRUPT;
    e->region = region;
    l->depth--;
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
        e->comm = win < l->n_win ? l->win_comm[win] : AN_NONE;
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
    uint32_t create_region = l->depth ? l->t->events[l->stack[l->depth - 1]].region : AN_NONE;
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
static OTF2_CallbackCode e_param_uint(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                      void *u, OTF2_AttributeList *a, OTF2_ParameterRef param,
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

static int read_globals(OTF2_Reader *r, ld *l, char *err, size_t len)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
    OTF2_GlobalDefReaderCallbacks *dc = OTF2_GlobalDefReaderCallbacks_New();
    if (!gdr || !dc) {
        OTF2_GlobalDefReaderCallbacks_Delete(dc);
        return fail(err, len, "cannot read the global definitions");
    }
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(dc, d_string);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dc, d_clock);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dc, d_region);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dc, d_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(dc, d_comm);
    OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(dc, d_inter);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(dc, d_attr);
    OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(dc, d_win);
    OTF2_GlobalDefReaderCallbacks_SetParameterCallback(dc, d_param);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dc, d_location);
    OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, dc, l);
    uint64_t n;
    OTF2_ErrorCode rc = otf2_read_guard_global_defs(r, gdr, &n);
    OTF2_GlobalDefReaderCallbacks_Delete(dc);
    OTF2_Reader_CloseGlobalDefReader(r, gdr);
    if (l->oom)
        return fail(err, len, "out of memory reading the definitions");
    if (rc != OTF2_SUCCESS)
        return fail(err, len, "the global definitions are unreadable (%s)",
                    OTF2_Error_GetDescription(rc));
    if (l->t->resolution == 0)
        return fail(err, len, "the trace has no clock properties");
    return 0;
}

/* communicators as lists of world ranks: a COMM_GROUP's members index MPI's COMM_LOCATIONS
 * group, whose member r is the location of rank r */
static int resolve_comms(ld *l, char *err, size_t len)
{
    an_trace *t = l->t;
    t->n_comms = l->n_comm;
    if (!(t->comms = calloc(l->n_comm ? l->n_comm : 1, sizeof *t->comms)))
        return fail(err, len, "out of memory");
    for (size_t c = 0; c < l->n_comm; c++) {
        uint32_t g = l->comm_group[c];
        if (g == AN_NONE || g >= l->n_groups)
            continue;
        const ld_group *gr = &l->groups[g];
        an_comm *k = &t->comms[c];
        if (!(k->ranks = malloc((gr->n ? gr->n : 1) * sizeof *k->ranks)))
            return fail(err, len, "out of memory");
        for (uint32_t i = 0; i < gr->n; i++)
            k->ranks[i] = gr->members[i] < t->n_ranks ? (uint32_t)gr->members[i] : AN_NONE;
        k->n = gr->n;
        k->inter = l->comm_inter[c];
        k->defined = 1;
        uint32_t gb = l->comm_group_b[c];
        if (k->inter && gb != AN_NONE && gb < l->n_groups) {
            const ld_group *grb = &l->groups[gb];
            if (!(k->ranks_b = malloc((grb->n ? grb->n : 1) * sizeof *k->ranks_b)))
                return fail(err, len, "out of memory");
            for (uint32_t i = 0; i < grb->n; i++)
                k->ranks_b[i] =
                    grb->members[i] < t->n_ranks ? (uint32_t)grb->members[i] : AN_NONE;
            k->n_b = grb->n;
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
 * events are missing somewhere */
static uint64_t count_markers(OTF2_Reader *r)
{
    uint64_t n = 0, read;
    OTF2_MarkerReader *mr = OTF2_Reader_GetMarkerReader(r);
    OTF2_MarkerReaderCallbacks *cb = OTF2_MarkerReaderCallbacks_New();
    if (mr && cb) {
        OTF2_MarkerReaderCallbacks_SetMarkerCallback(cb, count_marker);
        OTF2_Reader_RegisterMarkerCallbacks(r, mr, cb, &n);
        otf2_read_guard_markers(r, mr, &read);
    }
    OTF2_MarkerReaderCallbacks_Delete(cb);
    if (mr)
        OTF2_Reader_CloseMarkerReader(r, mr);
    otf2_read_guard_clear(); /* no marker file is no error */
    return n;
}

/* reads location LOC's local definitions (its clock offsets: the event reader applies them) */
static int read_local_defs(OTF2_Reader *r, ld *l, uint64_t loc, char *err, size_t len)
{
    OTF2_DefReader *d = OTF2_Reader_GetDefReader(r, loc);
    if (!d)
        return 0;
    OTF2_DefReaderCallbacks *lc = OTF2_DefReaderCallbacks_New();
    uint64_t n;
    OTF2_Reader_RegisterDefCallbacks(r, d, lc, NULL);
    OTF2_ErrorCode rc = otf2_read_guard_local_defs(r, d, loc, &n);
    OTF2_Reader_CloseDefReader(r, d);
    OTF2_DefReaderCallbacks_Delete(lc);
    if (rc != OTF2_SUCCESS)
        return fail(err, len, "the local definitions of rank %u are unreadable (%s)", l->t->rank,
                    OTF2_Error_GetDescription(rc));
    return 0;
}

/* reads the events of location LOC into l->t->events; ANNOUNCED: the count its definition
 * gives */
static int read_location(OTF2_Reader *r, ld *l, uint64_t loc, uint64_t announced, char *err,
                         size_t len)
{
    OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(r, loc);
    OTF2_EvtReaderCallbacks *ec = OTF2_EvtReaderCallbacks_New();
    if (!er || !ec) {
        OTF2_EvtReaderCallbacks_Delete(ec);
        return fail(err, len, "cannot read the events of rank %u", l->t->rank);
    }
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
    l->task.has_last = 0; /* depend items follow their task's creation on one location */
    OTF2_Reader_RegisterEvtCallbacks(r, er, ec, l);
    uint64_t n;
    OTF2_ErrorCode rc = otf2_read_guard_events(r, er, loc, &n); /* bounded by its file */
    OTF2_EvtReaderCallbacks_Delete(ec);
    OTF2_Reader_CloseEvtReader(r, er);
    if (l->oom)
        return fail(err, len, "out of memory reading the events of rank %u", l->t->rank);
    if (l->nesting_error)
        return fail(err, len, "the events of rank %u are not properly nested", l->t->rank);
    if (rc != OTF2_SUCCESS || n < announced)
        return fail(err, len,
                    "the events of rank %u end early: %llu of the %llu its definitions "
                    "announce (truncated trace?)",
                    l->t->rank, (unsigned long long)n, (unsigned long long)announced);
    if (l->depth)
        return fail(err, len, "a thread of rank %u ends inside %zu open calls (truncated trace?)",
                    l->t->rank, l->depth);
    return 0;
}

/* a location's number in its process: the trace writer numbers location LOCAL of rank R as
 * LOCAL x ranks + R (trace_otf2.c); for ids made otherwise, its position ORDINAL in the group */
static uint32_t local_number(const ld *l, uint64_t id, size_t ordinal)
{
    uint64_t n = l->t->n_ranks ? l->t->n_ranks : 1;
    return id % n == l->t->rank && id / n < UINT32_MAX ? (uint32_t)(id / n) : (uint32_t)ordinal;
}

/* the master thread's events, then those of the rank's other thread locations (OpenMP
 * workers, MPI's helper threads) into t->threads */
static int read_my_events(OTF2_Reader *r, ld *l, char *err, size_t len)
{
    an_trace *t = l->t;
    t->master_local = local_number(l, l->my_location, 0);
    snprintf(t->master_name, sizeof t->master_name, "%s", str(l, l->my_name));
    size_t n_mine = 0;
    for (size_t i = 0; i < l->n_loc; i++)
        if (l->loc_group[i] == l->my_group)
            n_mine++;
    if (n_mine && !(t->threads = calloc(n_mine, sizeof *t->threads)))
        return fail(err, len, "out of memory reading the events of rank %u", t->rank);
    OTF2_Reader_SelectLocation(r, l->my_location);
    for (size_t i = 0; i < l->n_loc; i++)
        if (l->loc_group[i] == l->my_group)
            OTF2_Reader_SelectLocation(r, l->loc_id[i]);
    if (OTF2_Reader_OpenDefFiles(r) != OTF2_SUCCESS || OTF2_Reader_OpenEvtFiles(r) != OTF2_SUCCESS)
        return fail(err, len, "cannot open the files of location %llu",
                    (unsigned long long)l->my_location);
    int rc = read_local_defs(r, l, l->my_location, err, len);
    for (size_t i = 0; !rc && i < l->n_loc; i++)
        if (l->loc_group[i] == l->my_group)
            rc = read_local_defs(r, l, l->loc_id[i], err, len);
    OTF2_Reader_CloseDefFiles(r);
    if (!rc)
        rc = read_location(r, l, l->my_location, l->my_events_announced, err, len);
    /* the workers: read into t->events, moved to their thread afterwards */
    an_event *master = t->events;
    size_t n_master = t->n_events, cap_master = t->cap_events;
    int has_mpi = t->has_mpi;
    l->worker = 1;
    for (size_t i = 0; !rc && i < l->n_loc; i++) {
        if (l->loc_group[i] != l->my_group)
            continue;
        t->events = NULL;
        t->n_events = t->cap_events = 0;
        rc = read_location(r, l, l->loc_id[i], l->loc_events[i], err, len);
        struct an_thread *th = &t->threads[t->n_threads++];
        th->events = t->events;
        th->n_events = t->n_events;
        th->cap_events = t->cap_events;
        th->local = local_number(l, l->loc_id[i], t->n_threads);
        snprintf(th->name, sizeof th->name, "%s", str(l, l->loc_name[i]));
    }
    l->worker = 0;
    t->events = master;
    t->n_events = n_master;
    t->cap_events = cap_master;
    t->has_mpi = has_mpi;
    OTF2_Reader_CloseEvtFiles(r);
    if (!rc)
        l->t->reduced |= l->flushes > 0;
    return rc;
}

static int load(const char *anchor, uint32_t rank, uint32_t n_procs, an_trace *t, char *err,
                size_t len);

/* a trace without MPI ranks: one process's threads, analysed by one process (an_net_single) */
static int one_process(ld *l, uint32_t n_procs, char *err, size_t len)
{
    if (l->first_thread == UINT64_MAX)
        return fail(err, len, "the trace has no thread locations");
    if (l->other_process)
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
    l->my_location = l->first_thread;
    return 0;
}

int an_load_otf2(const char *anchor, uint32_t rank, uint32_t n_procs, an_trace *t, char *err,
                 size_t len)
{
    otf2_read_guard_begin(anchor); /* errors kept, damaged files found before OTF2 reads */
    int rc = load(anchor, rank, n_procs, t, err, len);
    otf2_read_guard_end();
    if (rc && otf2_read_guard_damage()[0]) { /* names the damaged file */
        size_t n = strlen(err);
        snprintf(err + n, len - n, " (%s)", otf2_read_guard_damage());
    } else if (rc) { /* OTF2's reason, and the trace: damage the guard did not see */
        size_t n = strlen(err);
        if (otf2_read_guard_error()[0])
            snprintf(err + n, len - n, " (OTF2: %s)", otf2_read_guard_error());
        n = strlen(err);
        if (!strstr(err, anchor))
            snprintf(err + n, len - n, " (in %s)", anchor);
    }
    return rc;
}

static int load(const char *anchor, uint32_t rank, uint32_t n_procs, an_trace *t, char *err,
                size_t len)
{
    memset(t, 0, sizeof *t);
    t->rank = rank;
    ld l = {.t = t, .my_location = UINT64_MAX, .first_thread = UINT64_MAX};
    for (int i = 0; i < A_N; i++)
        l.attr[i] = AN_NONE;
    OTF2_Reader *r = OTF2_Reader_Open(anchor);
    if (!r)
        return fail(err, len, "%s is not an OTF2 archive", anchor);
    int rc = OTF2_Reader_SetSerialCollectiveCallbacks(r) != OTF2_SUCCESS
                 ? fail(err, len, "cannot set up the OTF2 reader")
                 : read_globals(r, &l, err, len);
    if (!rc && !l.mpi_locations)
        rc = one_process(&l, n_procs, err, len);
    else if (!rc) {
        t->n_ranks = l.n_mpi_locations;
        if (t->n_ranks != n_procs)
            rc = fail(err, len,
                      "the trace has %u MPI ranks but the analysis runs with %u processes: "
                      "run it as mpirun -np %u scorep-analyze ...",
                      t->n_ranks, n_procs, t->n_ranks);
        else
            l.my_location = l.mpi_locations[rank];
    }
    if (!rc) {
        t->reduced = count_markers(r) > 0;
        /* the location definitions were read before my_location was known: read the count
         * announced for it from a second pass over the definitions would be costly; the
         * def callback recorded it only if it came after the group, so look it up again */
        rc = resolve_comms(&l, err, len);
    }
    OTF2_Reader_Close(r);
    if (!rc) { /* a fresh reader for the events (OTF2 wants the selection before opening) */
        if (!(r = OTF2_Reader_Open(anchor)))
            return fail(err, len, "%s is not an OTF2 archive", anchor);
        OTF2_Reader_SetSerialCollectiveCallbacks(r);
        OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
        OTF2_GlobalDefReaderCallbacks *dc = OTF2_GlobalDefReaderCallbacks_New();
        OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dc, d_location);
        OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, dc, &l);
        uint64_t n;
        otf2_read_guard_global_defs(r, gdr, &n);
        OTF2_GlobalDefReaderCallbacks_Delete(dc);
        OTF2_Reader_CloseGlobalDefReader(r, gdr);
        rc = read_my_events(r, &l, err, len);
        OTF2_Reader_Close(r);
    }
    for (size_t i = 0; i < l.n_groups; i++)
        free(l.groups[i].members);
    free(l.groups);
    free(l.comm_group);
    free(l.comm_group_b);
    free(l.comm_inter);
    free(l.win_comm);
    free(l.stack);
    free(l.loc_id);
    free(l.loc_group);
    free(l.loc_events);
    free(l.loc_name);
    free(l.param_dep);
    an_task_state_free(&l.task);
    if (!rc && l.depth)
        rc = fail(err, len, "rank %u's trace ends inside %zu open calls (truncated trace?)", rank,
                  l.depth);
    return rc;
}
