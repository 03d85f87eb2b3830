/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_hooks.h: the functions the generated wrappers call around the PMPI call (named in the
 * events column of mpi_functions.spec). pre hooks: (frame[, ctx], args); post hooks: (frame,
 * return value[, ctx], args). Post hooks do nothing (or only close what the pre hook opened)
 * when the call failed. */
#ifndef SCOREP_MPI_HOOKS_H
#define SCOREP_MPI_HOOKS_H

#include "adapters/mpi/mpi_adapter.h"
#include "adapters/mpi/mpi_request.h"
#include "adapters/mpi/mpi_rma.h"

/* ---- contexts shared by a pre and a post hook ---------------------------------------- */

#define SCOREP_MPI_CTX_STACK 16
/* Wait/Test families: the records of the requests as they were before the call (the call
 * may release them and set the handles to MPI_REQUEST_NULL), and the statuses the adapter
 * passes when the program gave MPI_STATUSES_IGNORE. A request that completes with
 * MPI_ERR_TRUNCATE took its message and is recorded like a success. */
/* Below MPI_THREAD_MULTIPLE the Test/Waitany/Waitsome calls only copy the handles before the
 * call (saved) and look up the records of the requests that completed after it; the records
 * of the others stay in the table (mpi_wait.h, "handles saved"). */
typedef struct {
    int count;
    int tracked;          /* records in recs (taken from the table and not yet released) */
    int scratch;          /* recs, where, saved and statuses are the shared arrays of
                           * mpi_request.c */
    MPI_Request *handles; /* the program's array (read after the call) */
    MPI_Request *saved;   /* the handles as they were before the call; NULL: the records were
                           * taken before the call (MPI_THREAD_MULTIPLE, MPI_Wait(all)) */
    scorep_mpi_req **recs;
    void **where;         /* where each record was in the table (mpi_request_table.h) */
    MPI_Status *statuses; /* substituted statuses, or NULL */
    scorep_mpi_req *recs_stack[SCOREP_MPI_CTX_STACK];
    void *where_stack[SCOREP_MPI_CTX_STACK];
    MPI_Request saved_stack[SCOREP_MPI_CTX_STACK];
    MPI_Status statuses_stack[SCOREP_MPI_CTX_STACK];
} scorep_mpi_ctx_reqs;

/* MPI_Wait: the record of its one request, taken from the table before the call, and where it
 * was (mpi_request_table.h); r NULL: none. Two values the wrapper keeps in registers across
 * the call, not the arrays of a scorep_mpi_ctx_reqs. */
typedef struct {
    scorep_mpi_req *r;
    void *where;
} scorep_mpi_ctx_req;

/* MPI_Test: below MPI_THREAD_MULTIPLE the handle as it was before the call (r NULL: nothing
 * is taken); under it the record taken as MPI_Wait's. */
typedef struct {
    scorep_mpi_req *r;
    void *where;
    MPI_Request handle;
} scorep_mpi_ctx_test;

struct scorep_mpi_msg;
typedef struct {
    struct scorep_mpi_msg *msg; /* the Mprobe'd message being received */
} scorep_mpi_ctx_msg;

/* The start of a request recorded before the PMPI call (MpiIsend, NonBlockingCollectiveRequest:
 * a receive may complete, on another rank, before the call returns): the request id and
 * message id it took, for the record the post hook creates. id 0: nothing was recorded. */
typedef struct {
    uint64_t id, msg_id, bytes;
    scorep_mpi_comm *comm;
    int peer, tag;
} scorep_mpi_ctx_start;

typedef struct {
    scorep_mpi_win *win;
    uint64_t freed; /* MPI_Win_free of an allocated window: its memory (memory recording) */
} scorep_mpi_ctx_win;

/* the inline hooks of sends and receives */
#include "adapters/mpi/mpi_p2p.h"
/* the inline completion and the hooks of MPI_Wait and MPI_Waitall */
#include "adapters/mpi/mpi_wait.h"

/* ---- MPI_Abort (mpi_adapter.c): the rank writes its rank-local piece before it ends ---- */
void scorep_mpi_pre_abort(scorep_mpi_frame *f, int errorcode);

/* ---- SCOREP_MPI_MEMORY_RECORDING (mpi_memory.c) -------------------------------------- */
void scorep_mpi_post_alloc_mem(scorep_mpi_frame *f, int ret, MPI_Aint size, void *baseptr);
void scorep_mpi_pre_free_mem(scorep_mpi_frame *f, void *base);
void scorep_mpi_post_free_mem(scorep_mpi_frame *f, int ret);

