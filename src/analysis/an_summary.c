/* an_summary.c: the short text summary at the end of an analysis: the total time, and each
 * wait-state pattern that occurred with its share of the time (all ranks, all call paths). */
#include "analysis/an_report.h"

#include <stdlib.h>

void an_summary(an_ctx *c, const char *prefix, FILE *out)
{
    double mine[M_COUNT] = {0}, all[M_COUNT];
    for (int m = 0; m < M_COUNT; m++)
        for (size_t k = 0; k < c->n_cnodes; k++)
            mine[m] += c->sev[(size_t)m * c->n_cnodes + k];
    PMPI_Reduce(mine, all, M_COUNT, MPI_DOUBLE, MPI_SUM, 0, c->comm);
    if (c->rank != 0 || !out)
        return;
    static const an_metric waits[] = {
        M_MPI_LATESENDER,         M_MPI_LATESENDER_WO, M_MPI_LATERECEIVER,   M_MPI_BARRIER_WAIT,
        M_MPI_BARRIER_COMPLETION, M_MPI_WAIT_NXN,      M_MPI_NXN_COMPLETION, M_MPI_EARLYREDUCE,
        M_MPI_EARLYSCAN,          M_MPI_LATEBROADCAST};
    double total = all[M_TIME];
    fprintf(out, "%s: time %.6f s over %d ranks, MPI %.6f s (%.1f%%)\n", prefix, total, c->size,
            all[M_MPI], total > 0 ? 100 * all[M_MPI] / total : 0);
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
