/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_comm.h: communicators of the program -> definitions, and the keys that make a
 * definition globally unique. MPI_COMM_WORLD and MPI_COMM_SELF have fixed keys; any other
 * communicator gets (world rank of its rank 0) << 32 | (a counter of that process), chosen
 * by its rank 0 and broadcast with PMPI inside the creating wrapper (over the new
 * communicator, or over the intracommunicator that created an intercommunicator).
 * An intercommunicator takes the smaller of its two groups' keys: MPI_Intercomm_create
 * broadcasts its leader's key over the local communicator, then one PMPI_Allreduce over the
 * new intercommunicator hands each group the other's; one created from an intercommunicator
 * (dup, split, create) needs two PMPI_Allreduce over it. MPI_Comm_idup broadcasts with
 * PMPI_Ibcast over an intracommunicator parent and defines the communicator when its request
 * completes; the idup of an intercommunicator cannot agree on a fresh key without a second
 * round of communication, so its key is derived from the parent's key and the number of
 * idups of that parent before it (the same on every member, as MPI orders the collectives
 * on a communicator): bit 62 set, the rest a 62-bit hash of the two. Communicators of
 * MPI_Comm_accept/connect/spawn get the key of the local side only (the other side may not
 * be measured, so no exchange over them), those of MPI_Comm_join and MPI_Comm_get_parent,
 * and ones the adapter meets without having seen their creation, get keys with the top bit
 * set that are unique to this process only. */
#ifndef SCOREP_MPI_COMM_H
#define SCOREP_MPI_COMM_H

#include "adapters/mpi/mpi_adapter.h"
#include "adapters/mpi/mpi_msgid.h"

#include <pthread.h>

typedef struct scorep_mpi_comm {
    MPI_Comm handle;
    uint32_t id; /* defs id, SCOREP_INVALID_ID when memory was exhausted */
    int rank, size, is_inter;
    int remote_size; /* the remote group's size; size for an intracommunicator */
    uint32_t refs;        /* the map's reference + one per request that points here; atomic under
                             MPI_THREAD_MULTIPLE */
    uint32_t idups;       /* MPI_Comm_idup calls on this intercommunicator so far; atomic */
    int immortal;         /* MPI_COMM_WORLD's record: never freed, references not counted */
    pthread_mutex_t lock; /* message counters and the deferred receives */
    scorep_mpi_counters send, recv;
    struct scorep_mpi_req *pend_head, *pend_tail; /* deferred receives, posting order */
} scorep_mpi_comm;

/* Called once PMPI_Init* succeeded: world group, MPI_COMM_WORLD, MPI_COMM_SELF. */
void scorep_mpi_comm_init(void);
void scorep_mpi_comm_finalize(void);

/* The record of a communicator (created with a process-local key when unknown); NULL for
 * MPI_COMM_NULL or when memory is exhausted. No reference is taken: valid while the
 * program may use the communicator. */
scorep_mpi_comm *scorep_mpi_comm_lookup(MPI_Comm comm);
/* The record of MPI_COMM_WORLD (set at MPI_Init; the communicator lives until MPI_Finalize):
 * the communicator of most messages is found without a table lookup. world_handle is
 * MPI_COMM_WORLD while the record is set, SCOREP_MPI_NO_WORLD otherwise, so that one compare
 * finds it. With Open MPI (MPI_Comm a pointer) that is the address of world_handle itself, a
 * handle no program has: a record found by the compare is never NULL, and the callers' test
 * of NULL is left to the lookup's path (issue #31, session 19: 2 instructions per message
 * call). Elsewhere it is MPI_COMM_NULL, whose record is NULL too. */
extern SCOREP_MPI_HIDDEN scorep_mpi_comm *scorep_mpi_world;
extern SCOREP_MPI_HIDDEN MPI_Comm scorep_mpi_world_handle;
#if defined(OPEN_MPI) && OPEN_MPI
#define SCOREP_MPI_NO_WORLD ((MPI_Comm)(void *)&scorep_mpi_world_handle)
#define SCOREP_MPI_WORLD_SET 1 /* a handle equal to world_handle has a record */
#else
#define SCOREP_MPI_NO_WORLD MPI_COMM_NULL
#define SCOREP_MPI_WORLD_SET 0
#endif
static inline scorep_mpi_comm *scorep_mpi_comm_get(MPI_Comm comm)
{
    if (comm == scorep_mpi_world_handle) {
        scorep_mpi_comm *w = scorep_mpi_world;
        if (SCOREP_MPI_WORLD_SET && w == NULL)
            __builtin_unreachable();
        return w;
    }
    return scorep_mpi_comm_lookup(comm);
}
void scorep_mpi_comm_ref_slow(scorep_mpi_comm *c);
void scorep_mpi_comm_unref_slow(scorep_mpi_comm *c);
/* A reference for a request or an RMA window (MPI_COMM_WORLD's record is immortal: no count,
 * no atomic operation on the path of its messages). */
static inline void scorep_mpi_comm_ref(scorep_mpi_comm *c)
{
    if (c && !c->immortal)
        scorep_mpi_comm_ref_slow(c);
}
static inline void scorep_mpi_comm_unref(scorep_mpi_comm *c)
{
    if (c && !c->immortal)
        scorep_mpi_comm_unref_slow(c);
}

/* mpi_msgid.h: the message ids of blocking sends and receives. The inline path is take()'s
 * of mpi_msgid.c when the counter is the one used last, nothing was given back, no lock is
 * needed and (receives) no wildcard receive waits for its id. */
static inline uint64_t scorep_mpi_msgid_send_if(scorep_mpi_comm *c, int dest, int tag)
{
    if (!scorep_mpi_msgids)
        return 0;
    if (scorep_mpi_counters_fast(&c->send, dest, tag))
        return (*c->send.fast_next)++;
    return scorep_mpi_msgid_send(c, dest, tag);
}

static inline uint64_t scorep_mpi_msgid_recv_if(scorep_mpi_comm *c, int source, int tag)
{
    if (!scorep_mpi_msgids)
        return 0;
    if (scorep_mpi_counters_fast(&c->recv, source, tag))
        return (*c->recv.fast_next)++;
    return scorep_mpi_msgid_recv(c, source, tag);
}

/* The defs id of a communicator (SCOREP_INVALID_ID for MPI_COMM_NULL). */
static inline uint32_t scorep_mpi_comm_id(MPI_Comm comm)
{
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    return c ? c->id : SCOREP_INVALID_ID;
}

/* A fresh key for a communicator or window whose rank 0 is this process. */
uint64_t scorep_mpi_new_key(void);
/* The key of a communicator's definition, SCOREP_COMM_KEY_NONE for NULL or none. */
uint64_t scorep_mpi_comm_key(const scorep_mpi_comm *c);
/* Defines comm (a new communicator) with this key; parent: the key of the communicator it
 * derives from, or SCOREP_COMM_KEY_NONE. Records CommCreate when f->record. */
scorep_mpi_comm *scorep_mpi_comm_define(scorep_mpi_frame *f, MPI_Comm comm, uint64_t key,
                                        uint64_t parent);

/* World ranks of a group's members (UINT32_MAX for processes outside MPI_COMM_WORLD);
 * malloc'ed, NULL on failure. */
uint32_t *scorep_mpi_group_members(MPI_Group group, int *size);
/* defs id of a group (SCOREP_INVALID_ID for MPI_GROUP_NULL or on failure) */
uint32_t scorep_mpi_group_id(MPI_Group group);

#endif
