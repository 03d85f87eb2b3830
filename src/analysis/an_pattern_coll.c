/* SPDX-License-Identifier: BSD-3-Clause */
/* an_pattern_coll.c: collective wait states as Scalasca defines them (scout's MPI.pattern):
 * Wait at Barrier / Barrier Completion, Late Broadcast (1-to-n: non-roots wait for the root),
 * Early Reduce (n-to-1: the root waits for the last sender to enter, as Scalasca 2.6's
 * MpiCommunicationHandler reduces it; not the first), Early Scan (a rank waits for
 * the latest of the lower ranks), Wait at N x N / N x N Completion (n-to-n, without
 * MPI_Alltoallv/w as in Scalasca), and the collective counts and bytes. Waiting time is
 * restricted to the time spent in the operation; a violated clock condition is counted. */
#include "analysis/an_coll.h"
#include "analysis/an_regions.h"

#include <otf2/OTF2_Events.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t peer_of(int world)
{
    return world == INT_MAX ? AN_NONE : (uint32_t)world;
}

an_coll_kind an_coll_kind_of(uint32_t op)
{
    switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
        return AN_COLL_BARRIER;
    case OTF2_COLLECTIVE_OP_BCAST:
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV:
        return AN_COLL_12N;
    case OTF2_COLLECTIVE_OP_REDUCE:
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV:
        return AN_COLL_N21;
    case OTF2_COLLECTIVE_OP_SCAN:
    case OTF2_COLLECTIVE_OP_EXSCAN:
        return AN_COLL_SCAN;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
        return AN_COLL_N2N;
    default:
        return AN_COLL_OTHER; /* MPI_Alltoallv/w and the rest: counts only */
    }
}

static void counts(an_ctx *c, const an_event *e)
{
    if (!e->bytes && !e->bytes2)
        an_add(c, M_SYNCS_COLL, e->cnode, 1);
    else if (e->bytes && e->bytes2)
        an_add(c, M_COMMS_CXCH, e->cnode, 1);
    else
        an_add(c, e->bytes ? M_COMMS_CSRC : M_COMMS_CDST, e->cnode, 1);
    an_add(c, M_BYTES_COUT, e->cnode, (double)e->bytes);
    an_add(c, M_BYTES_CIN, e->cnode, (double)e->bytes2);
}

/* waiting from the call's enter until UNTIL, restricted to the call (CCV counted); a wait is
 * also a synchronisation point for the critical path: PEER reached UNTIL */
static double wait_until(an_ctx *c, const an_event *e, uint64_t until, int check, uint32_t peer)
{
    uint64_t enter = an_call_enter(c, e), exit = an_call_exit(c, e), peer_time = until;
    if (until > exit) {
        if (check)
            c->ccv_coll++;
        until = exit;
    }
    if (until <= enter)
        return 0;
    if (peer != AN_NONE && peer != (uint32_t)c->rank)
        an_sync_add(c, enter, until, e->cnode, peer, peer_time < until ? peer_time : until);
    return an_sec(c, (int64_t)(until - enter));
}

/* a member's part of collective instance K for trace.stat (an_pattern_stat.c) */
static void stat_coll(an_ctx *c, const an_event *e, size_t k, an_metric m, double w)
{
    an_stat_add(c, m, w, an_call_enter(c, e), e->time, e->cnode, e->comm, (uint32_t)k);
}

/* a collective wait state for the delay analysis (an_delay.c): instance K of the event's
 * communicator, caused by world rank CAUSE when it entered at PEER_TIME */
static void coll_wait(an_ctx *c, const an_event *e, an_wait_kind kind, size_t k, uint32_t cause,
                      uint64_t peer_time, double wait)
{
    if (wait <= 0 || cause == AN_NONE || cause == (uint32_t)c->rank)
        return;
    an_wait_rec w = {.msg_id = 0,
                     .peer_time = peer_time,
                     .comm = e->comm,
                     .from = cause,
                     .to = (uint32_t)c->rank,
                     .tag = e->tag,
                     .kind = kind,
                     .event = (uint32_t)(e - c->t->events),
                     .completion = AN_NONE,
                     .cause = cause,
                     .inst = (uint32_t)k,
                     .cnode = e->cnode,
                     .wait = wait};
    an_wait_add(c, &w);
}

