/* SPDX-License-Identifier: BSD-3-Clause */
/* an_load_buffer.c: in-situ input of the analysis: this process's master-thread location
 * (and its other threads' locations, for the OpenMP analysis) straight from their in-memory
 * trace buffers (records spilled by a flush first, then the
 * buffer merged by time, as the trace writer reads them), with the unified definitions' ids
 * and the clock offsets applied as OTF2's reader applies them to the written trace
 * (scorep_clock_to_root): the post-mortem analysis of the same run sees the same events. */
#include "analysis/an_load.h"
#include "core/clock_sync.h"
#include "core/events_thread.h"
#include "core/flush.h"
#include "core/location.h"
#include "base/state.h"
#include "base/timer.h"
#include "defs/unify.h"
#include "trace/trace_threads.h"

#include <otf2/OTF2_Definitions.h>
#include <otf2/OTF2_GeneralDefinitions.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    an_trace *t;
    const scorep_unified *u;
    an_calls calls;
    uint64_t last;            /* last raw timestamp (the writer keeps them increasing) */
    const buf_mpi_rec *probe; /* a probe record waiting for its Leave */
    uint64_t rma_begin;       /* the last RmaCollectiveBegin's time (its End carries it) */
    int oom, nesting_error;
    int worker; /* a worker thread: no call paths yet (an_omp_map gives them) */
    an_task_state *task;
} bl;

static uint32_t map(const bl *b, int kind, uint32_t local)
{
    return local < b->u->n_local[kind] ? b->u->map[kind][local] : AN_NONE;
}

static uint32_t world(const bl *b, uint32_t comm, uint32_t peer)
{
    if (comm == AN_NONE || comm >= b->t->n_comms)
        return AN_NONE;
    return an_comm_peer(&b->t->comms[comm], peer);
}

/* an event at raw timestamp TS, on rank 0's clock (an_trace.h: offsets applied) */
static an_event *push(bl *b, uint64_t ts, an_event_kind kind)
{
    an_event *e = an_calls_event(b->t, &b->calls, scorep_clock_to_root(ts), kind);
    b->oom |= !e;
    return e;
}

static void enter(bl *b, uint64_t ts, uint32_t local)
{
    uint32_t region = map(b, U_REGION, local);
    b->oom |= !an_calls_enter(b->t, &b->calls, scorep_clock_to_root(ts), region, b->worker);
}

static void leave(bl *b, uint64_t ts, uint32_t region)
{
    const an_event *top = an_calls_top(b->t, &b->calls);
    if (!top || top->region != region) {
        b->nesting_error = 1;
        return;
    }
    if (b->probe) { /* the probe's attributes belong to this Leave (trace_otf2.c) */
        const buf_mpi_rec *r = b->probe;
        an_event *p = push(b, ts, AN_PROBE);
        if (!p)
            return;
        p->comm = map(b, U_COMM, r->comm);
        p->peer = world(b, p->comm, r->peer);
        p->tag = r->tag;
        p->msg_id = r->msg_id;
        p->request = r->handle;
        b->probe = NULL;
    }
    b->oom |= !an_calls_leave(b->t, &b->calls, scorep_clock_to_root(ts));
}

/* one-sided records (an_pattern_rma.c), with the window's global id and communicator, as
 * the trace writer writes them (trace_otf2.c) */
static void rma(bl *b, uint64_t ts, const buf_mpi_rec *r)
{
    if (r->type == BUF_RMA_COLL_BEGIN) {
        b->rma_begin = scorep_clock_to_root(ts);
        return;
    }
    an_event_kind kind = r->type == BUF_RMA_PUT   ? AN_RMA_PUT
                         : r->type == BUF_RMA_GET ? AN_RMA_GET
                                                  : AN_RMA_COLL_END;
    an_event *e = push(b, ts, kind);
    if (!e)
        return;
    e->request = map(b, U_WIN, r->comm);
    e->comm = e->request == AN_NONE ? AN_NONE : b->u->wins[e->request].comm;
    if (kind == AN_RMA_COLL_END) {
        e->tag = r->tag;
        e->bytes2 = b->rma_begin;
        return;
    }
    e->bytes = r->bytes;
    e->peer = world(b, e->comm, r->peer);
}

