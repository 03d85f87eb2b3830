/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_request.h: the requests the adapter follows from their creation (non-blocking
 * point-to-point, persistent requests, Imrecv, non-blocking collectives, request-based RMA,
 * MPI_Comm_idup) to their completion in any Wait/Test variant, MPI_Request_free or
 * MPI_Cancel. No fixed limit; safe under MPI_THREAD_MULTIPLE (see mpi_request_table.h). */
#ifndef SCOREP_MPI_REQUEST_H
#define SCOREP_MPI_REQUEST_H

#include "adapters/mpi/mpi_comm.h"
#include "adapters/mpi/mpi_msgid.h"
#include "core/events_mpi.h"

#include <stdbool.h>
#include <stdlib.h>

typedef enum {
    SCOREP_MPI_REQ_SEND = 1,
    SCOREP_MPI_REQ_RECV,
    SCOREP_MPI_REQ_COLL, /* non-blocking collective */
    SCOREP_MPI_REQ_RMA,  /* MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate */
    SCOREP_MPI_REQ_IDUP, /* MPI_Comm_idup: defines the new communicator at completion */
    SCOREP_MPI_REQ_IO    /* MPI_File_iread/iwrite...: win = I/O handle, io_op = operation */
} scorep_mpi_req_kind;

enum {
    SCOREP_MPI_REQ_PERSISTENT = 1 << 0,
    SCOREP_MPI_REQ_ACTIVE = 1 << 1,   /* started (always set for non-persistent requests) */
    SCOREP_MPI_REQ_CANCEL = 1 << 2,   /* MPI_Cancel was called */
    SCOREP_MPI_REQ_DEFERRED = 1 << 3, /* receive queued on its communicator (mpi_msgid.h) */
    SCOREP_MPI_REQ_HAS_ID = 1 << 4,   /* msg_id is known */
    SCOREP_MPI_REQ_EVENTS = 1 << 5    /* its creation was recorded: record its completion */
};

typedef struct scorep_mpi_req {
    MPI_Request handle;          /* the key in the request table */
    struct scorep_mpi_req *same; /* next record of the same handle; next free record */
    struct scorep_mpi_req *last; /* in the oldest record of a handle: the newest */
    uint64_t id;                 /* request id of the events, never 0 */
    uint32_t kind, flags;
    scorep_mpi_comm *comm; /* referenced (point-to-point, collectives, idup parent), or NULL */
    const void *owner; /* shared table only: the creating thread's location (rtab_take) */
    /* the fields of the kind; scorep_mpi_req_create sets the ones its creator does not */
    union {
        struct {             /* SEND, RECV */
            int peer, tag;   /* send: dest and tag; receive: source and tag as posted */
            uint64_t bytes;  /* send: bytes of one message */
            uint64_t msg_id; /* valid with SCOREP_MPI_REQ_HAS_ID (receives) or after the start */
            uint64_t msg_handle;                  /* receive of an Mprobe'd message, else 0 */
            struct scorep_mpi_req *pprev, *pnext; /* deferred receives of comm */
        };
        struct { /* COLL */
            uint32_t coll_op, root;
            uint64_t sent, received;
        };
        struct { /* RMA (win: the window), IO (win: the I/O handle, io_op: the operation) */
            uint32_t win, io_op;
            uint64_t matching_id;
            MPI_Win rma_win; /* RMA: the MPI window (its operation's completion state) */
            size_t rma_slot; /* RMA: index of its entry in the window's rreqs (under its lock) */
        };
        struct { /* IDUP */
            MPI_Comm newcomm;
            MPI_Request key_request;
            uint64_t *key;
        };
    };
} scorep_mpi_req;

/* the table of the records (its inline fast paths use the record) */
#include "adapters/mpi/mpi_request_table.h"

void scorep_mpi_request_init(void);

/* Request ids: per process, never 0. Below MPI_THREAD_MULTIPLE requests are created by one
 * thread at a time: no atomic operation. */
