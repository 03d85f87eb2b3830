/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_coll.c: collective events. A blocking collective records MpiCollectiveBegin before
 * the PMPI call and MpiCollectiveEnd (OTF2 operation, communicator, root, bytes sent and
 * received by this process) after it; a non-blocking one records
 * NonBlockingCollectiveRequest before the PMPI call (another rank may complete the operation
 * before the call returns here) and NonBlockingCollectiveComplete with the operation's values
 * when a Wait/Test completes it. Bytes are computed as Score-P computes them
 * (MPI_IN_PLACE, intercommunicators, MPI_ROOT and MPI_PROC_NULL roots included). Neighbourhood
 * collectives use the OTF2 operation of their global counterpart (ALLGATHER, ALLGATHERV,
 * ALLTOALL, ALLTOALLV, ALLTOALLW) with the bytes exchanged with the topology's neighbours. */
#include "adapters/mpi/mpi_hooks.h"
#include "core/events_mpi.h"

#include <stdlib.h>

typedef struct {
    scorep_collective_op op;
    uint32_t root;
    uint64_t sent, received;
} coll;

typedef struct {
    int rank, size, remote, inter; /* remote: size of the remote group (= size for intra) */
    uint32_t id;
} comm_info;

static comm_info info(MPI_Comm comm)
{
    comm_info i = {0, 1, 1, 0, SCOREP_INVALID_ID};
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    if (c) {
        i.rank = c->rank;
        i.size = c->size;
        i.remote = c->remote_size;
        i.inter = c->is_inter;
        i.id = c->id;
    }
    return i;
}

static uint64_t tsize(MPI_Datatype t)
{
    return scorep_mpi_type_bytes(1, t);
}

static uint32_t root_of(int root)
{
    return root >= 0 ? (uint32_t)root : SCOREP_NO_ROOT;
}

static uint64_t sum(const int counts[], int n)
{
    uint64_t s = 0;
    for (int i = 0; counts && i < n; i++)
        s += counts[i] > 0 ? (uint64_t)counts[i] : 0;
    return s;
}

/* all-to-one (gather, reduce); one-to-all is the same with send and receive exchanged */
static void all_to_one(const comm_info *c, int sendcount, MPI_Datatype sendtype, int recvcount,
                       MPI_Datatype recvtype, int root, int inplace, uint64_t *sent,
                       uint64_t *received)
{
    *sent = *received = 0;
    if (!c->inter) {
        if (c->rank == root) {
            uint64_t block = (uint64_t)recvcount * tsize(recvtype);
            if (inplace) {
                *received = (uint64_t)(c->size - 1) * block;
            } else {
                *sent = block;
                *received = (uint64_t)c->size * block;
            }
        } else {
            *sent = (uint64_t)sendcount * tsize(sendtype);
        }
    } else if (root == MPI_ROOT) {
        *received = (uint64_t)c->remote * recvcount * tsize(recvtype);
    } else if (root != MPI_PROC_NULL) {
        *sent = (uint64_t)sendcount * tsize(sendtype);
    }
}

static void all_to_one_v(const comm_info *c, int sendcount, MPI_Datatype sendtype,
                         const int recvcounts[], MPI_Datatype recvtype, int root, int inplace,
                         uint64_t *sent, uint64_t *received)
{
    *sent = *received = 0;
    uint64_t rs = tsize(recvtype);
    if (!c->inter) {
        if (c->rank == root) {
            *received = sum(recvcounts, c->size) * rs;
            uint64_t mine = recvcounts ? (uint64_t)recvcounts[c->rank] * rs : 0;
            if (inplace)
                *received -= mine;
            else
                *sent = mine;
        } else {
            *sent = (uint64_t)sendcount * tsize(sendtype);
        }
    } else if (root == MPI_ROOT) {
        *received = sum(recvcounts, c->remote) * rs;
    } else if (root != MPI_PROC_NULL) {
        *sent = (uint64_t)sendcount * tsize(sendtype);
    }
}

static coll bytes_barrier(MPI_Comm comm)
{
    (void)comm;
    return (coll){SCOREP_COLL_BARRIER, SCOREP_NO_ROOT, 0, 0};
}

static coll bytes_bcast(int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_BCAST, root_of(root), 0, 0};
    all_to_one(&c, count, type, count, type, root, 0, &r.received, &r.sent);
    return r;
}

