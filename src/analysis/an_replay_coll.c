/* SPDX-License-Identifier: BSD-3-Clause */
/* an_replay_coll.c: the collective replay. For every recorded communicator with collective
 * operations, the analysis builds the same communicator (an_net_sub: MPI_Comm_create_group
 * over the recorded world ranks, communicators in ascending id order on every rank) and
 * replays all of its collective instances at once: the k-th collective of a rank on that
 * communicator is instance k on every member (MPI orders collectives per communicator). Per
 * instance it reduces what Scalasca's patterns need: latest enter, earliest exit, the root's
 * enter, the earliest enter of the non-roots, and for scans the latest enter of the lower
 * ranks. The pattern arithmetic is in an_pattern_coll.c. An intercommunicator is replayed on
 * an intracommunicator over its two groups, with the values of each group apart: a rank waits
 * for the other group, as MPI's intercommunicator collectives define (docs/analysis.md). */
#include "analysis/an_coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* my index among the members of comm k (an intercommunicator's: group A, then group B), or -1;
 * *GROUP: 0 (group A) or 1 (group B) */
static int my_index(const an_comm *k, uint32_t me, int *group)
{
    for (uint32_t i = 0; i < k->n; i++)
        if (k->ranks[i] == me) {
            *group = 0;
            return (int)i;
        }
    for (uint32_t i = 0; k->inter && i < k->n_b; i++)
        if (k->ranks_b[i] == me) {
            *group = 1;
            return (int)(k->n + i);
        }
    return -1;
}

/* the members of comm k, an intercommunicator's both groups (A, then B) */
static uint32_t n_members(const an_comm *k)
{
    return k->n + (k->inter ? k->n_b : 0);
}

/* the analysis communicator of comm k: the world one, or MPI_Comm_create_group over its
 * members. An intercommunicator is replayed on an intracommunicator over both groups (A,
 * then B): its instances need the values of each group apart (an_pattern_coll.c) */
static int make_comm(an_ctx *c, uint32_t id, an_net **mc)
{
    const an_comm *k = &c->t->comms[id];
    uint32_t n = n_members(k);
    int identity = n == (uint32_t)c->size;
    for (uint32_t i = 0; identity && i < n; i++)
        identity = (i < k->n ? k->ranks[i] : k->ranks_b[i - k->n]) == i;
    if (identity) {
        *mc = c->net;
        return 0;
    }
    int *ranks = malloc(n * sizeof *ranks);
    if (!ranks)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        ranks[i] = (int)(i < k->n ? k->ranks[i] : k->ranks_b[i - k->n]);
    *mc = an_net_sub(c->net, ranks, (int)n, (int)(id & 0x7fff));
    free(ranks);
    return *mc ? 0 : -1;
}

static int replay_comm(an_ctx *c, uint32_t id, const uint32_t *inst, size_t n, char *err,
                       size_t len)
{
    const an_comm *k = &c->t->comms[id];
    an_net *mc = NULL;
    if (make_comm(c, id, &mc) != 0) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    /* every member must have recorded the same number of collectives on it */
    unsigned long long mine = n, lo, hi;
    an_net_allreduce(mc, &mine, &lo, 1, AN_T_U64, AN_OP_MIN);
    an_net_allreduce(mc, &mine, &hi, 1, AN_T_U64, AN_OP_MAX);
    int rc = 0;
    if (lo != hi) {
        snprintf(err, len,
                 "the ranks of communicator %u recorded different numbers of collective "
                 "operations (%llu to %llu): the trace is incomplete (truncated or reduced)",
                 id, lo, hi);
        rc = -1;
    } else {
        int group = 0;
        my_index(k, (uint32_t)c->rank, &group);
        rc = an_coll_instances(c, mc, k->inter ? 2 : 1, group, inst, n, err, len);
    }
    if (mc != c->net)
        an_net_free(mc);
    return rc;
}

int an_replay_coll(an_ctx *c, char *err, size_t len)
{
    an_trace *t = c->t;
    size_t nc = t->n_comms;
    /* which communicators any rank has collectives on, and this rank's instances per comm */
    unsigned char *used = calloc(nc + 1, 1), *any = calloc(nc + 1, 1);
    size_t *count = calloc(nc + 1, sizeof *count), *start = calloc(nc + 2, sizeof *start);
    uint32_t *inst = NULL;
    int ok = used && any && count && start;
    size_t total = 0;
    for (size_t i = 0; ok && i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        if (e->kind != AN_COLL_END || e->comm >= nc || !t->comms[e->comm].defined)
            continue;
        if (t->comms[e->comm].inter && !t->comms[e->comm].ranks_b) {
            c->skipped_inter_colls++; /* a definition without its group B: not replayed */
            continue;
        }
        used[e->comm] = 1;
        count[e->comm]++;
        total++;
    }
    if (ok && !(inst = malloc((total + 1) * sizeof *inst)))
        ok = 0;
    int all_ok;
    an_net_allreduce(c->net, &ok, &all_ok, 1, AN_T_INT, AN_OP_MIN);
    int rc = -1;
    if (!all_ok) {
        snprintf(err, len, "out of memory preparing the collective replay");
        goto out;
    }
    for (size_t k = 0; k < nc; k++)
        start[k + 1] = start[k] + count[k];
    memset(count, 0, (nc + 1) * sizeof *count);
    for (size_t i = 0; i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        if (e->kind == AN_COLL_END && e->comm < nc && used[e->comm])
            inst[start[e->comm] + count[e->comm]++] = (uint32_t)i;
    }
    an_net_allreduce(c->net, used, any, (int)nc, AN_T_U8, AN_OP_MAX);
    rc = 0;
    for (size_t k = 0; k < nc; k++) {
        const an_comm *cm = &t->comms[k];
        int group;
        if (!any[k] || n_members(cm) < 2 || (cm->inter && !cm->ranks_b) ||
            my_index(cm, (uint32_t)c->rank, &group) < 0)
            continue;
        char e2[256] = "";
        int r = replay_comm(c, (uint32_t)k, inst + start[k], count[k], e2, sizeof e2);
        if (r != 0 && rc == 0) {
            snprintf(err, len, "%s", e2);
            rc = -1;
        }
    }
    int bad = rc != 0, any_bad;
    an_net_allreduce(c->net, &bad, &any_bad, 1, AN_T_INT, AN_OP_MAX);
    if (any_bad && rc == 0) {
        snprintf(err, len, "another rank failed in the collective replay");
        rc = -1;
    }
out:
    free(used);
    free(any);
    free(count);
    free(start);
    free(inst);
    return rc;
}

/* the analysis communicator of communicator ID for the one-sided replay (an_pattern_rma.c) */
int an_coll_net(an_ctx *c, uint32_t id, an_net **mc)
{
    return make_comm(c, id, mc);
}