/* An instance on an intercommunicator (GROUPS 2; docs/analysis.md): MPI's intercommunicator
 * collectives move data between the groups, so a rank waits for the other group only: a
 * barrier or an n-to-n operation for the last rank of the other group to enter, a 1-to-n
 * operation for its root (in the other group, MPI_ROOT there), the root of an n-to-1 operation
 * for the last sender of the other group. The replay communicator spans both groups; the
 * values are reduced per group (intracommunicator: one group, the same values as before). */
int an_coll_instances(an_ctx *c, an_net *mc, int groups, int my_group, const uint32_t *inst,
                      size_t n, char *err, size_t len)
{
    size_t G = (size_t)groups;
    /* max: [g*n + i] latest enter of group g (n-to-n and n-to-1: of the ranks that send, as
     *      Scalasca counts only members with bytes sent), [G*n + i] the root's enter;
     * min: [i] earliest exit (n-to-n: of ranks that send and receive), [n + g*n + i] earliest
     *      enter of the non-roots of group g that send; scan: latest enter of ranks <= me */
    uint64_t *mx = malloc(((G + 1) * n + 1) * sizeof *mx), *mn = malloc(((G + 1) * n + 1) * sizeof *mn);
    uint64_t *scan = malloc((n + 1) * sizeof *scan);
    uint64_t *out = malloc(((G + 1) * n + 1) * sizeof *out);
    /* who: [g*n + i] the lowest world rank of group g that entered last (the rank a waiting
     * rank's critical path moves to); root: the root's world rank + 1 (0: none),
     * intercommunicators */
    int *who = malloc((G * n + 1) * sizeof *who), *who_out = malloc((G * n + 1) * sizeof *who);
    int *root_w = malloc((n + 1) * sizeof *root_w), *root_out = malloc((n + 1) * sizeof *root_w);
    int ok = mx && mn && scan && out && who && who_out && root_w && root_out, all_ok;
    an_net_allreduce(mc, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    if (!all_ok) {
        free(mx);
        free(mn);
        free(scan);
        free(out);
        free(who);
        free(who_out);
        free(root_w);
        free(root_out);
        snprintf(err, len, "out of memory in the collective replay");
        return -1;
    }
    const an_event *ev = c->t->events;
    size_t g = (size_t)my_group, other = G == 1 ? 0 : 1 - g;
    /* the root: an intracommunicator's records name it on every rank; on an
     * intercommunicator only the other group's records do (the root passes MPI_ROOT, its
     * group MPI_PROC_NULL), so the replay tells the root's group who it is */
    for (size_t i = 0; i < n; i++) {
        uint32_t p = ev[inst[i]].peer;
        root_w[i] = p == AN_NONE ? 0 : (int)p + 1;
    }
    if (G == 2)
        an_net_allreduce(mc, root_w, root_out, (int)n, AN_T_INT, AN_OP_MAX);
    else
        memcpy(root_out, root_w, n * sizeof *root_out);
    for (size_t i = 0; i < n; i++) {
        const an_event *e = &ev[inst[i]];
        uint64_t enter = an_call_enter(c, e), exit = an_call_exit(c, e);
        an_coll_kind k = an_coll_kind_of(e->tag);
        int root = root_out[i] == c->rank + 1;
        for (size_t h = 0; h < G; h++) {
            mx[h * n + i] =
                h != g || ((k == AN_COLL_N2N || k == AN_COLL_N21) && !e->bytes) ? 0 : enter;
            mn[n + h * n + i] = h == g && !root && e->bytes ? enter : UINT64_MAX;
        }
        mx[G * n + i] = root ? enter : 0;
        mn[i] = k == AN_COLL_N2N && (!e->bytes || !e->bytes2) ? UINT64_MAX : exit;
        scan[i] = enter;
    }
    size_t nv = (G + 1) * n;
    an_net_allreduce(mc, mx, out, (int)nv, AN_T_U64, AN_OP_MAX);
    memcpy(mx, out, nv * sizeof *mx);
    an_net_allreduce(mc, mn, out, (int)nv, AN_T_U64, AN_OP_MIN);
    memcpy(mn, out, nv * sizeof *mn);
    for (size_t i = 0; i < n; i++) {
        const an_event *e = &ev[inst[i]];
        uint64_t enter = an_call_enter(c, e);
        an_coll_kind k = an_coll_kind_of(e->tag);
        for (size_t h = 0; h < G; h++) {
            who[h * n + i] = h == g && enter == mx[h * n + i] &&
                                     !((k == AN_COLL_N2N || k == AN_COLL_N21) && !e->bytes)
                                 ? c->rank
                                 : INT_MAX;
        }
    }
    an_net_allreduce(mc, who, who_out, (int)(G * n), AN_T_INT, AN_OP_MIN);
    if (G == 1) { /* MPI_Scan and MPI_Exscan are not defined on intercommunicators */
        an_net_scan(mc, scan, out, (int)n, AN_T_U64, AN_OP_MAX);
        memcpy(scan, out, n * sizeof *scan);
    }
    for (size_t i = 0; i < n; i++) {
        const an_event *e = &ev[inst[i]];
        int root = root_out[i] == c->rank + 1;
        uint32_t root_rank = root_out[i] ? (uint32_t)(root_out[i] - 1) : AN_NONE;
        uint64_t exit = an_call_exit(c, e);
        uint64_t last = mx[other * n + i];            /* the latest enter that I wait for */
        uint32_t last_who = peer_of(who_out[other * n + i]);
        uint64_t first = mn[n + other * n + i];       /* the earliest non-root sender */
        counts(c, e);
        switch (an_coll_kind_of(e->tag)) {
        case AN_COLL_BARRIER: {
            double w = wait_until(c, e, last, 1, last_who);
            an_add(c, M_MPI_BARRIER_WAIT, e->cnode, w);
            coll_wait(c, e, AN_W_BARRIER, i, last_who, last, w);
            uint64_t from = mn[i] < last ? last : mn[i];
            double d = exit > from ? an_sec(c, (int64_t)(exit - from)) : 0;
            an_add(c, M_MPI_BARRIER_COMPLETION, e->cnode, d);
            stat_coll(c, e, i, M_MPI_BARRIER_WAIT, w);
            stat_coll(c, e, i, M_MPI_BARRIER_COMPLETION, d);
            break;
        }
        case AN_COLL_12N:
            if (!root && e->bytes2 && root_rank != AN_NONE) {
                double w = wait_until(c, e, mx[G * n + i], 1, root_rank);
                an_add(c, M_MPI_LATEBROADCAST, e->cnode, w);
                coll_wait(c, e, AN_W_12N, i, root_rank, mx[G * n + i], w);
                stat_coll(c, e, i, M_MPI_LATEBROADCAST, w);
            }
            break;
        case AN_COLL_N21:
            if (root && e->bytes2 && first != UINT64_MAX) {
                /* Scalasca 2.6 (scout's cb_pre_coll_n21 and MPI.pattern's PRE_COLL_N21): the
                 * root waits until the latest sender entered (MAXLOC over the members with
                 * bytes sent), within its own call; the delay costs (DELAY_N21) and the
                 * critical path (CriticalPath.pattern, COLL_N21) go to that sender too */
                double w = wait_until(c, e, last, 1, last_who);
                an_add(c, M_MPI_EARLYREDUCE, e->cnode, w);
                an_stat_add(c, M_MPI_EARLYREDUCE, w, an_call_enter(c, e), e->time, e->cnode,
                            AN_NONE, AN_NONE);
                coll_wait(c, e, AN_W_N21, i, last_who, last, w);
            }
            break;
        case AN_COLL_SCAN:
            if (G == 1 && (e->bytes || e->bytes2)) {
                double w = wait_until(c, e, scan[i], 1, AN_NONE);
                an_add(c, M_MPI_EARLYSCAN, e->cnode, w);
                stat_coll(c, e, i, M_MPI_EARLYSCAN, w);
            }
            break;
        case AN_COLL_N2N:
            if (e->bytes2) {
                double w = wait_until(c, e, last, 1, last_who);
                an_add(c, M_MPI_WAIT_NXN, e->cnode, w);
                coll_wait(c, e, AN_W_N2N, i, last_who, last, w);
                stat_coll(c, e, i, M_MPI_WAIT_NXN, w);
            }
            if (e->bytes && e->bytes2 && mn[i] != UINT64_MAX) {
                uint64_t from = mn[i] < last ? last : mn[i];
                double d = exit > from ? an_sec(c, (int64_t)(exit - from)) : 0;
                an_add(c, M_MPI_NXN_COMPLETION, e->cnode, d);
                stat_coll(c, e, i, M_MPI_NXN_COMPLETION, d);
            }
            break;
        default:
            break;
        }
    }
    free(mx);
    free(mn);
    free(scan);
    free(out);
    free(who);
    free(who_out);
    free(root_w);
    free(root_out);
    return 0;
}