static void mpi(bl *b, uint64_t ts, const buf_mpi_rec *r)
{
    static const an_event_kind kinds[] = {
        [BUF_MPI_SEND] = AN_SEND,
        [BUF_MPI_RECV] = AN_RECV,
        [BUF_MPI_ISEND] = AN_ISEND,
        [BUF_MPI_IRECV] = AN_IRECV,
        [BUF_MPI_ISEND_COMPLETE] = AN_ISEND_COMPLETE,
        [BUF_MPI_IRECV_REQUEST] = AN_IRECV_REQUEST,
        [BUF_MPI_COLL_END] = AN_COLL_END,
    };
    switch (r->type) {
    case BUF_MPI_PROBE:
        b->probe = r;
        return;
    case BUF_RMA_PUT:
    case BUF_RMA_GET:
    case BUF_RMA_COLL_BEGIN:
    case BUF_RMA_COLL_END:
        rma(b, ts, r);
        return;
    case BUF_MPI_SEND:
    case BUF_MPI_RECV:
    case BUF_MPI_ISEND:
    case BUF_MPI_IRECV:
    case BUF_MPI_ISEND_COMPLETE:
    case BUF_MPI_IRECV_REQUEST:
    case BUF_MPI_COLL_END:
        break;
    default:
        return;
    }
    an_event *e = push(b, ts, kinds[r->type]);
    if (!e)
        return;
    e->request = r->request;
    if (r->type == BUF_MPI_ISEND_COMPLETE || r->type == BUF_MPI_IRECV_REQUEST)
        return;
    e->comm = map(b, U_COMM, r->comm);
    e->bytes = r->bytes;
    e->tag = r->tag;
    if (r->type == BUF_MPI_COLL_END) {
        e->peer = r->peer == UINT32_MAX ? AN_NONE : world(b, e->comm, r->peer);
        e->bytes2 = r->bytes2;
        return;
    }
    e->peer = world(b, e->comm, r->peer);
    e->msg_id = r->msg_id;
}

/* a lock record (events_thread.c): lock id in a, order and paradigm in b, as the trace
 * writer writes them (trace_threads.c) */
static void lock_event(bl *b, const buf_item *it)
{
    an_event *e = push(b, it->ts, it->type == BUF_EV_THREAD_ACQUIRE_LOCK ? AN_LOCK_ACQUIRE
                                                                         : AN_LOCK_RELEASE);
    if (!e)
        return;
    e->request = it->a;
    e->tag = (uint32_t)it->b;
    e->bytes = it->b & SCOREP_LOCK_PTHREAD_BIT ? OTF2_PARADIGM_PTHREAD : OTF2_PARADIGM_OPENMP;
}

/* a task record (events_thread.c): team instance in a, creator << 32 | generation in b, with
 * the team's communicator id as the trace writer gives it (trace_threads.c); a depend item
 * (type in a, address in b) belongs to the task created last on the location */
static void task_event(bl *b, const buf_item *it)
{
    static const an_event_kind kinds[] = {
        [BUF_EV_THREAD_TASK_CREATE - BUF_EV_THREAD_TASK_CREATE] = AN_TASK_CREATE,
        [BUF_EV_THREAD_TASK_SWITCH - BUF_EV_THREAD_TASK_CREATE] = AN_TASK_SWITCH,
        [BUF_EV_THREAD_TASK_COMPLETE - BUF_EV_THREAD_TASK_CREATE] = AN_TASK_COMPLETE,
        [BUF_EV_THREAD_TASK_DEPEND - BUF_EV_THREAD_TASK_CREATE] = AN_TASK_DEPEND,
    };
    if (it->type == BUF_EV_THREAD_TASK_DEPEND && !b->task->has_last)
        return;
    const an_event *top = an_calls_top(b->t, &b->calls);
    uint32_t create_region = top ? top->region : AN_NONE;
    an_event *e = push(b, it->ts, kinds[it->type - BUF_EV_THREAD_TASK_CREATE]);
    if (!e)
        return;
    if (it->type == BUF_EV_THREAD_TASK_DEPEND) {
        an_task_depend(b->task, e, it->b, it->a);
        return;
    }
    uint32_t comm = scorep_trace_threads_team_comm(it->a), creator = (uint32_t)(it->b >> 32);
    uint64_t gen = (uint32_t)it->b;
    an_task_fill(e, comm == UINT32_MAX ? AN_NONE : comm, creator, gen);
    if (it->type == BUF_EV_THREAD_TASK_CREATE) {
        e->region = an_task_region(b->task, b->t, create_region);
        an_task_created(b->task, e->comm, creator, gen);
    }
}

/* a fork or join record (events_thread.c): requested threads in a; the trace writer writes
 * them as OpenMP's (trace_threads.c) */
