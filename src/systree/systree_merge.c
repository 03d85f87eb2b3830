/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_merge.c: the two tree steps inside one split family: binomial-tree merge of the
 * members' sequence lists into rank 0 of each group, and the pass of positions back down. */
#include "systree/systree_build_int.h"

#include <stdlib.h>
#include <string.h>

unsigned systree_ceil_log2(uint64_t n)
{
    unsigned l = 0;
    while ((1ull << l) < n)
        l++;
    return l;
}

uint64_t systree_max_group(const systree_comm *f)
{
    uint64_t max = 0;
    for (size_t m = 0; m < systree_comm_nlocal(f); m++)
        if ((uint64_t)systree_comm_size(f, m) > max)
            max = (uint64_t)systree_comm_size(f, m);
    return max;
}

int systree_mstate_freeze(systree_mstate *s)
{
    s->nrec = s->list.n;
    s->info = malloc((s->nrec ? s->nrec : 1) * sizeof *s->info);
    if (s->info == NULL)
        return -1;
    for (uint32_t j = 0; j < s->nrec; j++)
        s->info[j] = (systree_recinfo){systree_rec_size(s->list.v[j]), s->list.v[j]->copies};
    return 0;
}

void systree_mstate_free(systree_mstate *s)
{
    systree_list_free(&s->list);
    free(s->info);
    for (uint32_t i = 0; i < s->nkids; i++)
        systree_map_free(&s->kids[i].map);
    free(s->kids);
    free(s->pos);
    memset(s, 0, sizeof *s);
}

/* Role of rank r in round d (a power of two) of the binomial tree: 1 sends to r - d,
 * 2 receives from r + d, 0 idle. */
static int role(int r, int size, uint64_t d)
{
    if (((uint64_t)r & (2 * d - 1)) == d)
        return 1;
    if (((uint64_t)r & (2 * d - 1)) == 0 && (uint64_t)r + d < (uint64_t)size)
        return 2;
    return 0;
}

static void free_msgs(systree_msg *msg, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(msg[i].data);
}

/* How far ahead the rounds fetch the state of the members they will work on next: in the
 * simulator the lists, records, kids and positions of millions of members lie scattered
 * over gigabytes, and the rounds spent most of their time waiting for one block after the
 * other. Only the order of memory reads changes, not what is computed. */
enum { AHEAD = 16, FETCH_RECS = 4 };

/* Stage `stage` of fetching a list: 0 its array, 1 its first records, 2 their children
 * arrays and names, 3 the children themselves (each stage's pointers read by the earlier). */
static void fetch_list(const systree_list *l, int stage)
{
    if (stage == 0) {
        __builtin_prefetch(l->v);
        return;
    }
    for (uint32_t i = 0; i < l->n && i < FETCH_RECS; i++) {
        const systree_rec *r = l->v[i];
        if (stage == 1) {
            __builtin_prefetch(r);
        } else if (stage == 2) {
            __builtin_prefetch(r->children.v);
            __builtin_prefetch(r->names.runs);
        } else {
            for (uint32_t k = 0; k < r->children.n && k < FETCH_RECS; k++)
                __builtin_prefetch(r->children.v[k]);
        }
    }
}

/* The lists of the members of msg[j + AHEAD * 4 / 4 ...]: each stage a quarter nearer. */
static void fetch_lists(const systree_mstate *st, const systree_msg *msg, size_t j, size_t n)
{
    for (int stage = 0; stage < 4; stage++) {
        size_t k = j + AHEAD - (size_t)stage * (AHEAD / 4);
        if (k < n)
            fetch_list(&st[msg[k].member].list, stage);
    }
}

/* The sends of one merge round: each sender packs (into scratch, then a buffer of the
 * message's size) and gives up its list. */