static coll bytes_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_GATHER, root_of(root), 0, 0};
    all_to_one(&c, sendcount, sendtype, recvcount, recvtype, root, sendbuf == MPI_IN_PLACE, &r.sent,
               &r.received);
    return r;
}

static coll bytes_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          const int recvcounts[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_GATHERV, root_of(root), 0, 0};
    all_to_one_v(&c, sendcount, sendtype, recvcounts, recvtype, root, sendbuf == MPI_IN_PLACE,
                 &r.sent, &r.received);
    return r;
}

static coll bytes_scatter(const void *recvbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_SCATTER, root_of(root), 0, 0};
    all_to_one(&c, recvcount, recvtype, sendcount, sendtype, root, recvbuf == MPI_IN_PLACE,
               &r.received, &r.sent);
    return r;
}

static coll bytes_scatterv(const void *recvbuf, const int sendcounts[], MPI_Datatype sendtype,
                           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_SCATTERV, root_of(root), 0, 0};
    all_to_one_v(&c, recvcount, recvtype, sendcounts, sendtype, root, recvbuf == MPI_IN_PLACE,
                 &r.received, &r.sent);
    return r;
}

static coll bytes_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_ALLTOALL, SCOREP_NO_ROOT, 0, 0};
    int n = c.inter ? c.remote : c.size;
    uint64_t rs = tsize(recvtype);
    if (sendbuf == MPI_IN_PLACE) {
        r.sent = r.received = (uint64_t)(n - 1) * recvcount * rs;
    } else {
        r.sent = (uint64_t)n * sendcount * tsize(sendtype);
        r.received = (uint64_t)n * recvcount * rs;
    }
    return r;
}

static coll bytes_alltoallv(const void *sendbuf, const int sendcounts[], MPI_Datatype sendtype,
                            const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_ALLTOALLV, SCOREP_NO_ROOT, 0, 0};
    int n = c.inter ? c.remote : c.size;
    uint64_t rs = tsize(recvtype);
    if (sendbuf == MPI_IN_PLACE) {
        r.received = (sum(recvcounts, n) - (recvcounts ? (uint64_t)recvcounts[c.rank] : 0)) * rs;
        r.sent = r.received;
    } else {
        r.sent = sum(sendcounts, n) * tsize(sendtype);
        r.received = sum(recvcounts, n) * rs;
    }
    return r;
}

static coll bytes_alltoallw(const void *sendbuf, const int sendcounts[],
                            const MPI_Datatype sendtypes[], const int recvcounts[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_ALLTOALLW, SCOREP_NO_ROOT, 0, 0};
    int n = c.inter ? c.remote : c.size;
    for (int i = 0; i < n && recvcounts && recvtypes; i++)
        r.received += (uint64_t)recvcounts[i] * tsize(recvtypes[i]);
    if (sendbuf == MPI_IN_PLACE) {
        if (recvcounts && recvtypes)
            r.received -= (uint64_t)recvcounts[c.rank] * tsize(recvtypes[c.rank]);
        r.sent = r.received;
    } else {
        for (int i = 0; i < n && sendcounts && sendtypes; i++)
            r.sent += (uint64_t)sendcounts[i] * tsize(sendtypes[i]);
    }
    return r;
}

static coll bytes_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    coll r = bytes_alltoall(sendbuf, sendcount, sendtype, recvcount, recvtype, comm);
    r.op = SCOREP_COLL_ALLGATHER;
    return r;
}

static coll bytes_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_ALLGATHERV, SCOREP_NO_ROOT, 0, 0};
    int n = c.inter ? c.remote : c.size;
    uint64_t rs = tsize(recvtype);
    r.received = sum(recvcounts, n) * rs;
    if (sendbuf == MPI_IN_PLACE) {
        uint64_t mine = recvcounts ? (uint64_t)recvcounts[c.rank] * rs : 0;
        r.received -= mine;
        r.sent = (uint64_t)(n - 1) * mine;
    } else {
        r.sent = (uint64_t)n * sendcount * tsize(sendtype);
    }
    return r;
}

static coll bytes_allreduce(const void *sendbuf, int count, MPI_Datatype type, MPI_Comm comm)
{
    coll r = bytes_alltoall(sendbuf, count, type, count, type, comm);
    r.op = SCOREP_COLL_ALLREDUCE;
    return r;
}