static void fork_join(bl *b, const buf_item *it)
{
    an_event *e =
        push(b, it->ts, it->type == BUF_EV_THREAD_FORK ? AN_THREAD_FORK : AN_THREAD_JOIN);
    if (!e)
        return;
    e->tag = it->type == BUF_EV_THREAD_FORK ? it->a : 0;
    e->bytes = OTF2_PARADIGM_OPENMP;
}

static void item(void *ctx, const buf_item *it)
{
    bl *b = ctx;
    if (b->oom || b->nesting_error)
        return;
    b->last = it->ts > b->last ? it->ts : b->last;
    if (it->mpi) {
        mpi(b, it->ts, it->mpi);
        return;
    }
    switch (it->type) {
    case BUF_ENTER:
        enter(b, it->ts, it->a);
        break;
    case BUF_LEAVE:
        leave(b, it->ts, map(b, U_REGION, it->a));
        break;
    case BUF_EV_THREAD_ACQUIRE_LOCK:
    case BUF_EV_THREAD_RELEASE_LOCK:
        lock_event(b, it);
        break;
    case BUF_EV_THREAD_TASK_CREATE:
    case BUF_EV_THREAD_TASK_SWITCH:
    case BUF_EV_THREAD_TASK_COMPLETE:
    case BUF_EV_THREAD_TASK_DEPEND:
        task_event(b, it);
        break;
    case BUF_EV_THREAD_FORK:
    case BUF_EV_THREAD_JOIN:
        fork_join(b, it);
        break;
    case BUF_EV_BUFFER_FLUSH:
    case BUF_EV_MEASUREMENT_ON:
    case BUF_EV_MEASUREMENT_OFF:
        b->t->reduced = 1;
        break;
    default:
        break;
    }
}

/* the OTF2 role the trace writer writes for a region (trace_otf2.c), for the classification */
static int role_of(scorep_role r)
{
    switch (r) {
    case SCOREP_ROLE_POINT2POINT:
        return OTF2_REGION_ROLE_POINT2POINT;
    case SCOREP_ROLE_COLL_ONE2ALL:
        return OTF2_REGION_ROLE_COLL_ONE2ALL;
    case SCOREP_ROLE_COLL_ALL2ONE:
        return OTF2_REGION_ROLE_COLL_ALL2ONE;
    case SCOREP_ROLE_COLL_ALL2ALL:
        return OTF2_REGION_ROLE_COLL_ALL2ALL;
    case SCOREP_ROLE_COLL_OTHER:
        return OTF2_REGION_ROLE_COLL_OTHER;
    case SCOREP_ROLE_BARRIER:
        return OTF2_REGION_ROLE_BARRIER;
    /* the others as the trace writer gives them (trace_otf2.c), for the report's regions */
    case SCOREP_ROLE_WRAPPER:
        return OTF2_REGION_ROLE_WRAPPER;
    case SCOREP_ROLE_LOOP:
        return OTF2_REGION_ROLE_LOOP;
    case SCOREP_ROLE_CODE:
    case SCOREP_ROLE_PHASE:
    case SCOREP_ROLE_DYNAMIC:
        return OTF2_REGION_ROLE_CODE;
    case SCOREP_ROLE_ARTIFICIAL:
        return OTF2_REGION_ROLE_ARTIFICIAL;
    case SCOREP_ROLE_FILE_IO:
        return OTF2_REGION_ROLE_FILE_IO;
    case SCOREP_ROLE_FILE_IO_METADATA: /* the I/O adapters' open, close, seek, MPI_File_open */
        return OTF2_REGION_ROLE_FILE_IO_METADATA;
    case SCOREP_ROLE_RMA:
        return OTF2_REGION_ROLE_RMA;
    case SCOREP_ROLE_THREAD_CREATE:
        return OTF2_REGION_ROLE_THREAD_CREATE;
    case SCOREP_ROLE_THREAD_WAIT:
        return OTF2_REGION_ROLE_THREAD_WAIT;
    case SCOREP_ROLE_ALLOCATE:
        return OTF2_REGION_ROLE_ALLOCATE;
    case SCOREP_ROLE_DEALLOCATE:
        return OTF2_REGION_ROLE_DEALLOCATE;
    case SCOREP_ROLE_REALLOCATE:
        return OTF2_REGION_ROLE_REALLOCATE;
    /* OpenMP: the classification goes by name (an_regions.c classify_omp), as Scalasca's */
    case SCOREP_ROLE_PARALLEL:
        return OTF2_REGION_ROLE_PARALLEL;
    case SCOREP_ROLE_SECTIONS:
        return OTF2_REGION_ROLE_SECTIONS;
    case SCOREP_ROLE_SECTION:
        return OTF2_REGION_ROLE_SECTION;
    case SCOREP_ROLE_WORKSHARE:
        return OTF2_REGION_ROLE_WORKSHARE;
    case SCOREP_ROLE_SINGLE:
        return OTF2_REGION_ROLE_SINGLE;
    case SCOREP_ROLE_SINGLE_SBLOCK:
        return OTF2_REGION_ROLE_SINGLE_SBLOCK;
    case SCOREP_ROLE_MASTER:
        return OTF2_REGION_ROLE_MASTER;
    case SCOREP_ROLE_CRITICAL:
        return OTF2_REGION_ROLE_CRITICAL;
    case SCOREP_ROLE_CRITICAL_SBLOCK:
        return OTF2_REGION_ROLE_CRITICAL_SBLOCK;
    case SCOREP_ROLE_IMPLICIT_BARRIER:
        return OTF2_REGION_ROLE_IMPLICIT_BARRIER;
    case SCOREP_ROLE_FLUSH:
        return OTF2_REGION_ROLE_FLUSH;
    case SCOREP_ROLE_ORDERED:
        return OTF2_REGION_ROLE_ORDERED;
    case SCOREP_ROLE_ORDERED_SBLOCK:
        return OTF2_REGION_ROLE_ORDERED_SBLOCK;
    case SCOREP_ROLE_TASK:
        return OTF2_REGION_ROLE_TASK;
    case SCOREP_ROLE_TASK_UNTIED:
        return OTF2_REGION_ROLE_TASK_UNTIED;
    case SCOREP_ROLE_TASK_CREATE:
        return OTF2_REGION_ROLE_TASK_CREATE;
    default:
        return OTF2_REGION_ROLE_FUNCTION;
    }
}

