/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_otf2.c: writes traces.otf2 at finalize: every location's buffer merged by time into
 * its OTF2 event writer, then the global definitions (system tree, regions, ...). */
#include "config.h"
#include "core/location.h"
#include "base/grow.h"
#include "base/log.h"
#include "base/state.h"
#include "writers/writer.h"
#include "writers/experiment.h"
#include "core/system_tree.h"
#include "core/clock_sync.h"
#include "core/flush.h"
#include "base/timer.h"
#include "core/events_io.h"
#include "defs/defs.h"
#include "defs/hash_index.h"
#include "base/ser.h"
#include "writers/systree_job.h"
#include "defs/unify.h"
#include "ipc/ipc.h"
#include "metrics/metrics.h"
#include "sampling/sampling.h"
#include "trace/trace_mpi_groups.h"
#include "trace/trace_otf2.h"
#include "trace/trace_reduction.h"
#include "trace/trace_threads.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <otf2/otf2.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ string table */
/* Ids 0..S-1 are the definition layer's strings (parameter values refer to them); names
 * the writer needs get ids after those. */
typedef struct {
    char **s;
    uint32_t n, cap;
    hash_index index;
} strtab;

static uint64_t str_hash(const char *s)
{
    uint64_t h = 14695981039346656037ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static uint64_t strtab_hash(void *ctx, uint32_t id)
{
    return str_hash(((strtab *)ctx)->s[id]);
}

typedef struct {
    strtab *t;
    const char *s;
    int dedup;
} strtab_key;

static int strtab_equal(void *ctx, uint32_t id)
{
    strtab_key *k = ctx;
    return k->dedup && strcmp(k->t->s[id], k->s) == 0;
}

static uint32_t strtab_add(strtab *t, const char *s, int dedup)
{
    if (!s)
        s = "";
    if (hash_index_reserve(&t->index, t->n, strtab_hash, t) != 0)
        return 0;
    strtab_key key = {t, s, dedup};
    uint32_t j, found = hash_index_find(&t->index, str_hash(s), strtab_equal, &key, &j);
    if (found != UINT32_MAX)
        return found;
    if (t->n == t->cap) {
        uint32_t c = t->cap ? t->cap * 2 : 256;
        char **ns = realloc(t->s, c * sizeof *ns);
        if (!ns)
            return 0;
        t->s = ns;
        t->cap = c;
    }
    if (!(t->s[t->n] = strdup(s))) /* callers' strings may be transient */
        return 0;
    hash_index_set(&t->index, j, t->n);
    return t->n++;
}

/* ------------------------------------------------------------------ events */
/* Attributes every trace defines (fixed global ids; docs/mpi.md, docs/io.md, docs/memory.md);
 * the memory attributes in buf_attr's order */
enum {
    ATTR_MESSAGE_ID,
    ATTR_PROBE_SOURCE,
    ATTR_PROBE_TAG,
    ATTR_PROBE_COMM,
    ATTR_PROBE_BYTES,
    ATTR_MESSAGE_HANDLE,
    ATTR_IO_ERROR,
    ATTR_ALLOCATION_SIZE,
    ATTR_DEALLOCATION_SIZE,
    ATTR_ARGUMENT_ADDRESS,
    ATTR_RESULT_ADDRESS,
    ATTR_COUNT
};
_Static_assert(ATTR_RESULT_ADDRESS - ATTR_ALLOCATION_SIZE == BUF_ATTR_RESULT_ADDRESS,
               "buffer attributes map onto the trace's in order");

/* An attribute record waiting for its region's Enter or Leave */
typedef struct {
    uint32_t k; /* buf_attr */
    uint32_t region;
    uint64_t value;
} pending_attr;

/* An I/O operation begun and not yet completed (evt_state.io_open, .nb_open); begin: its
 * Begin's time (non-blocking ones only) */
typedef struct {
    uint32_t handle;
    uint64_t matching;
    uint64_t begin;
} io_pending;

typedef struct {
    OTF2_EvtWriter *w;
    OTF2_AttributeList *attrs;
    uint32_t *stack;
    uint32_t depth, cap;
    uint64_t last;
    uint32_t thread_comm; /* local id of this process's pthread contingent */
    uint32_t cuda_win;    /* local id of this process's CUDA window: one past its MPI windows */
    bool thread_begun;    /* ThreadEnd only follows a recorded ThreadBegin */
    /* sampling: calling-context events instead of Enter/Leave */
    scorep_sampling_cursor *smp;
    /* attributes of the next Enter [0] and Leave [1] (BUF_EV_ATTR_*), and the list the
     * Enter's go to (s->attrs may hold a probe's for the next Leave) */
    pending_attr pending[2][BUF_ATTR_COUNT]; /* in the order recorded */
    uint32_t n_pending[2];
    OTF2_AttributeList *enter_attrs;
    /* the values of the strict metric class (strict_class) read at one event, gathered into
     * one Metric record: in class order; set[k] when value k has come */
    OTF2_MetricValue *mvals;
    unsigned char *mset;
    uint32_t m_n; /* values gathered */
    uint64_t m_ts;
    /* by local metric id: this location already named the metric's instance (scoped) */
    unsigned char *inst_seen;
    uint32_t loc_id;
    /* blocking I/O operations begun and not yet completed, in begin order: those still here
     * at the end (a thread blocked in read when the process exited, a full buffer) get an
     * IoOperationCancelled in write_epilogue so that no Begin stays unmatched. Non-blocking
     * ones may complete on another location (aio_error from any thread): the process's table
     * nb_tab follows them in a pre-pass over every location (nb_scan_location); those it
     * still holds after it are handed to their Begin's location here, in begin order
     * (nb_open) */
    io_pending *io_open;
    uint32_t n_io_open, cap_io_open;
    io_pending *nb_open;
    uint32_t n_nb_open, cap_nb_open;
    uint32_t index; /* the location's position in this process's list (nb_tab) */
} evt_state;

/* Score-P's sampling set of the strictly synchronous per-thread metrics (PAPI, rusage,
 * plugins, perf): one MetricClass with all of them as members, so that an Enter or Leave is
 * preceded by one Metric record with all values. Every rank computes it from its metric
 * sources; when the ranks disagree (or there are more than Score-P's 255), there is no class
 * and every value travels in its metric's own class (the former layout).
 * Class ids (OTF2 MetricRef): 0 the strict class, then one class per other metric in member
 * order, then, only if some location's values did not fill the strict class, one-member
 * classes of its members; without a strict class the class id is the member id. Events
 * carry local ids (the local metric id, n_local for the strict class) that the mapping
 * table turns into these (class_of). */
static struct {
    uint32_t n;          /* members; 0: no class */
    uint32_t local_ref;  /* the class's local metric reference (mapped to its global id 0) */
    uint32_t n_local;    /* local metric ids below this have an entry in pos */
    int32_t *pos;        /* by local metric id: member index, or -1 */
    uint32_t *local_ids; /* by member index */
    OTF2_Type *types;    /* by member index */
    uint64_t fallback;   /* some location's values did not fill the class (all ranks' after
                            the events) */
    uint32_t *class_of;  /* by global metric id: its one-member class, or UINT32_MAX */
} strict_class;

/* Score-P's scoped sampling sets (scorep_metric_management.c): a metric that is not read by
 * every thread (`_PER_PROCESS` metrics of PAPI, rusage and perf, plugins run per process,
 * per host or once) or that is asynchronous (plugins ASYNC and ASYNC_EVENT) has a class of
 * occurrence SYNCHRONOUS (ASYNCHRONOUS), kind ABSTRACT, and a MetricInstance per location
 * that records it, with the scope of its values: the process's location group, the host's
 * system-tree node, the root node, or (asynchronous per thread) the location itself. Its
 * records name the instance. The instances come from the records (a location that wrote
 * values of such a metric has one; the locations' mapping tables turn the local metric id
 * into it), so scorep-recover, which starts no metric source, writes the same. Ids
 * (MetricRef): after the classes (scoped.base), by rank, location id and metric id. */
typedef struct {
    uint32_t loc, metric; /* location id; local metric id (global at rank 0's list) */
} scoped_inst;
static struct {
    uint32_t n_local;  /* local metric ids below this have an entry in is */
    unsigned char *is; /* by local metric id: scoped (scoped_metric) */
    scoped_inst *mine; /* this rank's instances */
    uint32_t n_mine;
    size_t cap_mine;
    uint32_t first;     /* index of this rank's first instance among the job's */
    uint32_t base;      /* MetricRef of the job's first instance (after the classes) */
    scoped_inst *all;   /* rank 0: the job's instances (global metric ids) */
    uint32_t *all_rank; /* rank 0: the rank of each */
    uint32_t n_all;
    uint32_t *group, *node; /* rank 0, by rank: its location group, its host's node
                               (write_st_node) */
    uint32_t root;          /* the system tree's root node */
    uint64_t oom;
} scoped;

/* Whether metric d's records name a MetricInstance (scoped, above) */
static bool scoped_metric(const scorep_metric_def *d)
{
    bool source = d->source == SCOREP_MSRC_PAPI || d->source == SCOREP_MSRC_RUSAGE ||
                  d->source == SCOREP_MSRC_PERF || d->source == SCOREP_MSRC_PLUGIN;
    bool read = d->recorder == SCOREP_MREC_STRICT || d->recorder == SCOREP_MREC_SYNC ||
                d->recorder == SCOREP_MREC_ASYNC;
    return source && read && (d->per != 0 || d->recorder == SCOREP_MREC_ASYNC);
}

/* The first value of a scoped metric on location s->loc_id: it gets an instance */
static void scoped_note(evt_state *s, uint32_t local)
{
    s->inst_seen[local] = 1;
    if (scorep_grow((void **)&scoped.mine, &scoped.cap_mine, (size_t)scoped.n_mine + 1,
                    sizeof *scoped.mine) != 0) {
        scoped.oom = 1;
        return;
    }
    scoped.mine[scoped.n_mine++] = (scoped_inst){s->loc_id, local};
}

/* The attributes waiting for this Enter or Leave of region go to list; all others are
 * dropped: their call was not recorded (a reduction removed it, the buffer was full). */
static OTF2_AttributeList *take_pending(evt_state *s, OTF2_AttributeList *list, uint32_t region,
                                        bool enter)
{
    if (!s->n_pending[0] && !s->n_pending[1])
        return NULL;
    if (enter) /* a calling-context Enter that was not written (sampling) left its list */
        OTF2_AttributeList_RemoveAllAttributes(list);
    bool added = false;
    for (uint32_t i = 0; i < s->n_pending[!enter]; i++) {
        const pending_attr *p = &s->pending[!enter][i];
        if (p->region == region) {
            OTF2_AttributeList_AddUint64(list, ATTR_ALLOCATION_SIZE + p->k, p->value);
            added = true;
        }
    }
    s->n_pending[0] = s->n_pending[1] = 0;
    return added ? list : NULL;
}

/* A later record of the same attribute replaces the earlier one (left by a call that was
 * not recorded). */
static void pend_attr(evt_state *s, const buf_item *it)
{
    bool leave = it->type >= BUF_EV_ATTR_LEAVE;
    uint32_t k = it->type - (leave ? BUF_EV_ATTR_LEAVE : BUF_EV_ATTR_ENTER), i = 0;
    while (i < s->n_pending[leave] && s->pending[leave][i].k != k)
        i++;
    s->pending[leave][i] = (pending_attr){k, it->a, it->b};
    s->n_pending[leave] += i == s->n_pending[leave];
}

static void region_event(evt_state *s, OTF2_AttributeList *attrs, uint64_t t, uint32_t region,
                         bool enter)
{
    if (s->smp)
        scorep_sampling_cursor_region(s->smp, attrs, t, region, enter);
    else if (enter)
        OTF2_EvtWriter_Enter(s->w, attrs, t, region);
    else
        OTF2_EvtWriter_Leave(s->w, attrs, t, region);
}

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
    return t == SCOREP_METRIC_INT64    ? OTF2_TYPE_INT64
           : t == SCOREP_METRIC_UINT64 ? OTF2_TYPE_UINT64
                                       : OTF2_TYPE_DOUBLE;
}

static uint32_t root_or_undefined(uint32_t root)
{
    return root == UINT32_MAX ? OTF2_UNDEFINED_UINT32 : root;
}

static OTF2_AttributeList *message_attrs(evt_state *s, const buf_mpi_rec *r)
{
    OTF2_AttributeList_AddUint64(s->attrs, ATTR_MESSAGE_ID, r->msg_id);
    if (r->handle)
        OTF2_AttributeList_AddUint64(s->attrs, ATTR_MESSAGE_HANDLE, r->handle);
    return s->attrs;
}

static void probe_attrs(evt_state *s, const buf_mpi_rec *r)
{
    OTF2_AttributeList_AddUint32(s->attrs, ATTR_PROBE_SOURCE, r->peer);
    OTF2_AttributeList_AddUint32(s->attrs, ATTR_PROBE_TAG, r->tag);
    OTF2_AttributeList_AddCommRef(s->attrs, ATTR_PROBE_COMM, r->comm);
    OTF2_AttributeList_AddUint64(s->attrs, ATTR_PROBE_BYTES, r->bytes);
    OTF2_AttributeList_AddUint64(s->attrs, ATTR_MESSAGE_HANDLE, r->handle);
    OTF2_AttributeList_AddUint64(s->attrs, ATTR_MESSAGE_ID, r->msg_id);
}

