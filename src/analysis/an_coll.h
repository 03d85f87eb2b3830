/* SPDX-License-Identifier: BSD-3-Clause */
/* an_coll.h: the collective patterns (an_pattern_coll.c) over one replayed communicator. */
#ifndef SCOREP_AN_COLL_H
#define SCOREP_AN_COLL_H

#include "analysis/an_context.h"

/* INST: this rank's N collective-end events on the communicator MC (in order; the k-th is
 * instance k on every member). GROUPS: 1 for an intracommunicator; 2 for an
 * intercommunicator (MC spans both groups), MY_GROUP: this rank's (0: A, 1: B).
 * Collective over MC. */
int an_coll_instances(an_ctx *c, an_net *mc, int groups, int my_group, const uint32_t *inst,
                      size_t n, char *err, size_t len);

/* what a collective operation (an OTF2_CollectiveOp) is to the patterns and the delay
 * analysis: barrier, 1-to-n, n-to-1, scan, n-to-n, other (MPI_Alltoallv/w ...: counts only) */
typedef enum {
    AN_COLL_BARRIER,
    AN_COLL_12N,
    AN_COLL_N21,
    AN_COLL_SCAN,
    AN_COLL_N2N,
    AN_COLL_OTHER
} an_coll_kind;
an_coll_kind an_coll_kind_of(uint32_t op);

/* the analysis communicator of recorded communicator ID (c->net for the world; otherwise
 * free it with an_net_free), called by its members only; -1 when out of memory */
int an_coll_net(an_ctx *c, uint32_t id, an_net **mc);

#endif
