/* SPDX-License-Identifier: BSD-3-Clause */
/* an_summary.c: the short text summary at the end of an analysis: the total time, the POP
 * efficiencies (an_pop, from the master threads), and each wait-state pattern that occurred
 * with its share of the time (all ranks, threads and call paths). A master thread's time is
 * its program region's call (ProgramBegin to ProgramEnd, read by the loaders as the root
 * call): its exclusive time, the run outside every recorded region, is computation (an
 * uninstrumented program under scorep-run has its work there, not nowhere). */
#include "analysis/an_report.h"

#include <stdlib.h>

void an_pop(an_ctx *c, an_report_info *info)
{
    double comp = 0, time = 0;
    for (size_t k = 0; k < c->n_cnodes; k++) {
        comp +=
            c->sev[(size_t)M_EXECUTION * c->n_cnodes + k] - c->sev[(size_t)M_MPI * c->n_cnodes + k];
        time += c->sev[(size_t)M_TIME * c->n_cnodes + k];
    }
    double in[3] = {comp, time, comp}, out_max[3], in_sum[2] = {comp, c->cp_transfer}, sums[2];
    an_net_allreduce(c->net, in, out_max, 3, AN_T_DOUBLE, AN_OP_MAX);
    an_net_allreduce(c->net, in_sum, sums, 2, AN_T_DOUBLE, AN_OP_SUM);
    double avg = sums[0] / c->size, max_comp = out_max[0], runtime = out_max[1];
    info->load_balance = max_comp > 0 ? avg / max_comp : 1;
    info->comm_efficiency = runtime > 0 ? max_comp / runtime : 1;
    info->parallel_efficiency = info->load_balance * info->comm_efficiency;
    /* the runtime on an ideal network (zero latency, infinite bandwidth), approximated: the
     * run's time less the transfer time on its critical path (sums[1], the path's time in MPI
     * calls; it holds no waiting, the path moves to the rank waited for); no less than the
     * longest computation, no more than the runtime (docs/analysis.md) */
    double ideal = runtime - sums[1];
    if (ideal < max_comp)
        ideal = max_comp;
    if (ideal > runtime)
        ideal = runtime;
    info->ideal_runtime = ideal;
    info->serialisation_efficiency = ideal > 0 ? max_comp / ideal : 1;
    info->transfer_efficiency = runtime > 0 ? ideal / runtime : 1;
}

void an_summary(an_ctx *c, const an_report_info *info, const char *prefix, FILE *out)
{
    double mine[M_COUNT] = {0}, all[M_COUNT];
    for (size_t l = 0; l < c->n_locs; l++) /* all thread locations */
        for (int m = 0; m < M_COUNT; m++)
            for (size_t k = 0; k < c->n_cnodes; k++)
                mine[m] += c->sev[(l * M_COUNT + (size_t)m) * c->n_cnodes + k];
    an_net_allreduce(c->net, mine, all, M_COUNT, AN_T_DOUBLE, AN_OP_SUM);
    if (c->rank != 0 || !out)
        return;
    static const an_metric waits[] = {
        M_MPI_LATESENDER,         M_MPI_LATESENDER_WO, M_MPI_LATERECEIVER,   M_MPI_BARRIER_WAIT,
        M_MPI_BARRIER_COMPLETION, M_MPI_WAIT_NXN,      M_MPI_NXN_COMPLETION, M_MPI_EARLYREDUCE,
        M_MPI_EARLYSCAN,          M_MPI_LATEBROADCAST, M_OMP_EBARRIER_WAIT,  M_OMP_IBARRIER_WAIT,
        M_OMP_IDLE_THREADS,       M_OMP_LIMITED_PARALLELISM,
        M_OMP_LOCK_CONTENTION_CRITICAL, M_OMP_LOCK_CONTENTION_API,
        M_PTHREAD_LOCK_CONTENTION_MUTEX_LOCK, M_PTHREAD_LOCK_CONTENTION_CONDITIONAL,
        M_MPI_FINALIZE_WAIT,      M_MPI_INIT_COMPLETION};
    double total = all[M_TIME];
    fprintf(out, "%s: time %.6f s over %d ranks, MPI %.6f s (%.1f%%)\n", prefix, total, c->size,
            all[M_MPI], total > 0 ? 100 * all[M_MPI] / total : 0);
    fprintf(out,
            "%s: POP efficiencies: parallel %.1f%% = load balance %.1f%% x communication "
            "%.1f%% (= serialisation %.1f%% x transfer %.1f%%)\n",
            prefix, 100 * info->parallel_efficiency, 100 * info->load_balance,
            100 * info->comm_efficiency, 100 * info->serialisation_efficiency,
            100 * info->transfer_efficiency);
    fprintf(out,
            "%s: POP at thread level: parallel %.1f%% = load balance %.1f%% x computation "
            "%.1f%%; serial regions %.1f%% of the time\n",
            prefix, 100 * info->thread_parallel_efficiency, 100 * info->thread_load_balance,
            100 * info->thread_comp_efficiency, 100 * info->serial_share);
    int order[sizeof waits / sizeof waits[0]];
    int n = (int)(sizeof waits / sizeof waits[0]);
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++) /* insertion sort by value, largest first */
        for (int j = i; j > 0 && all[waits[order[j]]] > all[waits[order[j - 1]]]; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    for (int i = 0; i < n; i++) {
        an_metric m = waits[order[i]];
        if (all[m] <= 0)
            continue;
        fprintf(out, "%s:   %-28s %12.6f s %6.2f%% of time\n", prefix, an_metrics[m].disp, all[m],
                total > 0 ? 100 * all[m] / total : 0);
    }
}