static void write_mpi_p2p(evt_state *s, uint64_t t, const buf_mpi_rec *r)
{
    OTF2_EvtWriter *w = s->w;
    switch (r->type) {
    case BUF_MPI_SEND:
        OTF2_EvtWriter_MpiSend(w, message_attrs(s, r), t, r->peer, r->comm, r->tag, r->bytes);
        break;
    case BUF_MPI_RECV:
        OTF2_EvtWriter_MpiRecv(w, message_attrs(s, r), t, r->peer, r->comm, r->tag, r->bytes);
        break;
    case BUF_MPI_ISEND:
        OTF2_EvtWriter_MpiIsend(w, message_attrs(s, r), t, r->peer, r->comm, r->tag, r->bytes,
                                r->request);
        break;
    case BUF_MPI_IRECV:
        OTF2_EvtWriter_MpiIrecv(w, message_attrs(s, r), t, r->peer, r->comm, r->tag, r->bytes,
                                r->request);
        break;
    case BUF_MPI_ISEND_COMPLETE:
        OTF2_EvtWriter_MpiIsendComplete(w, NULL, t, r->request);
        break;
    case BUF_MPI_IRECV_REQUEST:
        OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t, r->request);
        break;
    case BUF_MPI_REQUEST_TEST:
        OTF2_EvtWriter_MpiRequestTest(w, NULL, t, r->request);
        break;
    case BUF_MPI_REQUEST_CANCELLED:
        OTF2_EvtWriter_MpiRequestCancelled(w, NULL, t, r->request);
        break;
    case BUF_MPI_PROBE: /* travels as attributes of the probe's Leave */
        probe_attrs(s, r);
        break;
    }
}

static void write_mpi_coll(evt_state *s, uint64_t t, const buf_mpi_rec *r)
{
    OTF2_EvtWriter *w = s->w;
    switch (r->type) {
    case BUF_MPI_COLL_BEGIN:
        OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t);
        break;
    case BUF_MPI_COLL_END:
        OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, t, r->tag, r->comm, root_or_undefined(r->peer),
                                        r->bytes, r->bytes2);
        break;
    case BUF_MPI_NBC_REQUEST:
        OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, t, r->request);
        break;
    case BUF_MPI_NBC_COMPLETE:
        OTF2_EvtWriter_NonBlockingCollectiveComplete(w, NULL, t, r->tag, r->comm,
                                                     root_or_undefined(r->peer), r->bytes,
                                                     r->bytes2, r->request);
        break;
    case BUF_MPI_COMM_CREATE:
        OTF2_EvtWriter_CommCreate(w, NULL, t, r->comm);
        break;
    case BUF_MPI_COMM_DESTROY:
        OTF2_EvtWriter_CommDestroy(w, NULL, t, r->comm);
        break;
    }
}

static void write_rma(evt_state *s, uint64_t t, const buf_mpi_rec *in)
{
    OTF2_EvtWriter *w = s->w;
    buf_mpi_rec cuda;
    const buf_mpi_rec *r = in;
    if (in->comm == SCOREP_CUDA_WINDOW) {
        cuda = *in;
        cuda.comm = s->cuda_win;
        r = &cuda;
    }
    switch (r->type) {
    case BUF_RMA_WIN_CREATE:
        OTF2_EvtWriter_RmaWinCreate(w, NULL, t, r->comm);
        break;
    case BUF_RMA_WIN_DESTROY:
        OTF2_EvtWriter_RmaWinDestroy(w, NULL, t, r->comm);
        break;
    case BUF_RMA_PUT:
        OTF2_EvtWriter_RmaPut(w, NULL, t, r->comm, r->peer, r->bytes, r->request);
        break;
    case BUF_RMA_GET:
        OTF2_EvtWriter_RmaGet(w, NULL, t, r->comm, r->peer, r->bytes, r->request);
        break;
    case BUF_RMA_ATOMIC:
        OTF2_EvtWriter_RmaAtomic(w, NULL, t, r->comm, r->peer, r->tag, r->bytes, r->bytes2,
                                 r->request);
        break;
    case BUF_RMA_OP_COMPLETE_BLOCKING:
        OTF2_EvtWriter_RmaOpCompleteBlocking(w, NULL, t, r->comm, r->request);
        break;
    case BUF_RMA_OP_COMPLETE_NON_BLOCKING:
        OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, NULL, t, r->comm, r->request);
        break;
    case BUF_RMA_COLL_BEGIN:
        OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, t);
        break;
    case BUF_RMA_COLL_END:
        OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, t, r->tag, (OTF2_RmaSyncLevel)r->handle, r->comm,
                                        root_or_undefined(r->peer), r->bytes, r->bytes2);
        break;
    case BUF_RMA_GROUP_SYNC:
        OTF2_EvtWriter_RmaGroupSync(w, NULL, t, r->tag, r->comm, (OTF2_GroupRef)r->bytes);
        break;
    case BUF_RMA_REQUEST_LOCK:
        OTF2_EvtWriter_RmaRequestLock(w, NULL, t, r->comm, r->peer, r->request, r->tag);
        break;
    case BUF_RMA_ACQUIRE_LOCK:
        OTF2_EvtWriter_RmaAcquireLock(w, NULL, t, r->comm, r->peer, r->request, r->tag);
        break;
    case BUF_RMA_RELEASE_LOCK:
        OTF2_EvtWriter_RmaReleaseLock(w, NULL, t, r->comm, r->peer, r->request);
        break;
    case BUF_RMA_SYNC:
        OTF2_EvtWriter_RmaSync(w, NULL, t, r->comm, r->peer, r->tag);
        break;
    case BUF_RMA_TRY_LOCK:
        OTF2_EvtWriter_RmaTryLock(w, NULL, t, r->comm, r->peer, r->request, r->tag);
        break;
    case BUF_RMA_WAIT_CHANGE:
        OTF2_EvtWriter_RmaWaitChange(w, NULL, t, r->comm);
        break;
    case BUF_RMA_OP_COMPLETE_REMOTE:
        OTF2_EvtWriter_RmaOpCompleteRemote(w, NULL, t, r->comm, r->request);
        break;
    }
}

/* Tracking of begun blocking operations (evt_state.io_open); written at finalization, off
 * the hot path. Without memory the operation is not tracked (its Begin stays unmatched). */
static int pending_push(io_pending **v, uint32_t *n, uint32_t *cap, uint32_t handle,
                        uint64_t matching, uint64_t begin)
{
    if (*n == *cap) {
        uint32_t c = *cap ? 2 * *cap : 4;
        void *p = realloc(*v, c * sizeof **v);
        if (!p)
            return -1;
        *v = p;
        *cap = c;
    }
    (*v)[*n] = (io_pending){handle, matching, begin};
    (*n)++;
    return 0;
}

static void io_open_push(evt_state *s, uint32_t handle, uint64_t matching)
{
    pending_push(&s->io_open, &s->n_io_open, &s->cap_io_open, handle, matching, 0);
}

/* the latest match goes: blocking operations nest (a read inside a signal handler); returns
 * whether there was one */
static bool io_open_drop(evt_state *s, uint32_t handle, uint64_t matching)
{
    for (uint32_t i = s->n_io_open; i > 0; i--)
        if (s->io_open[i - 1].handle == handle && s->io_open[i - 1].matching == matching) {
            memmove(&s->io_open[i - 1], &s->io_open[i], (s->n_io_open - i) * sizeof *s->io_open);
            s->n_io_open--;
            return true;
        }
    return false;
}

/* The process's non-blocking I/O operations (AIO requests, MPI-IO i-calls and split
 * collectives) in flight while the pre-pass (nb_scan_location) reads its locations' records:
 * per (handle, matching id) the Begins minus the ends (Complete, Cancelled), on any
 * location, and the location and time of its latest Begin. An end may be read before its
 * Begin (an aio_error on a location read earlier): the balance goes below zero until the
 * Begin comes. An
 * entry leaves at balance 0 (open addressing, linear probing, deletion by backward shift), so
 * the table holds the operations in flight, not all of them. What is left when every
 * location is read are the requests the program never completed (or whose completion the
 * trace lost: a full buffer): each is cancelled at the end of its Begin's location
 * (write_epilogue). A matching id is reused only after its request completed (an aiocb), so
 * the pending one is the latest Begin. Used only when scorep_io_nonblocking_traced. */
typedef struct {
    uint32_t handle, loc;
    int64_t balance; /* 0: free slot */
    uint64_t matching, begin;
} nb_entry;
static struct {
    nb_entry *e;
    size_t cap, n; /* cap: a power of two */
    bool failed;   /* no memory: some operation was not followed (said once) */
} nb_tab;

static size_t nb_hash(uint32_t handle, uint64_t matching)
{
    uint64_t k = (matching ^ ((uint64_t)handle << 40) ^ handle) * 0x9e3779b97f4a7c15ull;
    return (size_t)(k ^ (k >> 29));
}

static int nb_grow(void)
{
    size_t cap = nb_tab.cap ? 2 * nb_tab.cap : 256;
    nb_entry *e = calloc(cap, sizeof *e);
    if (!e)
        return -1;
    for (size_t i = 0; i < nb_tab.cap; i++) {
        if (!nb_tab.e[i].balance)
            continue;
        size_t j = nb_hash(nb_tab.e[i].handle, nb_tab.e[i].matching) & (cap - 1);
        while (e[j].balance)
            j = (j + 1) & (cap - 1);
        e[j] = nb_tab.e[i];
    }
    free(nb_tab.e);
    nb_tab.e = e;
    nb_tab.cap = cap;
    return 0;
}

/* the slot at i became free: move later members of its cluster back (linear probing) */
static void nb_delete(size_t i)
{
    size_t mask = nb_tab.cap - 1, j = i;
    nb_tab.e[i].balance = 0;
    nb_tab.n--;
    for (;;) {
        j = (j + 1) & mask;
        if (!nb_tab.e[j].balance)
            return;
        size_t home = nb_hash(nb_tab.e[j].handle, nb_tab.e[j].matching) & mask;
        /* e[j] may move to i when its home is not in (i, j] (cyclically) */
        if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
            nb_tab.e[i] = nb_tab.e[j];
            nb_tab.e[j].balance = 0;
            i = j;
        }
    }
}

/* delta +1: a Begin at time t on location loc; -1: an end */
static void nb_count(uint32_t handle, uint64_t matching, int delta, uint32_t loc, uint64_t t)
{
    if ((nb_tab.n + 1) * 2 > nb_tab.cap && nb_grow() != 0) {
        if (!nb_tab.failed)
            scorep_warn("trace: no memory to follow non-blocking I/O operations; those never "
                        "completed may keep their IoOperationBegin unmatched");
        nb_tab.failed = true;
        return;
    }
    size_t mask = nb_tab.cap - 1, i = nb_hash(handle, matching) & mask;
    while (nb_tab.e[i].balance &&
           (nb_tab.e[i].handle != handle || nb_tab.e[i].matching != matching))
        i = (i + 1) & mask;
    nb_entry *e = &nb_tab.e[i];
    if (!e->balance) {
        *e = (nb_entry){handle, loc, 0, matching, t};
        nb_tab.n++;
    }
    if (delta > 0 && t >= e->begin) {
        e->loc = loc;
        e->begin = t;
    }
    e->balance += delta;
    if (!e->balance)
        nb_delete(i);
}