/* ---- point-to-point (mpi_p2p.c) ------------------------------------------------------ */
/* send, recv, isend, irecv: inline (mpi_p2p.h, included above) */
void scorep_mpi_post_send_init(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type, int dest,
                               int tag, MPI_Comm comm, MPI_Request *request);
void scorep_mpi_post_recv_init(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                               MPI_Request *request);
/* MPI_Start(all): the starts are recorded before the call; a failed call takes them back */
void scorep_mpi_pre_start(scorep_mpi_frame *f, MPI_Request *request);
void scorep_mpi_post_start(scorep_mpi_frame *f, int ret, MPI_Request *request);
void scorep_mpi_pre_startall(scorep_mpi_frame *f, int count, MPI_Request requests[]);
void scorep_mpi_post_startall(scorep_mpi_frame *f, int ret, int count, MPI_Request requests[]);
void scorep_mpi_pre_cancel(scorep_mpi_frame *f, MPI_Request *request);
void scorep_mpi_pre_request_free(scorep_mpi_frame *f, MPI_Request *request);
void scorep_mpi_post_request_get_status(scorep_mpi_frame *f, int ret, MPI_Request request,
                                        int *flag, MPI_Status *status);

/* ---- completion: the hooks of the Wait/Test families are inline (mpi_wait.h, above) ---- */

/* ---- probes and matched receives (mpi_probe.c) --------------------------------------- */
void scorep_mpi_post_probe(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                           MPI_Status *status);
void scorep_mpi_post_iprobe(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                            int *flag, MPI_Status *status);
void scorep_mpi_post_mprobe(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                            MPI_Message *message, MPI_Status *status);
void scorep_mpi_post_improbe(scorep_mpi_frame *f, int ret, int source, int tag, MPI_Comm comm,
                             int *flag, MPI_Message *message, MPI_Status *status);
void scorep_mpi_pre_mrecv(scorep_mpi_frame *f, scorep_mpi_ctx_msg *ctx, MPI_Message *message);
void scorep_mpi_post_mrecv(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_msg *ctx,
                           MPI_Status *status);
void scorep_mpi_pre_imrecv(scorep_mpi_frame *f, scorep_mpi_ctx_msg *ctx, MPI_Message *message);
void scorep_mpi_post_imrecv(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_msg *ctx,
                            MPI_Request *request);

/* ---- collectives (mpi_coll.c) -------------------------------------------------------- */
void scorep_mpi_pre_coll_begin(scorep_mpi_frame *f);
/* a non-blocking collective: its request recorded before the call, its record after it */
void scorep_mpi_pre_icoll_begin(scorep_mpi_frame *f, scorep_mpi_ctx_start *ctx);
void scorep_mpi_post_coll_barrier(scorep_mpi_frame *f, int ret, MPI_Comm comm);
void scorep_mpi_post_icoll_barrier(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_start *ctx,
                                   MPI_Comm comm, MPI_Request *request);
void scorep_mpi_post_coll_bcast(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                                int root, MPI_Comm comm);
void scorep_mpi_post_icoll_bcast(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_start *ctx, int count,
                                 MPI_Datatype type, int root, MPI_Comm comm, MPI_Request *request);
#define SCOREP_MPI_COLL_HOOKS(name, ...)                                                           \
    void scorep_mpi_post_coll_##name(scorep_mpi_frame *f, int ret, __VA_ARGS__);                   \
    void scorep_mpi_post_icoll_##name(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_start *ctx,     \
                                      __VA_ARGS__, MPI_Request *request);
