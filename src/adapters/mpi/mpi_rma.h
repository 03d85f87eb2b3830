/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_rma.h: RMA windows of the program -> definitions (key as for communicators, broadcast
 * over the window's communicator), and the operations still waiting for their completion
 * event at the next synchronisation. */
#ifndef SCOREP_MPI_RMA_H
#define SCOREP_MPI_RMA_H

#include "adapters/mpi/mpi_adapter.h"

#include <pthread.h>

typedef struct {
    int target;
    uint64_t id;
} scorep_mpi_rma_pending;

/* A request-based operation (MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate) as
 * Score-P tracks it for its completion records: RmaOpCompleteNonBlocking once (local_done),
 * RmaOpCompleteRemote at most once, at the synchronisations that complete it at the target
 * (closed: no later synchronisation records anything for it). Kept until its request has
 * completed (req_done) and it is closed. combined: an MPI_Rget, complete at the target once
 * complete locally (Score-P's COMBINED_COMPLETION). req: its request's record while that
 * lives (NULL once completed or freed), so that moving the entry can update the record's
 * rma_slot, which makes finding the entry at the request's completion O(1). */
typedef struct {
    int target;
    uint64_t id;
    uint8_t combined, local_done, closed, req_done;
    struct scorep_mpi_req *req;
} scorep_mpi_rma_rreq;

typedef struct scorep_mpi_win {
    MPI_Win handle;
    uint32_t id;      /* defs id */
    uint32_t comm_id; /* defs id of its communicator */
    int rank;         /* this process in it */
    int allocated;    /* created with MPI_Win_allocate*: memory freed with it */
    pthread_mutex_t lock;
    /* operations without a request, as Score-P's implicit requests: one entry (matching id)
     * per target and completion kind (combined: MPI_Get) shared by the operations until a
     * synchronisation closes it (always req_done, req NULL); few: one or two per target */
    scorep_mpi_rma_rreq *impl;
    size_t nimpl, capimpl;
    scorep_mpi_rma_pending *locks; /* target (-1: lock_all) -> lock id */
    size_t nlocks, caplocks;
    uint32_t post_group, start_group; /* defs group ids of the open PSCW epochs */
    scorep_mpi_rma_rreq *rreqs; /* request-based operations, in issue order */
    size_t nrreqs, caprreqs;
    size_t deadrreqs; /* entries of rreqs both closed and req_done, dropped in batches */
} scorep_mpi_win;

scorep_mpi_win *scorep_mpi_win_get(MPI_Win win);
uint64_t scorep_mpi_next_rma_id(void);

#endif
