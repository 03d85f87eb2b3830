/* SPDX-License-Identifier: BSD-3-Clause */
/* an_net_single.c: the analysis's communication (an_net.h) for one process without MPI (a
 * pure OpenMP, pthread or serial program: its one process's trace, analysed by scorep-analyze
 * without mpirun or in situ at the end of the program): rank 0 of 1, every collective a copy
 * of the process's own contribution, a message to itself queued until it is received. */
#include "analysis/an_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct msg {
    struct msg *next;
    int tag;
    size_t len;
    unsigned char data[];
} msg;

typedef struct {
    an_net base;
    msg *head, *tail; /* messages to itself, oldest first */
} net_single;

static int s_rank(const an_net *n)
{
    (void)n;
    return 0;
}

static int s_size(const an_net *n)
{
    (void)n;
    return 1;
}

static void copy(void *out, const void *in, int cnt, an_type t)
{
    if (cnt > 0 && out != in)
        memcpy(out, in, (size_t)cnt * an_type_size(t));
}

static void s_reduce(an_net *n, const void *in, void *out, int cnt, an_type t, an_op op)
{
    (void)n;
    (void)op; /* of one contribution, minimum, maximum and sum are that contribution */
    copy(out, in, cnt, t);
}

static void s_bcast(an_net *n, void *buf, int cnt, an_type t, int root)
{
    (void)n, (void)buf, (void)cnt, (void)t, (void)root; /* the root has it already */
}

static void s_gather(an_net *n, const void *in, int cnt, void *out, an_type t, int root)
{
    (void)n, (void)root;
    copy(out, in, cnt, t);
}

static void s_gatherv(an_net *n, const void *in, int cnt, void *out, const int *cnts,
                      const int *displs, an_type t, int root)
{
    (void)n, (void)cnts, (void)root;
    copy((char *)out + (size_t)displs[0] * an_type_size(t), in, cnt, t);
}

static void s_scatter(an_net *n, const void *in, void *out, int cnt, an_type t, int root)
{
    (void)n, (void)root;
    copy(out, in, cnt, t);
}

static void s_scatterv(an_net *n, const void *in, const int *cnts, const int *displs, void *out,
                       int cnt, an_type t, int root)
{
    (void)n, (void)cnts, (void)root;
    copy(out, (const char *)in + (size_t)displs[0] * an_type_size(t), cnt, t);
}

static void s_alltoall(an_net *n, const void *in, void *out, int cnt, an_type t)
{
    (void)n;
    copy(out, in, cnt, t);
}

static void s_alltoallv(an_net *n, const void *in, const int *scnts, const int *sdispls, void *out,
                        const int *rcnts, const int *rdispls, an_type t)
{
    (void)n, (void)rcnts;
    size_t s = an_type_size(t);
    copy((char *)out + (size_t)rdispls[0] * s, (const char *)in + (size_t)sdispls[0] * s, scnts[0],
         t);
}

static int s_isend(an_net *n, const void *buf, int cnt, an_type t, int dest, int tag)
{
    (void)dest; /* rank 0: itself */
    net_single *s = (net_single *)n;
    size_t len = cnt > 0 ? (size_t)cnt * an_type_size(t) : 0;
    msg *m = malloc(sizeof *m + len);
    if (!m)
        return -1;
    m->next = NULL;
    m->tag = tag;
    m->len = len;
    memcpy(m->data, buf, len);
    if (s->tail)
        s->tail->next = m;
    else
        s->head = m;
    s->tail = m;
    return 0;
}

/* the oldest queued message with TAG; with none, MPI would wait for ever: the analysis has
 * lost its own invariant (it receives only what it sent), which no input can cause */
static void s_recv(an_net *n, void *buf, int cnt, an_type t, int src, int tag)
{
    (void)src;
    net_single *s = (net_single *)n;
    msg **p = &s->head, *prev = NULL;
    while (*p && (*p)->tag != tag) {
        prev = *p;
        p = &(*p)->next;
    }
    msg *m = *p;
    if (!m) {
        fprintf(stderr, "scorep-rt analysis: a receive (tag %d) without its send in one process\n",
                tag);
        abort();
    }
    *p = m->next;
    if (s->tail == m)
        s->tail = prev;
    size_t want = cnt > 0 ? (size_t)cnt * an_type_size(t) : 0;
    memcpy(buf, m->data, m->len < want ? m->len : want);
    free(m);
}

static void s_waitall(an_net *n)
{
    (void)n; /* the sends were copied when they were made */
}

static an_net *s_sub(an_net *n, const int *ranks, int cnt, int tag)
{
    (void)n, (void)ranks, (void)cnt, (void)tag; /* the only group of one process: itself */
    return an_net_single();
}

static void s_free(an_net *n)
{
    net_single *s = (net_single *)n;
    while (s->head) {
        msg *m = s->head;
        s->head = m->next;
        free(m);
    }
    free(s);
}

static const an_net_ops ops = {s_rank,    s_size,    s_reduce,   s_reduce,   s_bcast,     s_gather,
                               s_gatherv, s_scatter, s_scatterv, s_alltoall, s_alltoallv, s_isend,
                               s_recv,    s_waitall, s_sub,      s_free};

an_net *an_net_single(void)
{
    net_single *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->base.ops = &ops;
    return &s->base;
}
