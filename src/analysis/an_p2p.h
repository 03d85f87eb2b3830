/* SPDX-License-Identifier: BSD-3-Clause */
/* an_p2p.h: the records the point-to-point replay exchanges and the pattern callbacks that
 * use them (an_replay_p2p.c moves the records, an_pattern_p2p.c finds the wait states). */
#ifndef SCOREP_AN_P2P_H
#define SCOREP_AN_P2P_H

#include "analysis/an_context.h"

/* A message's identity: communicator, sender and receiver (world ranks), tag and the
 * mpi_message_id both sides recorded. */
typedef struct {
    uint64_t msg_id;
    uint32_t comm, from, to, tag;
} an_msg_key;

/* forward: what the sender tells the receiver about a send */
typedef struct {
    an_msg_key key;
    uint64_t send_time;  /* the send event */
    uint64_t send_enter; /* enter of the call that started the send (MPI_Send, MPI_Isend) */
    uint64_t bytes;
} an_send_rec;

/* backward: what the receiver tells the sender about the receive */
typedef struct {
    an_msg_key key;
    uint64_t req_enter; /* enter of the call that posted the receive (MPI_Recv, MPI_Irecv) */
    uint64_t probed;    /* 1: the receiver probed the message before (delay analysis) */
} an_recv_rec;

int an_key_cmp(const an_msg_key *a, const an_msg_key *b);

/* request id -> event index (an_replay_p2p.c; requests are live between post and completion) */
typedef struct {
    uint64_t *keys;
    uint32_t *vals;
    size_t cap;
} an_req_map;
int an_req_map_init(an_req_map *m, size_t n);
void an_req_put(an_req_map *m, uint64_t req, uint32_t v);
uint32_t an_req_get(const an_req_map *m, uint64_t req);
void an_req_map_free(an_req_map *m);

/* an_pattern_p2p.c: called in trace order for every receive and probe of this rank with the
 * matched send record (Late Sender, wrong order, counts), and for every send with the
 * matched receive record (Late Receiver, counts); an_p2p_call_done at every LEAVE (Late
 * Sender of MPI_Waitall & co.: the longest wait of the call). */
typedef struct {
    /* wrong-order ring of the last Late Sender instances (Scalasca keeps 100) */
    struct ls_instance {
        uint64_t send_time, send_enter, wait_end, wait_begin;
        uint32_t cnode, from;
        an_msg_key key;
        uint32_t event;
        double idle;
        /* where the instance is counted in mpi_cls_count (a child of comms_recv): the call
         * path of its receive; AN_NONE: not counted (no bytes), or a probe's instance whose
         * receive has not come yet (PROBE) */
        uint32_t count_cnode;
        int probe;
        int sync; /* a message without bytes received by a receive or completion: counted in
                   * mpi_sls_count (a child of syncs_recv) at CNODE */
    } ring[100];
    int n_ring;
    /* MPI_Waitall & co.: the longest Late Sender in the current call */
    uint32_t multi_enter;
    double multi_idle;
    struct ls_instance multi;
} an_p2p_state;

void an_p2p_receive(an_ctx *c, an_p2p_state *s, const an_event *e, const an_send_rec *send);
/* (the event's index is e - c->t->events) */
void an_p2p_call_done(an_ctx *c, an_p2p_state *s, const an_event *leave);
void an_p2p_send(an_ctx *c, const an_event *send_ev, const an_event *completion,
                 const an_recv_rec *recv);

#endif