static int cmp_begin(const void *a, const void *b)
{
    const io_pending *x = a, *y = b;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* Hands what nb_tab holds to the locations (states[index]) and empties it. */
static void nb_distribute(evt_state **states, uint32_t n_states)
{
    for (size_t i = 0; i < nb_tab.cap; i++) {
        nb_entry *e = &nb_tab.e[i];
        for (int64_t k = 0; k < e->balance && e->loc < n_states && states[e->loc]; k++) {
            evt_state *s = states[e->loc];
            if (pending_push(&s->nb_open, &s->n_nb_open, &s->cap_nb_open, e->handle, e->matching,
                             e->begin) != 0)
                break;
        }
    }
    for (uint32_t i = 0; i < n_states; i++)
        if (states[i] && states[i]->n_nb_open > 1)
            qsort(states[i]->nb_open, states[i]->n_nb_open, sizeof *states[i]->nb_open, cmp_begin);
    free(nb_tab.e);
    nb_tab.e = NULL;
    nb_tab.cap = nb_tab.n = 0;
    nb_tab.failed = false;
}

/* I/O records (buffer.h buf_io_rec) */
static void write_io(evt_state *s, uint64_t t, const buf_io_rec *r)
{
    OTF2_EvtWriter *w = s->w;
    switch (r->type) {
    case BUF_IO_CREATE_HANDLE:
        OTF2_EvtWriter_IoCreateHandle(w, NULL, t, r->handle, r->access, r->creation,
                                      (uint32_t)r->status);
        break;
    case BUF_IO_DESTROY_HANDLE:
        OTF2_EvtWriter_IoDestroyHandle(w, NULL, t, r->handle);
        break;
    case BUF_IO_DUPLICATE_HANDLE:
        OTF2_EvtWriter_IoDuplicateHandle(w, NULL, t, r->handle, r->new_handle, (uint32_t)r->status);
        break;
    case BUF_IO_SEEK:
        OTF2_EvtWriter_IoSeek(w, NULL, t, r->handle, (int64_t)r->offset, r->whence, r->result);
        break;
    case BUF_IO_OPERATION_BEGIN:
        OTF2_EvtWriter_IoOperationBegin(w, NULL, t, r->handle, r->op, r->op_flags, r->requested,
                                        r->matching_id);
        if (!(r->op_flags & OTF2_IO_OPERATION_FLAG_NON_BLOCKING))
            io_open_push(s, r->handle, r->matching_id);
        break;
    case BUF_IO_OPERATION_ISSUED:
        OTF2_EvtWriter_IoOperationIssued(w, NULL, t, r->handle, r->matching_id);
        break;
    case BUF_IO_OPERATION_TEST:
        OTF2_EvtWriter_IoOperationTest(w, NULL, t, r->handle, r->matching_id);
        break;
    case BUF_IO_OPERATION_CANCELLED:
        OTF2_EvtWriter_IoOperationCancelled(w, NULL, t, r->handle, r->matching_id);
        io_open_drop(s, r->handle, r->matching_id);
        break;
    case BUF_IO_CHANGE_STATUS_FLAGS:
        OTF2_EvtWriter_IoChangeStatusFlags(w, NULL, t, r->handle, (uint32_t)r->status);
        break;
    case BUF_IO_DELETE_FILE: /* handle: the file */
        OTF2_EvtWriter_IoDeleteFile(w, NULL, t, (OTF2_IoParadigmRef)r->paradigm, r->handle);
        break;
    case BUF_IO_ACQUIRE_LOCK:
        OTF2_EvtWriter_IoAcquireLock(w, NULL, t, r->handle, (OTF2_LockType)r->op);
        break;
    case BUF_IO_RELEASE_LOCK:
        OTF2_EvtWriter_IoReleaseLock(w, NULL, t, r->handle, (OTF2_LockType)r->op);
        break;
    case BUF_IO_TRY_LOCK:
        OTF2_EvtWriter_IoTryLock(w, NULL, t, r->handle, (OTF2_LockType)r->op);
        break;
    case BUF_IO_OPERATION_COMPLETE:
        if (r->error)
            OTF2_AttributeList_AddUint32(s->attrs, ATTR_IO_ERROR, (uint32_t)r->error);
        OTF2_EvtWriter_IoOperationComplete(w, r->error ? s->attrs : NULL, t, r->handle,
                                           r->transferred, r->matching_id);
        io_open_drop(s, r->handle, r->matching_id);
        break;
    }
}

/* The pre-pass over a location's records when the process recorded non-blocking I/O
 * (scorep_io_nonblocking_traced): its I/O records as write_io sees them, nothing written.
 * Its blocking operations are followed in s->io_open as write_io follows them, so that an
 * end that is not theirs counts against nb_tab, with the time write_io would write. */
static void nb_scan_item(void *ctx, const buf_item *it)
{
    evt_state *s = ctx;
    if (!it->mpi || it->type < BUF_IO_CREATE_HANDLE)
        return;
    const buf_io_rec *r = &it->mpi->io;
    switch (r->type) {
    case BUF_IO_OPERATION_BEGIN:
        if (!(r->op_flags & OTF2_IO_OPERATION_FLAG_NON_BLOCKING))
            io_open_push(s, r->handle, r->matching_id);
        else
            nb_count(r->handle, r->matching_id, +1, s->index, it->ts);
        break;
    case BUF_IO_OPERATION_CANCELLED:
    case BUF_IO_OPERATION_COMPLETE:
        if (!io_open_drop(s, r->handle, r->matching_id))
            nb_count(r->handle, r->matching_id, -1, s->index, it->ts);
        break;
    default:
        break;
    }
}

/* The pre-pass of location l, the index-th of the process: what its spill file and its
 * buffer hold, in the order write_location reads them (a spill file that cannot be read
 * back fails write_location as well) */
static void nb_scan_location(const scorep_location *l, uint32_t index)
{
    evt_state s = {.index = index};
    scorep_flush_replay(&l->buffer, nb_scan_item, &s);
    buf_merge *m = buf_merge_new(&l->buffer);
    buf_item it;
    while (m && buf_merge_next(m, &it))
        nb_scan_item(&s, &it);
    buf_merge_free(m);
    free(s.io_open);
}

/* The member index of a value of the strict class, or -1 */
static int32_t strict_pos(const buf_item *it)
{
    return it->type == BUF_EV_METRIC && !it->mpi && it->a < strict_class.n_local
               ? strict_class.pos[it->a]
               : -1;
}

/* Writes the gathered values: one record when the class is complete; otherwise (a source
 * that a thread could not start) each value in its metric's own class. */
static void flush_metrics(evt_state *s)
{
    if (!s->m_n)
        return;
    if (s->m_n == strict_class.n)
        OTF2_EvtWriter_Metric(s->w, NULL, s->m_ts, strict_class.local_ref, strict_class.n,
                              strict_class.types, s->mvals);
    else {
        strict_class.fallback = 1;
        for (uint32_t k = 0; k < strict_class.n; k++)
            if (s->mset[k])
                OTF2_EvtWriter_Metric(s->w, NULL, s->m_ts, strict_class.local_ids[k], 1,
                                      &strict_class.types[k], &s->mvals[k]);
    }
    memset(s->mset, 0, strict_class.n);
    s->m_n = 0;
}

static void write_item(evt_state *s, const buf_item *it)
{
    if (s->m_n) {
        /* the gathered values were buffered one tick before their event: a record of that
         * tick (another metric, the marker of a buffer flush that came between them) is
         * written before them, the first later one (the event) after them */
        int32_t k = strict_pos(it);
        if (it->ts + 1 != s->m_ts || (k >= 0 && s->mset[k]))
            flush_metrics(s);
    }
    if (s->smp) /* the samples taken before this event come first */
        scorep_sampling_cursor_until(s->smp, it->ts, &s->last);
    OTF2_EvtWriter *w = s->w;
    uint64_t t = it->ts;
    if (it->mpi) {
        if (it->type < BUF_MPI_COLL_BEGIN)
            write_mpi_p2p(s, t, it->mpi);
        else if (it->type < BUF_RMA_WIN_CREATE)
            write_mpi_coll(s, t, it->mpi);
        else if (it->type < BUF_IO_CREATE_HANDLE)
            write_rma(s, t, it->mpi);
        else
            write_io(s, t, &it->mpi->io);
        s->last = t;
        return;
    }
    switch (it->type) {
    case BUF_ENTER:
        push(s, it->a);
        region_event(s, take_pending(s, s->enter_attrs, it->a, true), t, it->a, true);
        break;
    case BUF_LEAVE:
        if (s->depth)
            s->depth--;
        /* pending probe attributes belong to this Leave, and memory attributes of its region */
        take_pending(s, s->attrs, it->a, false);
        region_event(s, s->attrs, t, it->a, false);
        break;
    case BUF_EV_ATTR_ENTER ... BUF_EV_ATTR_END - 1:
        pend_attr(s, it);
        break;
    case BUF_EV_THREAD_CREATE:
        OTF2_EvtWriter_ThreadCreate(w, NULL, t, s->thread_comm, it->b);
        break;
    case BUF_EV_THREAD_BEGIN:
        s->thread_begun = true;
        OTF2_EvtWriter_ThreadBegin(w, NULL, t, s->thread_comm, it->b);
        break;
    case BUF_EV_THREAD_WAIT:
        OTF2_EvtWriter_ThreadWait(w, NULL, t, s->thread_comm, it->b);
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
        const scorep_metric_def *d = scorep_defs_metric_get(it->a);
        OTF2_Type type = metric_otf2_type(d->type);
        OTF2_MetricValue v;
        v.unsigned_int = it->b;
        /* values read at an enter/leave are buffered one tick before it (buffer timestamps
         * are unique per location); in the trace they share its timestamp, as in Score-P */
        bool at_event = d->recorder == SCOREP_MREC_STRICT || d->recorder == SCOREP_MREC_SYNC;
        int32_t k = strict_pos(it);
        if (k >= 0 && s->mvals) { /* one of the class's values: gathered (flush_metrics) */
            s->mvals[k] = v;
            s->mset[k] = 1;
            s->m_n++;
            s->m_ts = t + 1;
            break;
        }
        if (s->inst_seen && it->a < scoped.n_local && scoped.is[it->a] && !s->inst_seen[it->a])
            scoped_note(s, it->a);
        OTF2_EvtWriter_Metric(w, NULL, at_event ? t + 1 : t, it->a, 1, &type, &v);
        break;
    }
    case BUF_EV_THREAD_FORK ... BUF_EV_THREAD_TASK_DEPEND:
        scorep_trace_threads_event(w, it);
        break;
    case BUF_EV_BUFFER_FLUSH:
        OTF2_EvtWriter_BufferFlush(w, NULL, t, it->b);
        break;
    case BUF_EV_MEASUREMENT_ON:
    case BUF_EV_MEASUREMENT_OFF:
        OTF2_EvtWriter_MeasurementOnOff(w, NULL, t,
                                        it->type == BUF_EV_MEASUREMENT_ON ? OTF2_MEASUREMENT_ON
                                                                          : OTF2_MEASUREMENT_OFF);
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

/* I/O operations this process's trace cancelled at its locations' ends (write_epilogue), for
 * MANIFEST.md: [0] blocking ones, [1] non-blocking ones */
static uint64_t io_cancelled_at_end[2];

/* After the buffer: the marker of a full buffer, leaves of calls still open, thread end. */
static void write_epilogue(evt_state *s, const scorep_location *l, int exit_status)
{
    /* a full buffer: the calls still open end where recording ended */
    uint64_t close_ts = l->buffer.full ? l->buffer.full_ts : l->end_ts;
    if (l->buffer.full)
        OTF2_EvtWriter_MeasurementOnOff(s->w, NULL, next_ts(s, close_ts), OTF2_MEASUREMENT_OFF);
    /* operations still in progress (innermost first) are cancelled before their calls leave:
     * OTF2 documents Cancelled after Issued of non-blocking operations only, but it is its one
     * record for an operation that never completed; a Complete would claim a result */
    if (s->n_io_open)
        scorep_verbose("location %" PRIu32 ": %" PRIu32
                       " I/O operations still in progress at the end: IoOperationCancelled",
                       l->id, s->n_io_open);
    io_cancelled_at_end[0] += s->n_io_open;
    while (s->n_io_open > 0) {
        s->n_io_open--;
        OTF2_EvtWriter_IoOperationCancelled(s->w, NULL, next_ts(s, close_ts),
                                            s->io_open[s->n_io_open].handle,
                                            s->io_open[s->n_io_open].matching);
    }
    /* then the non-blocking requests issued here that no location completed (nb_tab), in
     * the order they were issued: they outlive the calls that issued them */
    if (s->n_nb_open)
        scorep_verbose("location %" PRIu32 ": %" PRIu32
                       " non-blocking I/O operations issued and never completed: "
                       "IoOperationCancelled",
                       l->id, s->n_nb_open);
    io_cancelled_at_end[1] += s->n_nb_open;
    for (uint32_t i = 0; i < s->n_nb_open; i++)
        OTF2_EvtWriter_IoOperationCancelled(s->w, NULL, next_ts(s, close_ts), s->nb_open[i].handle,
                                            s->nb_open[i].matching);
    while (s->depth > 0) {
        s->depth--;
        region_event(s, NULL, next_ts(s, close_ts), s->stack[s->depth], false);
    }
    scorep_sampling_cursor_close(s->smp, s->last);
    if (l->id == 0)
        OTF2_EvtWriter_ProgramEnd(s->w, NULL, next_ts(s, l->end_ts), exit_status);
    else if (l->create_seq && s->thread_begun)
        OTF2_EvtWriter_ThreadEnd(s->w, NULL, next_ts(s, l->end_ts), s->thread_comm, l->create_seq);
}

/* Records a flush wrote out come first (flush.c). */
static void replay_item(void *ctx, const buf_item *it)
{
    write_item(ctx, it);
}

static uint64_t location_gid(const scorep_location *l, int rank)
{
    return scorep_location_global_id((uint32_t)rank, l->id);
}

/* The job's operations cancelled at the end (io_cancelled_at_end summed over the ranks) go
 * to MANIFEST.md: the trace holds Cancelled records that the program never caused. */
static void note_io_cancelled(const scorep_ipc *ipc, int rank, int size)
{
    uint64_t *all = rank == 0 ? calloc((size_t)size, 2 * sizeof *all) : NULL;
    uint64_t mine[2] = {io_cancelled_at_end[0], io_cancelled_at_end[1]}, sum[2] = {0, 0};
    io_cancelled_at_end[0] = io_cancelled_at_end[1] = 0;
    if (ipc->gather(mine, sizeof mine, all, 0) != 0 || rank != 0 || !all) {
        free(all);
        return;
    }
    for (int r = 0; r < size; r++) {
        sum[0] += all[2 * r];
        sum[1] += all[2 * r + 1];
    }
    free(all);
    char line[400];
    if (sum[0]) {
        snprintf(line, sizeof line,
                 "%" PRIu64 " blocking I/O operations were still in progress when the "
                 "measurement ended (a thread blocked in a read, a full buffer): the trace closes "
                 "each with IoOperationCancelled (docs/io.md)",
                 sum[0]);
        scorep_experiment_note(line);
    }
    if (sum[1]) {
        snprintf(line, sizeof line,
                 "%" PRIu64 " non-blocking I/O operations (POSIX AIO, MPI-IO) were issued and "
                 "never completed in the trace (no aio_error/aio_return, Wait or split "
                 "collective end; or a full buffer lost it): the trace closes each with "
                 "IoOperationCancelled at the end of the location that issued it (docs/io.md)",
                 sum[1]);
        scorep_experiment_note(line);
    }
}

/* A location's writing: its records (write_location), then its end (finish_location), with
 * the requests the pre-pass found it issued and nobody completed (nb_open). */
typedef struct {
    evt_state s;
    int spilled;
    bool merged; /* the buffer's records were read */
} loc_writing;

static void state_free(evt_state *s)
{
    scorep_sampling_cursor_free(s->smp);
    free(s->stack);
    free(s->io_open);
    free(s->nb_open);
    free(s->mvals);
    free(s->mset);
    free(s->inst_seen);
    OTF2_AttributeList_Delete(s->attrs);
    OTF2_AttributeList_Delete(s->enter_attrs);
}

/* cuda_win: the local id of the process's CUDA window (evt_state); index: the location's
 * position in the process's list. 0, or -1 (nothing to finish). */
static int write_location(loc_writing *lw, OTF2_Archive *a, const scorep_location *l,
                          uint32_t cuda_win, uint32_t index)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    lw->s = (evt_state){.w = OTF2_Archive_GetEvtWriter(a, location_gid(l, ipc->rank())),
                        .attrs = OTF2_AttributeList_New(),
                        .thread_comm = scorep_defs_comm_count(),
                        .cuda_win = cuda_win,
                        .enter_attrs = OTF2_AttributeList_New(),
                        .index = index,
                        .loc_id = l->id};
    evt_state *s = &lw->s;
    if (strict_class.n) {
        s->mvals = calloc(strict_class.n, sizeof *s->mvals);
        s->mset = calloc(strict_class.n, 1);
    }
    if (scoped.is)
        s->inst_seen = calloc(scoped.n_local, 1);
    if (!s->w || !s->attrs || !s->enter_attrs || (strict_class.n && (!s->mvals || !s->mset)) ||
        (scoped.is && !s->inst_seen)) {
        state_free(s);
        return -1;
    }
    /* what scorep-score's max_buf estimates; tests compare the two (test_score.sh) */
    uint64_t pages, used = scorep_buffer_used_bytes(&l->buffer, &pages);
    scorep_verbose("trace buffer of rank %d location %" PRIu32 ": %" PRIu64
                   " bytes used in %" PRIu64 " pages, %" PRIu32 " flushes",
                   ipc->rank(), l->id, used, pages, l->buffer.n_flushes);
    /* a rank that left no piece (scorep-recover's placeholder): its location, no events */
    bool none = scorep_job_rank_missing();
    if (l->id == 0 && !none)
        OTF2_EvtWriter_ProgramBegin(s->w, NULL, next_ts(s, scorep_program_begin_ts()),
                                    scorep_defs_string(scorep_program_name()), 0, NULL);
    s->smp = scorep_sampling_cursor_new(l, s->w); /* NULL unless sampling */
    lw->spilled = scorep_flush_replay(&l->buffer, replay_item, s);
    buf_merge *m = buf_merge_new(&l->buffer);
    buf_item it;
    while (m && buf_merge_next(m, &it))
        write_item(s, &it);
    lw->merged = m != NULL;
    buf_merge_free(m);
    flush_metrics(s);
    if (s->smp)
        scorep_sampling_cursor_until(s->smp, UINT64_MAX, &s->last);
    return 0;
}

/* The location's end (write_epilogue) and the writer's closing. */
static int finish_location(loc_writing *lw, OTF2_Archive *a, const scorep_location *l,
                           int exit_status, uint64_t *n_events)
{
    evt_state *s = &lw->s;
    if (!scorep_job_rank_missing())
        write_epilogue(s, l, exit_status);
    OTF2_EvtWriter_GetNumberOfEvents(s->w, n_events);
    OTF2_EvtWriter *w = s->w;
    state_free(s);
    return OTF2_Archive_CloseEvtWriter(a, w) == OTF2_SUCCESS && lw->merged && lw->spilled == 0 ? 0
                                                                                               : -1;
}

/* ------------------------------------------------------------- definitions */
/* Global definitions are written by rank 0 from the unified tables. They are produced
 * twice: a first pass with g == NULL only collects the strings, which OTF2 wants defined
 * before the records that refer to them.
 * Group ids, every kind in increasing order as readers want them: the MPI location group
 * and the distinct MPI groups (mpi_group_count), the pthread location group, one pthread
 * group per rank, then the OpenMP ones (trace_threads.c), then CUDA's (write_cuda_defs).
 * Comm ids: [0, C) unified communicators, then one pthread contingent per rank, the OpenMP
 * thread teams, then one CUDA communicator per rank. */
typedef struct {
    const scorep_unified *u;
    const scorep_mpi_groups *groups;
    int size;
    /* per rank, gathered from all processes */
    char **node_names;
    uint32_t *n_locations;
    char ***location_names;
    uint64_t **n_events;
    unsigned char **gpu; /* per location: a GPU stream (CUDA adapter) */
    uint64_t first_ts, last_ts;
    int cuda;                  /* some process has GPU locations: every rank gets a CUDA window */
    trace_red_list reductions; /* what the locations' traces lack */
    uint64_t total_locations;
} trace_job;

static OTF2_Paradigm otf2_paradigm(scorep_paradigm p)
{
    static const OTF2_Paradigm map[] = {OTF2_PARADIGM_MEASUREMENT_SYSTEM,
                                        OTF2_PARADIGM_USER,
                                        OTF2_PARADIGM_COMPILER,
                                        OTF2_PARADIGM_PTHREAD,
                                        OTF2_PARADIGM_MPI,
                                        OTF2_PARADIGM_OPENMP,
                                        OTF2_PARADIGM_SHMEM,
                                        OTF2_PARADIGM_CUDA,
                                        OTF2_PARADIGM_SAMPLING,
                                        OTF2_PARADIGM_NONE,  /* memory: OTF2 has none */
                                        /* I/O: neither; the I/O paradigm is the handles' */
                                        OTF2_PARADIGM_NONE,
                                        OTF2_PARADIGM_NONE}; /* libwrap: as Score-P, none */
    return map[p];
}

static OTF2_RegionRole otf2_role(scorep_role r)
{
    static const OTF2_RegionRole map[] = {
        OTF2_REGION_ROLE_FUNCTION,     OTF2_REGION_ROLE_CODE,
        OTF2_REGION_ROLE_LOOP,         OTF2_REGION_ROLE_CODE,
        OTF2_REGION_ROLE_CODE,         OTF2_REGION_ROLE_ARTIFICIAL,
        OTF2_REGION_ROLE_WRAPPER,      OTF2_REGION_ROLE_POINT2POINT,
        OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_REGION_ROLE_COLL_ALL2ONE,
        OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_REGION_ROLE_COLL_OTHER,
        OTF2_REGION_ROLE_BARRIER,      OTF2_REGION_ROLE_FILE_IO,
        OTF2_REGION_ROLE_RMA,          OTF2_REGION_ROLE_THREAD_CREATE,
        OTF2_REGION_ROLE_THREAD_WAIT,  OTF2_REGION_ROLE_ALLOCATE,
        OTF2_REGION_ROLE_DEALLOCATE,   OTF2_REGION_ROLE_REALLOCATE,
        OTF2_REGION_ROLE_ATOMIC,       OTF2_REGION_ROLE_FILE_IO_METADATA,
        /* the OpenMP roles, as Score-P's scorep_tracing_definitions.c maps its types */
        OTF2_REGION_ROLE_PARALLEL,         OTF2_REGION_ROLE_SECTIONS,
        OTF2_REGION_ROLE_SECTION,          OTF2_REGION_ROLE_WORKSHARE,
        OTF2_REGION_ROLE_SINGLE,           OTF2_REGION_ROLE_SINGLE_SBLOCK,
        OTF2_REGION_ROLE_MASTER,           OTF2_REGION_ROLE_CRITICAL,
        OTF2_REGION_ROLE_CRITICAL_SBLOCK,  OTF2_REGION_ROLE_IMPLICIT_BARRIER,
        OTF2_REGION_ROLE_FLUSH,            OTF2_REGION_ROLE_ORDERED,
        OTF2_REGION_ROLE_ORDERED_SBLOCK,   OTF2_REGION_ROLE_TASK,
        OTF2_REGION_ROLE_TASK_UNTIED,      OTF2_REGION_ROLE_TASK_CREATE};
    _Static_assert(sizeof map / sizeof map[0] == SCOREP_ROLE_COUNT, "one OTF2 role per role");
    return (unsigned)r < SCOREP_ROLE_COUNT ? map[r] : OTF2_REGION_ROLE_UNKNOWN;
}

static int is_mpi_job(void)
{
    return scorep_ipc_job_multi(); /* (scorep-recover: the measured run's) */
}

static void write_regions(OTF2_GlobalDefWriter *g, strtab *st, const scorep_unified *u)
{
    uint32_t empty = strtab_add(st, "", 1);
    for (uint32_t i = 0; i < u->n[U_REGION]; i++) {
        const scorep_region_def *r = &u->regions[i];
        OTF2_RegionFlag flags = r->role == SCOREP_ROLE_PHASE     ? OTF2_REGION_FLAG_PHASE
                                : r->role == SCOREP_ROLE_DYNAMIC ? OTF2_REGION_FLAG_DYNAMIC
                                                                 : OTF2_REGION_FLAG_NONE;
        uint32_t name = strtab_add(st, r->name, 1);
        uint32_t canon = strtab_add(st, r->mangled ? r->mangled : r->name, 1);
        uint32_t file = strtab_add(st, r->file ? r->file : "", 1);
        if (g)
            OTF2_GlobalDefWriter_WriteRegion(g, i, name, canon, empty, otf2_role(r->role),
                                             otf2_paradigm(r->paradigm), flags, file,
                                             (uint32_t)r->begin_line, (uint32_t)r->end_line);
    }
}

/* ---------------------------------------------------------- metric definitions */
/* Score-P's metric modes 0..9 are value kind * 4 + timing with ACCUMULATED having 4 timings
 * (START, POINT, LAST, NEXT) and ABSOLUTE/RELATIVE 3 (POINT, LAST, NEXT). */
static OTF2_MetricMode otf2_metric_mode(uint32_t mode)
{
    static const OTF2_MetricMode m[10] = {
        OTF2_METRIC_ACCUMULATED_START, OTF2_METRIC_ACCUMULATED_POINT, OTF2_METRIC_ACCUMULATED_LAST,
        OTF2_METRIC_ACCUMULATED_NEXT,  OTF2_METRIC_ABSOLUTE_POINT,    OTF2_METRIC_ABSOLUTE_LAST,
        OTF2_METRIC_ABSOLUTE_NEXT,     OTF2_METRIC_RELATIVE_POINT,    OTF2_METRIC_RELATIVE_LAST,
        OTF2_METRIC_RELATIVE_NEXT};
    return mode < 10 ? m[mode] : OTF2_METRIC_ABSOLUTE_POINT;
}

/* One member per metric (its id is the metric's), and a one-member class for every metric
 * but the strict class's members (strict_class: their values travel together; their own
 * classes exist only for locations whose values did not fill it): user metrics,
 * asynchronous, per-process and non-strict plugin values. */
static void write_metric_def(OTF2_GlobalDefWriter *g, strtab *st, uint32_t i,
                             const scorep_metric_def *m, bool classes)
{
    OTF2_MetricMemberRef member = i;
    uint32_t name = strtab_add(st, m->name, 1);
    uint32_t descr = strtab_add(st, m->description ? m->description : "user metric", 1);
    uint32_t unit = strtab_add(st, m->unit, 1);
    if (!g)
        return;
    OTF2_MetricType type = m->source == SCOREP_MSRC_PAPI     ? OTF2_METRIC_TYPE_PAPI
                           : m->source == SCOREP_MSRC_RUSAGE ? OTF2_METRIC_TYPE_RUSAGE
                           : m->source == SCOREP_MSRC_USER || m->recorder == SCOREP_MREC_USER
                               ? OTF2_METRIC_TYPE_USER
                               : OTF2_METRIC_TYPE_OTHER;
    OTF2_MetricOccurrence occ = m->recorder == SCOREP_MREC_STRICT ? OTF2_METRIC_SYNCHRONOUS_STRICT
                                : m->recorder == SCOREP_MREC_SYNC ? OTF2_METRIC_SYNCHRONOUS
                                                                  : OTF2_METRIC_ASYNCHRONOUS;
    if (!classes) {
        OTF2_GlobalDefWriter_WriteMetricMember(
            g, i, name, descr, type, otf2_metric_mode(m->mode), metric_otf2_type(m->type),
            m->base == 0 ? OTF2_BASE_BINARY : OTF2_BASE_DECIMAL, m->exponent, unit);
        return;
    }
    uint32_t cls = strict_class.class_of ? strict_class.class_of[i] : i;
    if (cls == UINT32_MAX) /* a member of the strict class only */
        return;
    /* Score-P's scoped sampling sets (scoped): SYNCHRONOUS or ASYNCHRONOUS, ABSTRACT */
    bool sc = scoped_metric(m);
    if (sc && occ == OTF2_METRIC_SYNCHRONOUS_STRICT)
        occ = OTF2_METRIC_SYNCHRONOUS;
    OTF2_GlobalDefWriter_WriteMetricClass(g, cls, 1, &member, occ,
                                          m->recorder == SCOREP_MREC_USER || sc
                                              ? OTF2_RECORDER_KIND_ABSTRACT
                                              : OTF2_RECORDER_KIND_CPU);
}

/* Sets strict_class up for this process's locations (collective: the ranks compare their
 * sets); 0 or -1 (out of memory). */
static int strict_class_setup(const scorep_unified *u, const scorep_ipc *ipc)
{
    free(strict_class.pos);
    free(strict_class.local_ids);
    free(strict_class.types);
    free(strict_class.class_of);
    memset(&strict_class, 0, sizeof strict_class);
    uint32_t n = scorep_metrics_strict_set(NULL, 0), n_local = u->n_local[U_METRIC];
    uint32_t *ids = calloc(n + 1, sizeof *ids);
    int32_t *pos = malloc((n_local + 1) * sizeof *pos);
    OTF2_Type *types = calloc(n + 1, sizeof *types);
    bool oom = !ids || !pos || !types;
    uint64_t bad = oom, h = 14695981039346656037ull ^ n;
    if (!bad) {
        scorep_metrics_strict_set(ids, n);
        for (uint32_t i = 0; i < n_local; i++)
            pos[i] = -1;
        for (uint32_t k = 0; k < n; k++) {
            if (ids[k] >= n_local || pos[ids[k]] >= 0) { /* defined after unification?! */
                bad = 1;
                break;
            }
            pos[ids[k]] = (int32_t)k;
            types[k] = metric_otf2_type(scorep_defs_metric_get(ids[k])->type);
            h = (h ^ u->map[U_METRIC][ids[k]]) * 1099511628211ull;
        }
    }
    /* the class is global: every rank must have the same members (a hash of them) */
    uint64_t hi = bad ? UINT64_MAX : h, lo = bad ? UINT64_MAX : ~h;
    ipc->allreduce_max_u64(&hi);
    ipc->allreduce_max_u64(&lo);
    if (bad || n == 0 || n > 255 || hi != ~lo) {
        if (n > 255)
            scorep_verbose("%" PRIu32 " strictly synchronous metrics: more than one Metric "
                           "record can hold; each is written in its own class",
                           n);
        else if (n && hi != ~lo && !bad)
            scorep_verbose("the processes record different metric sets: each metric is written "
                           "in its own class");
        free(ids);
        free(pos);
        free(types);
        return oom ? -1 : 0;
    }
    strict_class.n = n;
    strict_class.local_ref = n_local;
    strict_class.n_local = n_local;
    strict_class.pos = pos;
    strict_class.local_ids = ids;
    strict_class.types = types;
    return 0;
}

/* strict_class.class_of, after the events (collective: whether any location fell back) */
static int strict_class_number(const scorep_unified *u, const scorep_ipc *ipc)
{
    ipc->allreduce_max_u64(&strict_class.fallback);
    uint32_t n = u->n[U_METRIC];
    uint32_t *c = malloc((n + 1) * sizeof *c);
    if (!c)
        return -1;
    for (uint32_t g = 0; g < n; g++)
        c[g] = strict_class.n ? 0 : g;
    if (strict_class.n) {
        for (uint32_t k = 0; k < strict_class.n; k++)
            c[u->map[U_METRIC][strict_class.local_ids[k]]] = UINT32_MAX;
        uint32_t next = 1;
        for (uint32_t g = 0; g < n; g++)
            if (c[g] != UINT32_MAX)
                c[g] = next++;
        for (uint32_t g = 0; g < n && strict_class.fallback; g++)
            if (c[g] == UINT32_MAX)
                c[g] = next++;
        scoped.base = next;
    } else
        scoped.base = n;
    strict_class.class_of = c;
    return 0;
}

/* Sets scoped up for this process's locations (before the events) */
static void scoped_setup(const scorep_unified *u)
{
    free(scoped.is);
    free(scoped.mine);
    free(scoped.all);
    free(scoped.all_rank);
    free(scoped.group);
    free(scoped.node);
    memset(&scoped, 0, sizeof scoped);
    uint32_t n_local = u->n_local[U_METRIC];
    bool any = false;
    for (uint32_t i = 0; i < n_local && !any; i++)
        any = scoped_metric(scorep_defs_metric_get(i));
    if (!any)
        return;
    scoped.is = calloc(n_local, 1);
    scoped.oom = !scoped.is;
    for (uint32_t i = 0; scoped.is && i < n_local; i++)
        scoped.is[i] = scoped_metric(scorep_defs_metric_get(i));
    scoped.n_local = scoped.is ? n_local : 0;
}

static int by_location_metric(const void *a, const void *b)
{
    const scoped_inst *x = a, *y = b;
    return x->loc != y->loc ? (x->loc > y->loc ? 1 : -1)
                            : (x->metric > y->metric) - (x->metric < y->metric);
}

/* After the events (collective): numbers the job's instances (by rank, location and metric
 * id: the order of the first values depends on the plugins' threads); rank 0 gets them all.
 * Without memory for them on some rank there are none: records then name their metric's
 * class. */
static int scoped_number(const scorep_unified *u, const scorep_ipc *ipc)
{
    int rank = ipc->rank(), size = ipc->size();
    if (scoped.n_mine)
        qsort(scoped.mine, scoped.n_mine, sizeof *scoped.mine, by_location_metric);
    uint64_t n = scoped.n_mine, total = 0, bad = scoped.oom, any = n || bad;
    ipc->allreduce_max_u64(&any); /* whether any rank has one */
    if (!any)
        return 0;
    uint64_t *counts = calloc((size_t)size, sizeof *counts);
    uint32_t *pairs = calloc(2 * (size_t)n + 1, sizeof *pairs);
    for (uint32_t k = 0; pairs && k < n; k++) {
        pairs[2 * k] = scoped.mine[k].loc;
        pairs[2 * k + 1] = u->map[U_METRIC][scoped.mine[k].metric];
    }
    bad |= !counts || !pairs;
    ipc->allreduce_max_u64(&bad);
    if (!bad && ipc->gather(&n, sizeof n, counts, 0) != 0)
        bad = 1;
    ipc->allreduce_max_u64(&bad);
    if (!bad && ipc->bcast(counts, (size_t)size * sizeof *counts, 0) != 0)
        bad = 1;
    ipc->allreduce_max_u64(&bad);
    size_t *bytes = NULL, *displs = NULL;
    uint32_t *all = NULL;
    total = 0;
    for (int r = 0; !bad && r < size; r++) {
        if (r == rank)
            scoped.first = (uint32_t)total;
        total += counts[r];
    }
    if (!bad && rank == 0) {
        bytes = calloc((size_t)size, sizeof *bytes);
        displs = calloc((size_t)size, sizeof *displs);
        all = calloc(2 * total + 1, sizeof *all);
        scoped.all = calloc(total + 1, sizeof *scoped.all);
        scoped.all_rank = calloc(total + 1, sizeof *scoped.all_rank);
        scoped.group = calloc((size_t)size, sizeof *scoped.group);
        scoped.node = calloc((size_t)size, sizeof *scoped.node);
        bad = !bytes || !displs || !all || !scoped.all || !scoped.all_rank || !scoped.group ||
              !scoped.node || total > UINT32_MAX;
        for (int r = 0; !bad && r < size; r++) {
            bytes[r] = 2 * counts[r] * sizeof *all;
            displs[r] = r ? displs[r - 1] + bytes[r - 1] : 0;
        }
    }
    ipc->allreduce_max_u64(&bad);
    if (!bad && ipc->gatherv(pairs, 2 * n * sizeof *pairs, all, bytes, displs, 0) != 0)
        bad = 1;
    ipc->allreduce_max_u64(&bad);
    if (!bad && rank == 0) {
        uint32_t k = 0;
        for (int r = 0; r < size; r++)
            for (uint64_t i = 0; i < counts[r]; i++, k++) {
                scoped.all[k] = (scoped_inst){all[2 * k], all[2 * k + 1]};
                scoped.all_rank[k] = (uint32_t)r;
            }
        scoped.n_all = k;
    }
    free(counts);
    free(pairs);
    free(bytes);
    free(displs);
    free(all);
    if (bad) {
        scoped.n_mine = scoped.n_all = 0;
        if (scoped.oom)
            scorep_warn("out of memory: the trace's metric instances are left out (Metric "
                        "records name their metric's class)");
        return scoped.oom ? -1 : 0;
    }
    return 0;
}

static void write_params_metrics(OTF2_GlobalDefWriter *g, strtab *st, const scorep_unified *u)
{
    for (uint32_t i = 0; i < u->n[U_PARAM]; i++) {
        const scorep_parameter_def *p = &u->params[i];
        OTF2_ParameterType t = p->type == SCOREP_PARAM_INT64    ? OTF2_PARAMETER_TYPE_INT64
                               : p->type == SCOREP_PARAM_UINT64 ? OTF2_PARAMETER_TYPE_UINT64
                                                                : OTF2_PARAMETER_TYPE_STRING;
        uint32_t name = strtab_add(st, p->name, 1);
        if (g)
            OTF2_GlobalDefWriter_WriteParameter(g, i, name, t);
    }
    /* the members first: readers resolve a class's members as they read it */
    for (uint32_t i = 0; i < u->n[U_METRIC]; i++)
        write_metric_def(g, st, i, &u->metrics[i], false);
    if (g && strict_class.n) { /* first, as Score-P defines its sampling set first */
        OTF2_MetricMemberRef members[255];
        for (uint32_t k = 0; k < strict_class.n; k++)
            members[k] = u->map[U_METRIC][strict_class.local_ids[k]];
        OTF2_GlobalDefWriter_WriteMetricClass(g, 0, (uint8_t)strict_class.n, members,
                                              OTF2_METRIC_SYNCHRONOUS_STRICT,
                                              OTF2_RECORDER_KIND_CPU);
    }
    /* in increasing class id: the fallback classes of the strict class's members are last */
    uint32_t last = strict_class.n ? u->n[U_METRIC] - strict_class.n : UINT32_MAX;
    for (int pass = 0; g && pass < 2; pass++)
        for (uint32_t i = 0; i < u->n[U_METRIC]; i++) {
            uint32_t c = strict_class.class_of ? strict_class.class_of[i] : i;
            if (c != UINT32_MAX && (c <= last) == (pass == 0))
                write_metric_def(g, st, i, &u->metrics[i], true);
        }
    /* the scopes of Score-P's scoped sampling sets (scorep_metric_management.c) */
    for (uint32_t k = 0; g && scoped.group && k < scoped.n_all; k++) {
        uint32_t r = scoped.all_rank[k], gm = scoped.all[k].metric;
        uint64_t recorder = scorep_location_global_id(r, scoped.all[k].loc);
        uint32_t per = u->metrics[gm].per;
        OTF2_MetricScope scope = per == 0   ? OTF2_SCOPE_LOCATION /* asynchronous per thread */
                                 : per == 1 ? OTF2_SCOPE_LOCATION_GROUP
                                            : OTF2_SCOPE_SYSTEM_TREE_NODE;
        uint64_t ref = per == 0   ? recorder
                       : per == 1 ? scoped.group[r]
                       : per == 2 ? scoped.node[r] /* the host's node */
                                  : scoped.root;
        OTF2_GlobalDefWriter_WriteMetricInstance(
            g, scoped.base + k, strict_class.class_of ? strict_class.class_of[gm] : gm, recorder,
            scope, ref);
    }
}

static void write_attributes(OTF2_GlobalDefWriter *g, strtab *st)
{
    static const struct {
        const char *name, *descr;
        OTF2_Type type;
    } a[ATTR_COUNT] = {
        {"mpi_message_id", "n-th message on (communicator, sender, receiver, tag)",
         OTF2_TYPE_UINT64},
        {"mpi_probe_source", "rank of the probed message's sender in the communicator",
         OTF2_TYPE_UINT32},
        {"mpi_probe_tag", "tag of the probed message", OTF2_TYPE_UINT32},
        {"mpi_probe_comm", "communicator of the probed message", OTF2_TYPE_COMM},
        {"mpi_probe_bytes", "size of the probed message in bytes", OTF2_TYPE_UINT64},
        {"mpi_message_handle", "0: plain probe; n: the n-th matched probe (Mprobe/Improbe)",
         OTF2_TYPE_UINT64},
        {"io_error", "errno of a failed POSIX or ISO C I/O call, MPI error code of MPI-IO",
         OTF2_TYPE_UINT32},
        /* Score-P's memory attributes, its names and descriptions */
        {"ALLOCATION_SIZE", "Size of memory to allocate", OTF2_TYPE_UINT64},
        {"DEALLOCATION_SIZE", "Size of memory to deallocate", OTF2_TYPE_UINT64},
        {"ARGUMENT_ADDRESS", "Address argument", OTF2_TYPE_UINT64},
        {"RESULT_ADDRESS", "Result of allocation", OTF2_TYPE_UINT64}};
    for (uint32_t i = 0; i < ATTR_COUNT; i++) {
        uint32_t name = strtab_add(st, a[i].name, 1), descr = strtab_add(st, a[i].descr, 1);
        if (g)
            OTF2_GlobalDefWriter_WriteAttribute(g, i, name, descr, a[i].type);
    }
}

static uint64_t *range(uint32_t n)
{
    uint64_t *m = malloc((n ? n : 1) * sizeof *m);
    for (uint32_t i = 0; m && i < n; i++)
        m[i] = i;
    return m;
}

/* Group ids of MPI: 0 the ranks, 1..n the distinct groups (trace_mpi_groups.h); then the
 * groups of threads. */
static uint32_t mpi_group_count(const trace_job *j)
{
    return is_mpi_job() ? 1 + j->groups->n : 0;
}

static void write_mpi_groups(OTF2_GlobalDefWriter *g, uint32_t empty, const trace_job *j)
{
    /* MPI ranks are the master locations, whose global ids equal the rank */
    uint64_t *m = range((uint32_t)j->size);
    if (m)
        OTF2_GlobalDefWriter_WriteGroup(g, 0, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)j->size,
                                        m);
    free(m);
    for (uint32_t i = 0; i < j->groups->n; i++) {
        uint32_t n = j->groups->size[i];
        m = malloc((n ? n : 1) * sizeof *m);
        for (uint32_t k = 0; m && k < n; k++)
            m[k] = j->groups->members[i][k];
        if (m)
            OTF2_GlobalDefWriter_WriteGroup(g, i + 1, empty, OTF2_GROUP_TYPE_COMM_GROUP,
                                            OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, n, m);
        free(m);
    }
}

