/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_comm_mpi.c: the MPI backend of systree_comm.h: each process executes its own rank
 * (one local member, or none after a split that left it out), with PMPI calls only, on a
 * private duplicate of the communicator it was created from. Part of libscorep-rt-mpi. */
#include "systree/systree_comm_mpi.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { TAG = 4243 };

/* A communicator shared by the families that KEEP it. */
typedef struct handle {
    MPI_Comm comm;
    int refs;
} handle;

typedef struct mpi_comm {
    systree_comm base;
    handle *h; /* NULL: this process is in no group of the family */
    int rank, size;
    uint64_t world;
} mpi_comm;

static const systree_comm_ops mpi_ops;

static mpi_comm *as_mpi(const systree_comm *c)
{
    return (mpi_comm *)c;
}

static size_t m_nlocal(const systree_comm *c)
{
    return as_mpi(c)->h != NULL;
}

static size_t m_group(const systree_comm *c, size_t m)
{
    (void)c;
    (void)m;
    return 0;
}

static int m_rank(const systree_comm *c, size_t m)
{
    (void)m;
    return as_mpi(c)->rank;
}

static int m_size(const systree_comm *c, size_t m)
{
    (void)m;
    return as_mpi(c)->size;
}

static uint64_t m_world(const systree_comm *c, size_t m)
{
    (void)m;
    return as_mpi(c)->world;
}

static size_t m_parent(const systree_comm *c, size_t m)
{
    (void)c;
    (void)m;
    return 0;
}

static mpi_comm *wrap(handle *h, uint64_t world)
{
    mpi_comm *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->base.ops = &mpi_ops;
    c->world = world;
    c->h = h;
    if (h && (PMPI_Comm_rank(h->comm, &c->rank) != MPI_SUCCESS ||
              PMPI_Comm_size(h->comm, &c->size) != MPI_SUCCESS)) {
        free(c);
        return NULL;
    }
    if (h)
        h->refs++;
    return c;
}

static void m_free(systree_comm *c)
{
    handle *h = as_mpi(c)->h;
    if (h && --h->refs == 0) {
        PMPI_Comm_free(&h->comm);
        free(h);
    }
    free(c);
}

/* A handle for comm (taken over: freed with the last family using it). */
static handle *new_handle(MPI_Comm comm)
{
    handle *h = comm == MPI_COMM_NULL ? NULL : calloc(1, sizeof *h);
    if (h)
        h->comm = comm;
    else if (comm != MPI_COMM_NULL)
        PMPI_Comm_free(&comm);
    return h;
}

static int m_split(systree_comm *c, const int64_t *color, const uint64_t *key, systree_comm **out)
{
    mpi_comm *s = as_mpi(c), *t = NULL;
    MPI_Comm nc = MPI_COMM_NULL;
    *out = NULL;
    if (s->h == NULL || color[0] == SYSTREE_KEEP) {
        t = wrap(s->h, s->world);
    } else if (color[0] > INT_MAX ||
               PMPI_Comm_split(s->h->comm, color[0] < 0 ? MPI_UNDEFINED : (int)color[0],
                               key ? (int)key[0] : s->rank, &nc) != MPI_SUCCESS) {
        return -1;
    } else {
        handle *h = new_handle(nc);
        t = nc == MPI_COMM_NULL || h ? wrap(h, s->world) : NULL;
        if (h && h->refs == 0) { /* wrap failed */
            PMPI_Comm_free(&h->comm);
            free(h);
        }
    }
    *out = t ? &t->base : NULL;
    return t ? 0 : -1;
}