/* the OTF2 paradigm the trace writer gives a Score-P paradigm (trace_otf2.c) */
static int paradigm_of(scorep_paradigm p)
{
    switch (p) {
    case SCOREP_PARADIGM_MEASUREMENT:
        return OTF2_PARADIGM_MEASUREMENT_SYSTEM;
    case SCOREP_PARADIGM_COMPILER:
        return OTF2_PARADIGM_COMPILER;
    case SCOREP_PARADIGM_PTHREAD:
        return OTF2_PARADIGM_PTHREAD;
    case SCOREP_PARADIGM_MPI:
        return OTF2_PARADIGM_MPI;
    case SCOREP_PARADIGM_OPENMP:
        return OTF2_PARADIGM_OPENMP;
    case SCOREP_PARADIGM_SHMEM:
        return OTF2_PARADIGM_SHMEM;
    case SCOREP_PARADIGM_CUDA:
        return OTF2_PARADIGM_CUDA;
    case SCOREP_PARADIGM_SAMPLING:
        return OTF2_PARADIGM_SAMPLING;
    case SCOREP_PARADIGM_USER:
        return OTF2_PARADIGM_USER;
    default:
        return OTF2_PARADIGM_NONE;
    }
}

static int defs(an_trace *t, const scorep_unified *u)
{
    t->n_regions = u->n[U_REGION];
    t->n_comms = u->n[U_COMM];
    t->regions = calloc(t->n_regions + 1, sizeof *t->regions);
    t->comms = calloc(t->n_comms + 1, sizeof *t->comms);
    if (!t->regions || !t->comms)
        return -1;
    for (size_t i = 0; i < t->n_regions; i++) {
        const scorep_region_def *r = &u->regions[i];
        t->regions[i].name = r->name;
        t->regions[i].paradigm = paradigm_of(r->paradigm);
        t->regions[i].role = role_of(r->role);
        t->regions[i].file = r->file ? r->file : "";
        t->regions[i].begin = r->begin_line;
        t->regions[i].end = r->end_line;
    }
    for (size_t c = 0; c < t->n_comms; c++) {
        const scorep_comm_def *d = &u->comms[c];
        an_comm *k = &t->comms[c];
        if (!(k->ranks = malloc((d->size ? d->size : 1) * sizeof *k->ranks)))
            return -1;
        memcpy(k->ranks, d->members, d->size * sizeof *k->ranks);
        k->n = d->size;
        k->inter = d->is_inter;
        if (d->is_inter) {
            if (!(k->ranks_b = malloc((d->size_b ? d->size_b : 1) * sizeof *k->ranks_b)))
                return -1;
            memcpy(k->ranks_b, d->members_b, d->size_b * sizeof *k->ranks_b);
            k->n_b = d->size_b;
        }
        an_comm_set_side(k, t->rank);
        k->defined = 1;
    }
    return 0;
}

