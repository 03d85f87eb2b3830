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