static coll bytes_reduce(const void *sendbuf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_REDUCE, root_of(root), 0, 0};
    all_to_one(&c, count, type, count, type, root, sendbuf == MPI_IN_PLACE, &r.sent, &r.received);
    return r;
}

static coll bytes_reduce_scatter_block(const void *sendbuf, int recvcount, MPI_Datatype type,
                                       MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_REDUCE_SCATTER_BLOCK, SCOREP_NO_ROOT, 0, 0};
    uint64_t n = sendbuf == MPI_IN_PLACE ? (uint64_t)(c.size - 1) : (uint64_t)c.size;
    r.sent = r.received = n * recvcount * tsize(type);
    return r;
}

static coll bytes_reduce_scatter(const void *sendbuf, const int recvcounts[], MPI_Datatype type,
                                 MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_REDUCE_SCATTER, SCOREP_NO_ROOT, 0, 0};
    uint64_t ts = tsize(type), total = sum(recvcounts, c.size);
    uint64_t mine = recvcounts ? (uint64_t)recvcounts[c.rank] : 0;
    if (c.inter) {
        r.sent = total * ts;
        r.received = (uint64_t)c.remote * mine * ts;
    } else if (sendbuf == MPI_IN_PLACE) {
        r.sent = (total - mine) * ts;
        r.received = (uint64_t)(c.size - 1) * mine * ts;
    } else {
        r.sent = total * ts;
        r.received = (uint64_t)c.size * mine * ts;
    }
    return r;
}

static coll bytes_scan(const void *sendbuf, int count, MPI_Datatype type, MPI_Comm comm)
{
    comm_info c = info(comm);
    coll r = {SCOREP_COLL_SCAN, SCOREP_NO_ROOT, 0, 0};
    uint64_t block = (uint64_t)count * tsize(type);
    if (sendbuf == MPI_IN_PLACE) {
        r.sent = (uint64_t)(c.size - c.rank - 1) * block;
        r.received = (uint64_t)c.rank * block;
    } else {
        r.sent = (uint64_t)(c.size - c.rank) * block;
        r.received = (uint64_t)(c.rank + 1) * block;
    }
    return r;
}

static coll bytes_exscan(const void *sendbuf, int count, MPI_Datatype type, MPI_Comm comm)
{
    (void)sendbuf;
    coll r = bytes_scan(MPI_IN_PLACE, count, type, comm); /* never sends to itself */
    r.op = SCOREP_COLL_EXSCAN;
    return r;
}

/* in- and out-degree of a process topology */
static void degrees(MPI_Comm comm, int *in, int *out)
{
    int status = MPI_UNDEFINED, rank = 0, n = 0, weighted = 0;
    *in = *out = 0;
    PMPI_Topo_test(comm, &status);
    if (status == MPI_CART) {
        PMPI_Cartdim_get(comm, &n);
        *in = *out = 2 * n;
    } else if (status == MPI_GRAPH) {
        PMPI_Comm_rank(comm, &rank);
        PMPI_Graph_neighbors_count(comm, rank, &n);
        *in = *out = n;
    } else if (status == MPI_DIST_GRAPH) {
        PMPI_Dist_graph_neighbors_count(comm, in, out, &weighted);
    }
}

static coll bytes_neighbor_allgather(int sendcount, MPI_Datatype sendtype, int recvcount,
                                     MPI_Datatype recvtype, MPI_Comm comm)
{
    int in, out;
    degrees(comm, &in, &out);
    coll r = {SCOREP_COLL_ALLGATHER, SCOREP_NO_ROOT, 0, 0};
    r.sent = (uint64_t)out * sendcount * tsize(sendtype);
    r.received = (uint64_t)in * recvcount * tsize(recvtype);
    return r;
}

static coll bytes_neighbor_allgatherv(int sendcount, MPI_Datatype sendtype, const int recvcounts[],
                                      MPI_Datatype recvtype, MPI_Comm comm)
{
    int in, out;
    degrees(comm, &in, &out);
    coll r = {SCOREP_COLL_ALLGATHERV, SCOREP_NO_ROOT, 0, 0};
    r.sent = (uint64_t)out * sendcount * tsize(sendtype);
    r.received = sum(recvcounts, in) * tsize(recvtype);
    return r;
}