static int read_buffer(const scorep_location *l, const scorep_unified *u, an_trace *t, int worker,
                       an_task_state *task, char *err, size_t len);

void an_load_buffer_prepare(const scorep_unified *u)
{
    scorep_trace_threads_prepare(u);
}

int an_load_buffer(const scorep_location *l, const scorep_unified *u, uint32_t rank,
                   uint32_t n_procs, an_trace *t, char *err, size_t len)
{
    memset(t, 0, sizeof *t);
    t->rank = rank;
    t->n_ranks = n_procs;
    t->resolution = scorep_timer_resolution();
    /* this process's part of the trace's start, as the trace writer takes it (the earliest
     * of the program's begin and the locations' first events, on rank 0's clock); the
     * analysis takes the minimum over the ranks (an_pattern_stat.c) */
    uint64_t lo = scorep_program_begin_ts();
    for (const scorep_location *x = scorep_location_first(); x; x = x->next)
        lo = x->first_ts < lo ? x->first_ts : lo;
    t->global_offset = scorep_clock_to_root(lo);
    if (defs(t, u) != 0) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    t->master_local = l->id;
    snprintf(t->master_name, sizeof t->master_name, "%s", l->name);
    an_load_buffer_prepare(u); /* done by the caller already: returns at once */
    an_task_state task = {0};
    int rc = read_buffer(l, u, t, 0, &task, err, len);
    /* the process's other threads (OpenMP workers, helper threads; not GPU streams) into
     * t->threads, as an_load_otf2.c reads the rank's other locations */
    size_t n = 0;
    for (const scorep_location *o = scorep_location_first(); o; o = o->next)
        n += o != l && !o->gpu;
    if (rc == 0 && n && !(t->threads = calloc(n, sizeof *t->threads))) {
        snprintf(err, len, "out of memory reading the trace buffers of rank %u", rank);
        rc = -1;
    }
    an_event *mine = t->events;
    size_t n_mine = t->n_events, cap_mine = t->cap_events;
    int has_mpi = t->has_mpi;
    for (const scorep_location *o = scorep_location_first(); rc == 0 && o; o = o->next) {
        if (o == l || o->gpu)
            continue;
        t->events = NULL;
        t->n_events = t->cap_events = 0;
        rc = read_buffer(o, u, t, 1, &task, err, len);
        struct an_thread *th = &t->threads[t->n_threads++];
        *th = (struct an_thread){t->events, t->n_events, t->cap_events, o->id, ""};
        snprintf(th->name, sizeof th->name, "%s", o->name);
    }
    t->events = mine;
    t->n_events = n_mine;
    t->cap_events = cap_mine;
    t->has_mpi = has_mpi;
    an_task_state_free(&task);
    return rc;
}

/* the events of location L's buffer into t->events (WORKER: without call paths) */
static int read_buffer(const scorep_location *l, const scorep_unified *u, an_trace *t, int worker,
                       an_task_state *task, char *err, size_t len)
{
    uint32_t rank = t->rank;
    bl b = {.t = t, .u = u, .worker = worker, .task = task};
    task->has_last = 0; /* depend items follow their task's creation on one location */
    const scorep_buffer *buf = &l->buffer;
    /* the first location's trace begins with ProgramBegin, the call of the program region
     * (trace_otf2.c; an_load_otf2.c reads it as that call); the closing below ends it */
    if (l->id == 0 && !worker && scorep_program_region() != SCOREP_INVALID_ID)
        enter(&b, scorep_program_begin_ts(), scorep_program_region());
    int rc = scorep_flush_replay(buf, item, &b);
    buf_merge *m = buf_merge_new(buf);
    buf_item it;
    while (m && buf_merge_next(m, &it))
        item(&b, &it);
    buf_merge_free(m);
    /* calls still open when recording ended close there, as the trace writer closes them */
    uint64_t close_ts = buf->full ? buf->full_ts : l->end_ts;
    while (!b.oom && !b.nesting_error && b.calls.depth) {
        b.last = close_ts > b.last ? close_ts : b.last + 1;
        leave(&b, b.last, an_calls_top(t, &b.calls)->region);
    }
    an_calls_free(&b.calls);
    t->reduced |= buf->full || buf->n_log > 0 || buf->n_flushes > 0;
    if (b.oom || !m || rc != 0) {
        snprintf(err, len, "out of memory reading the trace buffer of rank %u", rank);
        return -1;
    }
    if (b.nesting_error) {
        snprintf(err, len, "the trace buffer of rank %u is not properly nested", rank);
        return -1;
    }
    return 0;
}
