/* SPDX-License-Identifier: BSD-3-Clause */
/* substrates.h: the events that substrate plugins (SCOREP_SUBSTRATE_PLUGINS, Score-P's
 * substrate plugin interface) receive. The event functions of core/events*.h call these
 * only when l->substrates_on is set, that is when a plugin was loaded: without plugins the
 * event path pays one predictable branch on a field of the location it already reads.
 * Arguments are scorep-rt's process-local ids; the plugin side (substrate_plugins.c) turns
 * them into Score-P handles (id + 1, 0 being Score-P's invalid handle). Plain C types
 * only: that file includes Score-P's public headers, whose names clash with internal ones. */
#ifndef SCOREP_SUBSTRATES_H
#define SCOREP_SUBSTRATES_H

#include <stdbool.h>
#include <stdint.h>

struct scorep_location;

/* metrics: the location's metric values read for this event (metrics/metrics.h
 * scorep_metric_set values), NULL without metric sources */
void scorep_substrates_enter(struct scorep_location *l, uint64_t t, uint32_t region,
                             uint64_t *metrics);
void scorep_substrates_exit(struct scorep_location *l, uint64_t t, uint32_t region,
                            uint64_t *metrics);
/* internal paradigm (defs.h scorep_paradigm) of a thread event; comm/team ids are defs ids */
void scorep_substrates_mpi_send(struct scorep_location *l, uint64_t t, uint32_t comm,
                                uint32_t dest, uint32_t tag, uint64_t bytes);
void scorep_substrates_mpi_recv(struct scorep_location *l, uint64_t t, uint32_t comm,
                                uint32_t source, uint32_t tag, uint64_t bytes);
void scorep_substrates_mpi_isend(struct scorep_location *l, uint64_t t, uint32_t comm,
                                 uint32_t dest, uint32_t tag, uint64_t bytes, uint64_t request);
void scorep_substrates_mpi_irecv(struct scorep_location *l, uint64_t t, uint32_t comm,
                                 uint32_t source, uint32_t tag, uint64_t bytes, uint64_t request);
/* The request events, Score-P's SCOREP_EVENT_MPI_<NAME> (SCOREP_SubstrateEvents.h); they
 * share one callback signature (location, timestamp, request id). */
typedef enum {
    SCOREP_SUBSTRATES_MPI_ISEND_COMPLETE,
    SCOREP_SUBSTRATES_MPI_IRECV_REQUEST,
    SCOREP_SUBSTRATES_MPI_REQUEST_TESTED,
    SCOREP_SUBSTRATES_MPI_REQUEST_CANCELLED
} scorep_substrates_request_event;
void scorep_substrates_mpi_request(struct scorep_location *l, uint64_t t,
                                   scorep_substrates_request_event which, uint64_t request);
void scorep_substrates_mpi_collective_begin(struct scorep_location *l, uint64_t t);
/* op: OTF2_CollectiveOp values (events_mpi.h); root: rank or UINT32_MAX */
void scorep_substrates_mpi_collective_end(struct scorep_location *l, uint64_t t, uint32_t comm,
                                          uint32_t root, int op, uint64_t sent,
                                          uint64_t received);
/* Non-blocking collectives (Score-P's MPI_NON_BLOCKING_COLLECTIVE_REQUEST and _COMPLETE): the
 * request id, and at completion what MPI_COLLECTIVE_END carries */
void scorep_substrates_mpi_nbc_request(struct scorep_location *l, uint64_t t, uint64_t request);
void scorep_substrates_mpi_nbc_complete(struct scorep_location *l, uint64_t t, uint32_t comm,
                                        uint32_t root, int op, uint64_t sent, uint64_t received,
                                        uint64_t request);
/* COMM_CREATE / COMM_DESTROY (comm: defs id) */
void scorep_substrates_comm(struct scorep_location *l, uint64_t t, bool create, uint32_t comm);

