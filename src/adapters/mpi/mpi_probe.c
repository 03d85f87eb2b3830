/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_probe.c: probes and matched receives. A successful MPI_Probe, MPI_Iprobe (flag true),
 * MPI_Mprobe or MPI_Improbe (flag true) records the envelope it found: communicator, source
 * (rank in it, from the status), tag, bytes (PMPI_Get_count with MPI_BYTE), a message
 * handle (0 for Probe/Iprobe; 1, 2, ... per process for Mprobe/Improbe) and the id of the
 * message. Probe/Iprobe do not take the id (a repeated probe of one message names the same
 * id, and the receive that takes the message gets it); Mprobe/Improbe take it, since the
 * message is matched, and MPI_Mrecv/MPI_Imrecv record that id with the handle. */
#include "adapters/mpi/mpi_hooks.h"
#include "adapters/mpi/mpi_map.h"
#include "core/events_mpi.h"

typedef struct scorep_mpi_msg {
    scorep_mpi_snode node; /* key: the MPI_Message */
    scorep_mpi_comm *comm; /* referenced */
    int source, tag;
    uint64_t bytes, msg_id, handle;
} scorep_mpi_msg;

static scorep_mpi_smap messages;
static pthread_once_t messages_once = PTHREAD_ONCE_INIT;

static void messages_init(void)
{
    scorep_mpi_smap_init(&messages, sizeof(scorep_mpi_msg),
                         scorep_mpi_thread_level == MPI_THREAD_MULTIPLE);
}

static void found(scorep_mpi_frame *f, MPI_Comm comm, MPI_Status *st)
{
    if (st->MPI_SOURCE == MPI_PROC_NULL)
        return;
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    if (!c)
        return;
    uint64_t id = scorep_mpi_msgid_peek(c, st->MPI_SOURCE, st->MPI_TAG);
    scorep_event_mpi_probe(f->l, c->id, (uint32_t)st->MPI_SOURCE, (uint32_t)st->MPI_TAG,
                           scorep_mpi_status_bytes(st), 0, id);
}

void scorep_mpi_post_probe(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                           MPI_Status *status)
{
    (void)source;
    (void)tag;
    if (ret == MPI_SUCCESS)
        found(f, comm, status);
}

void scorep_mpi_post_iprobe(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                            int *flag, MPI_Status *status)
{
    (void)source;
    (void)tag;
    if (ret == MPI_SUCCESS && *flag)
        found(f, comm, status);
}

static void matched(scorep_mpi_frame *f, MPI_Comm comm, MPI_Message message, MPI_Status *st)
{
    if (message == MPI_MESSAGE_NO_PROC || message == MPI_MESSAGE_NULL ||
        st->MPI_SOURCE == MPI_PROC_NULL)
        return;
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    if (!c)
        return;
    pthread_once(&messages_once, messages_init);
    scorep_mpi_msg *m = scorep_mpi_smap_insert(&messages, (uintptr_t)message);
    if (!m)
        return;
    scorep_mpi_comm_ref(c);
    m->comm = c;
    m->source = st->MPI_SOURCE;
    m->tag = st->MPI_TAG;
    m->bytes = scorep_mpi_status_bytes(st);
    m->msg_id = scorep_mpi_msgid_recv(c, m->source, m->tag);
    m->handle = scorep_mpi_next_message_handle();
    scorep_event_mpi_probe(f->l, c->id, (uint32_t)m->source, (uint32_t)m->tag, m->bytes, m->handle,
                           m->msg_id);
}

void scorep_mpi_post_mprobe(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                            MPI_Message *message, MPI_Status *status)
{
    (void)source;
    (void)tag;
    if (ret == MPI_SUCCESS)
        matched(f, comm, *message, status);
}

void scorep_mpi_post_improbe(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                             int *flag, MPI_Message *message, MPI_Status *status)
{
    (void)source;
    (void)tag;
    if (ret == MPI_SUCCESS && *flag)
        matched(f, comm, *message, status);
}

/* The record of the message (taken out of the table before the call releases the handle). */
static scorep_mpi_msg *take(MPI_Message *message)
{
    if (!message || *message == MPI_MESSAGE_NULL || *message == MPI_MESSAGE_NO_PROC)
        return NULL;
    pthread_once(&messages_once, messages_init);
    return scorep_mpi_smap_take(&messages, (uintptr_t)*message);
}

static void drop(scorep_mpi_msg *m)
{
    scorep_mpi_comm_unref(m->comm);
    scorep_mpi_smap_release(&messages, m);
}

void scorep_mpi_pre_mrecv(scorep_mpi_frame *f, scorep_mpi_ctx_msg *ctx, MPI_Message *message)
{
    (void)f;
    ctx->msg = take(message);
}

void scorep_mpi_post_mrecv(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_msg *ctx,
                           MPI_Status *status)
{
    scorep_mpi_msg *m = ctx->msg;
    if (!m)
        return;
    if (scorep_mpi_received(ret))
        scorep_event_mpi_recv(f->l, scorep_mpi_now(f), m->comm->id, (uint32_t)m->source,
                              (uint32_t)m->tag, scorep_mpi_status_bytes(status), m->msg_id,
                              m->handle);
    drop(m);
}

void scorep_mpi_pre_imrecv(scorep_mpi_frame *f, scorep_mpi_ctx_msg *ctx, MPI_Message *message)
{
    (void)f;
    ctx->msg = take(message);
}

void scorep_mpi_post_imrecv(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_msg *ctx,
                            MPI_Request *request)
{
    scorep_mpi_msg *m = ctx->msg;
    if (!m)
        return;
    scorep_mpi_req *r =
        ret == MPI_SUCCESS
            ? scorep_mpi_req_create(*request, SCOREP_MPI_REQ_RECV,
                                    SCOREP_MPI_REQ_HAS_ID | (f->record ? SCOREP_MPI_REQ_EVENTS : 0))
            : NULL;
    if (r) {
        scorep_mpi_comm_ref(m->comm);
        r->comm = m->comm;
        r->peer = m->source;
        r->tag = m->tag;
        r->msg_id = m->msg_id;
        r->msg_handle = m->handle;
        scorep_event_mpi_irecv_request(f->l, scorep_mpi_now(f), r->id);
        scorep_mpi_req_publish(r);
    }
    drop(m);
}
