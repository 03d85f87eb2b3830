/* SPDX-License-Identifier: BSD-3-Clause */
/* an_pop_threads.c: POP's efficiencies at thread level (docs/analysis.md, "POP at thread
 * level"), from the threads' severities after the OpenMP and lock passes: a thread's useful
 * time is its Execution without MPI, OpenMP and pthread time (the time tree's computation),
 * the runtime the longest master thread's time. Load balance = mean / max of the threads'
 * useful time, computation efficiency = max useful / runtime, parallel efficiency = their
 * product (= mean useful / runtime); the serial-region share = the masters' time outside
 * OpenMP parallel regions / their time. Collective over c->net. */
#include "analysis/an_regions.h"
#include "analysis/an_report.h"

static int in_parallel(const an_trace *t, uint32_t k)
{
    for (; k != AN_NONE; k = t->cnodes[k].parent)
        if (t->cnodes[k].region < t->n_regions &&
            (t->regions[t->cnodes[k].region].cls & AN_RF_OMP_PARALLEL))
            return 1;
    return 0;
}

/* sum over call paths of metric M at location LOC */
static double total(const an_ctx *c, size_t loc, an_metric m)
{
    double s = 0;
    for (size_t k = 0; k < c->n_cnodes; k++)
        s += c->sev[(loc * M_COUNT + (size_t)m) * c->n_cnodes + k];
    return s;
}

void an_pop_threads(an_ctx *c, an_report_info *info)
{
    /* sums: useful time, threads, masters' serial time, masters' time; maxima: useful, time */
    double sum[4] = {0}, all_sum[4], max[2] = {0}, all_max[2];
    for (size_t l = 0; l < c->n_locs; l++) {
        /* the computation: Execution less the paradigms' time (named: a metric of the
         * computation itself under Execution, as Scalasca's comp, is not to be subtracted) */
        double time = total(c, l, M_TIME), u = total(c, l, M_EXECUTION) - total(c, l, M_MPI) -
                                                 total(c, l, M_OMP) - total(c, l, M_PTHREAD);
        if (time <= 0)
            continue; /* a location without events */
        sum[0] += u;
        sum[1] += 1;
        max[0] = u > max[0] ? u : max[0];
    }
    for (size_t k = 0; k < c->n_cnodes; k++) {
        double v = c->sev[(size_t)M_TIME * c->n_cnodes + k]; /* the master's (location 0) */
        sum[3] += v;
        sum[2] += in_parallel(c->t, (uint32_t)k) ? 0 : v;
    }
    max[1] = sum[3];
    an_net_allreduce(c->net, sum, all_sum, 4, AN_T_DOUBLE, AN_OP_SUM);
    an_net_allreduce(c->net, max, all_max, 2, AN_T_DOUBLE, AN_OP_MAX);
    double mean = all_sum[1] > 0 ? all_sum[0] / all_sum[1] : 0;
    info->thread_load_balance = all_max[0] > 0 ? mean / all_max[0] : 1;
    info->thread_comp_efficiency = all_max[1] > 0 ? all_max[0] / all_max[1] : 1;
    info->thread_parallel_efficiency = info->thread_load_balance * info->thread_comp_efficiency;
    info->serial_share = all_sum[3] > 0 ? all_sum[2] / all_sum[3] : 0;
}
