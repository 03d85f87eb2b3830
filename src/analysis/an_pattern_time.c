/* SPDX-License-Identifier: BSD-3-Clause */
/* an_pattern_time.c: the time tree and visits: each call path's exclusive time goes to the
 * node of the time hierarchy its region belongs to (Computation, MPI, Init/Finalize,
 * Point-to-point, Collective, barrier, ...; Scalasca 2.6's scout.spec), with every ancestor
 * of that node, as totals that
 * an_report_cube.c turns into Scalasca's exclusive metric values. Also fills exit_of. */
#include "analysis/an_context.h"
#include "analysis/an_regions.h"

#include <stdio.h>
#include <stdlib.h>

an_metric an_time_metric(uint32_t cls)
{
    switch (cls & AN_RC_MASK) {
    case AN_RC_OMP_EBARRIER:
        return M_OMP_EBARRIER;
    case AN_RC_OMP_IBARRIER:
        return M_OMP_IBARRIER;
    case AN_RC_OMP_CRITICAL:
        return M_OMP_CRITICAL;
    case AN_RC_OMP_LOCK:
        return M_OMP_LOCK_API;
    case AN_RC_OMP_ORDERED:
        return M_OMP_ORDERED;
    case AN_RC_OMP_TASKWAIT:
        return M_OMP_TASKWAIT;
    case AN_RC_OMP_FLUSH:
        return M_OMP_FLUSH;
    case AN_RC_PTHREAD_MGMT:
        return M_PTHREAD_MANAGEMENT;
    case AN_RC_PTHREAD_MUTEX:
        return M_PTHREAD_LOCK_API;
    case AN_RC_PTHREAD_COND:
        return M_PTHREAD_CONDITIONAL;
    case AN_RC_USER:
        return M_COMP;
    case AN_RC_INIT_EXIT:
        return M_MPI_INIT_EXIT;
    case AN_RC_P2P:
        return M_MPI_POINT2POINT;
    case AN_RC_BARRIER:
        return M_MPI_SYNC_COLLECTIVE;
    case AN_RC_COLL:
        return M_MPI_COLLECTIVE;
    case AN_RC_MGMT_COMM:
        return M_MPI_MGMT_COMM;
    case AN_RC_MGMT_FILE:
        return M_MPI_MGMT_FILE;
    case AN_RC_MGMT_WIN:
        return M_MPI_MGMT_WIN;
    case AN_RC_RMA_ACTIVE:
        return M_MPI_RMA_SYNC_ACTIVE;
    case AN_RC_RMA_PASSIVE:
        return M_MPI_RMA_SYNC_PASSIVE;
    case AN_RC_RMA_COMM:
        return M_MPI_RMA_COMMUNICATION;
    case AN_RC_IO_INDIV:
        return M_MPI_IO_INDIVIDUAL;
    case AN_RC_IO_COLL:
        return M_MPI_IO_COLLECTIVE;
    default:
        return M_MPI;
    }
}

/* the visit counts of Scalasca 2.6's one-sided synchronisation and communication and file
 * operations (square's scout.spec: visits of the call paths of those regions) */
static void visit_counts(an_ctx *c, const an_event *e)
{
    const an_trace *t = c->t;
    uint32_t cls = e->region < t->n_regions ? t->regions[e->region].cls : AN_RC_USER;
    static const struct {
        uint32_t bit;
        an_metric m;
    } flags[] = {{AN_RF_RMA_PUT, M_COMMS_RMA_PUTS},
                 {AN_RF_RMA_GET, M_COMMS_RMA_GETS},
                 {AN_RF_RMA_ATOMIC, M_COMMS_RMA_ATOMICS},
                 {AN_RF_FILE_IOP, M_MPI_FILE_IOPS},
                 {AN_RF_FILE_COP, M_MPI_FILE_COPS}};
    if ((cls & AN_RC_MASK) == AN_RC_RMA_ACTIVE)
        an_add(c, M_SYNCS_RMA_ACTIVE, e->cnode, 1);
    if ((cls & AN_RC_MASK) == AN_RC_RMA_PASSIVE)
        an_add(c, M_SYNCS_RMA_PASSIVE, e->cnode, 1);
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (cls & flags[i].bit)
            an_add(c, flags[i].m, e->cnode, 1);
    if (cls & (AN_RF_FILE_READ | AN_RF_FILE_WRITE)) {
        int coll = (cls & AN_RF_FILE_COP) != 0, rd = (cls & AN_RF_FILE_READ) != 0;
        an_add(c,
               coll ? (rd ? M_MPI_FILE_CROPS : M_MPI_FILE_CWOPS)
                    : (rd ? M_MPI_FILE_IROPS : M_MPI_FILE_IWOPS),
               e->cnode, 1);
    }
}

int an_pattern_time(an_ctx *c, char *err, size_t len)
{
    an_trace *t = c->t;
    double *excl = calloc(t->n_cnodes ? t->n_cnodes : 1, sizeof *excl);
    if (!excl || !(c->exit_of = calloc(t->n_events ? t->n_events : 1, sizeof *c->exit_of))) {
        free(excl);
        snprintf(err, len, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        if (e->kind == AN_ENTER) {
            an_add(c, M_VISITS, e->cnode, 1);
            visit_counts(c, e);
        } else if (e->kind == AN_LEAVE && e->enter != AN_NONE) {
            /* a LEAVE's enter field is the call it leaves: its own ENTER */
            const an_event *en = &t->events[e->enter];
            c->exit_of[e->enter] = e->time;
            double d = an_sec(c, (int64_t)(e->time - en->time));
            excl[en->cnode] += d;
            uint32_t parent = t->cnodes[en->cnode].parent;
            if (parent != AN_NONE)
                excl[parent] -= d;
        }
    }
    for (size_t k = 0; k < t->n_cnodes; k++) {
        uint32_t region = t->cnodes[k].region;
        uint32_t cls = region < t->n_regions ? t->regions[region].cls : AN_RC_USER;
        for (int m = an_time_metric(cls); m >= 0; m = an_metrics[m].parent)
            an_add(c, (an_metric)m, (uint32_t)k, excl[k]);
    }
    free(excl);
    return 0;
}