extern SCOREP_MPI_HIDDEN uint64_t scorep_mpi_request_counter;
static inline uint64_t scorep_mpi_next_request_id(void)
{
    if (scorep_mpi_thread_level == MPI_THREAD_MULTIPLE)
        return __atomic_add_fetch(&scorep_mpi_request_counter, 1, __ATOMIC_RELAXED);
    return ++scorep_mpi_request_counter;
}

/* A new record for a request the program just got, with request id `id`; ACTIVE set unless
 * persistent, comm NULL; of the kind's fields only msg_handle (SEND, RECV) and root (COLL) are
 * set: the creator writes the others and then calls scorep_mpi_req_publish. NULL when memory
 * is exhausted. Inline: on the path of every non-blocking message. */
static inline scorep_mpi_req *scorep_mpi_req_create_id(MPI_Request handle, scorep_mpi_req_kind kind,
                                                       uint32_t flags, uint64_t id)
{
    if (handle == MPI_REQUEST_NULL)
        return NULL;
    scorep_mpi_req *r = scorep_mpi_rtab_insert(handle);
    if (!r)
        return NULL;
    r->id = id;
    r->kind = kind;
    r->flags = (flags & SCOREP_MPI_REQ_PERSISTENT) ? flags : flags | SCOREP_MPI_REQ_ACTIVE;
    r->comm = NULL;
    if (kind == SCOREP_MPI_REQ_SEND || kind == SCOREP_MPI_REQ_RECV)
        r->msg_handle = 0;
    else if (kind == SCOREP_MPI_REQ_COLL)
        r->root = SCOREP_NO_ROOT;
    return r;
}

/* ... with a new request id (scorep_mpi_req_create_id: with the id its start was recorded
 * with, before the PMPI call) */
static inline scorep_mpi_req *scorep_mpi_req_create(MPI_Request handle, scorep_mpi_req_kind kind,
                                                    uint32_t flags)
{
    return scorep_mpi_req_create_id(handle, kind, flags, scorep_mpi_next_request_id());
}

scorep_mpi_req *scorep_mpi_req_find(MPI_Request handle);

/* Drops a record taken out of the table (and its references). Inline for the same reason. */
static inline void scorep_mpi_req_destroy(scorep_mpi_req *r)
{
    if (r->comm) {
        if (r->kind == SCOREP_MPI_REQ_RECV && (r->flags & SCOREP_MPI_REQ_DEFERRED))
            scorep_mpi_msgid_recv_forget(r->comm, r);
        scorep_mpi_comm_unref(r->comm);
    }
    if (r->kind == SCOREP_MPI_REQ_IDUP)
        free(r->key);
    scorep_mpi_rtab_free(r);
}
/* The last step of a record's creation, after its creator has written every field: under
 * MPI_THREAD_MULTIPLE the record enters the table only now (scorep_mpi_rtab_insert says
 * why). false when memory for the table is exhausted: the record is dropped (an MPI_Comm_idup's
 * is kept out of the table, as its key's broadcast may still be running). */
static inline bool scorep_mpi_req_publish(scorep_mpi_req *r)
{
    if (__builtin_expect(scorep_mpi_rtab_publish(r) == 0, 1))
        return true;
    if (r->kind != SCOREP_MPI_REQ_IDUP)
        scorep_mpi_req_destroy(r);
    return false;
}

/* The request completed with this status (for persistent ones: became inactive): records
 * the completion events on f's location. */
void scorep_mpi_req_completed(scorep_mpi_frame *f, scorep_mpi_req *r, MPI_Status *st);
/* The request was tested and is not complete (xreqtest). */
void scorep_mpi_req_tested(scorep_mpi_frame *f, scorep_mpi_req *r);
/* MPI_Start on a persistent request, before the PMPI call (its MpiIsend / MpiIrecvRequest);
 * scorep_mpi_req_not_started takes it back when the call failed. */
void scorep_mpi_req_started(scorep_mpi_frame *f, scorep_mpi_req *r);
void scorep_mpi_req_not_started(scorep_mpi_frame *f, scorep_mpi_req *r);

#endif
