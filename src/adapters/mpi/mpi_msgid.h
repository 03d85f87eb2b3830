/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_msgid.h: message ids. The n-th message from rank s to rank d on communicator c with
 * tag t has id n (1, 2, ...) on both sides, computed without extra communication: the sender
 * counts its sends per (c, d, t), the receiver its receives per (c, s, t); MPI's
 * non-overtaking rule makes both sequences agree.
 *
 * Receive side: a receive with a fully specified source and tag takes its id when it is
 * posted (matching order is posting order). A wildcard receive (MPI_ANY_SOURCE or
 * MPI_ANY_TAG) learns its envelope only from the status at completion; it is queued on its
 * communicator in posting order ("deferred"), and every receive posted on that communicator
 * while the queue is not empty is deferred too. Before an id is taken from a counter the
 * queue is resolved in posting order: entries whose request is already complete
 * (PMPI_Request_get_status) take their ids first. Under MPI_THREAD_MULTIPLE the queue is not
 * resolved that way (another thread may free the request), so there the ids of wildcard
 * receives follow completion order. Probes read the next id without taking it; Mprobe and
 * Improbe take it (the message is matched) and the Mrecv/Imrecv reports that id.
 * Ids of cancelled operations are given back and reused by the next operation on the same
 * (c, peer, t). Ids are recorded in traces only: a process that does not trace counts
 * nothing. */
#ifndef SCOREP_MPI_MSGID_H
#define SCOREP_MPI_MSGID_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct scorep_mpi_comm;
struct scorep_mpi_req;

/* (peer, tag) -> next id; open addressing, grows without limit. */
typedef struct {
    uint64_t *keys;
    uint64_t *next;
    size_t cap, used;
    size_t last; /* the slot found last (checked against keys before use) */
    /* ids given back by cancelled operations: key, id */
    uint64_t *returned;
    size_t nreturned, capreturned;
    /* the inline path's counter (scorep_mpi_counters_fast): the key of the slot found last and
     * its counter, while an id may be taken from it without a call; fast_key is
     * SCOREP_MPI_NO_KEY otherwise (mpi_msgid.c, fast_set, after every change) */
    uint64_t fast_key;
    uint64_t *fast_next;
} scorep_mpi_counters;

/* No key (an empty slot, no fast counter): the key of peer INT32_MIN and tag INT32_MIN,
 * which no call has (ranks are >= 0, MPI's special peers and MPI_ANY_TAG small negatives).
 * Not UINT64_MAX: that is the key of (-1, -1), which is (MPI_ANY_SOURCE, MPI_ANY_TAG) in
 * Open MPI, so a program's first receive Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) matched "no fast
 * counter" and took its id through a NULL counter (SIGSEGV in MPICH's pt2pt/anyall). */
#define SCOREP_MPI_NO_KEY 0x8000000080000000ull

/* A communicator's new counters (no fast counter) */
void scorep_mpi_counters_init(scorep_mpi_counters *c);
void scorep_mpi_counters_free(scorep_mpi_counters *c);

/* Non-zero when this process traces (set at MPI_Init): otherwise no ids are kept, and the
 * functions below do nothing and return 0. */
extern __attribute__((visibility("hidden"))) int scorep_mpi_msgids;

/* The message id of a blocking send / receive (0 when this process does not trace: the
 * test is inline, the wrappers of blocking calls pay no call for it). Defined in mpi_comm.h
 * (they read the communicator's counters): the id of a message to or from the peer and tag
 * of the previous one is taken inline (scorep_mpi_counters_fast), others out of line. */
static inline uint64_t scorep_mpi_msgid_send_if(struct scorep_mpi_comm *c, int dest, int tag);
static inline uint64_t scorep_mpi_msgid_recv_if(struct scorep_mpi_comm *c, int source, int tag);

/* Whether the id of (peer, tag) can be taken inline, from c->fast_next: what take() in
 * mpi_msgid.c reaches then, without a call. fast_set keeps the fast counter only while that
 * holds: the slot found last, no id given back (those are handed out first), below
 * MPI_THREAD_MULTIPLE (no lock needed), and for receives no wildcard receive waiting for its
 * id; so one compare tests all of them. A wildcard's key (MPI_ANY_SOURCE, MPI_ANY_TAG) is no
 * counter's and never matches. */
static inline bool scorep_mpi_counters_fast(const scorep_mpi_counters *c, int peer, int tag)
{
    uint64_t k = (uint64_t)(uint32_t)peer << 32 | (uint32_t)tag;
    return __builtin_expect(c->fast_key == k, 1);
}

/* Under MPI_THREAD_MULTIPLE all take the communicator's lock. */
uint64_t scorep_mpi_msgid_send(struct scorep_mpi_comm *c, int dest, int tag);
void scorep_mpi_msgid_send_cancelled(struct scorep_mpi_comm *c, int dest, int tag, uint64_t id);

/* A receive request was posted (Irecv, Start of a persistent receive). */
void scorep_mpi_msgid_recv_posted(struct scorep_mpi_comm *c, struct scorep_mpi_req *r);
/* A receive request completed with this status: its id. */
uint64_t scorep_mpi_msgid_recv_completed(struct scorep_mpi_comm *c, struct scorep_mpi_req *r,
                                         const MPI_Status *st);
/* A receive request was cancelled or freed: gives its id back / leaves the queue. */
void scorep_mpi_msgid_recv_cancelled(struct scorep_mpi_comm *c, struct scorep_mpi_req *r);
void scorep_mpi_msgid_recv_forget(struct scorep_mpi_comm *c, struct scorep_mpi_req *r);
/* A blocking receive got a message from source with tag. */
uint64_t scorep_mpi_msgid_recv(struct scorep_mpi_comm *c, int source, int tag);
/* A probe found a message: the id its receive will get (not taken). */
uint64_t scorep_mpi_msgid_peek(struct scorep_mpi_comm *c, int source, int tag);

#endif