/* the OTF2 id of a unified communicator (SCOREP_INVALID_ID: none) */
static OTF2_CommRef otf2_comm(const scorep_mpi_groups *m, const scorep_unified *u, uint32_t c)
{
    return c < u->n[U_COMM] ? m->comm_id[c] : OTF2_UNDEFINED_COMM;
}

/* Communicators (intercommunicators as InterComm: sender and receiver ranks of their
 * messages are ranks in the other group), then RMA windows. */
static void write_mpi_comms(OTF2_GlobalDefWriter *g, strtab *st, const trace_job *j)
{
    const scorep_unified *u = j->u;
    uint32_t empty = strtab_add(st, "", 1);
    for (uint32_t c = 0; c < u->n[U_COMM]; c++)
        strtab_add(st, u->comms[c].name, 1);
    for (uint32_t w = 0; w < u->n[U_WIN]; w++)
        strtab_add(st, u->wins[w].name, 1);
    if (!g || !is_mpi_job())
        return;
    write_mpi_groups(g, empty, j);
    const scorep_mpi_groups *m = j->groups;
    for (uint32_t id = 0; id < u->n[U_COMM]; id++) {
        uint32_t c = m->comm_at[id];
        const scorep_comm_def *cd = &u->comms[c];
        uint32_t name = strtab_add(st, cd->name, 1);
        OTF2_CommRef parent = otf2_comm(m, u, cd->parent);
        if (cd->is_inter)
            OTF2_GlobalDefWriter_WriteInterComm(g, id, name, m->a[c], m->b[c], parent,
                                                OTF2_COMM_FLAG_NONE);
        else
            OTF2_GlobalDefWriter_WriteComm(g, id, name, m->a[c], parent, OTF2_COMM_FLAG_NONE);
    }
    for (uint32_t w = 0; w < u->n[U_WIN]; w++)
        OTF2_GlobalDefWriter_WriteRmaWin(g, w, strtab_add(st, u->wins[w].name, 1),
                                         otf2_comm(m, u, u->wins[w].comm), OTF2_RMA_WIN_FLAG_NONE);
}

