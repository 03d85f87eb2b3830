/* SPDX-License-Identifier: BSD-3-Clause */
/* an_replay_p2p.c: the point-to-point replay. Forward: every rank sends, along each recorded
 * message, the sender's timestamps to the message's receiver; backward: every receiver sends
 * the receive's timestamps back to the sender. Both sides name a message by its recorded
 * identity (communicator, sender, receiver, tag, mpi_message_id), so the exchange is done in
 * one personalised all-to-all per direction instead of one replayed message per message:
 * the patterns need only the peers' recorded timestamps (docs/analysis.md). The receiver
 * then walks its trace in order and applies the patterns (an_pattern_p2p.c). */
#include "analysis/an_p2p.h"
#include "analysis/an_regions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int an_key_cmp(const an_msg_key *a, const an_msg_key *b)
{
#define CMP(f)                                                                                     \
    if (a->f != b->f)                                                                              \
        return a->f < b->f ? -1 : 1;
    CMP(comm)
    CMP(from)
    CMP(to)
    CMP(tag)
    CMP(msg_id)
#undef CMP
    return 0;
}

static int cmp_send(const void *a, const void *b)
{
    return an_key_cmp(&((const an_send_rec *)a)->key, &((const an_send_rec *)b)->key);
}
static int cmp_recv(const void *a, const void *b)
{
    return an_key_cmp(&((const an_recv_rec *)a)->key, &((const an_recv_rec *)b)->key);
}

/* request id -> event index (open addressing) */
typedef an_req_map req_map;

int an_req_map_init(req_map *m, size_t n)
{
    m->cap = 64;
    while (m->cap < 2 * n + 2)
        m->cap *= 2;
    m->keys = calloc(m->cap, sizeof *m->keys);
    m->vals = calloc(m->cap, sizeof *m->vals);
    return m->keys && m->vals ? 0 : -1;
}
static size_t req_slot(const req_map *m, uint64_t req)
{
    size_t i = (size_t)((req + 1) * 0x9E3779B97F4A7C15ull >> 20) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != req + 1)
        i = (i + 1) & (m->cap - 1);
    return i;
}
void an_req_put(req_map *m, uint64_t req, uint32_t v)
{
    size_t i = req_slot(m, req);
    m->keys[i] = req + 1; /* slots are not freed: at most one per event, cap >= 2n */
    m->vals[i] = v;
}
uint32_t an_req_get(const req_map *m, uint64_t req)
{
    size_t i = req_slot(m, req);
    return m->keys[i] ? m->vals[i] : AN_NONE;
}
void an_req_map_free(req_map *m)
{
    free(m->keys);
    free(m->vals);
}

static an_msg_key key_of(const an_ctx *c, const an_event *e, int sending)
{
    an_msg_key k = {e->msg_id, e->comm, sending ? (uint32_t)c->rank : e->peer,
                    sending ? e->peer : (uint32_t)c->rank, e->tag};
    return k;
}

/* was the message of receive event I probed before on this rank (a probe with its identity
 * since the previous receive)? */
static uint64_t probed_before(const an_ctx *c, size_t i, const an_event *r)
{
    for (size_t j = i; j-- > 0;) {
        const an_event *e = &c->t->events[j];
        if ((e->kind == AN_RECV || e->kind == AN_IRECV) && e->peer == r->peer)
            return 0;
        if (e->kind == AN_PROBE && e->peer == r->peer && e->comm == r->comm && e->tag == r->tag &&
            e->msg_id == r->msg_id)
            return 1;
    }
    return 0;
}

static int is_send(const an_event *e)
{
    return (e->kind == AN_SEND || e->kind == AN_ISEND) && e->peer != AN_NONE;
}
static int is_recv(const an_event *e)
{
    return (e->kind == AN_RECV || e->kind == AN_IRECV) && e->peer != AN_NONE;
}

/* Sends n records of SIZE bytes, records[i] to rank dest[i], and returns what arrives
 * (malloc'ed, *n_out records), or NULL with ERR set. */
static void *exchange(an_ctx *c, const void *records, const uint32_t *dest, size_t n, size_t size,
                      size_t *n_out, char *err, size_t len)
{
    int p = c->size;
    int *scount = calloc((size_t)p, sizeof *scount), *rcount = calloc((size_t)p, sizeof *rcount);
    int *sdispl = calloc((size_t)p, sizeof *sdispl), *rdispl = calloc((size_t)p, sizeof *rdispl);
    size_t *fill = calloc((size_t)p, sizeof *fill);
    char *sbuf = malloc(n * size + 1), *rbuf = NULL;
    int ok = scount && rcount && sdispl && rdispl && fill && sbuf;
    for (size_t i = 0; ok && i < n; i++)
        scount[dest[i]] += (int)size;
    if (ok)
        an_net_alltoall(c->net, scount, rcount, 1, AN_T_INT);
    size_t total = 0;
    for (int r = 0; ok && r < p; r++) {
        sdispl[r] = r ? sdispl[r - 1] + scount[r - 1] : 0;
        rdispl[r] = (int)total;
        total += (size_t)rcount[r];
    }
    if (ok && total > (size_t)0x7fffffff)
        ok = 0; /* int displacements: more than 2 GiB to one rank per direction */
    if (ok && !(rbuf = malloc(total + 1)))
        ok = 0;
    int all_ok;
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    if (all_ok) {
        for (size_t i = 0; i < n; i++) {
            memcpy(sbuf + sdispl[dest[i]] + fill[dest[i]], (const char *)records + i * size, size);
            fill[dest[i]] += size;
        }
        an_net_alltoallv(c->net, sbuf, scount, sdispl, rbuf, rcount, rdispl, AN_T_BYTE);
        *n_out = total / size;
    } else {
        snprintf(err, len, "out of memory exchanging message records");
        free(rbuf);
        rbuf = NULL;
    }
    free(scount);
    free(rcount);
    free(sdispl);
    free(rdispl);
    free(fill);
    free(sbuf);
    return rbuf;
}

