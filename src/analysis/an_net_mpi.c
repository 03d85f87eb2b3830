/* SPDX-License-Identifier: BSD-3-Clause */
/* an_net_mpi.c: the analysis's communication (an_net.h) over an MPI communicator through the
 * PMPI entry points (the analysis runs inside a measured program at MPI_Finalize: its own
 * calls are not measured). */
#include "analysis/an_net_mpi.h"

#include <stdlib.h>

typedef struct {
    an_net base;
    MPI_Comm comm;
    int own; /* a communicator made by sub: freed with the handle */
    MPI_Request *rq;
    size_t n_rq, cap_rq;
} net_mpi;

static MPI_Comm comm_of(const an_net *n)
{
    return ((const net_mpi *)n)->comm;
}

static MPI_Datatype dt(an_type t)
{
    switch (t) {
    case AN_T_INT:
        return MPI_INT;
    case AN_T_U8:
        return MPI_UNSIGNED_CHAR;
    case AN_T_U32:
        return MPI_UINT32_T;
    case AN_T_U64:
        return MPI_UINT64_T;
    case AN_T_DOUBLE:
        return MPI_DOUBLE;
    default:
        return MPI_BYTE;
    }
}

static MPI_Op mop(an_op op)
{
    return op == AN_OP_MIN ? MPI_MIN : op == AN_OP_MAX ? MPI_MAX : MPI_SUM;
}

static int m_rank(const an_net *n)
{
    int r;
    PMPI_Comm_rank(comm_of(n), &r);
    return r;
}

static int m_size(const an_net *n)
{
    int s;
    PMPI_Comm_size(comm_of(n), &s);
    return s;
}

static void m_allreduce(an_net *n, const void *in, void *out, int cnt, an_type t, an_op op)
{
    PMPI_Allreduce(in, out, cnt, dt(t), mop(op), comm_of(n));
}

static void m_scan(an_net *n, const void *in, void *out, int cnt, an_type t, an_op op)
{
    PMPI_Scan(in, out, cnt, dt(t), mop(op), comm_of(n));
}

static void m_bcast(an_net *n, void *buf, int cnt, an_type t, int root)
{
    PMPI_Bcast(buf, cnt, dt(t), root, comm_of(n));
}

static void m_gather(an_net *n, const void *in, int cnt, void *out, an_type t, int root)
{
    PMPI_Gather(in, cnt, dt(t), out, cnt, dt(t), root, comm_of(n));
}

static void m_gatherv(an_net *n, const void *in, int cnt, void *out, const int *cnts,
                      const int *displs, an_type t, int root)
{
    PMPI_Gatherv(in, cnt, dt(t), out, cnts, displs, dt(t), root, comm_of(n));
}

static void m_scatter(an_net *n, const void *in, void *out, int cnt, an_type t, int root)
{
    PMPI_Scatter(in, cnt, dt(t), out, cnt, dt(t), root, comm_of(n));
}

static void m_scatterv(an_net *n, const void *in, const int *cnts, const int *displs, void *out,
                       int cnt, an_type t, int root)
{
    PMPI_Scatterv(in, cnts, displs, dt(t), out, cnt, dt(t), root, comm_of(n));
}

static void m_alltoall(an_net *n, const void *in, void *out, int cnt, an_type t)
{
    PMPI_Alltoall(in, cnt, dt(t), out, cnt, dt(t), comm_of(n));
}

static void m_alltoallv(an_net *n, const void *in, const int *scnts, const int *sdispls, void *out,
                        const int *rcnts, const int *rdispls, an_type t)
{
    PMPI_Alltoallv(in, scnts, sdispls, dt(t), out, rcnts, rdispls, dt(t), comm_of(n));
}

static int m_isend(an_net *n, const void *buf, int cnt, an_type t, int dest, int tag)
{
    net_mpi *m = (net_mpi *)n;
    if (m->n_rq == m->cap_rq) {
        size_t cap = m->cap_rq ? 2 * m->cap_rq : 64;
        MPI_Request *rq = realloc(m->rq, cap * sizeof *rq);
        if (!rq) { /* a small record goes out at once (eager) with a blocking send */
            PMPI_Send(buf, cnt, dt(t), dest, tag, m->comm);
            return 0;
        }
        m->rq = rq;
        m->cap_rq = cap;
    }
    PMPI_Isend(buf, cnt, dt(t), dest, tag, m->comm, &m->rq[m->n_rq++]);
    return 0;
}

static void m_recv(an_net *n, void *buf, int cnt, an_type t, int src, int tag)
{
    PMPI_Recv(buf, cnt, dt(t), src, tag, comm_of(n), MPI_STATUS_IGNORE);
}

static void m_waitall(an_net *n)
{
    net_mpi *m = (net_mpi *)n;
    PMPI_Waitall((int)m->n_rq, m->rq, MPI_STATUSES_IGNORE);
    m->n_rq = 0;
}

static an_net *wrap(MPI_Comm comm, int own);

static an_net *m_sub(an_net *n, const int *ranks, int cnt, int tag)
{
    MPI_Group world, g;
    MPI_Comm sub = MPI_COMM_NULL;
    PMPI_Comm_group(comm_of(n), &world);
    PMPI_Group_incl(world, cnt, ranks, &g);
    PMPI_Comm_create_group(comm_of(n), g, tag, &sub);
    PMPI_Group_free(&g);
    PMPI_Group_free(&world);
    an_net *s = sub == MPI_COMM_NULL ? NULL : wrap(sub, 1);
    if (!s && sub != MPI_COMM_NULL)
        PMPI_Comm_free(&sub);
    return s;
}

static void m_free(an_net *n)
{
    net_mpi *m = (net_mpi *)n;
    if (m->own)
        PMPI_Comm_free(&m->comm);
    free(m->rq);
    free(m);
}

static const an_net_ops ops = {m_rank,    m_size,    m_allreduce, m_scan,     m_bcast,     m_gather,
                               m_gatherv, m_scatter, m_scatterv,  m_alltoall, m_alltoallv, m_isend,
                               m_recv,    m_waitall, m_sub,       m_free};

static an_net *wrap(MPI_Comm comm, int own)
{
    net_mpi *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->base.ops = &ops;
    m->comm = comm;
    m->own = own;
    return &m->base;
}

an_net *an_net_mpi(MPI_Comm comm)
{
    return wrap(comm, 0);
}