static int merge_sends(systree_mstate *st, systree_msg *send, size_t nsend, systree_buf *scratch)
{
    for (size_t j = 0; j < nsend; j++) { /* after an error: data NULL from there */
        fetch_lists(st, send, j, nsend);
        systree_mstate *s = &st[send[j].member];
        if (systree_mstate_freeze(s) != 0 || systree_list_pack(&s->list, scratch) != 0 ||
            (send[j].data = systree_buf_take(scratch, &send[j].len)) == NULL)
            return -1;
        systree_list_free(&s->list);
    }
    return 0;
}

static int merge_received(systree_mstate *s, const systree_msg *msg, int kid_rank)
{
    systree_reader rd;
    systree_list l;
    systree_reader_init(&rd, msg->data, msg->len);
    if (systree_list_unpack(&rd, &l) != 0)
        return -1;
    systree_kid *k = realloc(s->kids, (s->nkids + 1) * sizeof *k);
    if (k == NULL) {
        systree_list_free(&l);
        return -1;
    }
    s->kids = k;
    k[s->nkids].rank = kid_rank;
    memset(&k[s->nkids].map, 0, sizeof k[s->nkids].map);
    return systree_list_merge(&s->list, &l, &k[s->nkids++].map);
}

static int merge_round(systree_comm *f, systree_mstate *st, uint64_t d, systree_msg *send,
                       systree_msg *recv, systree_buf *scratch)
{
    size_t nsend = 0, nrecv = 0, n = systree_comm_nlocal(f);
    for (size_t m = 0; m < n; m++) { /* roles first, then the work with reads ahead */
        int r = systree_comm_rank(f, m), x = role(r, systree_comm_size(f, m), d);
        if (x == 1)
            send[nsend++] = (systree_msg){m, r - (int)d, NULL, 0};
        else if (x == 2)
            recv[nrecv++] = (systree_msg){m, r + (int)d, NULL, 0};
    }
    int rc = merge_sends(st, send, nsend, scratch);
    if (rc == 0)
        rc = systree_comm_exchange(f, send, nsend, recv, nrecv); /* takes the sends over */
    else
        free_msgs(send, nsend);
    for (size_t i = 0; i < nrecv && rc == 0; i++) {
        fetch_lists(st, recv, i, nrecv);
        if (i + AHEAD < nrecv) {
            __builtin_prefetch(recv[i + AHEAD].data);
            __builtin_prefetch(st[recv[i + AHEAD].member].kids);
        }
        rc = merge_received(&st[recv[i].member], &recv[i], recv[i].peer);
    }
    free_msgs(recv, nrecv);
    return rc;
}

/* Messages of one round at most: in each group of size s, ceil(s / 2) send and as many
 * receive. */
static size_t max_messages(const systree_comm *f)
{
    return (systree_comm_nlocal(f) + systree_comm_ngroups(f)) / 2 + 1;
}

int systree_merge_family(systree_comm *f, systree_mstate *st)
{
    size_t n = max_messages(f);
    unsigned rounds = systree_ceil_log2(systree_max_group(f));
    systree_msg *send = malloc(n * sizeof *send);
    systree_msg *recv = calloc(n, sizeof *recv);
    systree_buf scratch = {0};
    int rc = send && recv ? 0 : -1;
    for (unsigned k = 0; k < rounds && rc == 0; k++)
        rc = merge_round(f, st, 1ull << k, send, recv, &scratch);
    systree_buf_free(&scratch);
    free(send);
    free(recv);
    return rc;
}

/* ---- positions on the way down ---- */

static systree_count kid_position(const systree_mstate *s, const systree_map *map, uint32_t i)
{
    systree_count p = s->pos[map->e[i].target];
    for (int k = 0; k < SYSTREE_NKINDS; k++)
        p.k[k] += map->e[i].offset * s->info[map->e[i].target].size.k[k];
    return p;
}

