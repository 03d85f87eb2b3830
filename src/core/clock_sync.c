/* SPDX-License-Identifier: BSD-3-Clause */
/* clock_sync.c: ping-pong clock synchronisation with rank 0 (see clock_sync.h). Rank 0
 * exchanges a few round trips with every other rank in turn and keeps the one with the
 * shortest round trip; the offset assumes symmetric latency. */
#include "core/clock_sync.h"
#include "base/log.h"
#include "core/system_tree.h"
#include "base/timer.h"
#include "ipc/ipc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_POINTS = 2, ROUNDS = 10, TAG_PING = 7201, TAG_PONG = 7202, TAG_RESULT = 7203 };

static scorep_clock_point points[MAX_POINTS];
static int n_points;

/* rank 0 side: best offset of `peer` relative to rank 0. Whatever the load, the peer read
 * its clock between t0 and t1, so the offset is off by at most half the round trip kept. */
static int64_t measure_peer(const scorep_ipc *ipc, int peer, uint64_t *peer_time)
{
    uint64_t best_rtt = UINT64_MAX;
    int64_t best = 0;
    for (int i = 0; i < ROUNDS; i++) {
        uint64_t t0 = scorep_timer_ticks(), remote = 0;
        ipc->send(&t0, sizeof t0, peer, TAG_PING);
        ipc->recv(&remote, sizeof remote, peer, TAG_PONG);
        uint64_t t1 = scorep_timer_ticks();
        if (t1 - t0 < best_rtt) {
            best_rtt = t1 - t0;
            best = (int64_t)(t0 + (t1 - t0) / 2) - (int64_t)remote;
            *peer_time = remote;
        }
    }
    /* test_clock_offsets.sh checks the offset against this bound */
    scorep_verbose("clock offset of rank %d: %lld ticks, round trip %llu ticks", peer,
                   (long long)best, (unsigned long long)best_rtt);
    return best;
}

/* what a rank needs to know of rank 0's clock */
typedef struct {
    char node[256];
    int64_t skew; /* SCOREP_TEST_CLOCK_SKEW, 0 outside the tests */
    int32_t timer;
} clock_id;

/* 1 when this process reads the same clock as rank 0: the same node (the system tree's:
 * SCOREP_NODE_NAME or the host name) and the same timer. A host's CLOCK_MONOTONIC and
 * gettimeofday are one clock, and its invariant TSC is taken to be synchronised across CPUs.
 * Then the offset is known exactly (0 but for a test skew, left in *offset); a ping-pong on
 * a loaded host would only add an error of up to half a descheduled round trip. */
static int same_clock_as_root(const scorep_ipc *ipc, int64_t *offset)
{
    clock_id mine, root;
    memset(&mine, 0, sizeof mine);
    snprintf(mine.node, sizeof mine.node, "%s", scorep_node_name());
    mine.skew = scorep_timer_test_skew();
    mine.timer = (int32_t)scorep_timer_active;
    root = mine;
    if (ipc->bcast(&root, sizeof root, 0) != 0)
        return 0;
    *offset = root.skew - mine.skew;
    return root.timer == mine.timer && strcmp(mine.node, root.node) == 0;
}

/* the other side of measure_peer: answer the pings, then learn the offset */
static void answer_root(const scorep_ipc *ipc, scorep_clock_point *p)
{
    for (int i = 0; i < ROUNDS; i++) {
        uint64_t ping, now;
        ipc->recv(&ping, sizeof ping, 0, TAG_PING);
        now = scorep_timer_ticks();
        ipc->send(&now, sizeof now, 0, TAG_PONG);
    }
    uint64_t msg[2];
    ipc->recv(msg, sizeof msg, 0, TAG_RESULT);
    p->time = msg[0];
    p->offset = (int64_t)msg[1];
}

void scorep_clock_sync(void)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    int rank = ipc->rank(), size = ipc->size();
    if (size < 2 || n_points >= MAX_POINTS)
        return;
    scorep_clock_point p = {scorep_timer_ticks(), 0, 0};
    int32_t same = same_clock_as_root(ipc, &p.offset),
            *all = rank == 0 ? malloc(size * sizeof *all) : NULL;
    if (ipc->gather(&same, sizeof same, all, 0) != 0 || (rank == 0 && !all)) {
        free(all);
        return; /* only with a broken backend; then no offsets are written */
    }
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            if (all[r])
                continue;
            uint64_t when = 0;
            int64_t off = measure_peer(ipc, r, &when);
            uint64_t msg[2] = {when, (uint64_t)off};
            ipc->send(msg, sizeof msg, r, TAG_RESULT);
        }
    } else if (!same) {
        answer_root(ipc, &p);
    }
    free(all);
    points[n_points++] = p;
}

uint64_t scorep_clock_to_root(uint64_t t)
{
    if (n_points == 0)
        return t;
    double slope = 0;
    if (n_points > 1 && points[1].time != points[0].time)
        slope = (double)(points[1].offset - points[0].offset) /
                ((double)points[1].time - (double)points[0].time);
    double dt = t >= points[0].time ? (double)(t - points[0].time) : -(double)(points[0].time - t);
    double x = slope * dt; /* rounded to nearest like OTF2's rint, without libm */
    return t + (uint64_t)(points[0].offset + (int64_t)(x < 0 ? x - 0.5 : x + 0.5));
}

int scorep_clock_points(const scorep_clock_point **out)
{
    *out = points;
    return n_points;
}

void scorep_clock_points_restore(const scorep_clock_point *p, int n)
{
    n_points = n < MAX_POINTS ? n : MAX_POINTS;
    for (int i = 0; i < n_points; i++)
        points[i] = p[i];
}