/* the global location id of local location i of rank r */
static uint64_t global_location(int r, uint32_t i)
{
    return scorep_location_global_id((uint32_t)r, i);
}

/* Members of a paradigm's COMM_LOCATIONS group, rank by rank: the CPU threads (gpu 0), or
 * the master thread and the GPU streams (gpu 1: CUDA's, so its remote rank 0 is the host).
 * per_rank[r]: how many of rank r's; NULL when out of memory. */
static uint64_t *comm_locations(const trace_job *j, int gpu, uint32_t *per_rank, uint32_t *total)
{
    *total = 0;
    for (int r = 0; r < j->size; r++)
        *total += j->n_locations[r];
    uint64_t *m = malloc((*total ? *total : 1) * sizeof *m);
    *total = 0;
    for (int r = 0; m && r < j->size; r++) {
        per_rank[r] = 0;
        for (uint32_t i = 0; i < j->n_locations[r]; i++)
            if (gpu ? i == 0 || j->gpu[r][i] : !j->gpu[r][i]) {
                m[(*total)++] = global_location(r, i);
                per_rank[r]++;
            }
    }
    return m;
}

/* A COMM_LOCATIONS group at id base, then per rank a COMM_GROUP (base + 1 + r) of indices
 * into it and a communicator (comm + r) over that group. */
