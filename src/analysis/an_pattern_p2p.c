/* SPDX-License-Identifier: BSD-3-Clause */
/* an_pattern_p2p.c: point-to-point wait states as Scalasca defines them (scout's MPI.pattern):
 * Late Sender (receives, completions, and blocking probes: the probe that waited holds the
 * wait, the receive after it waits no more), Late Sender / wrong order (a later-sent message
 * was waited for while an earlier one was ready), Late Receiver (a blocking send or the
 * MPI_Wait of an Isend waiting for its receive to be posted), and the message counts.
 * A polling loop of nonblocking probes (MPI_Iprobe, MPI_Improbe) that ends in a successful
 * one is a Late Sender too: the time its calls spent before the send began (docs/analysis.md).
 * The instance counts are children of comms_recv / comms_send in the metric tree, so each is
 * counted on the call path of its receive or send: a probe's Late Sender where the receive of
 * the probed message is (a probe is no communication); a Late Receiver at its send, also when
 * an MPI_Wait waited for it (Scalasca counts it at the wait, where Cube then reads
 * comms_send's exclusive value as -1). */
#include "analysis/an_p2p.h"
#include "analysis/an_regions.h"

#include <string.h>

/* SEND: the earlier-sent message received now, at NOW (trace.stat's enter and exit of a
 * wrong-order instance, as Scalasca's statistics take them) */
static void wrong_order(an_ctx *c, an_p2p_state *s, const an_send_rec *send, uint64_t now)
{
    int k = 0;
    for (int i = 0; i < s->n_ring; i++) {
        struct ls_instance *ls = &s->ring[i];
        if (ls->send_time > send->send_time) {
            an_add(c, M_MPI_LATESENDER_WO, ls->cnode, ls->idle);
            an_add(c, ls->from == send->key.from ? M_MPI_LSWO_SAME : M_MPI_LSWO_DIFFERENT,
                   ls->cnode, ls->idle);
            if (ls->count_cnode != AN_NONE)
                an_add(c, M_MPI_CLSWO_COUNT, ls->count_cnode, 1);
            if (ls->sync)
                an_add(c, M_MPI_SLSWO_COUNT, ls->cnode, 1);
            an_stat_add(c, M_MPI_LATESENDER_WO, ls->idle, send->send_time, now, ls->cnode,
                        AN_NONE, AN_NONE);
        } else {
            s->ring[k++] = *ls;
        }
    }
    s->n_ring = k;
}

/* VALUE_ADDED: the caller put the waiting time on its call paths already (a polling loop) */
static void late_sender(an_ctx *c, an_p2p_state *s, const struct ls_instance *ls, int value_added)
{
    if (!value_added)
        an_add(c, M_MPI_LATESENDER, ls->cnode, ls->idle);
    an_sync_add(c, ls->wait_begin, ls->wait_end, ls->cnode, ls->from, ls->send_enter);
    an_stat_add(c, M_MPI_LATESENDER, ls->idle, ls->wait_begin, c->t->events[ls->event].time,
                ls->cnode, AN_NONE, AN_NONE);
    an_wait_rec w = {.msg_id = ls->key.msg_id,
                     .peer_time = ls->send_enter,
                     .comm = ls->key.comm,
                     .from = ls->key.from,
                     .to = ls->key.to,
                     .tag = ls->key.tag,
                     .kind = AN_W_LS,
                     .event = ls->event,
                     .completion = AN_NONE,
                     .cause = ls->key.from,
                     .inst = AN_NONE,
                     .cnode = ls->cnode,
                     .wait = ls->idle};
    an_wait_add(c, &w);
    if (ls->count_cnode != AN_NONE)
        an_add(c, M_MPI_CLS_COUNT, ls->count_cnode, 1);
    if (ls->sync)
        an_add(c, M_MPI_SLS_COUNT, ls->cnode, 1);
    if (s->n_ring == (int)(sizeof s->ring / sizeof s->ring[0])) {
        memmove(s->ring, s->ring + 1, (size_t)(s->n_ring - 1) * sizeof s->ring[0]);
        s->n_ring--;
    }
    s->ring[s->n_ring++] = *ls;
}