/* One-sided (core/events_mpi.h): win: defs window id (SCOREP_CUDA_WINDOW for the OpenMP
 * target's transfers); level: OTF2_RmaSyncLevel bits (= SCOREP_RmaSyncLevel); op:
 * OTF2_CollectiveOp; atomic: OTF2_RmaAtomicType; lock and sync types: OTF2's (= Score-P's);
 * group: defs group id. */
void scorep_substrates_rma_win(struct scorep_location *l, uint64_t t, bool create, uint32_t win);
void scorep_substrates_rma_collective_begin(struct scorep_location *l, uint64_t t, uint32_t level);
void scorep_substrates_rma_collective_end(struct scorep_location *l, uint64_t t, int op,
                                          uint32_t level, uint32_t win, uint32_t root,
                                          uint64_t sent, uint64_t received);
void scorep_substrates_rma_group_sync(struct scorep_location *l, uint64_t t, uint32_t level,
                                      uint32_t win, uint32_t group);
/* which: 0 request lock, 1 acquire lock, 2 try lock (an attempt that failed) */
void scorep_substrates_rma_lock(struct scorep_location *l, uint64_t t, int which, uint32_t win,
                                uint32_t remote, uint64_t lock_id, uint32_t type);
void scorep_substrates_rma_release_lock(struct scorep_location *l, uint64_t t, uint32_t win,
                                        uint32_t remote, uint64_t lock_id);
void scorep_substrates_rma_sync(struct scorep_location *l, uint64_t t, uint32_t win,
                                uint32_t remote, uint32_t type);
/* put (true) or get */
void scorep_substrates_rma_transfer(struct scorep_location *l, uint64_t t, bool put, uint32_t win,
                                    uint32_t remote, uint64_t bytes, uint64_t matching_id);
void scorep_substrates_rma_atomic(struct scorep_location *l, uint64_t t, uint32_t win,
                                  uint32_t remote, uint32_t type, uint64_t sent,
                                  uint64_t received, uint64_t matching_id);
/* blocking (true) or non-blocking completion */
void scorep_substrates_rma_op_complete(struct scorep_location *l, uint64_t t, bool blocking,
                                       uint32_t win, uint64_t matching_id);
void scorep_substrates_rma_op_complete_remote(struct scorep_location *l, uint64_t t, uint32_t win,
                                              uint64_t matching_id);
void scorep_substrates_rma_wait_change(struct scorep_location *l, uint64_t t, uint32_t win);

/* The thread events, Score-P's SCOREP_EVENT_THREAD_<NAME> (SCOREP_SubstrateEvents.h), and
 * what scorep_substrates_thread's `a` is for each; THREAD_FORK_JOIN_FORK has its own function
 * (scorep_substrates_thread_fork: the requested threads and the fork's sequence number). */
typedef enum {
    SCOREP_SUBSTRATES_THREAD_FORK_JOIN_JOIN,       /* a: unused */
    SCOREP_SUBSTRATES_THREAD_FORK_JOIN_TEAM_BEGIN, /* a: the team (defs id) */
    SCOREP_SUBSTRATES_THREAD_FORK_JOIN_TEAM_END,   /* a: the team */
    SCOREP_SUBSTRATES_THREAD_CREATE_WAIT_CREATE,   /* a: the created thread's sequence number */
    SCOREP_SUBSTRATES_THREAD_CREATE_WAIT_WAIT,     /* a: the same, for the other three */
    SCOREP_SUBSTRATES_THREAD_CREATE_WAIT_BEGIN,
    SCOREP_SUBSTRATES_THREAD_CREATE_WAIT_END
} scorep_substrates_thread_event;
/* paradigm: defs.h scorep_paradigm */
void scorep_substrates_thread_fork(struct scorep_location *l, uint64_t t, int paradigm,
                                   uint32_t requested, uint32_t fork_seq);
void scorep_substrates_thread(struct scorep_location *l, uint64_t t,
                              scorep_substrates_thread_event kind, int paradigm, uint32_t a);