static void write_contingents(OTF2_GlobalDefWriter *g, const trace_job *j, int gpu,
                              OTF2_Paradigm p, uint32_t base, uint32_t comm,
                              const uint32_t names[3])
{
    uint32_t total, *per_rank = malloc((j->size ? j->size : 1) * sizeof *per_rank);
    uint64_t *members = per_rank ? comm_locations(j, gpu, per_rank, &total) : NULL;
    if (members) {
        OTF2_GlobalDefWriter_WriteGroup(g, base, names[0], OTF2_GROUP_TYPE_COMM_LOCATIONS, p,
                                        OTF2_GROUP_FLAG_NONE, total, members);
        for (uint32_t r = 0, first = 0; r < (uint32_t)j->size; first += per_rank[r], r++) {
            for (uint32_t i = 0; i < per_rank[r]; i++)
                members[i] = (uint64_t)first + i; /* indices into the location group */
            OTF2_GlobalDefWriter_WriteGroup(g, base + 1 + r, names[1], OTF2_GROUP_TYPE_COMM_GROUP,
                                            p, OTF2_GROUP_FLAG_NONE, per_rank[r], members);
            OTF2_GlobalDefWriter_WriteComm(g, comm + r, names[2], base + 1 + r,
                                           OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
        }
    }
    free(members);
    free(per_rank);
}

/* The pthread location group (the CPU threads of all processes; GPU streams are CUDA's) and
 * per rank its pthread contingent, the communicator of its thread-create records. */
static void write_thread_comms(OTF2_GlobalDefWriter *g, strtab *st, const trace_job *j)
{
    uint32_t empty = strtab_add(st, "", 1);
    uint32_t names[3] = {empty, empty, strtab_add(st, "Pthread thread contingent", 1)};
    if (g)
        write_contingents(g, j, 0, OTF2_PARADIGM_PTHREAD, mpi_group_count(j), j->u->n[U_COMM],
                          names);
}

/* CUDA's definitions as Score-P makes them (scorep_cuda_define_cuda_locations and
 * scorep_cuda_define_cuda_group): the COMM_LOCATIONS group "CUDA" of paradigm CUDA (per
 * process the master thread, standing for the host, and the GPU streams), per process a
 * COMM_GROUP "CUDA_GROUP" and a communicator over it, the RMA window "CUDA_WINDOW" on that
 * communicator (global id: number of MPI windows + rank), and the LOCATIONS group
 * "CUDA_GROUP" of all GPU streams. Group and communicator ids follow the OpenMP ones; only
 * when some process has GPU locations. */
static void write_cuda_defs(OTF2_GlobalDefWriter *g, strtab *st, const trace_job *j,
                            uint32_t group, uint32_t comm)
{
    if (!j->cuda)
        return;
    uint32_t empty = strtab_add(st, "", 1), cuda_group = strtab_add(st, "CUDA_GROUP", 1);
    uint32_t names[3] = {strtab_add(st, "CUDA", 1), cuda_group, empty};
    uint32_t window = strtab_add(st, "CUDA_WINDOW", 1);
    if (!g)
        return;
    write_contingents(g, j, 1, OTF2_PARADIGM_CUDA, group, comm, names);
    for (int r = 0; r < j->size; r++)
        OTF2_GlobalDefWriter_WriteRmaWin(g, j->u->n[U_WIN] + (uint32_t)r, window,
                                         comm + (uint32_t)r, OTF2_RMA_WIN_FLAG_NONE);
    uint32_t n = 0, *per_rank = malloc((j->size ? j->size : 1) * sizeof *per_rank);
    uint64_t *m = per_rank ? comm_locations(j, 1, per_rank, &n) : NULL;
    uint32_t k = 0;
    for (uint32_t i = 0; m && i < n; i++) /* the streams: all but each rank's master */
        if (m[i] >> 32) /* local index > 0 */
            m[k++] = m[i];
    if (m)
        OTF2_GlobalDefWriter_WriteGroup(g, group + 1 + (uint32_t)j->size, cuda_group,
                                        OTF2_GROUP_TYPE_LOCATIONS, OTF2_PARADIGM_UNKNOWN,
                                        OTF2_GROUP_FLAG_NONE, k, m);
    free(m);
    free(per_rank);
}

/* The system tree comes from the sequence definitions (writers/systree_job.c), expanded node
 * by node; OTF2 ids: system-tree nodes and location groups by their ordinal (readers want
 * them in increasing order), locations by local index << 32 | rank (scorep_location_global_id).
 * GPU streams (CUDA adapter) are in location groups of type ACCELERATOR, one per CUDA
 * context of a process ("CUDA Context <id>", created by the process: OTF2 3.0 allows no
 * accelerator streams in a process group), under a system-tree node per device of the
 * process's node (class "CUDA Device", name the device number), as Score-P defines them.
 * The walk numbers devices after the nodes and accelerator groups after the processes, so
 * they and their streams are written after it. */
typedef struct {
    uint64_t id, parent, creator; /* creator: accelerator groups only */
    uint32_t name, klass;         /* strings */
} deferred_def;

typedef struct {
    uint32_t rank, local, name;
    uint64_t events, group;
} gpu_loc;

typedef struct {
    OTF2_GlobalDefWriter *g;
    strtab *st;
    const trace_job *j;
    deferred_def *dev, *accel;
    gpu_loc *gpu;
    uint32_t n_dev, n_accel, n_gpu;
    size_t cap_dev, cap_accel, cap_gpu;
} st_writer;

static int defer(deferred_def **arr, uint32_t *n, size_t *cap, deferred_def d)
{
    if (scorep_grow((void **)arr, cap, (size_t)*n + 1, sizeof **arr) != 0)
        return -1;
    (*arr)[(*n)++] = d;
    return 0;
}

static int write_st_node(void *arg, const scorep_st_node *n)
{
    st_writer *w = arg;
    uint32_t name = strtab_add(w->st, n->name, 1), klass = strtab_add(w->st, n->klass, 1);
    if (!w->g)
        return 0; /* the first pass: the strings only */
    switch (n->kind) {
    case SCOREP_ST_NODE:
        if (n->parent_ordinal == UINT64_MAX)
            scoped.root = (uint32_t)n->ordinal;
        OTF2_GlobalDefWriter_WriteSystemTreeNode(w->g, (uint32_t)n->ordinal, name, klass,
                                                 n->parent_ordinal == UINT64_MAX
                                                     ? OTF2_UNDEFINED_SYSTEM_TREE_NODE
                                                     : (uint32_t)n->parent_ordinal);
        break;
    case SCOREP_ST_DEVICE:
        return defer(&w->dev, &w->n_dev, &w->cap_dev,
                     (deferred_def){n->ordinal, n->parent_ordinal, 0, name, klass});
    case SCOREP_ST_PROCESS:
        if (scoped.group && n->rank < (uint32_t)w->j->size) {
            scoped.group[n->rank] = (uint32_t)n->ordinal;
            scoped.node[n->rank] = (uint32_t)n->parent_ordinal;
        }
        OTF2_GlobalDefWriter_WriteLocationGroup(
            w->g, (uint32_t)n->ordinal, name, OTF2_LOCATION_GROUP_TYPE_PROCESS,
            (uint32_t)n->parent_ordinal, OTF2_UNDEFINED_LOCATION_GROUP);
        break;
    case SCOREP_ST_ACCEL:
        return defer(&w->accel, &w->n_accel, &w->cap_accel,
                     (deferred_def){n->ordinal, n->parent_ordinal, n->creator_ordinal, name, 0});
    case SCOREP_ST_LOCATION: {
        uint64_t events =
            n->local < w->j->n_locations[n->rank] ? w->j->n_events[n->rank][n->local] : 0;
        if (n->gpu) {
            if (scorep_grow((void **)&w->gpu, &w->cap_gpu, (size_t)w->n_gpu + 1,
                            sizeof *w->gpu) != 0)
                return -1;
            w->gpu[w->n_gpu++] = (gpu_loc){n->rank, n->local, name, events, n->parent_ordinal};
            return 0;
        }
        OTF2_GlobalDefWriter_WriteLocation(
            w->g, scorep_location_global_id(n->rank, n->local), name,
            OTF2_LOCATION_TYPE_CPU_THREAD, events, (uint32_t)n->parent_ordinal);
        break;
    }
    }
    return 0;
}

static void write_accelerators(st_writer *w)
{
    for (uint32_t k = 0; k < w->n_dev; k++)
        OTF2_GlobalDefWriter_WriteSystemTreeNode(w->g, (uint32_t)w->dev[k].id, w->dev[k].name,
                                                 w->dev[k].klass, (uint32_t)w->dev[k].parent);
    for (uint32_t k = 0; k < w->n_accel; k++)
        OTF2_GlobalDefWriter_WriteLocationGroup(
            w->g, (uint32_t)w->accel[k].id, w->accel[k].name, OTF2_LOCATION_GROUP_TYPE_ACCELERATOR,
            (uint32_t)w->accel[k].parent, (uint32_t)w->accel[k].creator);
    for (uint32_t i = 0; i < w->n_gpu; i++) {
        const gpu_loc *l = &w->gpu[i];
        OTF2_GlobalDefWriter_WriteLocation(w->g,
                                           scorep_location_global_id(l->rank, l->local),
                                           l->name, OTF2_LOCATION_TYPE_ACCELERATOR_STREAM,
                                           l->events, (uint32_t)l->group);
    }
}

static void write_system_tree(OTF2_GlobalDefWriter *g, strtab *st, const trace_job *j)
{
    st_writer w = {g, st, j, NULL, NULL, NULL, 0, 0, 0, 0, 0, 0};
    if (scorep_systree_walk(write_st_node, &w) == 0 && g)
        write_accelerators(&w);
    free(w.dev);
    free(w.accel);
    free(w.gpu);
}

/* I/O paradigms (ids: scorep_io_paradigm), files (scope: the system tree's root) and
 * handles, when some process recorded I/O. */
static void write_io_defs(OTF2_GlobalDefWriter *g, strtab *st, const trace_job *j)
{
    const scorep_unified *u = j->u;
    if (u->n[U_IOHANDLE] == 0)
        return;
    for (uint32_t p = 0; p < SCOREP_IO_PARADIGMS; p++) {
        uint32_t id = strtab_add(st, scorep_io_paradigm_id(p), 1);
        uint32_t name = strtab_add(st, scorep_io_paradigm_name(p), 1);
        if (g)
            OTF2_GlobalDefWriter_WriteIoParadigm(
                g, (OTF2_IoParadigmRef)p, id, name,
                p == SCOREP_IO_MPIIO ? OTF2_IO_PARADIGM_CLASS_PARALLEL
                                     : OTF2_IO_PARADIGM_CLASS_SERIAL,
                p == SCOREP_IO_POSIX ? OTF2_IO_PARADIGM_FLAG_OS : OTF2_IO_PARADIGM_FLAG_NONE, 0,
                NULL, NULL, NULL);
    }
    for (uint32_t f = 0; f < u->n[U_IOFILE]; f++) {
        uint32_t name = strtab_add(st, u->io_files[f].name, 1);
        if (g)
            OTF2_GlobalDefWriter_WriteIoRegularFile(g, f, name, 0);
    }
    for (uint32_t h = 0; h < u->n[U_IOHANDLE]; h++) {
        const scorep_io_handle_def *d = &u->io_handles[h];
        uint32_t name = strtab_add(st, d->name, 1);
        if (!g)
            continue;
        OTF2_CommRef comm = is_mpi_job() ? otf2_comm(j->groups, u, d->comm) : OTF2_UNDEFINED_COMM;
        OTF2_GlobalDefWriter_WriteIoHandle(
            g, h, name, d->file == SCOREP_INVALID_ID ? OTF2_UNDEFINED_IO_FILE : d->file,
            (OTF2_IoParadigmRef)d->paradigm, d->flags, comm, OTF2_UNDEFINED_IO_HANDLE);
        if (d->flags & SCOREP_IO_HANDLE_PRE_CREATED)
            OTF2_GlobalDefWriter_WriteIoPreCreatedHandleState(g, h, d->access,
                                                              OTF2_IO_STATUS_FLAG_NONE);
    }
}

static uint32_t sampling_string(void *st, const char *s)
{
    return strtab_add(st, s, 1);
}

/* Interrupt generators and calling contexts (src/sampling): their strings in both passes. */
static void write_sampling_defs(OTF2_GlobalDefWriter *g, strtab *st)
{
    if (!scorep_sampling_trace_used())
        return;
    uint32_t names[SMP_MAX_SOURCES];
    for (int i = 0; i < scorep_sampling_generator_count(); i++)
        names[i] = strtab_add(st, scorep_sampling_generator_name(i), 1);
    scorep_sampling_write_defs(g, names, sampling_string, st);
}

/* Score-P's region groups (its unification's create_region_groups): one group of type REGIONS
 * per group name and paradigm of the regions that have one (a library wrapper's display name,
 * docs/libwrap.md), members the region ids, at the group ids from first on. */
static void write_region_groups(OTF2_GlobalDefWriter *g, strtab *st, const scorep_unified *u,
                                uint32_t first)
{
    uint32_t n = u->n[U_REGION], id = first;
    uint64_t *m = NULL;
    for (uint32_t i = 0; i < n; i++) {
        const scorep_region_def *r = &u->regions[i];
        if (!r->group)
            continue;
        uint32_t k = 0;
        while (k < i && !(u->regions[k].group && u->regions[k].paradigm == r->paradigm &&
                          strcmp(u->regions[k].group, r->group) == 0))
            k++;
        if (k < i) /* the group of an earlier region */
            continue;
        uint32_t name = strtab_add(st, r->group, 1);
        if (!g)
            continue;
        if (!m && !(m = malloc(n * sizeof *m)))
            return;
        uint32_t c = 0;
        for (k = i; k < n; k++)
            if (u->regions[k].group && u->regions[k].paradigm == r->paradigm &&
                strcmp(u->regions[k].group, r->group) == 0)
                m[c++] = k;
        OTF2_GlobalDefWriter_WriteGroup(g, id++, name, OTF2_GROUP_TYPE_REGIONS,
                                        OTF2_PARADIGM_UNKNOWN, OTF2_GROUP_FLAG_NONE, c, m);
    }
    free(m);
}

static void write_all_defs(OTF2_GlobalDefWriter *g, strtab *st, const trace_job *j)
{
    write_system_tree(g, st, j);
    write_regions(g, st, j->u);
    write_attributes(g, st);
    write_mpi_comms(g, st, j);
    write_thread_comms(g, st, j);
    /* after the pthread location group and its per-rank groups */
    uint32_t group, comm;
    scorep_trace_threads_defs(g, j->u, j->size, mpi_group_count(j) + 1 + (uint32_t)j->size,
                              strtab_add(st, "OpenMP thread team", 1), strtab_add(st, "", 1),
                              &group, &comm);
    write_cuda_defs(g, st, j, group, comm);
    /* after CUDA's groups: its location group, one per rank and its streams' group */
    write_region_groups(g, st, j->u, j->cuda ? group + 2 + (uint32_t)j->size : group);
    write_params_metrics(g, st, j->u);
    write_sampling_defs(g, st);
    write_io_defs(g, st, j);
}

static int write_global_defs(OTF2_Archive *a, const trace_job *j)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
    if (!g)
        return -1;
    strtab st = {0};
    for (uint32_t i = 0; i < j->u->n[U_STRING]; i++) /* unified strings keep their ids */
        strtab_add(&st, j->u->strings[i], 0);
    write_all_defs(NULL, &st, j);
    OTF2_GlobalDefWriter_WriteClockProperties(g, scorep_timer_resolution(), j->first_ts,
                                              j->last_ts - j->first_ts,
                                              scorep_timer_realtime_ns(j->first_ts));
    for (uint32_t i = 0; i < st.n; i++)
        OTF2_GlobalDefWriter_WriteString(g, i, st.s[i]);
    write_all_defs(g, &st, j);
    for (uint32_t i = 0; i < st.n; i++)
        free(st.s[i]);
    free(st.s);
    hash_index_free(&st.index);
    return OTF2_Archive_CloseGlobalDefWriter(a, g) == OTF2_SUCCESS ? 0 : -1;
}