static coll bytes_neighbor_alltoall(int sendcount, MPI_Datatype sendtype, int recvcount,
                                    MPI_Datatype recvtype, MPI_Comm comm)
{
    coll r = bytes_neighbor_allgather(sendcount, sendtype, recvcount, recvtype, comm);
    r.op = SCOREP_COLL_ALLTOALL;
    return r;
}

static coll bytes_neighbor_alltoallv(const int sendcounts[], MPI_Datatype sendtype,
                                     const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm)
{
    int in, out;
    degrees(comm, &in, &out);
    coll r = {SCOREP_COLL_ALLTOALLV, SCOREP_NO_ROOT, 0, 0};
    r.sent = sum(sendcounts, out) * tsize(sendtype);
    r.received = sum(recvcounts, in) * tsize(recvtype);
    return r;
}

static coll bytes_neighbor_alltoallw(const int sendcounts[], const MPI_Datatype sendtypes[],
                                     const int recvcounts[], const MPI_Datatype recvtypes[],
                                     MPI_Comm comm)
{
    int in, out;
    degrees(comm, &in, &out);
    coll r = {SCOREP_COLL_ALLTOALLW, SCOREP_NO_ROOT, 0, 0};
    for (int i = 0; i < out && sendcounts && sendtypes; i++)
        r.sent += (uint64_t)sendcounts[i] * tsize(sendtypes[i]);
    for (int i = 0; i < in && recvcounts && recvtypes; i++)
        r.received += (uint64_t)recvcounts[i] * tsize(recvtypes[i]);
    return r;
}

/* ---- hooks --------------------------------------------------------------------------- */

void scorep_mpi_pre_coll_begin(scorep_mpi_frame *f)
{
    scorep_event_mpi_collective_begin(f->l);
}

static void coll_end(scorep_mpi_frame *f, int ret, MPI_Comm comm, coll c)
{
    if (ret != MPI_SUCCESS)
        c.sent = c.received = 0;
    scorep_event_mpi_collective_end(f->l, c.op, scorep_mpi_comm_id(comm), c.root, c.sent,
                                    c.received);
}

/* The request, one tick after the Enter (no timer read), with the id its record gets */
void scorep_mpi_pre_icoll_begin(scorep_mpi_frame *f, scorep_mpi_ctx_start *ctx)
{
    ctx->id = scorep_mpi_next_request_id();
    if (f->record)
        scorep_event_mpi_nbc_request(f->l, SCOREP_TS_NEXT, ctx->id);
}

/* The record of a started operation; a call that failed started nothing: its recorded
 * request is marked cancelled. */
static void coll_start(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_start *ctx, MPI_Comm comm,
                       MPI_Request *request, coll c)
{
    if (ret != MPI_SUCCESS) {
        if (f->record)
            scorep_event_mpi_request_cancelled(f->l, scorep_mpi_now(f), ctx->id);
        return;
    }
    scorep_mpi_comm *cm = scorep_mpi_comm_get(comm);
    scorep_mpi_req *r = scorep_mpi_req_create_id(*request, SCOREP_MPI_REQ_COLL,
                                                 f->record ? SCOREP_MPI_REQ_EVENTS : 0, ctx->id);
    if (!r)
        return;
    scorep_mpi_comm_ref(cm);
    r->comm = cm;
    r->coll_op = c.op;
    r->root = c.root;
    r->sent = c.sent;
    r->received = c.received;
    scorep_mpi_req_publish(r);
}