/* OpenMP tasks (Score-P's THREAD_FORK_JOIN_TASK_*): team: the team number (as TEAM_BEGIN's);
 * creator and generation: the task's creating thread (its index in the team) and that
 * thread's task count, as the trace records them (generation 0: the implicit task); task: an
 * opaque handle, the adapter's task object (NULL: the location's implicit task). Begin and
 * end stand for the enter and the leave of the task's region (t, metrics: theirs), which
 * plugins then do not get as ENTER_REGION/EXIT_REGION; begin announces the task with the
 * core_task_create management call first, end ends it with core_task_complete after. */
void scorep_substrates_task_create(struct scorep_location *l, uint64_t t, uint32_t team,
                                   uint32_t creator, uint32_t generation);
void scorep_substrates_task_switch(struct scorep_location *l, uint64_t t, uint64_t *metrics,
                                   uint32_t team, uint32_t creator, uint32_t generation,
                                   const void *task);
void scorep_substrates_task_begin(struct scorep_location *l, uint64_t t, uint32_t region,
                                  uint64_t *metrics, uint32_t team, uint32_t creator,
                                  uint32_t generation, const void *task);
void scorep_substrates_task_end(struct scorep_location *l, uint64_t t, uint32_t region,
                                uint64_t *metrics, uint32_t team, uint32_t creator,
                                uint32_t generation, const void *task);
/* An untied task suspended on l at t with n regions open (its own and those inside it, which
 * plugins get no exits of) and resumed on l (no enters): under SCOREP_ENABLE_UNWINDING its
 * calling contexts move with it (sampling_plugins.c). */
void scorep_substrates_task_park(struct scorep_location *l, uint64_t t, const void *task,
                                 uint32_t n);
void scorep_substrates_task_resume(struct scorep_location *l, uint64_t t, const void *task);
void scorep_substrates_lock(struct scorep_location *l, uint64_t t, bool acquire, int paradigm,
                            uint32_t lock, uint32_t order);
/* A parameter's type: the values of Score-P's SCOREP_ParameterType (SCOREP_PublicTypes.h,
 * SCOREP_PARAMETER_<NAME>; substrate_plugins.c checks that they agree). */
typedef enum {
    SCOREP_SUBSTRATES_PARAMETER_INT64 = 0,
    SCOREP_SUBSTRATES_PARAMETER_UINT64 = 1,
    SCOREP_SUBSTRATES_PARAMETER_STRING = 2 /* value: a defs string id */
} scorep_substrates_parameter_type;
void scorep_substrates_parameter(struct scorep_location *l, uint64_t t,
                                 scorep_substrates_parameter_type type, uint32_t param,
                                 uint64_t value);
/* a user metric (or another sparse metric) triggered: bits as recorded, as_double for DOUBLE */
void scorep_substrates_counter(struct scorep_location *l, uint64_t t, uint32_t metric,
                               uint64_t bits, double as_double);
void scorep_substrates_recording(struct scorep_location *l, uint64_t t, bool on,
                                 uint32_t off_region);

/* Memory recording (Score-P's TRACK_ALLOC, _REALLOC, _FREE): the block's address and size;
 * kind_total: the bytes in use of this kind of memory (heap, MPI_Alloc_mem, symmetric heap)
 * after the call, process_total: of all kinds (a realloc that moved the block: after the
 * new block was added, before the old one was released, as Score-P reports it). */
void scorep_substrates_track_alloc(struct scorep_location *l, uint64_t t, uint64_t addr,
                                   uint64_t bytes, uint64_t kind_total, uint64_t process_total);
void scorep_substrates_track_free(struct scorep_location *l, uint64_t t, uint64_t addr,
                                  uint64_t bytes, uint64_t kind_total, uint64_t process_total);
void scorep_substrates_track_realloc(struct scorep_location *l, uint64_t t, uint64_t old_addr,
                                     uint64_t old_bytes, uint64_t new_addr, uint64_t new_bytes,
                                     uint64_t kind_total, uint64_t process_total);

/* I/O (core/events_io.h): handles and files are defs_io ids; access, creation, status,
 * whence, mode and flags are OTF2's values as the trace records them; io_paradigm:
 * defs_io.h scorep_io_paradigm. */