/* ------------------------------------------------------- local definitions */
/* Events carry this process's ids; per location, mapping tables translate them. */
static void write_map(OTF2_DefWriter *d, OTF2_MappingType type, const uint32_t *map, uint32_t n,
                      uint64_t extra)
{
    uint64_t *m = malloc((n + 1) * sizeof *m);
    if (!m)
        return;
    for (uint32_t i = 0; i < n; i++)
        m[i] = map[i];
    uint32_t total = n;
    if (extra != UINT64_MAX)
        m[total++] = extra;
    OTF2_IdMap *idmap = OTF2_IdMap_CreateFromUint64Array(total, m, true);
    if (idmap) {
        OTF2_DefWriter_WriteMappingTable(d, type, idmap);
        OTF2_IdMap_Free(idmap);
    }
    free(m);
}

static int write_local_defs(OTF2_Archive *a, const scorep_unified *u, const scorep_mpi_groups *mg)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    const scorep_clock_point *cp;
    int n_cp = scorep_clock_points(&cp);
    /* local id -> unified id -> OTF2 id */
    uint32_t *groups = malloc((u->n_local[U_GROUP] + 1) * sizeof *groups);
    uint32_t *comms = malloc((u->n_local[U_COMM] + 1) * sizeof *comms);
    /* local metric id -> its class (strict_class.class_of) */
    uint32_t *metrics =
        strict_class.class_of ? malloc((u->n_local[U_METRIC] + 1) * sizeof *metrics) : NULL;
    for (uint32_t i = 0; metrics && i < u->n_local[U_METRIC]; i++)
        metrics[i] = strict_class.class_of[u->map[U_METRIC][i]];
    for (uint32_t i = 0; groups && i < u->n_local[U_GROUP]; i++)
        groups[i] = mg->of_group[u->map[U_GROUP][i]];
    for (uint32_t i = 0; comms && i < u->n_local[U_COMM]; i++)
        comms[i] = mg->comm_id[u->map[U_COMM][i]];
    if (!groups || !comms || !metrics) {
        free(groups);
        free(comms);
        free(metrics);
        return -1;
    }
    for (scorep_location *l = scorep_location_first(); l; l = l->next) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, location_gid(l, ipc->rank()));
        if (!d)
            continue;
        write_map(d, OTF2_MAPPING_STRING, u->map[U_STRING], u->n_local[U_STRING], UINT64_MAX);
        write_map(d, OTF2_MAPPING_REGION, u->map[U_REGION], u->n_local[U_REGION], UINT64_MAX);
        write_map(d, OTF2_MAPPING_PARAMETER, u->map[U_PARAM], u->n_local[U_PARAM], UINT64_MAX);
        /* the location's metric instances (scoped) replace their classes */
        for (uint32_t k = 0; k < scoped.n_mine; k++)
            if (scoped.mine[k].loc == l->id)
                metrics[scoped.mine[k].metric] = scoped.base + scoped.first + k;
        write_map(d, OTF2_MAPPING_METRIC, metrics, u->n_local[U_METRIC],
                  strict_class.n ? 0 : UINT64_MAX);
        for (uint32_t k = 0; k < scoped.n_mine; k++)
            if (scoped.mine[k].loc == l->id)
                metrics[scoped.mine[k].metric] =
                    strict_class.class_of[u->map[U_METRIC][scoped.mine[k].metric]];
        write_map(d, OTF2_MAPPING_COMM, comms, u->n_local[U_COMM],
                  u->n[U_COMM] + (uint64_t)ipc->rank());
        write_map(d, OTF2_MAPPING_GROUP, groups, u->n_local[U_GROUP], UINT64_MAX);
        write_map(d, OTF2_MAPPING_RMA_WIN, u->map[U_WIN], u->n_local[U_WIN],
                  u->n[U_WIN] + (uint64_t)ipc->rank()); /* the CUDA window */
        write_map(d, OTF2_MAPPING_IO_HANDLE, u->map[U_IOHANDLE], u->n_local[U_IOHANDLE],
                  UINT64_MAX);
        write_map(d, OTF2_MAPPING_IO_FILE, u->map[U_IOFILE], u->n_local[U_IOFILE], UINT64_MAX);
        scorep_sampling_write_mapping(d);
        for (int i = 0; i < n_cp; i++)
            OTF2_DefWriter_WriteClockOffset(d, cp[i].time, cp[i].offset, cp[i].stddev);
        OTF2_Archive_CloseDefWriter(a, d);
    }
    free(groups);
    free(comms);
    free(metrics);
    return 0;
}

/* -------------------------------------------- gathering the locations' facts */
static void pack_locations(ser_buf *b, const uint64_t *n_events)
{
    uint64_t lo = scorep_program_begin_ts(), hi = 0;
    uint32_t i = 0;
    ser_str(b, scorep_node_name());
    ser_u32(b, scorep_location_count());
    for (scorep_location *l = scorep_location_first(); l; l = l->next, i++) {
        ser_str(b, l->name);
        ser_u64(b, n_events[i]);
        ser_u32(b, l->gpu);
        scorep_trace_red_pack(b, l);
        if (l->first_ts < lo)
            lo = l->first_ts;
        if (l->last_ts + 8 > hi)
            hi = l->last_ts + 8; /* room for the epilogue's records */
    }
    /* the global range is compared with events that readers have put on rank 0's clock */
    ser_u64(b, scorep_clock_to_root(lo));
    ser_u64(b, scorep_clock_to_root(hi));
}