int an_replay_p2p(an_ctx *c, char *err, size_t len)
{
    an_trace *t = c->t;
    size_t n_send = 0, n_recv = 0;
    for (size_t i = 0; i < t->n_events; i++) {
        n_send += is_send(&t->events[i]);
        n_recv += is_recv(&t->events[i]);
    }
    an_send_rec *srec = malloc((n_send + 1) * sizeof *srec);
    an_recv_rec *rrec = malloc((n_recv + 1) * sizeof *rrec);
    uint32_t *sdest = malloc((n_send + 1) * sizeof *sdest);
    uint32_t *rdest = malloc((n_recv + 1) * sizeof *rdest);
    uint32_t *completion = malloc((t->n_events + 1) * sizeof *completion);
    req_map isends = {0}, irecvs = {0};
    int ok = srec && rrec && sdest && rdest && completion &&
             an_req_map_init(&isends, n_send) == 0 && an_req_map_init(&irecvs, n_recv) == 0;
    size_t ns = 0, nr = 0;
    /* the records, and which event completes each Isend */
    for (size_t i = 0; ok && i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        completion[i] = AN_NONE;
        if (is_send(e)) {
            srec[ns] = (an_send_rec){key_of(c, e, 1), e->time, an_call_enter(c, e), e->bytes};
            sdest[ns++] = e->peer;
            if (e->kind == AN_ISEND)
                an_req_put(&isends, e->request, (uint32_t)i);
            else
                completion[i] = (uint32_t)i;
        } else if (e->kind == AN_ISEND_COMPLETE) {
            uint32_t s = an_req_get(&isends, e->request);
            if (s != AN_NONE && completion[s] == AN_NONE)
                completion[s] = (uint32_t)i;
        } else if (e->kind == AN_IRECV_REQUEST) {
            an_req_put(&irecvs, e->request, (uint32_t)i);
        } else if (is_recv(e)) {
            uint64_t req_enter = an_call_enter(c, e);
            if (e->kind == AN_IRECV) {
                uint32_t r = an_req_get(&irecvs, e->request);
                if (r != AN_NONE)
                    req_enter = an_call_enter(c, &t->events[r]);
            }
            rrec[nr] = (an_recv_rec){key_of(c, e, 0), req_enter, probed_before(c, i, e)};
            rdest[nr++] = e->peer;
        }
    }
    int all_ok;
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    an_send_rec *in_s = NULL;
    an_recv_rec *in_r = NULL;
    size_t n_in_s = 0, n_in_r = 0;
    int rc = -1;
    if (!all_ok) {
        snprintf(err, len, "out of memory building message records");
        goto out;
    }
    /* forward: sends to their receivers */
    if (!(in_s = exchange(c, srec, sdest, ns, sizeof *srec, &n_in_s, err, len)))
        goto out;
    /* backward: receives to their senders */
    if (!(in_r = exchange(c, rrec, rdest, nr, sizeof *rrec, &n_in_r, err, len)))
        goto out;
    qsort(in_s, n_in_s, sizeof *in_s, cmp_send);
    qsort(in_r, n_in_r, sizeof *in_r, cmp_recv);
    an_p2p_state st;
    memset(&st, 0, sizeof st);
    st.multi_enter = AN_NONE;
    for (size_t i = 0; i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        if (is_recv(e) || (e->kind == AN_PROBE && e->peer != AN_NONE)) {
            an_send_rec k = {.key = key_of(c, e, 0)};
            const an_send_rec *s = bsearch(&k, in_s, n_in_s, sizeof *in_s, cmp_send);
            if (s)
                an_p2p_receive(c, &st, e, s);
            else if (e->kind != AN_PROBE)
                c->unmatched_recvs++;
        } else if (e->kind == AN_LEAVE) {
            an_p2p_call_done(c, &st, e);
        } else if (is_send(e)) {
            an_recv_rec k = {.key = key_of(c, e, 1)};
            const an_recv_rec *r = bsearch(&k, in_r, n_in_r, sizeof *in_r, cmp_recv);
            if (!r)
                c->unmatched_sends++;
            an_p2p_send(c, e, completion[i] == AN_NONE ? NULL : &t->events[completion[i]], r);
        }
    }
    rc = 0;
out:
    free(in_s);
    free(in_r);
    free(srec);
    free(rrec);
    free(sdest);
    free(rdest);
    free(completion);
    an_req_map_free(&isends);
    an_req_map_free(&irecvs);
    return rc;
}
