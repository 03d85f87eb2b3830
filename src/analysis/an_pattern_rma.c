/* SPDX-License-Identifier: BSD-3-Clause */
/* an_pattern_rma.c: MPI one-sided communication as Scalasca 2.6 measures it (scout's
 * Message.pattern and MPI_RMA.pattern): the bytes of MPI_Put / MPI_Get-type calls at the
 * origin (bytes_put, bytes_get), and the waits in the window collectives MPI_Win_create,
 * MPI_Win_free and MPI_Win_fence (mpi_rma_wait_at_create, mpi_rma_wait_at_free,
 * mpi_rma_wait_at_fence). Scalasca's heuristic: when every member's call overlaps (the
 * earliest RmaCollectiveEnd lies after the latest RmaCollectiveBegin), a member waits from its
 * own RmaCollectiveBegin to the latest one, at the call's call path. Instance k of a window is
 * the k-th collective on it of every member of the window's communicator; the windows of one
 * communicator are replayed together on its analysis communicator (an_coll_net). */
#include "analysis/an_coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the wait-state metric of the call that encloses E: Scalasca classifies by region name
 * (pearl's Region.cpp: only these three names); M_COUNT: none */
static an_metric wait_metric(const an_trace *t, const an_event *e)
{
    if (e->enter == AN_NONE)
        return M_COUNT;
    const char *n = t->regions[t->events[e->enter].region].name;
    if (!n)
        return M_COUNT;
    if (!strcmp(n, "MPI_Win_create"))
        return M_MPI_RMA_WAIT_AT_CREATE;
    if (!strcmp(n, "MPI_Win_free"))
        return M_MPI_RMA_WAIT_AT_FREE;
    if (!strcmp(n, "MPI_Win_fence"))
        return M_MPI_RMA_WAIT_AT_FENCE;
    return M_COUNT;
}

static int is_member(const an_comm *k, uint32_t me)
{
    for (uint32_t i = 0; i < k->n; i++)
        if (k->ranks[i] == me)
            return 1;
    return 0;
}

/* this rank's instances on the windows of communicator K, in window order, into BEG (each
 * call's RmaCollectiveBegin) and END (its RmaCollectiveEnd); windows whose members recorded
 * different numbers of collectives (LO != HI: a truncated trace) are left out. Returns the
 * count; given LATEST (the instances' latest begin) and EARLIEST (their earliest end) instead,
 * adds the waits */
static size_t instances(an_ctx *c, uint32_t k, const uint32_t *win_comm, uint32_t nw,
                        const size_t *start, const uint32_t *idx, const uint64_t *lo,
                        const uint64_t *hi, uint64_t *beg, uint64_t *end, const uint64_t *latest,
                        const uint64_t *earliest)
{
    size_t n = 0;
    for (uint32_t w = 0, j = 0; w < nw; w++) {
        if (win_comm[w] != k)
            continue;
        for (size_t i = start[w]; lo[j] == hi[j] && i < start[w + 1]; i++, n++) {
            const an_event *e = &c->t->events[idx[i]];
            if (beg) {
                beg[n] = e->bytes2;
                end[n] = e->time;
            }
            an_metric m = latest ? wait_metric(c->t, e) : M_COUNT;
            if (m != M_COUNT && earliest[n] > latest[n] && e->bytes2 < latest[n])
                an_add(c, m, e->cnode, an_sec(c, (int64_t)(latest[n] - e->bytes2)));
        }
        j++;
    }
    return n;
}

/* the collectives of the windows of communicator K, on its members (IDX: this rank's
 * instances grouped by window, START[w] .. START[w + 1]) */
static int replay_comm(an_ctx *c, uint32_t k, const uint32_t *win_comm, uint32_t nw,
                       const size_t *start, const uint32_t *idx)
{
    an_net *mc = NULL;
    if (an_coll_net(c, k, &mc) != 0)
        return -1;
    uint32_t nk = 0;
    for (uint32_t w = 0; w < nw; w++)
        nk += win_comm[w] == k;
    uint64_t *cnt = calloc(3 * (size_t)nk + 1, sizeof *cnt), *lo = cnt + nk, *hi = lo + nk;
    size_t mine = start[nw];
    uint64_t *buf = malloc((4 * mine + 1) * sizeof *buf);
    int ok = cnt && buf, all_ok = 0;
    an_net_allreduce(mc, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    if (all_ok) {
        for (uint32_t w = 0, j = 0; w < nw; w++)
            if (win_comm[w] == k)
                cnt[j++] = start[w + 1] - start[w];
        an_net_allreduce(mc, cnt, lo, (int)nk, AN_T_U64, AN_OP_MIN);
        an_net_allreduce(mc, cnt, hi, (int)nk, AN_T_U64, AN_OP_MAX);
        uint64_t *beg = buf, *end = buf + mine, *latest = buf + 2 * mine,
                 *earliest = buf + 3 * mine;
        size_t n = instances(c, k, win_comm, nw, start, idx, lo, hi, beg, end, NULL, NULL);
        an_net_allreduce(mc, beg, latest, (int)n, AN_T_U64, AN_OP_MAX);
        an_net_allreduce(mc, end, earliest, (int)n, AN_T_U64, AN_OP_MIN);
        instances(c, k, win_comm, nw, start, idx, lo, hi, NULL, NULL, latest, earliest);
    }
    free(buf);
    free(cnt);
    if (mc != c->net)
        an_net_free(mc);
    return all_ok ? 0 : -1;
}

/* the one-sided bytes at the origin's call; *NW: 1 + the highest window id of this rank's
 * window collectives (0: none) */
static void bytes(an_ctx *c, uint32_t *nw)
{
    *nw = 0;
    for (size_t i = 0; i < c->t->n_events; i++) {
        const an_event *e = &c->t->events[i];
        if (e->kind == AN_RMA_PUT)
            an_add(c, M_BYTES_PUT, e->cnode, (double)e->bytes);
        else if (e->kind == AN_RMA_GET)
            an_add(c, M_BYTES_GET, e->cnode, (double)e->bytes);
        else if (e->kind == AN_RMA_COLL_END && e->request != AN_NONE && e->request >= *nw)
            *nw = (uint32_t)e->request + 1;
    }
}

static int usable(const an_trace *t, const an_event *e, uint32_t nw)
{
    return e->kind == AN_RMA_COLL_END && e->request < nw && e->comm < t->n_comms &&
           t->comms[e->comm].defined && !t->comms[e->comm].inter;
}

int an_pattern_rma(an_ctx *c, char *err, size_t len)
{
    an_trace *t = c->t;
    uint32_t mine_nw, nw = 0;
    bytes(c, &mine_nw);
    an_net_allreduce(c->net, &mine_nw, &nw, 1, AN_T_U32, AN_OP_MAX);
    if (!nw)
        return 0;
    uint32_t *wc = malloc(2 * (size_t)nw * sizeof *wc), *win_comm = wc + nw;
    size_t *start = calloc((size_t)nw + 2, sizeof *start);
    int ok = wc && start, all_ok = 0;
    for (uint32_t w = 0; ok && w < nw; w++)
        wc[w] = AN_NONE;
    for (size_t i = 0; ok && i < t->n_events; i++)
        if (usable(t, &t->events[i], nw)) {
            wc[t->events[i].request] = t->events[i].comm;
            start[t->events[i].request + 2]++;
        }
    for (uint32_t w = 0; ok && w < nw; w++)
        start[w + 2] += start[w + 1];
    uint32_t *idx = ok ? malloc((start[nw + 1] + 1) * sizeof *idx) : NULL;
    ok = ok && idx;
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    int rc = all_ok ? 0 : -1;
    if (all_ok) {
        an_net_allreduce(c->net, wc, win_comm, (int)nw, AN_T_U32, AN_OP_MIN);
        for (size_t i = 0; i < t->n_events; i++)
            if (usable(t, &t->events[i], nw))
                idx[start[t->events[i].request + 1]++] = (uint32_t)i;
        /* communicators in ascending id order on every rank; only members take part */
        for (uint32_t k = 0; k < t->n_comms; k++) {
            int used = 0;
            for (uint32_t w = 0; w < nw && !used; w++)
                used = win_comm[w] == k;
            if (!used || t->comms[k].n < 2 || !is_member(&t->comms[k], (uint32_t)c->rank))
                continue;
            if (replay_comm(c, k, win_comm, nw, start, idx) != 0)
                rc = -1;
        }
    }
    if (rc != 0)
        snprintf(err, len, "out of memory in the one-sided replay");
    free(wc);
    free(start);
    free(idx);
    return rc;
}