static int unpack_locations(trace_job *j, int r, const unsigned char *p, size_t len)
{
    ser_reader rd = {p, p + len, 0};
    j->node_names[r] = ser_get_str(&rd);
    uint32_t n = ser_get_u32(&rd);
    j->n_locations[r] = n;
    j->location_names[r] = calloc(n ? n : 1, sizeof(char *));
    j->n_events[r] = calloc(n ? n : 1, sizeof(uint64_t));
    j->gpu[r] = calloc(n ? n : 1, 1);
    if (!j->location_names[r] || !j->n_events[r] || !j->gpu[r])
        return -1;
    j->total_locations += n;
    for (uint32_t i = 0; i < n; i++) {
        j->location_names[r][i] = ser_get_str(&rd);
        j->n_events[r][i] = ser_get_u64(&rd);
        j->gpu[r][i] = ser_get_u32(&rd) != 0;
        if (scorep_trace_red_unpack(&j->reductions, &rd, (uint32_t)r, i) != 0)
            return -1;
    }
    uint64_t lo = ser_get_u64(&rd), hi = ser_get_u64(&rd);
    if (r == 0 || lo < j->first_ts)
        j->first_ts = lo;
    if (r == 0 || hi > j->last_ts)
        j->last_ts = hi;
    return rd.failed || !j->node_names[r] ? -1 : 0;
}

static int gather_locations(trace_job *j, const uint64_t *n_events)
{
    ser_buf b = {0};
    pack_locations(&b, n_events);
    unsigned char *all;
    size_t *offsets, *lengths;
    int rc = scorep_ipc_gather_blobs(b.data, b.failed ? 0 : b.len, &all, &offsets, &lengths);
    for (int r = 0; all && rc == 0 && r < j->size; r++)
        rc = lengths[r] ? unpack_locations(j, r, all + offsets[r], lengths[r]) : -1;
    ser_free(&b);
    free(all);
    free(offsets);
    free(lengths);
    return rc;
}

static void trace_job_free(trace_job *j)
{
    for (int r = 0; j->node_names && r < j->size; r++) {
        free(j->node_names[r]);
        for (uint32_t i = 0; j->location_names[r] && i < j->n_locations[r]; i++)
            free(j->location_names[r][i]);
        free(j->location_names[r]);
        free(j->n_events[r]);
        free(j->gpu[r]);
    }
    free(j->node_names);
    free(j->n_locations);
    free(j->location_names);
    free(j->n_events);
    free(j->gpu);
    scorep_trace_red_free(&j->reductions);
}

/* ----------------------------------------------------------------- archive */
static OTF2_FlushType pre_flush(void *user, OTF2_FileType ft, OTF2_LocationRef loc, void *cb,
                                bool final)
{
    (void)user;
    (void)ft;
    (void)loc;
    (void)cb;
    (void) final;
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

static OTF2_Archive *open_archive(const char *dir)
{
    OTF2_Archive *a =
        OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!a)
        return NULL;
    OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL);
    if (scorep_trace_set_collectives(a) != 0) {
        OTF2_Archive_Close(a);
        return NULL;
    }
    OTF2_Archive_SetCreator(a, "scorep-rt " PACKAGE_VERSION);
    OTF2_Archive_SetMachineName(a, scorep_machine_name());
    return a;
}

/* Below this many free bytes a failed write is put down to a full file system. */
enum { FULL_FS_BYTES = 1 << 20 };

/* Removes the files of the archive "traces" in dir (traces.otf2, traces.def, traces/);
 * returns the bytes freed. */
static uint64_t remove_trace_files(const char *dir)
{
    char path[PATH_MAX + 300];
    uint64_t freed = 0;
    struct stat st;
    const char *tops[] = {"traces.otf2", "traces.def"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, tops[i]);
        if (stat(path, &st) == 0 && unlink(path) == 0)
            freed += (uint64_t)st.st_size;
    }
    snprintf(path, sizeof path, "%s/traces", dir);
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/traces/%s", dir, e->d_name);
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && unlink(path) == 0)
            freed += (uint64_t)st.st_size;
    }
    if (d)
        closedir(d);
    snprintf(path, sizeof path, "%s/traces", dir);
    rmdir(path);
    return freed;
}

/* Rank 0, after a failed write: says why and what is left. On a full file system the event
 * files took the space the definitions and the anchor file need, so what was written is no
 * trace any reader can open; it goes, which frees the room MANIFEST.md needs, and the
 * profile (written before) stays. */
static void report_failed_write(const char *dir)
{
    struct statvfs fs;
    if (statvfs(dir, &fs) == 0 && (uint64_t)fs.f_bavail * fs.f_frsize < FULL_FS_BYTES) {
        uint64_t freed = remove_trace_files(dir);
        scorep_warn("writing the trace in '%s' failed: its file system is full (%" PRIu64
                    " bytes free); the incomplete trace (%" PRIu64 " bytes of events without "
                    "their definitions, which no reader can open) was removed, the profile and "
                    "MANIFEST.md are kept; free space there, or make the trace smaller (a "
                    "filter file, SCOREP_TRACING_REDUCTION), and run again",
                    dir, (uint64_t)fs.f_bavail * fs.f_frsize, freed);
        scorep_experiment_note("no trace: its file system was full while the trace was "
                               "written; the incomplete trace files were removed");
    } else {
        scorep_warn("writing the trace in '%s' failed (the OTF2 messages above say why); its "
                    "files are incomplete",
                    dir);
        scorep_experiment_note("the trace files are incomplete: writing them failed (the "
                               "program's error output says why)");
    }
}

/* Whether the trace fits into the free space of dir's file system (collective: the verdict
 * is rank 0's, over the sum of all ranks' estimates). OTF2 (2.3) does not survive a full
 * disk: after a failed chunk write, closing the event writer can crash the program in
 * fwrite. The estimate is the bytes the buffers hold (OTF2's encoding took 0.75 of them for
 * Enter/Leave records, 0.45 with two metrics, 0.33 for MPI collectives) and an eighth of the
 * spill files (96-byte records), plus room for the definitions, the anchor file and
 * MANIFEST.md. */
static bool trace_fits(const char *dir, const scorep_ipc *ipc)
{
    uint64_t mine = 0, pages;
    for (scorep_location *l = scorep_location_first(); l; l = l->next) {
        struct stat st;
        mine += scorep_buffer_used_bytes(&l->buffer, &pages);
        if (l->buffer.spill_fd >= 0 && fstat(l->buffer.spill_fd, &st) == 0)
            mine += (uint64_t)st.st_size / 8;
    }
    int rank = ipc->rank(), size = ipc->size();
    uint64_t *all = rank == 0 ? calloc((size_t)size, sizeof *all) : NULL;
    uint64_t verdict = 0; /* 1: does not fit */
    if (ipc->gather(&mine, sizeof mine, all, 0) == 0 && rank == 0 && all) {
        uint64_t need = FULL_FS_BYTES;
        for (int r = 0; r < size; r++)
            need += all[r];
        struct statvfs fs;
        uint64_t avail = statvfs(dir, &fs) == 0 ? (uint64_t)fs.f_bavail * fs.f_frsize : UINT64_MAX;
        if (avail < need) {
            verdict = 1;
            scorep_warn("the trace (about %" PRIu64 " bytes) does not fit into the %" PRIu64
                        " bytes free in the file system of '%s'; it is not written (the profile "
                        "and MANIFEST.md are); free space there, or make the trace smaller (a "
                        "filter file, SCOREP_TRACING_REDUCTION), and run again",
                        need - FULL_FS_BYTES, avail, dir);
            scorep_experiment_note("no trace: it did not fit into the free space of the file "
                                   "system");
        }
    }
    free(all);
    ipc->bcast(&verdict, sizeof verdict, 0);
    return verdict == 0;
}

int scorep_trace_write_otf2(const scorep_writer_ctx *w)
{
    const char *dir = w->experiment_dir;
    int exit_status = w->exit_status;
    const scorep_unified *u = w->unified;
    const scorep_ipc *ipc = scorep_ipc_get();
    int rank = ipc->rank(), size = ipc->size();
    uint32_t n_loc = scorep_location_count();
    if (!trace_fits(dir, ipc))
        return -1;
    struct timespec t0, t1; /* the write time (SCOREP_VERBOSE; docs/metrics.md measures it) */
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t *n_events = calloc(n_loc ? n_loc : 1, sizeof *n_events);
    scorep_mpi_groups groups;
    uint64_t failed = n_events == NULL || scorep_mpi_groups_build(&groups, u) != 0;
    ipc->allreduce_max_u64(&failed); /* the archive is collective: all or nobody */
    OTF2_Archive *a = failed ? NULL : open_archive(dir);
    failed = a == NULL;
    ipc->allreduce_max_u64(&failed);
    if (failed) {
        if (a)
            OTF2_Archive_Close(a);
        free(n_events);
        scorep_mpi_groups_free(&groups);
        scorep_warn("cannot create the OTF2 archive in '%s'", dir);
        return -1;
    }
    int rc = 0;
    uint64_t cuda = 0;
    for (scorep_location *l = scorep_location_first(); l; l = l->next)
        cuda |= l->gpu;
    ipc->allreduce_max_u64(&cuda);
    scorep_trace_threads_prepare(u);
    if (strict_class_setup(u, ipc) != 0)
        rc = -1;
    scoped_setup(u);
    OTF2_Archive_OpenEvtFiles(a);
    /* With non-blocking I/O, a pre-pass reads every location's records first, writing
     * nothing (nb_tab learns which requests no location completed; each location gets its
     * own in pre[]). Then each location is written and finished at once, one writer open at
     * a time: before session 24 every writer stayed open until all were read, OTF2 holding
     * a chunk (1 MiB) for each (docs/io.md). */
    uint32_t i = 0;
    evt_state *pre = NULL, **states = NULL;
    if (__atomic_load_n(&scorep_io_nonblocking_traced, __ATOMIC_RELAXED)) {
        pre = calloc(n_loc ? n_loc : 1, sizeof *pre);
        states = calloc(n_loc ? n_loc : 1, sizeof *states);
        if (!pre || !states) {
            scorep_warn("trace: no memory to follow non-blocking I/O operations; those never "
                        "completed keep their IoOperationBegin unmatched");
            free(pre);
            pre = NULL;
        }
        for (scorep_location *l = scorep_location_first(); pre && l && i < n_loc;
             l = l->next, i++) {
            states[i] = &pre[i];
            nb_scan_location(l, i);
        }
        if (pre)
            nb_distribute(states, n_loc);
        free(states);
    }
    loc_writing lw;
    i = 0;
    for (scorep_location *l = scorep_location_first(); l && i < n_loc; l = l->next, i++) {
        if (write_location(&lw, a, l, u->n_local[U_WIN], i) != 0) {
            rc = -1;
            continue;
        }
        if (pre) { /* its requests never completed (their cancels end it) */
            lw.s.nb_open = pre[i].nb_open;
            lw.s.n_nb_open = pre[i].n_nb_open;
            lw.s.cap_nb_open = pre[i].cap_nb_open;
            pre[i].nb_open = NULL;
        }
        if (finish_location(&lw, a, l, exit_status, &n_events[i]) != 0)
            rc = -1;
    }
    for (uint32_t k = 0; pre && k < n_loc; k++)
        free(pre[k].nb_open);
    free(pre);
    OTF2_Archive_CloseEvtFiles(a);
    note_io_cancelled(ipc, rank, size); /* collective */
    if (strict_class.fallback)
        scorep_verbose("rank %d: some location's metric values did not fill the metric class "
                       "of the strictly synchronous metrics: written one Metric record per value",
                       rank);
    if (scorep_sampling_trace_unify(u->map[U_REGION]) != 0) /* collective */
        rc = -1;
    if (strict_class_number(u, ipc) != 0) /* collective */
        rc = -1;
    if (scoped_number(u, ipc) != 0) /* collective */
        rc = -1;
    OTF2_Archive_OpenDefFiles(a);
    if (write_local_defs(a, u, &groups) != 0)
        rc = -1;
    OTF2_Archive_CloseDefFiles(a);
    trace_job j = {u, &groups, size, NULL, NULL, NULL, NULL, NULL, 0, 0, (int)cuda, {0}, 0};
    if (rank == 0) {
        j.node_names = calloc(size, sizeof *j.node_names);
        j.n_locations = calloc(size, sizeof *j.n_locations);
        j.location_names = calloc(size, sizeof *j.location_names);
        j.n_events = calloc(size, sizeof *j.n_events);
        j.gpu = calloc(size, sizeof *j.gpu);
    }
    if (gather_locations(&j, n_events) != 0 || (rank == 0 && write_global_defs(a, &j) != 0))
        rc = -1;
    if (rank == 0 && rc == 0) {
        if (scorep_trace_red_write_markers(a, &j.reductions) != 0)
            rc = -1;
        scorep_trace_red_summarise(&j.reductions, j.location_names, j.total_locations);
    }
    if (rank == 0)
        trace_job_free(&j);
    if (OTF2_Archive_Close(a) != OTF2_SUCCESS)
        rc = -1;
    free(n_events);
    scorep_mpi_groups_free(&groups);
    failed = rc != 0;
    ipc->allreduce_max_u64(&failed);
    if (failed && rank == 0)
        report_failed_write(dir);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    scorep_verbose("rank %d: trace written in %.3f s", rank,
                   (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    return failed ? -1 : 0;
}