SCOREP_MPI_COLL_HOOKS(gather, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(gatherv, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      const int recvcounts[], MPI_Datatype recvtype, int root, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(scatter, const void *recvbuf, int sendcount, MPI_Datatype sendtype,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(scatterv, const void *recvbuf, const int sendcounts[], MPI_Datatype sendtype,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(allgather, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(allgatherv, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(alltoall, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(alltoallv, const void *sendbuf, const int sendcounts[], MPI_Datatype sendtype,
                      const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(alltoallw, const void *sendbuf, const int sendcounts[],
                      const MPI_Datatype sendtypes[], const int recvcounts[],
                      const MPI_Datatype recvtypes[], MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(allreduce, const void *sendbuf, int count, MPI_Datatype type, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(reduce, const void *sendbuf, int count, MPI_Datatype type, int root,
                      MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(reduce_scatter, const void *sendbuf, const int recvcounts[],
                      MPI_Datatype type, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(reduce_scatter_block, const void *sendbuf, int recvcount, MPI_Datatype type,
                      MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(scan, const void *sendbuf, int count, MPI_Datatype type, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(exscan, const void *sendbuf, int count, MPI_Datatype type, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(neighbor_allgather, int sendcount, MPI_Datatype sendtype, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(neighbor_allgatherv, int sendcount, MPI_Datatype sendtype,
                      const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(neighbor_alltoall, int sendcount, MPI_Datatype sendtype, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(neighbor_alltoallv, const int sendcounts[], MPI_Datatype sendtype,
                      const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm)
SCOREP_MPI_COLL_HOOKS(neighbor_alltoallw, const int sendcounts[], const MPI_Datatype sendtypes[],
                      const int recvcounts[], const MPI_Datatype recvtypes[], MPI_Comm comm)
#undef SCOREP_MPI_COLL_HOOKS

/* ---- communicators and groups (mpi_comm.c) ------------------------------------------- */
void scorep_mpi_post_comm_new(scorep_mpi_frame *f, int ret, MPI_Comm parent, MPI_Comm *newcomm);
void scorep_mpi_post_comm_new_via(scorep_mpi_frame *f, int ret, MPI_Comm via, MPI_Comm *newcomm);

/* ---- spawned jobs under scorep-run (mpi_spawn.c) ------------------------------------- */
void scorep_mpi_pre_spawn_env(scorep_mpi_frame *f, const char **command, char ***argv);
void scorep_mpi_pre_spawn_multiple_env(scorep_mpi_frame *f, int count, char ***commands,
                                       char ****argvs);
/* MPI_Intercomm_create: one definition for both groups (mpi_comm.h) */
void scorep_mpi_post_intercomm_new(scorep_mpi_frame *f, int ret, MPI_Comm local_comm, int leader,
                                   MPI_Comm bridge, MPI_Comm *newcomm);
void scorep_mpi_post_comm_set_name(scorep_mpi_frame *f, int ret, MPI_Comm comm, const char *name);
void scorep_mpi_post_comm_new_local(scorep_mpi_frame *f, int ret, MPI_Comm *newcomm);
void scorep_mpi_post_comm_parent(scorep_mpi_frame *f, int ret, MPI_Comm *parent);
void scorep_mpi_post_comm_idup(scorep_mpi_frame *f, int ret, MPI_Comm comm, MPI_Comm *newcomm,
                               MPI_Request *request);
void scorep_mpi_pre_comm_free(scorep_mpi_frame *f, MPI_Comm *comm);
void scorep_mpi_post_group_new(scorep_mpi_frame *f, int ret, MPI_Group *group);
/* completion of an MPI_Comm_idup request; MPI_Request_free on a pending one (the
 * communicator is defined when the adapter meets it) */
void scorep_mpi_comm_idup_completed(scorep_mpi_frame *f, scorep_mpi_req *r);
void scorep_mpi_comm_idup_orphaned(scorep_mpi_req *r);

/* ---- one-sided (mpi_rma.c) ----------------------------------------------------------- */
void scorep_mpi_pre_rma_coll_begin(scorep_mpi_frame *f);
void scorep_mpi_pre_rma_fence_begin(scorep_mpi_frame *f);
void scorep_mpi_post_win_new(scorep_mpi_frame *f, int ret, MPI_Comm comm, MPI_Win *win,
                             int allocated);
void scorep_mpi_post_win_set_name(scorep_mpi_frame *f, int ret, MPI_Win win, const char *name);
void scorep_mpi_pre_win_free(scorep_mpi_frame *f, scorep_mpi_ctx_win *ctx, MPI_Win *win);
void scorep_mpi_post_win_free(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_win *ctx);
void scorep_mpi_post_rma_put(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type, int target,
                             MPI_Win win);
void scorep_mpi_post_rma_get(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type, int target,
                             MPI_Win win);
void scorep_mpi_post_rma_accumulate(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                                    int target, MPI_Win win);
void scorep_mpi_post_rma_get_accumulate(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                                        int result_count, MPI_Datatype result_type, int target,
                                        MPI_Win win);
void scorep_mpi_post_rma_fetch_and_op(scorep_mpi_frame *f, int ret, MPI_Datatype type, int target,
                                      MPI_Win win);
void scorep_mpi_post_rma_compare_and_swap(scorep_mpi_frame *f, int ret, MPI_Datatype type,
                                          int target, MPI_Win win);
void scorep_mpi_post_rma_rput(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                              int target, MPI_Win win, MPI_Request *request);
void scorep_mpi_post_rma_rget(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                              int target, MPI_Win win, MPI_Request *request);
void scorep_mpi_post_rma_raccumulate(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                                     int target, MPI_Win win, MPI_Request *request);
void scorep_mpi_post_rma_rget_accumulate(scorep_mpi_frame *f, int ret, int count, MPI_Datatype type,
                                         int result_count, MPI_Datatype result_type, int target,
                                         MPI_Win win, MPI_Request *request);
void scorep_mpi_post_win_fence(scorep_mpi_frame *f, int ret, MPI_Win win);
void scorep_mpi_post_win_lock(scorep_mpi_frame *f, int ret, int lock_type, int rank, MPI_Win win);
void scorep_mpi_post_win_unlock(scorep_mpi_frame *f, int ret, int rank, MPI_Win win);
void scorep_mpi_post_win_lock_all(scorep_mpi_frame *f, int ret, MPI_Win win);
void scorep_mpi_post_win_unlock_all(scorep_mpi_frame *f, int ret, MPI_Win win);
void scorep_mpi_post_win_flush(scorep_mpi_frame *f, int ret, int rank, MPI_Win win);
void scorep_mpi_post_win_flush_all(scorep_mpi_frame *f, int ret, MPI_Win win);
void scorep_mpi_post_win_flush_local(scorep_mpi_frame *f, int ret, int rank, MPI_Win win);
void scorep_mpi_post_win_flush_local_all(scorep_mpi_frame *f, int ret, MPI_Win win);
void scorep_mpi_post_win_post(scorep_mpi_frame *f, int ret, MPI_Group group, MPI_Win win);
void scorep_mpi_post_win_start(scorep_mpi_frame *f, int ret, MPI_Group group, MPI_Win win);
void scorep_mpi_post_win_complete(scorep_mpi_frame *f, int ret, MPI_Win win);
void scorep_mpi_post_win_wait(scorep_mpi_frame *f, int ret, MPI_Win win);
void scorep_mpi_post_win_test(scorep_mpi_frame *f, int ret, MPI_Win win, int *flag);
void scorep_mpi_post_win_sync(scorep_mpi_frame *f, int ret, MPI_Win win);
/* completion of a request-based RMA operation; events: whether to record its events (the
 * request was created while recording) */
void scorep_mpi_rma_request_completed(scorep_mpi_frame *f, scorep_mpi_req *r, bool events);
/* MPI_Request_free of an RMA request (its entry must not outlive it unseen) */
void scorep_mpi_rma_request_freed(scorep_mpi_req *r);

/* ---- MPI-IO (mpi_io.c): I/O records of the MPI-IO paradigm ---------------------------- */
typedef struct {
    uint32_t handle; /* SCOREP_INVALID_ID: the file is not followed */
    uint32_t op;     /* scorep_io_op */
    uint64_t matching;
} scorep_mpi_ctx_file;
void scorep_mpi_post_file_open(scorep_mpi_frame *f, int ret, MPI_Comm comm, const char *filename,
                               int amode, MPI_File *fh);
void scorep_mpi_pre_file_close(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File *fh);
void scorep_mpi_post_file_close(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_file *c);
/* a blocking read or write: op 0 read, 1 write; collective 1 for _all and _ordered */
void scorep_mpi_pre_file_op(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File fh, int count,
                            MPI_Datatype type, int op, int collective);
void scorep_mpi_post_file_op(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_file *c,
                             MPI_Status *status);
void scorep_mpi_pre_file_sync(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File fh);
void scorep_mpi_post_file_sync(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_file *c);
void scorep_mpi_post_file_seek(scorep_mpi_frame *f, int ret, MPI_File fh, MPI_Offset offset,
                               int whence);
/* non-blocking reads and writes: IoOperationBegin (non-blocking flag) before the call,
 * IoOperationIssued after it, IoOperationComplete when the request completes */
void scorep_mpi_pre_file_iop(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File fh, int count,
                             MPI_Datatype type, int op, int collective);
void scorep_mpi_post_file_iop(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_file *c,
                              MPI_Request *request);
/* split collectives (Score-P's semantics): _begin begins a collective non-blocking operation
 * and issues it, the matching _end completes it with the status's bytes (one at a time per
 * file, as MPI allows) */
void scorep_mpi_pre_file_split_begin(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File fh,
                                     int count, MPI_Datatype type, int op);
void scorep_mpi_post_file_split_begin(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_file *c,
                                      MPI_File fh);
void scorep_mpi_pre_file_split_end(scorep_mpi_frame *f, scorep_mpi_ctx_file *c, MPI_File fh);
void scorep_mpi_post_file_split_end(scorep_mpi_frame *f, int ret, scorep_mpi_ctx_file *c,
                                    MPI_Status *status);
void scorep_mpi_file_request_completed(scorep_mpi_frame *f, scorep_mpi_req *r, MPI_Status *st,
                                       int cancelled);

#endif
