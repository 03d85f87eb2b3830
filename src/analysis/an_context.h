/* SPDX-License-Identifier: BSD-3-Clause */
/* an_context.h: state of one rank's analysis shared by the replay and pattern files: the
 * trace, the analysis communicator, the severity matrices (metric x call path per thread
 * location of the rank, values that include their sub-patterns; an_report_cube.c makes them
 * exclusive as Scalasca's report does) and the counters of what could not be analysed. */
#ifndef SCOREP_AN_CONTEXT_H
#define SCOREP_AN_CONTEXT_H

#include "analysis/an_metrics.h"
#include "analysis/an_net.h"
#include "analysis/an_trace.h"


/* A wait state of this rank as a synchronisation point for the critical path: the wait ended
 * at WAIT_END (this rank's time) because PEER reached PEER_TIME then (the sender entered its
 * send, the receiver posted its receive, the last rank entered the collective). */
typedef struct {
    uint64_t wait_end, peer_time;
    uint64_t wait_begin; /* the waiting call's enter */
    uint32_t peer;       /* world rank */
    uint32_t cnode;      /* the waiting call */
    uint32_t wait;       /* its an_wait_rec in c->waits (AN_NONE: none, e.g. Early Reduce) */
} an_sync;

/* The kinds of wait states whose delay costs are computed (an_delay.c): the index of their
 * short-term and long-term metrics and of the cost vector a wait state carries backward. */
typedef enum {
    AN_W_LS,
    AN_W_LR,
    AN_W_BARRIER,
    AN_W_N2N,
    AN_W_12N,
    AN_W_N21, /* Early Reduce: the root's wait, charged to the last rank in (Scalasca) */
    /* no wait state's kind, a cost only: the idle OpenMP workers' time that an MPI wait state
     * of the master thread outside parallel regions stands for (delay_ompidle_longterm) */
    AN_W_OMPIDLE,
    /* a cost only: the OpenMP barrier waits of the threads that waited for the master while
     * it waited in MPI in the barrier's synchronisation interval (delay_ompbarrier_longterm) */
    AN_W_OMPBARRIER,
    AN_W_KINDS
} an_wait_kind;

/* A wait state of this rank for the delay analysis (an_delay.c): which rank caused it, how
 * long it was, this rank's event (the receive or probe of a Late Sender; the send of a Late
 * Receiver and the call that waited; the collective's end), and how the causing rank finds
 * its own event (the message's identity; a collective's communicator and instance). */
typedef struct {
    uint64_t msg_id;
    uint64_t peer_time; /* when the causing rank reached the synchronisation point */
    uint32_t comm, from, to, tag;
    uint32_t kind; /* an_wait_kind */
    uint32_t event, completion;
    uint32_t cause; /* world rank */
    uint32_t inst;  /* collectives: the instance's number on comm */
    uint32_t cnode; /* where the wait is (the call that waited) */
    int probed;     /* Late Receiver: the receiver probed the message (the send is a sync point) */
    double wait;
} an_wait_rec;

/* An instance of a wait-state pattern for the pattern statistics (an_pattern_stat.c): its
 * metric, waiting time, enter and exit (ticks), call path (this rank's cnode); a collective
 * pattern's members share GROUP (the communicator, or the OpenMP team) and INST (the
 * instance's number there), others have GROUP AN_NONE */
typedef struct {
    uint32_t metric, rank, cnode, group, inst;
    double idle;
    uint64_t enter, exit;
} an_stat_rec;