static int recv_one(MPI_Comm comm, systree_msg *r)
{
    MPI_Status st;
    int count;
    if (PMPI_Probe(r->peer, TAG, comm, &st) != MPI_SUCCESS ||
        PMPI_Get_count(&st, MPI_BYTE, &count) != MPI_SUCCESS || count < 0)
        return -1;
    r->len = (size_t)count;
    r->data = malloc(r->len ? r->len : 1);
    if (r->data == NULL)
        return -1;
    return PMPI_Recv(r->data, count, MPI_BYTE, r->peer, TAG, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS
               ? 0
               : -1;
}

/* The call took the send buffers over: freed once sent, or not sent. */
static void free_sends(const systree_msg *send, size_t nsend)
{
    for (size_t i = 0; i < nsend; i++)
        free(send[i].data);
}

static int m_exchange(systree_comm *c, const systree_msg *send, size_t nsend, systree_msg *recv,
                      size_t nrecv)
{
    mpi_comm *s = as_mpi(c);
    if (s->h == NULL) {
        free_sends(send, nsend);
        return nsend || nrecv ? -1 : 0;
    }
    MPI_Request *req = malloc((nsend ? nsend : 1) * sizeof *req);
    size_t posted = 0;
    int rc = req ? 0 : -1;
    for (; posted < nsend && rc == 0; posted++)
        rc = send[posted].len <= INT_MAX &&
                     PMPI_Isend(send[posted].data, (int)send[posted].len, MPI_BYTE,
                                send[posted].peer, TAG, s->h->comm, &req[posted]) == MPI_SUCCESS
                 ? 0
                 : -1;
    posted -= rc != 0;
    for (size_t i = 0; i < nrecv && rc == 0; i++)
        rc = recv_one(s->h->comm, &recv[i]);
    if (posted && PMPI_Waitall((int)posted, req, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        rc = -1;
    free(req);
    free_sends(send, nsend);
    return rc;
}

/* MPI counts are int: big buffers go in chunks of at most 1 GiB. */
static int bcast_bytes(void *buf, size_t len, MPI_Comm comm)
{
    for (size_t off = 0; off < len; off += 1u << 30) {
        int n = (int)(len - off < (1u << 30) ? len - off : (1u << 30));
        if (PMPI_Bcast((char *)buf + off, n, MPI_BYTE, 0, comm) != MPI_SUCCESS)
            return -1;
    }
    return 0;
}

static int m_bcast(systree_comm *c, const char *active, const systree_blob *in, systree_blob *out)
{
    mpi_comm *s = as_mpi(c);
    if (s->h == NULL)
        return 0;
    out[0] = (systree_blob){NULL, 0};
    if (active && !active[0])
        return 0;
    uint64_t len = s->rank == 0 ? in[0].len : 0;
    if (PMPI_Bcast(&len, 1, MPI_UINT64_T, 0, s->h->comm) != MPI_SUCCESS)
        return -1;
    out[0].data = malloc(len ? len : 1);
    if (out[0].data == NULL)
        return -1; /* the others wait in vain: out of memory at finalize is fatal anyway */
    out[0].len = len;
    if (s->rank == 0)
        memcpy(out[0].data, in[0].data, len);
    return bcast_bytes(out[0].data, len, s->h->comm);
}

static int m_allreduce_max(systree_comm *c, const char *active, const uint64_t *in, size_t count,
                           uint64_t *out)
{
    mpi_comm *s = as_mpi(c);
    if (s->h == NULL || (active && !active[0]))
        return 0;
    return PMPI_Allreduce(in, out, (int)count, MPI_UINT64_T, MPI_MAX, s->h->comm) == MPI_SUCCESS
               ? 0
               : -1;
}

static const systree_comm_ops mpi_ops = {
    m_nlocal, m_nlocal, m_group,    m_rank,  m_size,          m_world,
    m_parent, m_split,  m_exchange, m_bcast, m_allreduce_max, m_free,
};

systree_comm *systree_comm_mpi_create(MPI_Comm comm)
{
    MPI_Comm dup;
    int rank;
    if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS || PMPI_Comm_dup(comm, &dup) != MPI_SUCCESS)
        return NULL;
    handle *h = new_handle(dup);
    mpi_comm *c = h ? wrap(h, (uint64_t)rank) : NULL;
    if (c == NULL && h) {
        PMPI_Comm_free(&h->comm);
        free(h);
    }
    return c ? &c->base : NULL;
}
