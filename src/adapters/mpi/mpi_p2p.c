/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_p2p.c: point-to-point events: the creation of persistent requests here, the hooks of
 * sends and receives inline in mpi_p2p.h (included by mpi_hooks.h). Sends record MpiSend / MpiIsend
 * before the PMPI call (one tick after the Enter of the call, no timer read: a receive on another
 * rank may complete before the call returns), blocking receives MpiRecv after it (envelope from the
 * status; the Leave reuses its timer reading); non-blocking and persistent receives record
 * MpiIrecvRequest when they start; MpiIsendComplete / MpiIrecv / MpiRequestCancelled are
 * recorded when a Wait or Test completes a request (mpi_request.c). Operations with
 * MPI_PROC_NULL record no message event. Every message carries its id (mpi_msgid.h). */
#include "adapters/mpi/mpi_hooks.h"
#include "core/events_mpi.h"

void scorep_mpi_post_send_init(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type, int dest,
                               int tag, MPI_Comm comm, MPI_Request *request)
{
    if (ret != MPI_SUCCESS || dest == MPI_PROC_NULL)
        return;
    scorep_mpi_comm *c = scorep_mpi_comm_get(comm);
    if (c)
        scorep_mpi_send_request(f, c, scorep_mpi_type_bytes(count, type), dest, tag, *request,
                                SCOREP_MPI_REQ_PERSISTENT, scorep_mpi_next_request_id(), 0);
}

void scorep_mpi_post_recv_init(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                               MPI_Request *request)
{
    scorep_mpi_req *r = ret == MPI_SUCCESS && source != MPI_PROC_NULL
                            ? scorep_mpi_recv_request(f, source, tag, comm, *request,
                                                      SCOREP_MPI_REQ_PERSISTENT)
                            : NULL;
    if (r)
        scorep_mpi_req_publish(r);
}
