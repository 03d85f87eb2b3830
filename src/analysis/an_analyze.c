/* SPDX-License-Identifier: BSD-3-Clause */
/* an_analyze.c: runs the analysis passes in order (time tree, MPI_Init/MPI_Finalize,
 * point-to-point replay, collective replay, critical path, delays, OpenMP, lock contention),
 * sums the diagnostics, writes the report and the summary. */
#include "analysis/analysis.h"
#include "analysis/an_context.h"
#include "analysis/an_regions.h"
#include "analysis/an_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* every rank learns whether any failed; the lowest failing rank's message wins */
static int agree(an_ctx *c, int rc, char *err, size_t len)
{
    int who = rc ? c->rank : c->size, first;
    an_net_allreduce(c->net, &who, &first, 1, AN_T_INT, AN_OP_MIN);
    if (first == c->size)
        return 0;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", rc ? err : "");
    an_net_bcast(c->net, msg, sizeof msg, AN_T_BYTE, first);
    snprintf(err, len, "%s", msg);
    return -1;
}

/* time without waiting per call path (for the critical-path imbalance): time minus the wait
 * states that end at a synchronisation point */
static void nonwait_time(an_ctx *c)
{
    static const an_metric waits[] = {M_MPI_LATESENDER,    M_MPI_LATERECEIVER, M_MPI_BARRIER_WAIT,
                                      M_MPI_WAIT_NXN,      M_MPI_EARLYREDUCE,  M_MPI_EARLYSCAN,
                                      M_MPI_LATEBROADCAST, M_MPI_FINALIZE_WAIT};
    size_t n = c->n_cnodes;
    for (size_t k = 0; k < n; k++) {
        double v = c->sev[(size_t)M_TIME * n + k];
        for (size_t w = 0; w < sizeof waits / sizeof waits[0]; w++)
            v -= c->sev[(size_t)waits[w] * n + k];
        c->sev[(size_t)M_NONWAIT_TIME * n + k] = v > 0 ? v : 0;
    }
}

int an_ctx_open(an_ctx *c, an_trace *t, an_net *net, char *err, size_t len)
{
    memset(c, 0, sizeof *c);
    c->t = t;
    c->net = net;
    c->rank = an_net_rank(net);
    c->size = an_net_size(net);
    /* one tick for all ranks: rank 0's resolution, the one the trace's ClockProperties carry
     * (rank 0 writes them). In situ every process has its own calibration of the timer
     * (timer.c), different in the last digits: a call of equal ticks on two ranks became
     * different seconds, and the delay analysis, which compares the ranks' times per call
     * path, gave a one-tick call (docs/mpi.md, local calls) the whole cost of a wait as
     * the only excess (issue #31); post-mortem the ranks read one resolution already */
    uint64_t res = t->resolution;
    an_net_bcast(net, &res, 1, AN_T_U64, 0);
    t->resolution = res;
    c->tick = t->resolution ? 1.0 / (double)t->resolution : 1e-9;
    c->delay_limit = 0x7fffffff;
    an_classify_regions(t);
    int mapped = an_omp_map(t); /* before the tables are sized by the call paths */
    c->n_cnodes = t->n_cnodes;
    c->n_locs = 1 + t->n_threads; /* a severity matrix per thread location */
    int rc =
        (c->sev = calloc(c->n_locs * M_COUNT * c->n_cnodes + 1, sizeof *c->sev)) && !mapped ? 0 : -1;
    if (rc)
        snprintf(err, len, "out of memory");
    return agree(c, rc, err, len);
}

int an_ctx_mpi_passes(an_ctx *c, char *err, size_t len)
{
    int rc = agree(c, an_pattern_time(c, err, len), err, len);
    if (rc == 0)
        rc = agree(c, an_pattern_init_exit(c, err, len), err, len);
    if (rc == 0)
        rc = an_replay_p2p(c, err, len); /* collective: its errors agree already */
    if (rc == 0)
        rc = an_replay_coll(c, err, len);
    if (rc == 0)
        rc = agree(c, an_pattern_rma(c, err, len), err, len);
    if (rc == 0)
        rc = agree(c, an_taskgraph_pass(c, err, len), err, len);
    if (rc == 0)
        rc = an_critical_path(c, err, len); /* collective: its errors agree already */
    if (rc == 0)
        rc = an_delay(c, err, len); /* collective: its errors agree already */
    if (rc == 0)
        nonwait_time(c);
    return rc;
}

void an_ctx_close(an_ctx *c)
{
    free(c->sev);
    free(c->exit_of);
    free(c->sync);
    free(c->waits);
    free(c->cp_segments);
    free(c->cp_iv);
    an_taskgraph_done(c);
    free(c->stat);
    free(c->team_loc);
    memset(c, 0, sizeof *c);
}

int an_analyze(an_trace *t, an_net *net, const char *cubex, an_options *opt, char *err,
               size_t len)
{
    an_ctx c;
    int rc = an_ctx_open(&c, t, net, err, len);
    if (rc == 0)
        rc = an_ctx_mpi_passes(&c, err, len);
    an_report_info info;
    memset(&info, 0, sizeof info);
    uint64_t mine[5] = {c.ccv_p2p + c.ccv_coll, c.unmatched_sends, c.unmatched_recvs,
                        c.skipped_inter_colls, (uint64_t)t->reduced},
             all[5] = {0};
    if (rc == 0) {
        an_net_allreduce(net, mine, all, 5, AN_T_U64, AN_OP_SUM);
        opt->ccv = all[0];
        opt->unmatched_sends = all[1];
        opt->unmatched_recvs = all[2];
        opt->skipped_inter_colls = all[3];
        info = (an_report_info){
            .mode = opt->mode ? opt->mode : "post-mortem", .ccv = all[0], .reduced = all[4] != 0};
        info.cp_segments = c.cp_segments;
        an_net_allreduce(net, &t->other_threads_events, &opt->thread_mpi_events, 1, AN_T_U64,
                         AN_OP_SUM);
        an_pop(&c, &info); /* POP: the master threads' times (docs/analysis.md) */
        rc = agree(&c, an_omp(&c, err, len), err, len);
    }
    if (rc == 0)
        rc = agree(&c, an_pattern_lock(&c, err, len), err, len);
    if (rc == 0)
        an_pop_threads(&c, &info); /* POP at thread level: every thread's times */
    an_stat_all stat = {0};
    if (rc == 0) {
        info.stat = an_stat_gather(&c, &stat) == 0 && c.rank == 0 ? &stat : NULL;
        rc = an_report_cube(&c, &info, cubex, err, len);
    }
    if (rc == 0) /* collective: its errors agree already */
        rc = an_taskgraph_write(&c, cubex, info.mode, err, len);
    if (rc == 0)
        an_summary(&c, &info,
                   opt->mode && !strcmp(opt->mode, "in situ") ? "[scorep-rt] analysis"
                                                              : "scorep-analyze",
                   opt->summary);
    if (rc == 0 && c.rank == 0 && opt->summary && opt->thread_mpi_events)
        fprintf(opt->summary,
                "%s: %llu MPI events on threads other than the master: their calls' time is "
                "on the threads' locations, their messages and collectives are not replayed\n",
                opt->mode && !strcmp(opt->mode, "in situ") ? "[scorep-rt] analysis"
                                                           : "scorep-analyze",
                (unsigned long long)opt->thread_mpi_events);
    an_ctx_close(&c);
    free(stat.rec);
    return rc;
}