typedef struct {
    an_trace *t;
    an_net *net; /* the analysis processes (an_net.h): rank r analyses trace rank r */
    int rank, size;
    /* [(loc * M_COUNT + metric) * n_cnodes + cnode]: loc 0 is the master thread (an_add; the
     * MPI analysis, critical path and delays), loc 1 + w the thread t->threads[w] (an_omp.c) */
    double *sev;
    size_t n_cnodes;   /* columns of sev (the trace's call paths) */
    size_t n_locs;     /* 1 + t->n_threads */
    uint64_t *exit_of; /* [event index of an ENTER] = time of its LEAVE */
    double tick;       /* seconds per tick */
    /* the most bytes of records the delay analysis sends to or receives from the other ranks
     * in one exchange (an_delay.c, its "size limit" error): MPI's int counts, 2^31 - 1, set
     * by an_ctx_open; test_an_sim.c lowers it to reach that error (never above 2^31 - 1) */
    size_t delay_limit;
    /* diagnostics (this rank's part; an_analyze sums them) */
    uint64_t ccv_p2p, ccv_coll; /* clock condition violations found */
    uint64_t unmatched_sends, unmatched_recvs;
    uint64_t skipped_inter_colls; /* on intercommunicators without group B: not replayed */
    /* the wait states as synchronisation points (an_critical_path.c sorts them) */
    an_sync *sync;
    size_t n_sync, cap_sync;
    int sync_oom;
    an_wait_rec *waits;
    size_t n_waits, cap_waits;
    /* this rank's time on the critical path in MPI calls other than MPI_Init/Finalize: the
     * path's transfer time, which an ideal network would remove (an_pop) */
    double cp_transfer;
    /* the master thread's intervals on the critical path ([2i], [2i+1] in ticks): an_omp.c
     * moves the parts in which a later thread held up an OpenMP barrier to that thread */
    uint64_t *cp_iv;
    int n_cp_iv;
    /* MPI_Init and MPI_Finalize (an_pattern_init_exit.c): set when every rank has the call;
     * this rank's first MPI_Init's Enter, first MPI_Finalize's Enter (the ends of its part of
     * the critical path, as Scalasca has them), and the rank that entered MPI_Finalize last
     * (the critical path's start) */
    int all_init, all_fin, fin_last;
    uint64_t init_enter, fin_enter;
    /* rank 0: the critical path's pieces for scorep-report's timeline, "rank begin end;..."
     * in the trace's ticks (an_critical_path.c), written as a report attribute */
    char *cp_segments;
    /* this rank's OpenMP task graph (an_taskgraph_run.c; NULL: not built) */
    struct an_taskgraph *tg;
    /* the pattern instances for trace.stat (an_stat_add) */
    an_stat_rec *stat;
    size_t n_stat, cap_stat;
    int stat_oom;
    /* [loc]: 1 for the master thread and each thread that ran in an OpenMP team, the
     * locations that take part in the critical path's performance impact (an_omp.c sets it;
     * NULL: the master thread only) */
    uint8_t *team_loc;
} an_ctx;

static inline void an_add(an_ctx *c, an_metric m, uint32_t cnode, double v)
{
    if (cnode != AN_NONE)
        c->sev[(size_t)m * c->n_cnodes + cnode] += v;
}

/* adds V to metric M at call path CNODE of location LOC (0: the master thread) */
static inline void an_add_loc(an_ctx *c, size_t loc, an_metric m, uint32_t cnode, double v)
{
    if (cnode != AN_NONE && loc < c->n_locs)
        c->sev[(loc * M_COUNT + (size_t)m) * c->n_cnodes + cnode] += v;
}

/* enter and exit time of the call that encloses event i (0 when there is none) */
static inline uint64_t an_call_enter(const an_ctx *c, const an_event *e)
{
    return e->enter == AN_NONE ? e->time : c->t->events[e->enter].time;
}
static inline uint64_t an_call_exit(const an_ctx *c, const an_event *e)
{
    return e->enter == AN_NONE ? e->time : c->exit_of[e->enter];
}
static inline uint32_t an_call_flags(const an_ctx *c, const an_event *e)
{
    return e->enter == AN_NONE ? 0 : c->t->regions[c->t->events[e->enter].region].cls;
}
static inline double an_sec(const an_ctx *c, int64_t ticks)
{
    return (double)ticks * c->tick;
}

/* records a wait state of this rank that ended at WAIT_END, caused by PEER at PEER_TIME */
void an_sync_add(an_ctx *c, uint64_t wait_begin, uint64_t wait_end, uint32_t cnode, uint32_t peer,
                 uint64_t peer_time);
/* records a wait state for the delay analysis; linked to the synchronisation point added
 * just before it (an_sync_add) when that is the same wait */
void an_wait_add(an_ctx *c, const an_wait_rec *w);
/* records an instance of pattern M for trace.stat (an_pattern_stat.c): IDLE seconds, from
 * ENTER to EXIT (ticks) at CNODE; GROUP and INST name a collective instance (else AN_NONE) */
void an_stat_add(an_ctx *c, an_metric m, double idle, uint64_t enter, uint64_t exit, uint32_t cnode,
                 uint32_t group, uint32_t inst);

/* an_analyze.c, in three steps (the unit tests of test/analysis/test_an_sim.c run the first
 * two on simulated ranks and read the severities): C set up for T over NET (the regions
 * classified, the OpenMP workers' call paths mapped, the severity matrices allocated); the
 * passes of the MPI analysis (time, MPI_Init/Finalize, point-to-point and collective replays,
 * one-sided, task graph, critical path, delays); what C holds freed. Collective; 0, or -1
 * with ERR set (the same outcome on every rank). */