void scorep_substrates_io_create_handle(struct scorep_location *l, uint64_t t, uint32_t handle,
                                        uint32_t access, uint32_t creation, uint32_t status);
void scorep_substrates_io_destroy_handle(struct scorep_location *l, uint64_t t, uint32_t handle);
void scorep_substrates_io_duplicate_handle(struct scorep_location *l, uint64_t t,
                                           uint32_t old_handle, uint32_t new_handle,
                                           uint32_t status);
void scorep_substrates_io_seek(struct scorep_location *l, uint64_t t, uint32_t handle,
                               int64_t offset, uint32_t whence, uint64_t result);
void scorep_substrates_io_change_status_flags(struct scorep_location *l, uint64_t t,
                                              uint32_t handle, uint32_t status);
void scorep_substrates_io_delete_file(struct scorep_location *l, uint64_t t, uint32_t io_paradigm,
                                      uint32_t file);
/* which: 0 acquire, 1 release, 2 try (events_io.h scorep_io_lock_event); type: OTF2_LockType */
void scorep_substrates_io_lock(struct scorep_location *l, uint64_t t, int which, uint32_t handle,
                               uint32_t type);
void scorep_substrates_io_operation_begin(struct scorep_location *l, uint64_t t, uint32_t handle,
                                          uint32_t mode, uint32_t flags, uint64_t requested,
                                          uint64_t matching_id);
/* The I/O request events, Score-P's SCOREP_EVENT_IO_OPERATION_<NAME>; they share one
 * callback signature (location, timestamp, handle, matching id). */
typedef enum {
    SCOREP_SUBSTRATES_IO_OPERATION_ISSUED,
    SCOREP_SUBSTRATES_IO_OPERATION_TEST, /* tested, not complete */
    SCOREP_SUBSTRATES_IO_OPERATION_CANCELLED
} scorep_substrates_io_request_event;
void scorep_substrates_io_operation_request(struct scorep_location *l, uint64_t t,
                                            scorep_substrates_io_request_event which,
                                            uint32_t handle, uint64_t matching_id);
void scorep_substrates_io_operation_complete(struct scorep_location *l, uint64_t t,
                                             uint32_t handle, uint32_t mode,
                                             uint64_t transferred, uint64_t matching_id);

/* Rewind regions (Score-P's ENTER_REWIND_REGION and EXIT_REWIND_REGION, core/rewind.c): at
 * the rewind point and at its check, in place of the rewind region's enter and leave, which
 * plugins then do not get as ENTER_REGION/EXIT_REGION (Score-P records neither); t: their
 * timestamps; do_rewind: the check's value as the program passed it. */
void scorep_substrates_rewind_enter(struct scorep_location *l, uint64_t t, uint32_t region);
void scorep_substrates_rewind_exit(struct scorep_location *l, uint64_t t, uint32_t region,
                                   bool do_rewind);
/* A flush of l's trace buffer to its spill file (flush mode, core/flush.c): begin (end false)
 * before the records are written, end after; t: the time and the stop time of the trace's
 * BufferFlush record. */
void scorep_substrates_buffer_flush(struct scorep_location *l, uint64_t t, bool end);
/* An asynchronous (post-mortem) metric plugin's value, handed over at the end as Score-P's
 * WRITE_POST_MORTEM_METRICS: metric: defs id (= its sampling set); t: the value's time. */
void scorep_substrates_post_mortem_metric(struct scorep_location *l, uint64_t t, uint32_t metric,
                                          const uint64_t *value);

/* Life cycle, called by the runtime (runtime/runtime.c) directly: ProgramEnd before the
 * measurement stops; after the results are written (dir: the experiment directory,
 * manifest: whether this process wrote MANIFEST.md there): dump_manifest, write_data and
 * finalize of every plugin. */
void scorep_substrates_program_end(int64_t exit_status);
void scorep_substrates_write(const char *dir, bool manifest);

#endif