/* the waiting time of nonblocking probe call ENTER (an event index) before UNTIL, on its call
 * path; returns it (0 when the call began after UNTIL) */
static double nb_probe_wait(an_ctx *c, uint32_t enter, uint64_t until)
{
    const an_event *en = &c->t->events[enter];
    uint64_t end = c->exit_of[enter] < until ? c->exit_of[enter] : until;
    if (end <= en->time)
        return 0;
    double w = an_sec(c, (int64_t)(end - en->time));
    an_add(c, M_MPI_LATESENDER, en->cnode, w);
    return w;
}

/* A successful nonblocking probe E of SEND: it and the unsuccessful nonblocking probes right
 * before it (no other MPI call or event between them; user regions may be) form a polling
 * loop, which waited for the message from the first probe's enter until the send began. Each
 * call's time before the send is Late Sender on its own call path (the time between the calls
 * is not in MPI, so not a wait state); the loop is one wait state (wrong order, counts, the
 * critical path and the delay costs see one Late Sender at E). Unsuccessful probes record no
 * source or tag, so every one in the run counts, whatever it probed for. */
static void nb_probe_loop(an_ctx *c, an_p2p_state *s, const an_event *e, const an_send_rec *send)
{
    const an_trace *t = c->t;
    if (e->enter == AN_NONE)
        return;
    uint64_t until = send->send_enter, exit = c->exit_of[e->enter];
    if (until > exit)
        until = exit; /* clock condition violated: restrict to the time in the calls */
    double idle = 0;
    uint64_t first = t->events[e->enter].time;
    for (size_t j = e->enter; j-- > 0;) {
        const an_event *p = &t->events[j];
        if (p->kind == AN_LEAVE)
            continue;
        if (p->kind != AN_ENTER)
            break; /* an MPI event: a message, a collective, a successful probe */
        uint32_t cls = p->region < t->n_regions ? t->regions[p->region].cls : AN_RC_USER;
        if (cls & AN_RF_NB_PROBE) {
            idle += nb_probe_wait(c, (uint32_t)j, until);
            first = p->time;
        } else if (AN_RC_IS_MPI(cls)) {
            break; /* another MPI call ends the loop */
        }
    }
    idle += nb_probe_wait(c, e->enter, until);
    if (idle <= 0)
        return;
    struct ls_instance ls = {send->send_time,
                             send->send_enter,
                             until,
                             first,
                             e->cnode,
                             send->key.from,
                             send->key,
                             (uint32_t)(e - t->events),
                             idle,
                             AN_NONE,
                             send->bytes != 0,
                             0};
    late_sender(c, s, &ls, 1);
}

/* the receive (at call path CNODE) of a message KEY that a probe waited for: the probe's Late
 * Sender instance is counted here, beside the receive it belongs to */
static void probed_receive(an_ctx *c, an_p2p_state *s, const an_msg_key *key, uint32_t cnode)
{
    for (int i = s->n_ring; i-- > 0;) {
        struct ls_instance *ls = &s->ring[i];
        if (ls->probe && ls->count_cnode == AN_NONE && an_key_cmp(&ls->key, key) == 0) {
            ls->count_cnode = cnode;
            an_add(c, M_MPI_CLS_COUNT, cnode, 1);
            return;
        }
    }
}

