/* SPDX-License-Identifier: BSD-3-Clause */
/* an_pattern_init_exit.c: MPI Initialization Completion and Wait at Finalize as Scalasca 2.6
 * defines them (scout's MPI.pattern, MPI_INIT_COMPLETION and MPI_FINALIZE_WAIT). The instance
 * is each rank's first call of MPI_Init/MPI_Init_thread and of MPI_Finalize (its first Leave,
 * as MpiCommunicationHandler.cpp takes it), and every rank of MPI_COMM_WORLD takes part, as
 * in a barrier. Both are restricted to the time spent in the call:
 * - Wait at Finalize: from the call's Enter until the last rank entered;
 * - Init completion: from when the first rank left (or the last one entered, if later) until
 *   the call's Leave (Scalasca computes no waiting time there).
 * The calls' Enter times stay in the context for the critical path, which starts at the Enter
 * of MPI_Finalize of the rank that entered it last and ends at MPI_Init's Enter (what Scalasca
 * 2.6's scout.mpi gives on the same trace). A rank without the call (SCOREP_MPI_ENABLE_GROUPS
 * without env, or a trace without MPI_Finalize) leaves that instance out on every rank. */
#include "analysis/an_context.h"
#include "analysis/an_regions.h"

#include <limits.h>
#include <stdio.h>

typedef struct {
    uint64_t enter, leave;
    uint32_t cnode;
    int found;
} call;

/* this rank's first call of a region with FLAG, on its master thread */
static call first_call(const an_trace *t, uint32_t flag)
{
    for (size_t i = 0; i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        if (e->kind != AN_LEAVE || e->enter == AN_NONE)
            continue;
        const an_event *en = &t->events[e->enter];
        if (en->region < t->n_regions && (t->regions[en->region].cls & flag))
            return (call){en->time, e->time, en->cnode, 1};
    }
    return (call){0, 0, AN_NONE, 0};
}

int an_pattern_init_exit(an_ctx *c, char *err, size_t len)
{
    (void)err;
    (void)len;
    call in = first_call(c->t, AN_RF_INIT), fi = first_call(c->t, AN_RF_FINALIZE);
    /* [0] init, [1] finalize: every rank has one; latest enter; earliest leave */
    int have[2] = {in.found, fi.found}, all[2];
    uint64_t mx[2] = {in.enter, fi.enter}, latest[2];
    uint64_t mn[2] = {in.found ? in.leave : UINT64_MAX, fi.found ? fi.leave : UINT64_MAX},
             earliest[2];
    an_net_allreduce(c->net, have, all, 2, AN_T_INT, AN_OP_MIN);
    an_net_allreduce(c->net, mx, latest, 2, AN_T_U64, AN_OP_MAX);
    an_net_allreduce(c->net, mn, earliest, 2, AN_T_U64, AN_OP_MIN);
    /* who entered MPI_Finalize last: the lowest such rank (MPI_MAXLOC's choice in Scalasca) */
    int who = fi.found && fi.enter == latest[1] ? c->rank : INT_MAX, last = INT_MAX;
    an_net_allreduce(c->net, &who, &last, 1, AN_T_INT, AN_OP_MIN);
    if (all[0]) {
        c->init_enter = in.enter;
        c->all_init = 1;
        if (latest[0] > in.leave)
            c->ccv_coll++;
        uint64_t latest_begin = latest[0] < in.leave ? latest[0] : in.leave;
        uint64_t earliest_end = earliest[0] > latest_begin ? earliest[0] : latest_begin;
        if (in.leave > earliest_end)
            an_add(c, M_MPI_INIT_COMPLETION, in.cnode,
                   an_sec(c, (int64_t)(in.leave - earliest_end)));
    }
    if (all[1]) {
        c->fin_enter = fi.enter;
        c->fin_last = last;
        c->all_fin = 1;
        if (latest[1] > fi.leave)
            c->ccv_coll++;
        uint64_t latest_begin = latest[1] < fi.leave ? latest[1] : fi.leave;
        if (latest_begin > fi.enter) {
            an_add(c, M_MPI_FINALIZE_WAIT, fi.cnode, an_sec(c, (int64_t)(latest_begin - fi.enter)));
            /* a synchronisation point, as Scalasca's SynchpointHandler records it */
            if (last != c->rank)
                an_sync_add(c, fi.enter, latest_begin, fi.cnode, (uint32_t)last, latest[1]);
        }
    }
    return 0;
}
