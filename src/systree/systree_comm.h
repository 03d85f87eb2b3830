/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_comm.h: the communication the system-tree algorithm needs, written so that one
 * call performs a step for all the ranks this process executes: one rank under MPI, every
 * simulated rank in scorep-systree-sim. */
#ifndef SYSTREE_COMM_H
#define SYSTREE_COMM_H

#include <stddef.h>
#include <stdint.h>

/* A handle stands for all the communicators made by one split (a "family"); a process holds
 * the members it executes ("local members", numbered 0 .. nlocal-1, ordered by group, then
 * rank). Under MPI that is the one communicator it is in (nlocal 1) or none (nlocal 0); in
 * the simulator every group of every simulated rank. Each member has a rank and a size in its
 * group, as in MPI. All calls below are collective over every group. */
typedef struct systree_comm systree_comm;

/* Split colours besides values 0 .. 2^31-1: not in any new group; or, for every member of a
 * group alike, keep the group as it is, without communication. */
enum { SYSTREE_UNDEFINED = -1, SYSTREE_KEEP = -2 };

typedef struct systree_blob {
    void *data;
    size_t len;
} systree_blob;

/* One message of an exchange. Send: data malloc'ed by the caller and taken over by the call
 * (freed there, sent or not; the simulator hands the buffer itself to the receiver, which
 * spares a copy and an allocation per message). Receive: member and peer given; data
 * (malloc'ed, the caller frees it) and len filled. */
typedef struct systree_msg {
    size_t member; /* local member that sends / receives */
    int peer;      /* rank of the other side in the member's group */
    void *data;
    size_t len;
} systree_msg;

typedef struct systree_comm_ops {
    size_t (*nlocal)(const systree_comm *c);
    size_t (*ngroups)(const systree_comm *c); /* local groups */
    size_t (*group)(const systree_comm *c, size_t member);
    int (*rank)(const systree_comm *c, size_t member);
    int (*size)(const systree_comm *c, size_t member);
    uint64_t (*world)(const systree_comm *c, size_t member); /* rank in the first family */
    size_t (*parent)(const systree_comm *c, size_t member);  /* member index before the split */
    /* color[m] per local member; key NULL keeps the rank order. *out is a new family. */
    int (*split)(systree_comm *c, const int64_t *color, const uint64_t *key, systree_comm **out);
    /* One round of point-to-point messages within the groups; takes the send buffers over. */
    int (*exchange)(systree_comm *c, const systree_msg *send, size_t nsend, systree_msg *recv,
                    size_t nrecv);
    /* From rank 0 of each group: in[g] read where this process runs rank 0 of local group g;
     * out[g] set for every local group (malloc'ed, the caller frees). active: NULL, or per
     * local group whether it takes part (the same on all its members); others get nothing. */
    int (*bcast)(systree_comm *c, const char *active, const systree_blob *in, systree_blob *out);
    /* Maximum over each group: in[m * count + j] per member, out[g * count + j] per group. */
    int (*allreduce_max)(systree_comm *c, const char *active, const uint64_t *in, size_t count,
                         uint64_t *out);
    void (*free)(systree_comm *c);
} systree_comm_ops;

struct systree_comm {
    const systree_comm_ops *ops;
};

static inline size_t systree_comm_nlocal(const systree_comm *c)
{
    return c->ops->nlocal(c);
}
static inline size_t systree_comm_ngroups(const systree_comm *c)
{
    return c->ops->ngroups(c);
}
static inline size_t systree_comm_group(const systree_comm *c, size_t m)
{
    return c->ops->group(c, m);
}
static inline int systree_comm_rank(const systree_comm *c, size_t m)
{
    return c->ops->rank(c, m);
}
static inline int systree_comm_size(const systree_comm *c, size_t m)
{
    return c->ops->size(c, m);
}
static inline uint64_t systree_comm_world(const systree_comm *c, size_t m)
{
    return c->ops->world(c, m);
}
static inline size_t systree_comm_parent(const systree_comm *c, size_t m)
{
    return c->ops->parent(c, m);
}
static inline int systree_comm_split(systree_comm *c, const int64_t *color, const uint64_t *key,
                                     systree_comm **out)
{
    return c->ops->split(c, color, key, out);
}
static inline int systree_comm_exchange(systree_comm *c, const systree_msg *send, size_t nsend,
                                        systree_msg *recv, size_t nrecv)
{
    return c->ops->exchange(c, send, nsend, recv, nrecv);
}
static inline int systree_comm_bcast(systree_comm *c, const char *active, const systree_blob *in,
                                     systree_blob *out)
{
    return c->ops->bcast(c, active, in, out);
}
static inline int systree_comm_allreduce_max(systree_comm *c, const char *active,
                                             const uint64_t *in, size_t count, uint64_t *out)
{
    return c->ops->allreduce_max(c, active, in, count, out);
}
static inline void systree_comm_free(systree_comm *c)
{
    if (c)
        c->ops->free(c);
}

/* ---- the simulated backend: all ranks in this process ---- */

/* Counters of a simulated run. The cost of a split follows Moody et al.'s sort-based
 * MPI_Comm_split (bitonic sort of 16-byte entries, then scans): L(L+1)/2 + 2L rounds with
 * L = ceil(log2 size), 16 bytes each way per round. */
typedef struct systree_sim_stats {
    uint64_t ranks;
    uint64_t max_bytes;       /* most bytes one rank sent plus received */
    uint64_t max_bytes_rank;  /* which rank */
    uint64_t max_split_bytes; /* the part of max_bytes spent in splits */
    uint64_t rounds;          /* communication steps on the critical path */
    uint64_t messages;        /* point-to-point messages */
    uint64_t total_bytes;     /* all bytes sent */
    uint64_t splits;          /* split calls */
} systree_sim_stats;

/* A family of one group of nranks simulated ranks (the world). NULL when out of memory. */
systree_comm *systree_comm_sim_world(uint64_t nranks);
/* Counters of the world c belongs to (any family split from it). */
void systree_comm_sim_stats(const systree_comm *c, systree_sim_stats *out);
void systree_comm_sim_reset(systree_comm *c);

#endif
