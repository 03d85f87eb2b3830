/* an_critical_path.c: the critical path (Boehme et al., as Scalasca's CriticalPath.pattern
 * defines it): the longest path through the run without wait states. It ends where the last
 * rank ends and is followed backward in time: it stays on a rank until it reaches the end of
 * a wait state of that rank, then continues on the rank that caused the wait, at the time
 * that rank reached the synchronisation point (the sender's send, the receiver's posted
 * receive, the last rank into a collective, the root of a broadcast). Every wait state of a
 * rank is such a point, so a probed synchronous send keeps both of its synchronisation
 * points: the Late Receiver at the send (the path goes to the receive) and the Late Sender at
 * the probe (the path goes back to the send) (the seed's figure 17).
 * The backward walk passes a token: the rank that holds the path credits the time of its call
 * paths between the wait state's end and where the path entered it (critical_path), and sends
 * the token to the causing rank; the others wait for it. */
#include "analysis/an_context.h"

#include <stdio.h>
#include <stdlib.h>

enum { TAG_TOKEN = 16016 };

void an_sync_add(an_ctx *c, uint64_t wait_end, uint32_t peer, uint64_t peer_time)
{
    if (peer == AN_NONE || c->sync_oom)
        return;
    if (c->n_sync == c->cap_sync) {
        size_t cap = c->cap_sync ? 2 * c->cap_sync : 256;
        an_sync *n = realloc(c->sync, cap * sizeof *n);
        if (!n) {
            c->sync_oom = 1;
            return;
        }
        c->sync = n;
        c->cap_sync = cap;
    }
    c->sync[c->n_sync++] = (an_sync){wait_end, peer_time, peer};
}

static int cmp_sync(const void *a, const void *b)
{
    uint64_t x = ((const an_sync *)a)->wait_end, y = ((const an_sync *)b)->wait_end;
    return x < y ? -1 : x > y;
}

/* the call path that runs after event i (until the next event) */
static uint32_t cnode_after(const an_trace *t, size_t i)
{
    const an_event *e = &t->events[i];
    if (e->kind == AN_LEAVE)
        return e->cnode == AN_NONE ? AN_NONE : t->cnodes[e->cnode].parent;
    return e->cnode;
}

/* credits the time of this rank's call paths in [from, to] to critical_path */
static void credit(an_ctx *c, uint64_t from, uint64_t to)
{
    const an_trace *t = c->t;
    size_t lo = 0, hi = t->n_events; /* first event with time > from */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->events[mid].time <= from)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t i = lo ? lo - 1 : 0;
    for (; i + 1 < t->n_events && t->events[i].time < to; i++) {
        uint64_t a = t->events[i].time > from ? t->events[i].time : from;
        uint64_t b = t->events[i + 1].time < to ? t->events[i + 1].time : to;
        uint32_t k = cnode_after(t, i);
        if (b > a && k != AN_NONE)
            an_add(c, M_CRITICAL_PATH, k, an_sec(c, (int64_t)(b - a)));
    }
}

/* the latest synchronisation point that ended before T (strictly: times on a location
 * increase), or NULL */
static const an_sync *sync_before(const an_ctx *c, uint64_t t)
{
    size_t lo = 0, hi = c->n_sync;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->sync[mid].wait_end < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &c->sync[lo - 1] : NULL;
}

int an_critical_path(an_ctx *c, char *err, size_t len)
{
    const an_trace *t = c->t;
    int bad = c->sync_oom, any;
    PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, c->comm);
    if (any) {
        snprintf(err, len, "out of memory recording the synchronisation points");
        return -1;
    }
    qsort(c->sync, c->n_sync, sizeof *c->sync, cmp_sync);
    /* the path ends where the last rank ends (Scalasca: the last rank into MPI_Finalize) */
    struct {
        double time;
        int rank;
    } mine = {t->n_events ? (double)t->events[t->n_events - 1].time : 0, c->rank}, last;
    PMPI_Allreduce(&mine, &last, 1, MPI_DOUBLE_INT, MPI_MAXLOC, c->comm);
    uint64_t first = t->n_events ? t->events[0].time : 0;
    uint64_t token[2]; /* [0]: 1 = the path continues here at time [1]; 0 = done */
    int owner = last.rank == c->rank;
    uint64_t at = t->n_events ? t->events[t->n_events - 1].time : 0;
    size_t hops = 0, max_hops = 0;
    unsigned long long total_sync = c->n_sync, all_sync;
    PMPI_Allreduce(&total_sync, &all_sync, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, c->comm);
    max_hops = (size_t)all_sync + 1;
    for (;;) {
        if (!owner) {
            PMPI_Recv(token, 2, MPI_UINT64_T, MPI_ANY_SOURCE, TAG_TOKEN, c->comm,
                      MPI_STATUS_IGNORE);
            if (!token[0])
                break;
            at = token[1];
            owner = 1;
        }
        const an_sync *s = hops++ < max_hops ? sync_before(c, at) : NULL;
        if (!s) { /* the path begins on this rank */
            credit(c, first, at);
            token[0] = 0;
            for (int r = 0; r < c->size; r++)
                if (r != c->rank)
                    PMPI_Send(token, 2, MPI_UINT64_T, r, TAG_TOKEN, c->comm);
            break;
        }
        credit(c, s->wait_end, at);
        token[0] = 1;
        token[1] = s->peer_time;
        owner = 0;
        if (s->peer == (uint32_t)c->rank) { /* a wait caused by this rank itself */
            at = s->peer_time;
            owner = 1;
            continue;
        }
        PMPI_Send(token, 2, MPI_UINT64_T, (int)s->peer, TAG_TOKEN, c->comm);
    }
    return 0;
}