void an_p2p_receive(an_ctx *c, an_p2p_state *s, const an_event *e, const an_send_rec *send)
{
    uint32_t flags = an_call_flags(c, e);
    uint32_t cnode = e->cnode;
    if (send->send_time > e->time)
        c->ccv_p2p++; /* the receive (or probe) ends before its send began */
    if (e->kind != AN_PROBE) {
        if (send->bytes) {
            an_add(c, M_COMMS_RECV, cnode, 1);
            probed_receive(c, s, &send->key, cnode);
            an_add(c, M_BYTES_RCVD, cnode, (double)send->bytes);
        } else {
            an_add(c, M_SYNCS_RECV, cnode, 1);
        }
    }
    wrong_order(c, s, send, e->time);
    if (e->kind == AN_PROBE && (flags & AN_RF_NB_PROBE)) {
        nb_probe_loop(c, s, e, send);
        return;
    }
    if (flags & AN_RF_TEST)
        return; /* a test does not wait */
    uint64_t until = send->send_enter, exit = an_call_exit(c, e), enter = an_call_enter(c, e);
    if (until > exit)
        until = exit; /* clock condition violated: restrict to the time in the call */
    if (until <= enter)
        return;
    struct ls_instance ls = {send->send_time,
                             send->send_enter,
                             until,
                             enter,
                             cnode,
                             send->key.from,
                             send->key,
                             (uint32_t)(e - c->t->events),
                             an_sec(c, (int64_t)(until - enter)),
                             send->bytes != 0 && e->kind != AN_PROBE ? cnode : AN_NONE,
                             send->bytes != 0 && e->kind == AN_PROBE,
                             send->bytes == 0 && e->kind != AN_PROBE};
    if (flags & AN_RF_WAIT_MULTI) {
        if (s->multi_enter != e->enter || ls.idle > s->multi_idle) {
            s->multi_enter = e->enter;
            s->multi_idle = ls.idle;
            s->multi = ls;
        }
        return;
    }
    late_sender(c, s, &ls, 0);
}

void an_p2p_call_done(an_ctx *c, an_p2p_state *s, const an_event *leave)
{
    if (s->multi_enter != AN_NONE && s->multi_enter == leave->enter) {
        late_sender(c, s, &s->multi, 0);
        s->multi_enter = AN_NONE;
        s->multi_idle = 0;
    }
}

void an_p2p_send(an_ctx *c, const an_event *send_ev, const an_event *completion,
                 const an_recv_rec *recv)
{
    if (send_ev->bytes) {
        an_add(c, M_COMMS_SEND, send_ev->cnode, 1);
        an_add(c, M_BYTES_SENT, send_ev->cnode, (double)send_ev->bytes);
    } else {
        an_add(c, M_SYNCS_SEND, send_ev->cnode, 1);
    }
    if (!recv || !completion)
        return;
    uint32_t flags = an_call_flags(c, completion);
    if (!(flags & (AN_RF_BLOCK_SEND | AN_RF_WAIT_SINGLE)))
        return;
    uint64_t enter = an_call_enter(c, completion), exit = an_call_exit(c, completion);
    if (exit < recv->req_enter || recv->req_enter <= enter)
        return; /* no overlap, or the receive was there first */
    an_add(c, M_MPI_LATERECEIVER, completion->cnode, an_sec(c, (int64_t)(recv->req_enter - enter)));
    an_sync_add(c, enter, recv->req_enter, completion->cnode, recv->key.to, recv->req_enter);
    an_stat_add(c, M_MPI_LATERECEIVER, an_sec(c, (int64_t)(recv->req_enter - enter)), enter,
                recv->req_enter, completion->cnode, AN_NONE, AN_NONE);
    an_wait_rec w = {.msg_id = recv->key.msg_id,
                     .peer_time = recv->req_enter,
                     .comm = recv->key.comm,
                     .from = recv->key.from,
                     .to = recv->key.to,
                     .tag = recv->key.tag,
                     .kind = AN_W_LR,
                     .event = (uint32_t)(send_ev - c->t->events),
                     .completion = (uint32_t)(completion - c->t->events),
                     .cause = recv->key.to,
                     .inst = AN_NONE,
                     .cnode = completion->cnode,
                     .probed = recv->probed != 0,
                     .wait = an_sec(c, (int64_t)(recv->req_enter - enter))};
    an_wait_add(c, &w);
    /* counted where comms_send counts the send (its parent in the metric tree: a Late
     * Receiver is one of the sends), not at the MPI_Wait that waited as Scalasca does:
     * there Cube would read comms_send's exclusive value as -1 */
    an_add(c, send_ev->bytes ? M_MPI_CLR_COUNT : M_MPI_SLR_COUNT, send_ev->cnode, 1);
}