int an_ctx_open(an_ctx *c, an_trace *t, an_net *net, char *err, size_t len);
int an_ctx_mpi_passes(an_ctx *c, char *err, size_t len);
void an_ctx_close(an_ctx *c);

/* the passes (an_analyze.c calls them in this order); each returns 0 or -1 with ERR set.
 * Collective over c->comm: every rank calls every pass. */
int an_pattern_time(an_ctx *c, char *err, size_t len);
/* the node of the time tree that the exclusive time of a region of class CLS goes to */
an_metric an_time_metric(uint32_t cls);
/* an_omp.c: OpenMP patterns of this rank's threads (not collective) */
int an_omp(an_ctx *c, char *err, size_t len);
/* an_omp.c: whether call path K lies inside a parallel region; the number of the rank's
 * threads that ran in an OpenMP team besides the master (its OpenMP workers) */
int an_in_parallel(const an_trace *t, uint32_t k);
size_t an_omp_workers(const an_trace *t);
/* an_omp.c: adds to COST[w * STRIDE] the share of the OpenMP barrier waits that the master's
 * MPI wait state w (c->waits) propagated, where the master was the last thread into the
 * barrier (Scalasca's DELAY_OMP_BARRIER seed of DELAY_OMPBARRIER_LONGTERM); -1: no memory */
int an_omp_barrier_seeds(an_ctx *c, double *cost, size_t stride);
/* an_omp.c: the master thread's waits in OpenMP barriers (before an_omp runs: an_delay.c
 * leaves them out of the master's delays, as Scalasca's PruneDelayTimemap takes the waits of
 * every synchronisation point out, OpenMP barriers included), in time order: BEGIN to END
 * (ticks) at CNODE, and the barrier instance's last thread (its location LATE_LOC > 0; its
 * synchronisation interval and the master's, by their events) that the costs of the wait go
 * to (an_omp_bwait_costs) */
typedef struct {
    uint64_t begin, end;
    uint32_t cnode;
    size_t late_loc;
    const an_event *late_ev, *master_ev;
    uint32_t late_from, late_at, master_from, master_at;
    uint64_t late_fork_span, master_fork_span; /* a team's first barrier: the fork (an_omp.c) */
} an_omp_bwait;
int an_omp_master_bwaits(an_ctx *c, an_omp_bwait **out, size_t *n);
/* an_omp.c: passes COST[i * STRIDE + k] (the cost of kind k that the master's barrier wait
 * BW[i] took over from the MPI wait states it delayed) to the late thread of its barrier as
 * LEAF[k]: cost / (its delay against the master + its own waiting) x its delay per call path
 * (Scalasca's DELAY_OMP_BARRIER callbacks of the long-term delay patterns,
 * CalculateOmpBarrierDelay); -1: no memory */
int an_omp_bwait_costs(an_ctx *c, const an_omp_bwait *bw, size_t n, const double *cost,
                       size_t stride, const an_metric *leaf, size_t kinds);
/* an_pattern_lock.c: lock contention of this rank's threads, pthread and OpenMP (not
 * collective) */
int an_pattern_lock(an_ctx *c, char *err, size_t len);
/* an_pattern_init_exit.c: Init completion, Wait at Finalize (collective) */
int an_pattern_init_exit(an_ctx *c, char *err, size_t len);
int an_replay_p2p(an_ctx *c, char *err, size_t len);
int an_replay_coll(an_ctx *c, char *err, size_t len);
/* an_pattern_rma.c: one-sided bytes and the window collectives' waits (collective) */
int an_pattern_rma(an_ctx *c, char *err, size_t len);
int an_critical_path(an_ctx *c, char *err, size_t len);
int an_delay(an_ctx *c, char *err, size_t len);
/* an_taskgraph_run.c: the task graph and its critical path (not collective; before
 * an_critical_path, which credits the task chain through an_taskgraph_credit), and
 * taskgraph.dot beside the report (collective) */
int an_taskgraph_pass(an_ctx *c, char *err, size_t len);
void an_taskgraph_credit(an_ctx *c, uint64_t from, uint64_t to);
int an_taskgraph_write(an_ctx *c, const char *cubex, const char *mode, char *err, size_t len);
void an_taskgraph_done(an_ctx *c);

#endif