static int down_payload(const systree_mstate *s, int kid_rank, systree_buf *b)
{
    for (uint32_t i = 0; i < s->nkids; i++) {
        if (s->kids[i].rank != kid_rank)
            continue;
        systree_put_uv(b, s->kids[i].map.n);
        for (uint32_t j = 0; j < s->kids[i].map.n; j++) {
            systree_count p = kid_position(s, &s->kids[i].map, j);
            for (int k = 0; k < SYSTREE_NKINDS; k++)
                systree_put_uv(b, p.k[k]);
        }
        return b->failed ? -1 : 0;
    }
    return -1;
}

static int read_positions(systree_mstate *s, const systree_msg *msg)
{
    systree_reader rd;
    systree_reader_init(&rd, msg->data, msg->len);
    if (systree_get_uv(&rd) != s->nrec)
        return -1;
    s->pos = malloc((s->nrec ? s->nrec : 1) * sizeof *s->pos);
    if (s->pos == NULL)
        return -1;
    for (uint32_t j = 0; j < s->nrec; j++)
        for (int k = 0; k < SYSTREE_NKINDS; k++)
            s->pos[j].k[k] = systree_get_uv(&rd);
    return rd.failed ? -1 : 0;
}

static void fetch_ahead(const systree_mstate *st, const systree_msg *send, size_t j, size_t n)
{
    if (j + AHEAD < n) {
        const systree_mstate *s = &st[send[j + AHEAD].member];
        __builtin_prefetch(s->kids);
        __builtin_prefetch(s->pos);
        __builtin_prefetch(s->info);
    }
    if (j + AHEAD / 2 < n) { /* its kids arrived by now: the map of the one sent to */
        const systree_mstate *s = &st[send[j + AHEAD / 2].member];
        for (uint32_t i = 0; i < s->nkids; i++)
            if (s->kids[i].rank == send[j + AHEAD / 2].peer)
                __builtin_prefetch(s->kids[i].map.e);
    }
}

static int down_round(systree_comm *f, systree_mstate *st, uint64_t d, systree_msg *send,
                      systree_msg *recv, systree_buf *scratch)
{
    size_t nsend = 0, nrecv = 0, n = systree_comm_nlocal(f);
    int rc = 0;
    for (size_t m = 0; m < n; m++) { /* roles first, then the payloads with reads ahead */
        int r = systree_comm_rank(f, m), x = role(r, systree_comm_size(f, m), d);
        if (x == 1)
            recv[nrecv++] = (systree_msg){m, r - (int)d, NULL, 0};
        else if (x == 2)
            send[nsend++] = (systree_msg){m, r + (int)d, NULL, 0};
    }
    for (size_t j = 0; j < nsend && rc == 0; j++) { /* after an error: data NULL from there */
        fetch_ahead(st, send, j, nsend);
        systree_msg *s = &send[j];
        rc = st[s->member].pos ? down_payload(&st[s->member], s->peer, scratch) : -1;
        if (rc == 0)
            rc = (s->data = systree_buf_take(scratch, &s->len)) ? 0 : -1;
    }
    if (rc == 0)
        rc = systree_comm_exchange(f, send, nsend, recv, nrecv); /* takes the sends over */
    else
        free_msgs(send, nsend);
    for (size_t i = 0; i < nrecv && rc == 0; i++)
        rc = read_positions(&st[recv[i].member], &recv[i]);
    free_msgs(recv, nrecv);
    return rc;
}

int systree_pass_down(systree_comm *f, systree_mstate *st)
{
    size_t n = max_messages(f);
    unsigned rounds = systree_ceil_log2(systree_max_group(f));
    systree_msg *send = malloc(n * sizeof *send);
    systree_msg *recv = calloc(n, sizeof *recv);
    systree_buf scratch = {0};
    int rc = send && recv ? 0 : -1;
    for (unsigned k = rounds; k-- > 0 && rc == 0;)
        rc = down_round(f, st, 1ull << k, send, recv, &scratch);
    systree_buf_free(&scratch);
    free(send);
    free(recv);
    return rc;
}
