/* an_pattern_coll.c: collective wait states as Scalasca defines them (scout's MPI.pattern):
 * Wait at Barrier / Barrier Completion, Late Broadcast (1-to-n: non-roots wait for the root),
 * Early Reduce (n-to-1: the root waits for the first non-root), Early Scan (a rank waits for
 * the latest of the lower ranks), Wait at N x N / N x N Completion (n-to-n, without
 * MPI_Alltoallv/w as in Scalasca), and the collective counts and bytes. Waiting time is
 * restricted to the time spent in the operation; a violated clock condition is counted. */
#include "analysis/an_coll.h"
#include "analysis/an_regions.h"

#include <otf2/OTF2_Events.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t peer_of(int world)
{
    return world == INT_MAX ? AN_NONE : (uint32_t)world;
}

typedef enum { K_BARRIER, K_12N, K_N21, K_SCAN, K_N2N, K_OTHER } coll_kind;

static coll_kind kind_of(uint32_t op)
{
    switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
        return K_BARRIER;
    case OTF2_COLLECTIVE_OP_BCAST:
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV:
        return K_12N;
    case OTF2_COLLECTIVE_OP_REDUCE:
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV:
        return K_N21;
    case OTF2_COLLECTIVE_OP_SCAN:
    case OTF2_COLLECTIVE_OP_EXSCAN:
        return K_SCAN;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
        return K_N2N;
    default:
        return K_OTHER; /* MPI_Alltoallv/w and the rest: counts only */
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

int an_coll_instances(an_ctx *c, MPI_Comm mc, int me, const uint32_t *inst, size_t n, char *err,
                      size_t len)
{
    /* max: [0,n) latest enter (n-to-n: of ranks that send), [n,2n) root's enter;
     * min: [0,n) earliest exit (n-to-n: of ranks that send and receive),
     *      [n,2n) earliest enter of the non-roots that send; scan: latest enter of ranks <= me */
    uint64_t *mx = malloc((2 * n + 1) * sizeof *mx), *mn = malloc((2 * n + 1) * sizeof *mn);
    uint64_t *scan = malloc((n + 1) * sizeof *scan);
    uint64_t *out = malloc((2 * n + 1) * sizeof *out);
    /* who: [0,n) the lowest world rank that entered last, [n,2n) the lowest non-root sender
     * that entered first (the ranks a waiting rank's critical path moves to) */
    int *who = malloc((2 * n + 1) * sizeof *who), *who_out = malloc((2 * n + 1) * sizeof *who);
    int ok = mx && mn && scan && out && who && who_out, all_ok;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, mc);
    if (!all_ok) {
        free(mx);
        free(mn);
        free(scan);
        free(out);
        free(who);
        free(who_out);
        snprintf(err, len, "out of memory in the collective replay");
        return -1;
    }
    const an_event *ev = c->t->events;
    for (size_t i = 0; i < n; i++) {
        const an_event *e = &ev[inst[i]];
        uint64_t enter = an_call_enter(c, e), exit = an_call_exit(c, e);
        coll_kind k = kind_of(e->tag);
        int root = e->peer == (uint32_t)c->rank;
        mx[i] = k == K_N2N && !e->bytes ? 0 : enter;
        mx[n + i] = root ? enter : 0;
        mn[i] = k == K_N2N && (!e->bytes || !e->bytes2) ? UINT64_MAX : exit;
        mn[n + i] = !root && e->bytes ? enter : UINT64_MAX;
        scan[i] = enter;
    }
    PMPI_Allreduce(mx, out, (int)(2 * n), MPI_UINT64_T, MPI_MAX, mc);
    for (size_t i = 0; i < 2 * n; i++)
        mx[i] = out[i];
    PMPI_Allreduce(mn, out, (int)(2 * n), MPI_UINT64_T, MPI_MIN, mc);
    for (size_t i = 0; i < 2 * n; i++)
        mn[i] = out[i];
    for (size_t i = 0; i < n; i++) {
        const an_event *e = &ev[inst[i]];
        uint64_t enter = an_call_enter(c, e);
        int root = e->peer == (uint32_t)c->rank;
        coll_kind k = kind_of(e->tag);
        who[i] = enter == mx[i] && !(k == K_N2N && !e->bytes) ? c->rank : INT_MAX;
        who[n + i] = !root && e->bytes && enter == mn[n + i] ? c->rank : INT_MAX;
    }
    PMPI_Allreduce(who, who_out, (int)(2 * n), MPI_INT, MPI_MIN, mc);
    PMPI_Scan(scan, out, (int)n, MPI_UINT64_T, MPI_MAX, mc);
    for (size_t i = 0; i < n; i++)
        scan[i] = out[i];
    (void)me;
    for (size_t i = 0; i < n; i++) {
        const an_event *e = &ev[inst[i]];
        int root = e->peer == (uint32_t)c->rank;
        uint64_t exit = an_call_exit(c, e);
        counts(c, e);
        switch (kind_of(e->tag)) {
        case K_BARRIER: {
            double w = wait_until(c, e, mx[i], 1, peer_of(who_out[i]));
            an_add(c, M_MPI_BARRIER_WAIT, e->cnode, w);
            coll_wait(c, e, AN_W_BARRIER, i, peer_of(who_out[i]), mx[i], w);
            uint64_t from = mn[i] < mx[i] ? mx[i] : mn[i];
            if (exit > from)
                an_add(c, M_MPI_BARRIER_COMPLETION, e->cnode, an_sec(c, (int64_t)(exit - from)));
            break;
        }
        case K_12N:
            if (!root && e->bytes2) {
                double w = wait_until(c, e, mx[n + i], 1, e->peer);
                an_add(c, M_MPI_LATEBROADCAST, e->cnode, w);
                coll_wait(c, e, AN_W_12N, i, e->peer, mx[n + i], w);
            }
            break;
        case K_N21:
            if (root && e->bytes2 && mn[n + i] != UINT64_MAX)
                an_add(c, M_MPI_EARLYREDUCE, e->cnode,
                       wait_until(c, e, mn[n + i], 0, peer_of(who_out[n + i])));
            break;
        case K_SCAN:
            if (e->bytes || e->bytes2)
                an_add(c, M_MPI_EARLYSCAN, e->cnode, wait_until(c, e, scan[i], 1, AN_NONE));
            break;
        case K_N2N:
            if (e->bytes2) {
                double w = wait_until(c, e, mx[i], 1, peer_of(who_out[i]));
                an_add(c, M_MPI_WAIT_NXN, e->cnode, w);
                coll_wait(c, e, AN_W_N2N, i, peer_of(who_out[i]), mx[i], w);
            }
            if (e->bytes && e->bytes2 && mn[i] != UINT64_MAX) {
                uint64_t from = mn[i] < mx[i] ? mx[i] : mn[i];
                if (exit > from)
                    an_add(c, M_MPI_NXN_COMPLETION, e->cnode, an_sec(c, (int64_t)(exit - from)));
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
    return 0;
}