/* the blocking collective (failure: an end without bytes) and its non-blocking twin */
#define HOOKS(name, params, args)                                                                  \
    void scorep_mpi_post_coll_##name(scorep_mpi_frame *f, int ret, params)                         \
    {                                                                                              \
        coll_end(f, ret, comm, bytes_##name args);                                                 \
    }                                                                                              \
    void scorep_mpi_post_icoll_##name(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_start *ctx,     \
                                      params, MPI_Request *request)                                \
    {                                                                                              \
        coll_start(f, ret, ctx, comm, request, bytes_##name args);                                 \
    }
#define P(...) __VA_ARGS__

void scorep_mpi_post_coll_barrier(scorep_mpi_frame *f, int ret, MPI_Comm comm)
{
    coll_end(f, ret, comm, bytes_barrier(comm));
}

void scorep_mpi_post_icoll_barrier(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_start *ctx,
                                   MPI_Comm comm, MPI_Request *request)
{
    coll_start(f, ret, ctx, comm, request, bytes_barrier(comm));
}

HOOKS(bcast, P(int count, MPI_Datatype type, int root, MPI_Comm comm), (count, type, root, comm))
HOOKS(gather,
      P(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
        MPI_Datatype recvtype, int root, MPI_Comm comm),
      (sendbuf, sendcount, sendtype, recvcount, recvtype, root, comm))
HOOKS(gatherv,
      P(const void *sendbuf, int sendcount, MPI_Datatype sendtype, const int recvcounts[],
        MPI_Datatype recvtype, int root, MPI_Comm comm),
      (sendbuf, sendcount, sendtype, recvcounts, recvtype, root, comm))
HOOKS(scatter,
      P(const void *recvbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
        MPI_Datatype recvtype, int root, MPI_Comm comm),
      (recvbuf, sendcount, sendtype, recvcount, recvtype, root, comm))
HOOKS(scatterv,
      P(const void *recvbuf, const int sendcounts[], MPI_Datatype sendtype, int recvcount,
        MPI_Datatype recvtype, int root, MPI_Comm comm),
      (recvbuf, sendcounts, sendtype, recvcount, recvtype, root, comm))
HOOKS(allgather,
      P(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
        MPI_Datatype recvtype, MPI_Comm comm),
      (sendbuf, sendcount, sendtype, recvcount, recvtype, comm))
HOOKS(allgatherv,
      P(const void *sendbuf, int sendcount, MPI_Datatype sendtype, const int recvcounts[],
        MPI_Datatype recvtype, MPI_Comm comm),
      (sendbuf, sendcount, sendtype, recvcounts, recvtype, comm))
HOOKS(alltoall,
      P(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
        MPI_Datatype recvtype, MPI_Comm comm),
      (sendbuf, sendcount, sendtype, recvcount, recvtype, comm))
HOOKS(alltoallv,
      P(const void *sendbuf, const int sendcounts[], MPI_Datatype sendtype, const int recvcounts[],
        MPI_Datatype recvtype, MPI_Comm comm),
      (sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm))
HOOKS(alltoallw,
      P(const void *sendbuf, const int sendcounts[], const MPI_Datatype sendtypes[],
        const int recvcounts[], const MPI_Datatype recvtypes[], MPI_Comm comm),
      (sendbuf, sendcounts, sendtypes, recvcounts, recvtypes, comm))
HOOKS(allreduce, P(const void *sendbuf, int count, MPI_Datatype type, MPI_Comm comm),
      (sendbuf, count, type, comm))
HOOKS(reduce, P(const void *sendbuf, int count, MPI_Datatype type, int root, MPI_Comm comm),
      (sendbuf, count, type, root, comm))
HOOKS(reduce_scatter,
      P(const void *sendbuf, const int recvcounts[], MPI_Datatype type, MPI_Comm comm),
      (sendbuf, recvcounts, type, comm))
HOOKS(reduce_scatter_block, P(const void *sendbuf, int recvcount, MPI_Datatype type, MPI_Comm comm),
      (sendbuf, recvcount, type, comm))
HOOKS(scan, P(const void *sendbuf, int count, MPI_Datatype type, MPI_Comm comm),
      (sendbuf, count, type, comm))
HOOKS(exscan, P(const void *sendbuf, int count, MPI_Datatype type, MPI_Comm comm),
      (sendbuf, count, type, comm))
HOOKS(neighbor_allgather,
      P(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
      (sendcount, sendtype, recvcount, recvtype, comm))
HOOKS(neighbor_allgatherv,
      P(int sendcount, MPI_Datatype sendtype, const int recvcounts[], MPI_Datatype recvtype,
        MPI_Comm comm),
      (sendcount, sendtype, recvcounts, recvtype, comm))
HOOKS(neighbor_alltoall,
      P(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
      (sendcount, sendtype, recvcount, recvtype, comm))
HOOKS(neighbor_alltoallv,
      P(const int sendcounts[], MPI_Datatype sendtype, const int recvcounts[],
        MPI_Datatype recvtype, MPI_Comm comm),
      (sendcounts, sendtype, recvcounts, recvtype, comm))
HOOKS(neighbor_alltoallw,
      P(const int sendcounts[], const MPI_Datatype sendtypes[], const int recvcounts[],
        const MPI_Datatype recvtypes[], MPI_Comm comm),
      (sendcounts, sendtypes, recvcounts, recvtypes, comm))
