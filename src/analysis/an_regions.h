/* SPDX-License-Identifier: BSD-3-Clause */
/* an_regions.h: what an MPI region is to the analysis (by its name, as Score-P and Scalasca
 * classify them): which part of the time tree its time goes to and which wait-state patterns
 * it can show. */
#ifndef SCOREP_AN_REGIONS_H
#define SCOREP_AN_REGIONS_H

#include "analysis/an_trace.h"

typedef enum {
    AN_RC_USER,      /* not MPI: "Execution" */
    AN_RC_MPI,       /* MPI, none of the below (management): "MPI" */
    AN_RC_INIT_EXIT, /* MPI_Init, MPI_Init_thread, MPI_Finalize */
    AN_RC_P2P,       /* point-to-point, waits/tests, probes */
    AN_RC_BARRIER,   /* MPI_Barrier */
    AN_RC_COLL,      /* other collectives */
    /* the other parts of Scalasca 2.6's MPI time tree (scout.spec's masks, by name) */
    AN_RC_MGMT_COMM,   /* communicator and topology management: MPI_Comm_rank, _split, ... */
    AN_RC_MGMT_FILE,   /* MPI_File_open, _close, _seek, _set_view, ... */
    AN_RC_MGMT_WIN,    /* MPI_Win_create, _allocate, _free, ... */
    AN_RC_RMA_ACTIVE,  /* MPI_Win_fence, _post, _start, _complete, _wait, _test */
    AN_RC_RMA_PASSIVE, /* MPI_Win_lock, _unlock, _flush, _sync (and their _all) */
    AN_RC_RMA_COMM,    /* MPI_Put, MPI_Get, accumulates, atomics (role rma or atomic) */
    AN_RC_IO_INDIV,    /* MPI_File_read, _write, _iread_at, ... */
    AN_RC_IO_COLL,     /* MPI_File_read_all, _write_at_all, _write_ordered_begin, ... */
    /* OpenMP synchronisation (an_omp.c); other OpenMP regions (parallel, loops, single,
     * tasks, sblocks) hold the team's work: AN_RC_USER */
    AN_RC_OMP_EBARRIER, /* !$omp barrier */
    AN_RC_OMP_IBARRIER, /* !$omp implicit barrier */
    AN_RC_OMP_CRITICAL, /* !$omp critical (waiting for it; not its sblock) */
    AN_RC_OMP_LOCK,     /* omp_set_lock & co. */
    AN_RC_OMP_ORDERED,  /* !$omp ordered (waiting for it; not its sblock) */
    AN_RC_OMP_TASKWAIT, /* !$omp taskwait, !$omp taskgroup */
    AN_RC_OMP_FLUSH,    /* !$omp flush */
    /* POSIX threads (paradigm pthread, Score-P's region names) */
    AN_RC_PTHREAD_MGMT,  /* pthread_create, _join, _exit, _cancel, _detach */
    AN_RC_PTHREAD_MUTEX, /* pthread_mutex_* */
    AN_RC_PTHREAD_COND   /* pthread_cond_* */
} an_region_class;
#define AN_RC_IS_MPI(cls) (((cls) & AN_RC_MASK) >= AN_RC_MPI && ((cls) & AN_RC_MASK) <= AN_RC_IO_COLL)

enum {
    AN_RF_BLOCK_SEND = 1 << 8,    /* MPI_Send, MPI_Ssend, MPI_Rsend: Late Receiver candidates */
    AN_RF_WAIT_SINGLE = 1 << 9,   /* MPI_Wait: Late Receiver for an Isend completed there */
    AN_RF_WAIT_MULTI = 1 << 10,   /* MPI_Waitall/any/some: one Late Sender per call (the max) */
    AN_RF_TEST = 1 << 11,         /* MPI_Test*, MPI_Iprobe, MPI_Improbe: no waiting time */
    AN_RF_PROBE = 1 << 12,        /* MPI_Probe, MPI_Mprobe: Late Sender at the probe */
    AN_RF_NB_PROBE = 1 << 13,     /* MPI_Iprobe, MPI_Improbe (also TEST): a polling loop of them
                                     that ends in a successful one is a Late Sender */
    AN_RF_OMP_PARALLEL = 1 << 14, /* !$omp parallel (class AN_RC_USER): a team's implicit task */
    AN_RF_INIT = 1 << 15,         /* MPI_Init, MPI_Init_thread (AN_RC_INIT_EXIT) */
    AN_RF_FINALIZE = 1 << 16,     /* MPI_Finalize (AN_RC_INIT_EXIT) */
    /* what Scalasca 2.6's file-operation and one-sided counts count (scout.spec's masks) */
    AN_RF_FILE_IOP = 1 << 17,   /* an individual file operation (reads, writes, get, seek, ...) */
    AN_RF_FILE_COP = 1 << 18,   /* a collective one (open, close, set_view, _all, ...) */
    AN_RF_FILE_READ = 1 << 19,  /* a read (AN_RC_IO_INDIV or AN_RC_IO_COLL) */
    AN_RF_FILE_WRITE = 1 << 20, /* a write (AN_RC_IO_INDIV or AN_RC_IO_COLL) */
    AN_RF_RMA_PUT = 1 << 21,    /* MPI_Put, MPI_Rput */
    AN_RF_RMA_GET = 1 << 22,    /* MPI_Get, MPI_Rget */
    AN_RF_RMA_ATOMIC = 1 << 23  /* accumulates, fetch-and-op, compare-and-swap */
};
#define AN_RC_MASK 0xff

/* sets regions[i].cls for every region */
void an_classify_regions(an_trace *t);

/* Scalasca's time maps put a team's fork and join in its parallel region, not in the caller
 * (TmapCacheHandler.cpp, cb_fws_omp_fork and cb_fws_omp_join: the master's span from its
 * ThreadFork to its Enter of the region, and from its Leave of the region to the ThreadJoin),
 * and so do its critical path and delay costs. The call path of the span after event I of a
 * thread's events EV (N of them) when it is such a span (that region's), else AN_NONE (the
 * span belongs where the caller's rule puts it). The report's time keeps them in the caller,
 * as Score-P's profile and Scalasca's time do. */
static inline uint32_t an_forkjoin_cnode(const an_trace *t, const an_event *ev, size_t n,
                                         size_t i)
{
    if (i + 1 >= n)
        return AN_NONE;
    const an_event *e = &ev[i], *x = &ev[i + 1];
    if (e->kind == AN_THREAD_FORK && x->kind == AN_ENTER && x->region < t->n_regions &&
        (t->regions[x->region].cls & AN_RF_OMP_PARALLEL))
        return x->cnode;
    if (e->kind == AN_LEAVE && x->kind == AN_THREAD_JOIN && e->region < t->n_regions &&
        (t->regions[e->region].cls & AN_RF_OMP_PARALLEL))
        return e->cnode;
    return AN_NONE;
}

#endif
