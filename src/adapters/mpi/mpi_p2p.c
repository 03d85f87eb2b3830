/* mpi_p2p.c: point-to-point events. Blocking sends record MpiSend before the PMPI call (one
 * tick after the Enter of the call, no timer read), blocking receives MpiRecv after it
 * (envelope from the status; the Leave reuses its timer reading); non-blocking and persistent
 * operations record MpiIsend / MpiIrecvRequest when they start and MpiIsendComplete /
 * MpiIrecv / MpiRequestCancelled when a Wait or Test completes them (mpi_request.c).
 * Operations with MPI_PROC_NULL record no message event. Every message carries its id
 * (mpi_msgid.h). */
#include "adapters/mpi/mpi_hooks.h"
#include "core/events_mpi.h"

/* A blocking send is recorded before the call (it must precede its receive), so arguments
 * MPI rejects (with MPI_ERRORS_RETURN the program goes on) must not record a message that
 * never leaves, nor take a message id: the checks of MPI_Send's own argument errors. */
static int valid_send(const scorep_mpi_comm *c, int count, int dest, int tag)
{
    int peers = c->is_inter ? c->remote_size : c->size;
    return count >= 0 && tag >= 0 && dest >= 0 && dest < peers;
}

void scorep_mpi_pre_send(scorep_mpi_frame *f, int count, MPI_Datatype type, int dest, int tag,
                         MPI_Comm comm)
{
    if (dest == MPI_PROC_NULL)
        return;
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    if (!c || !valid_send(c, count, dest, tag))
        return;
    uint64_t id = scorep_mpi_msgid_send_if(c, dest, tag);
    scorep_event_mpi_send(f->l, SCOREP_TS_NEXT, c->id, (uint32_t)dest, (uint32_t)tag,
                          scorep_mpi_type_bytes(count, type), id);
}

void scorep_mpi_post_recv(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                          MPI_Status *status)
{
    (void)tag;
    if (!scorep_mpi_received(ret) || source == MPI_PROC_NULL || status->MPI_SOURCE == MPI_PROC_NULL)
        return;
    uint64_t raw = scorep_mpi_now(f); /* the message arrived: before the bookkeeping */
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    if (!c)
        return;
    uint64_t id = scorep_mpi_msgid_recv_if(c, status->MPI_SOURCE, status->MPI_TAG);
    scorep_event_mpi_recv(f->l, raw, c->id, (uint32_t)status->MPI_SOURCE, (uint32_t)status->MPI_TAG,
                          scorep_mpi_status_bytes(status), id, 0);
}

/* A record for a new send request (non-blocking or persistent). Inlined: a call with eight
 * arguments costs more than the work. */
static inline __attribute__((always_inline)) scorep_mpi_req *
send_request(scorep_mpi_frame *f, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
             MPI_Request request, uint32_t flags)
{
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    if (!c)
        return NULL;
    scorep_mpi_req *r = scorep_mpi_req_create(request, SCOREP_MPI_REQ_SEND,
                                              flags | (f->record ? SCOREP_MPI_REQ_EVENTS : 0));
    if (!r)
        return NULL;
    scorep_mpi_comm_ref(c);
    r->comm = c;
    r->peer = dest;
    r->tag = tag;
    r->bytes = scorep_mpi_type_bytes(count, type);
    return r;
}

static inline __attribute__((always_inline)) scorep_mpi_req *
recv_request(scorep_mpi_frame *f, int source, int tag, MPI_Comm comm, MPI_Request request,
             uint32_t flags)
{
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    if (!c)
        return NULL;
    scorep_mpi_req *r = scorep_mpi_req_create(request, SCOREP_MPI_REQ_RECV,
                                              flags | (f->record ? SCOREP_MPI_REQ_EVENTS : 0));
    if (!r)
        return NULL;
    scorep_mpi_comm_ref(c);
    r->comm = c;
    r->peer = source;
    r->tag = tag;
    return r;
}

void scorep_mpi_post_isend(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type, int dest,
                           int tag, MPI_Comm comm, MPI_Request *request)
{
    if (ret != MPI_SUCCESS || dest == MPI_PROC_NULL)
        return;
    scorep_mpi_req *r = send_request(f, count, type, dest, tag, comm, *request, 0);
    if (!r)
        return;
    r->msg_id = scorep_mpi_msgid_send_if(r->comm, dest, tag);
    scorep_event_mpi_isend(f->l, scorep_mpi_now(f), r->comm->id, (uint32_t)dest, (uint32_t)tag,
                           r->bytes, r->id, r->msg_id);
}

void scorep_mpi_post_irecv(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                           MPI_Request *request)
{
    if (ret != MPI_SUCCESS || source == MPI_PROC_NULL)
        return;
    scorep_mpi_req *r = recv_request(f, source, tag, comm, *request, 0);
    if (!r)
        return;
    scorep_event_mpi_irecv_request(f->l, scorep_mpi_now(f), r->id);
    if (scorep_mpi_msgids)
        scorep_mpi_msgid_recv_posted(r->comm, r);
}

void scorep_mpi_post_send_init(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type, int dest,
                               int tag, MPI_Comm comm, MPI_Request *request)
{
    if (ret == MPI_SUCCESS && dest != MPI_PROC_NULL)
        send_request(f, count, type, dest, tag, comm, *request, SCOREP_MPI_REQ_PERSISTENT);
}

void scorep_mpi_post_recv_init(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                               MPI_Request *request)
{
    if (ret == MPI_SUCCESS && source != MPI_PROC_NULL)
        recv_request(f, source, tag, comm, *request, SCOREP_MPI_REQ_PERSISTENT);
}
