/* SPDX-License-Identifier: BSD-3-Clause */
/* an_net.h: the communication among the analysis processes (process r analyses trace rank
 * r), the handful of operations the analysis uses, without MPI's types: a backend is MPI
 * (an_net_mpi.c, a program or scorep-analyze under mpirun), one process without MPI
 * (an_net_single.c: a program without MPI, its one process's threads), or simulated ranks
 * in one process (an_net_sim.c, for unit tests: each simulated rank its own handle on its own
 * thread, the collectives meeting in memory; nothing here assumes a process per rank). */
#ifndef SCOREP_AN_NET_H
#define SCOREP_AN_NET_H

#include <stddef.h>

/* element types (counts and displacements below are in elements, as in MPI) */
typedef enum { AN_T_BYTE, AN_T_INT, AN_T_U8, AN_T_U32, AN_T_U64, AN_T_DOUBLE } an_type;
typedef enum { AN_OP_MIN, AN_OP_MAX, AN_OP_SUM } an_op;

static inline size_t an_type_size(an_type t)
{
    static const size_t s[] = {1, sizeof(int), 1, 4, 8, sizeof(double)};
    return s[t];
}

typedef struct an_net an_net;

/* Every operation but isend/recv/waitall is collective over the handle's processes, with
 * MPI's semantics of the operation of the same name (root, counts, displacements); the
 * buffers of one call do not overlap. */
typedef struct an_net_ops {
    int (*rank)(const an_net *n);
    int (*size)(const an_net *n);
    void (*allreduce)(an_net *n, const void *in, void *out, int cnt, an_type t, an_op op);
    void (*scan)(an_net *n, const void *in, void *out, int cnt, an_type t, an_op op);
    void (*bcast)(an_net *n, void *buf, int cnt, an_type t, int root);
    void (*gather)(an_net *n, const void *in, int cnt, void *out, an_type t, int root);
    void (*gatherv)(an_net *n, const void *in, int cnt, void *out, const int *cnts,
                    const int *displs, an_type t, int root);
    void (*scatter)(an_net *n, const void *in, void *out, int cnt, an_type t, int root);
    void (*scatterv)(an_net *n, const void *in, const int *cnts, const int *displs, void *out,
                     int cnt, an_type t, int root);
    void (*alltoall)(an_net *n, const void *in, void *out, int cnt, an_type t);
    void (*alltoallv)(an_net *n, const void *in, const int *scnts, const int *sdispls, void *out,
                      const int *rcnts, const int *rdispls, an_type t);
    /* point to point: a send the handle completes at waitall (BUF stays valid until then);
     * a blocking receive. -1 when the send cannot be queued (out of memory). */
    int (*isend)(an_net *n, const void *buf, int cnt, an_type t, int dest, int tag);
    void (*recv)(an_net *n, void *buf, int cnt, an_type t, int src, int tag);
    void (*waitall)(an_net *n);
    /* a handle over the processes RANKS[0..cnt-1] of N (in that order), called by those
     * processes only; TAG tells concurrent creations apart. NULL when out of memory. */
    an_net *(*sub)(an_net *n, const int *ranks, int cnt, int tag);
    void (*free)(an_net *n); /* a handle made by sub or by a backend's constructor */
} an_net_ops;

struct an_net {
    const an_net_ops *ops;
};

static inline int an_net_rank(const an_net *n)
{
    return n->ops->rank(n);
}
static inline int an_net_size(const an_net *n)
{
    return n->ops->size(n);
}
static inline void an_net_allreduce(an_net *n, const void *in, void *out, int cnt, an_type t,
                                    an_op op)
{
    n->ops->allreduce(n, in, out, cnt, t, op);
}
static inline void an_net_scan(an_net *n, const void *in, void *out, int cnt, an_type t, an_op op)
{
    n->ops->scan(n, in, out, cnt, t, op);
}
static inline void an_net_bcast(an_net *n, void *buf, int cnt, an_type t, int root)
{
    n->ops->bcast(n, buf, cnt, t, root);
}
static inline void an_net_gather(an_net *n, const void *in, int cnt, void *out, an_type t, int root)
{
    n->ops->gather(n, in, cnt, out, t, root);
}
static inline void an_net_gatherv(an_net *n, const void *in, int cnt, void *out, const int *cnts,
                                  const int *displs, an_type t, int root)
{
    n->ops->gatherv(n, in, cnt, out, cnts, displs, t, root);
}
static inline void an_net_scatter(an_net *n, const void *in, void *out, int cnt, an_type t,
                                  int root)
{
    n->ops->scatter(n, in, out, cnt, t, root);
}
static inline void an_net_scatterv(an_net *n, const void *in, const int *cnts, const int *displs,
                                   void *out, int cnt, an_type t, int root)
{
    n->ops->scatterv(n, in, cnts, displs, out, cnt, t, root);
}
static inline void an_net_alltoall(an_net *n, const void *in, void *out, int cnt, an_type t)
{
    n->ops->alltoall(n, in, out, cnt, t);
}
static inline void an_net_alltoallv(an_net *n, const void *in, const int *scnts, const int *sdispls,
                                    void *out, const int *rcnts, const int *rdispls, an_type t)
{
    n->ops->alltoallv(n, in, scnts, sdispls, out, rcnts, rdispls, t);
}
static inline int an_net_isend(an_net *n, const void *buf, int cnt, an_type t, int dest, int tag)
{
    return n->ops->isend(n, buf, cnt, t, dest, tag);
}
static inline void an_net_recv(an_net *n, void *buf, int cnt, an_type t, int src, int tag)
{
    n->ops->recv(n, buf, cnt, t, src, tag);
}
static inline void an_net_waitall(an_net *n)
{
    n->ops->waitall(n);
}
static inline an_net *an_net_sub(an_net *n, const int *ranks, int cnt, int tag)
{
    return n->ops->sub(n, ranks, cnt, tag);
}
static inline void an_net_free(an_net *n)
{
    if (n)
        n->ops->free(n);
}

/* the single-process backend (an_net_single.c): one process, rank 0 of 1, no MPI; the
 * collectives are copies, a message to itself waits in a queue until received. NULL when out
 * of memory. */
an_net *an_net_single(void);

#endif
