/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_comm_ipc.c: systree_comm.h over the ipc backend's send/recv (world ranks). Every
 * operation of a group goes through the group's rank 0: members send to it, it answers each
 * member. That is O(group size) work at rank 0 per step, fine for the few PEs of SHMEM runs
 * on one node, and deadlock-free with blocking sends (within one step a process only sends
 * then only receives, or the reverse). Part of libscorep-rt-shmem. */
#include "ipc/systree_comm_ipc.h"
#include "ipc/ipc.h"

#include <stdlib.h>
#include <string.h>

enum { TAG_SPLIT = 7501, TAG_XCHG = 7502, TAG_BCAST = 7503, TAG_MAX = 7504 };

typedef struct ipc_comm {
    systree_comm base;
    int in;            /* this process is in a group of the family */
    int rank, size;    /* in its group */
    uint32_t *members; /* world ranks, by group rank */
    uint64_t world;
} ipc_comm;

static const systree_comm_ops ipc_ops;

static ipc_comm *as_ipc(const systree_comm *c)
{
    return (ipc_comm *)c;
}

static size_t i_nlocal(const systree_comm *c)
{
    return as_ipc(c)->in != 0;
}

static size_t i_zero(const systree_comm *c, size_t m)
{
    (void)c;
    (void)m;
    return 0;
}

static int i_rank(const systree_comm *c, size_t m)
{
    (void)m;
    return as_ipc(c)->rank;
}

static int i_size(const systree_comm *c, size_t m)
{
    (void)m;
    return as_ipc(c)->size;
}

static uint64_t i_world(const systree_comm *c, size_t m)
{
    (void)m;
    return as_ipc(c)->world;
}

static void i_free(systree_comm *c)
{
    free(as_ipc(c)->members);
    free(c);
}

/* A family; members (taken over) NULL: not in a group. */
static ipc_comm *make(uint64_t world, uint32_t *members, int size)
{
    ipc_comm *c = calloc(1, sizeof *c);
    if (!c) {
        free(members);
        return NULL;
    }
    c->base.ops = &ipc_ops;
    c->world = world;
    c->members = members;
    c->in = members != NULL;
    c->size = members ? size : 0;
    for (int r = 0; members && r < size; r++)
        if (members[r] == (uint32_t)world)
            c->rank = r;
    return c;
}

static int to(const ipc_comm *c, int r, const void *buf, size_t len, int tag)
{
    return scorep_ipc_get()->send(buf, len, (int)c->members[r], tag);
}

static int from(const ipc_comm *c, int r, void *buf, size_t len, int tag)
{
    return scorep_ipc_get()->recv(buf, len, (int)c->members[r], tag);
}

/* A blob: its length, then its bytes (none for an empty one). */
static int blob_to(const ipc_comm *c, int r, const void *buf, uint64_t len, int tag)
{
    if (to(c, r, &len, sizeof len, tag) != 0)
        return -1;
    return len ? to(c, r, buf, len, tag) : 0;
}

static int blob_from(const ipc_comm *c, int r, void **buf, uint64_t *len, int tag)
{
    *buf = NULL;
    if (from(c, r, len, sizeof *len, tag) != 0 || !(*buf = malloc(*len ? *len : 1)))
        return -1;
    return *len ? from(c, r, *buf, *len, tag) : 0;
}

/* ------------------------------------------------------------------ split */
typedef struct {
    int64_t color;
    uint64_t key;
    int64_t rank;
} split_entry;

static int by_key(const void *a, const void *b)
{
    const split_entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Rank 0 of the group: the new group of member r as world ranks (count 0: none). */
static uint32_t *group_of(const ipc_comm *c, const split_entry *all, const split_entry *sorted,
                          int r, uint64_t *count)
{
    *count = 0;
    if (all[r].color < 0)
        return NULL;
    uint32_t *m = malloc((size_t)c->size * sizeof *m);
    for (int i = 0; m && i < c->size; i++)
        if (sorted[i].color == all[r].color)
            m[(*count)++] = c->members[sorted[i].rank];
    return m;
}

static int split_root(ipc_comm *c, split_entry mine, uint32_t **members, uint64_t *count)
{
    split_entry *all = malloc((size_t)c->size * sizeof *all);
    split_entry *sorted = malloc((size_t)c->size * sizeof *sorted);
    int rc = all && sorted ? 0 : -1;
    for (int r = 1; r < c->size; r++)
        if (from(c, r, all ? &all[r] : &mine, sizeof mine, TAG_SPLIT) != 0)
            rc = -1;
    if (rc == 0) {
        all[0] = mine;
        memcpy(sorted, all, (size_t)c->size * sizeof *sorted);
        qsort(sorted, (size_t)c->size, sizeof *sorted, by_key);
    }
    for (int r = 1; r < c->size; r++) {
        uint64_t n = 0;
        uint32_t *m = rc == 0 ? group_of(c, all, sorted, r, &n) : NULL;
        if (n && !m)
            rc = -1;
        if (blob_to(c, r, m, n * sizeof *m, TAG_SPLIT) != 0)
            rc = -1;
        free(m);
    }
    *members = rc == 0 ? group_of(c, all, sorted, 0, count) : NULL;
    free(all);
    free(sorted);
    return rc;
}

static int i_split(systree_comm *sc, const int64_t *color, const uint64_t *key, systree_comm **out)
{
    ipc_comm *c = as_ipc(sc), *t;
    *out = NULL;
    uint32_t *members = NULL;
    uint64_t count = 0;
    int rc = 0;
    if (!c->in || color[0] == SYSTREE_KEEP) {
        count = c->in ? (uint64_t)c->size : 0;
        members = count ? malloc(count * sizeof *members) : NULL;
        if (count && !members)
            return -1;
        if (count)
            memcpy(members, c->members, count * sizeof *members);
    } else {
        split_entry mine = {color[0] < 0 ? -1 : color[0], key ? key[0] : (uint64_t)c->rank,
                            c->rank};
        if (c->rank == 0) {
            rc = split_root(c, mine, &members, &count);
        } else {
            void *b = NULL;
            uint64_t len = 0;
            rc = to(c, 0, &mine, sizeof mine, TAG_SPLIT) == 0 &&
                         blob_from(c, 0, &b, &len, TAG_SPLIT) == 0
                     ? 0
                     : -1;
            members = b;
            count = len / sizeof *members;
        }
        if (count == 0) {
            free(members);
            members = NULL;
        }
    }
    t = rc == 0 ? make(c->world, members, (int)count) : NULL;
    if (rc != 0)
        free(members);
    *out = t ? &t->base : NULL;
    return t ? 0 : -1;
}

/* --------------------------------------------------------------- exchange */
/* Packed messages: per message (rank, length, bytes), rank being the peer when sent to rank
 * 0 and the sender when delivered. */
static void *pack(const systree_msg *m, size_t n, const int *rank, uint64_t *len)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += 16 + m[i].len;
    unsigned char *b = malloc(total ? total : 1), *p = b;
    for (size_t i = 0; b && i < n; i++) {
        uint64_t h[2] = {(uint64_t)(rank ? rank[i] : m[i].peer), m[i].len};
        memcpy(p, h, 16);
        memcpy(p + 16, m[i].data, m[i].len);
        p += 16 + m[i].len;
    }
    *len = total;
    return b;
}

/* Splits a packed blob into messages pointing into it; NULL on a malformed blob. */
static systree_msg *unpack(unsigned char *b, uint64_t len, size_t *n)
{
    size_t count = 0;
    for (uint64_t off = 0; off + 16 <= len;) {
        uint64_t h[2];
        memcpy(h, b + off, 16);
        off += 16 + h[1];
        count++;
    }
    systree_msg *m = malloc((count ? count : 1) * sizeof *m);
    uint64_t off = 0;
    for (size_t i = 0; m && i < count; i++) {
        uint64_t h[2];
        memcpy(h, b + off, 16);
        if (off + 16 + h[1] > len) {
            free(m);
            return NULL;
        }
        m[i] = (systree_msg){0, (int)h[0], b + off + 16, (size_t)h[1]};
        off += 16 + h[1];
    }
    *n = count;
    return m;
}

/* Rank 0: the messages for member d from all members' (msgs[r], nmsgs[r]), packed with
 * rank = sender; NULL without memory. */
static void *pack_for(const ipc_comm *c, systree_msg *const *msgs, const size_t *nmsgs, int d,
                      uint64_t *len)
{
    size_t n = 0;
    for (int r = 0; r < c->size; r++)
        for (size_t i = 0; i < nmsgs[r]; i++)
            n += msgs[r][i].peer == d;
    systree_msg *sel = malloc((n ? n : 1) * sizeof *sel);
    int *src = sel ? malloc((n ? n : 1) * sizeof *src) : NULL;
    n = 0;
    for (int r = 0; src && r < c->size; r++)
        for (size_t i = 0; i < nmsgs[r]; i++)
            if (msgs[r][i].peer == d) {
                sel[n] = msgs[r][i];
                src[n++] = r;
            }
    void *out = src ? pack(sel, n, src, len) : NULL;
    free(sel);
    free(src);
    return out;
}

/* Rank 0: receives every other member's packed messages into blobs[r], lens[r] (all of them,
 * even after an error, so that no member is left waiting). */
static int receive_all(const ipc_comm *c, unsigned char **blobs, uint64_t *lens)
{
    int rc = blobs && lens ? 0 : -1;
    for (int r = 1; r < c->size; r++) {
        void *b = NULL;
        uint64_t l = 0;
        if (blob_from(c, r, &b, &l, TAG_XCHG) != 0 || rc != 0) {
            rc = -1;
            free(b);
        } else {
            blobs[r] = b;
            lens[r] = l;
        }
    }
    return rc;
}

/* Rank 0: gathers every member's messages, delivers to each member those addressed to it;
 * its own delivery is returned in *mine. */
static int exchange_root(ipc_comm *c, unsigned char *own, uint64_t own_len, void **mine,
                         uint64_t *mine_len)
{
    unsigned char **blobs = calloc((size_t)c->size, sizeof *blobs);
    uint64_t *lens = calloc((size_t)c->size, sizeof *lens);
    systree_msg **msgs = calloc((size_t)c->size, sizeof *msgs);
    size_t *nmsgs = calloc((size_t)c->size, sizeof *nmsgs);
    int rc = receive_all(c, blobs, lens) == 0 && msgs && nmsgs ? 0 : -1;
    for (int r = 0; rc == 0 && r < c->size; r++) {
        msgs[r] = unpack(r ? blobs[r] : own, r ? lens[r] : own_len, &nmsgs[r]);
        rc = msgs[r] ? 0 : -1;
    }
    for (int d = 0; d < c->size; d++) {
        uint64_t len = 0;
        void *out = rc == 0 ? pack_for(c, msgs, nmsgs, d, &len) : NULL;
        if (!out)
            rc = -1;
        if (d == 0) {
            *mine = out;
            *mine_len = len;
        } else {
            if (blob_to(c, d, out, out ? len : 0, TAG_XCHG) != 0) /* empty after an error */
                rc = -1;
            free(out);
        }
    }
    for (int r = 0; blobs && r < c->size; r++)
        free(blobs[r]);
    for (int r = 0; msgs && r < c->size; r++)
        free(msgs[r]);
    free(blobs);
    free(lens);
    free(msgs);
    free(nmsgs);
    return rc;
}

/* Fills recv[] from the delivered messages: the i-th receive from a peer takes the i-th
 * message that peer sent. */
static int deliver(unsigned char *b, uint64_t len, systree_msg *recv, size_t nrecv)
{
    size_t n = 0;
    systree_msg *m = unpack(b, len, &n);
    char *used = m ? calloc(n ? n : 1, 1) : NULL;
    int rc = used ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nrecv; i++) {
        size_t k = 0;
        while (k < n && (used[k] || m[k].peer != recv[i].peer))
            k++;
        if (k == n || !(recv[i].data = malloc(m[k].len ? m[k].len : 1))) {
            rc = -1;
            break;
        }
        memcpy(recv[i].data, m[k].data, m[k].len);
        recv[i].len = m[k].len;
        used[k] = 1;
    }
    free(used);
    free(m);
    return rc;
}

static int i_exchange(systree_comm *sc, const systree_msg *send, size_t nsend, systree_msg *recv,
                      size_t nrecv)
{
    ipc_comm *c = as_ipc(sc);
    if (!c->in) {
        for (size_t i = 0; i < nsend; i++) /* the call took the send buffers over */
            free(send[i].data);
        return nsend || nrecv ? -1 : 0;
    }
    uint64_t len = 0, got_len = 0;
    unsigned char *mine = pack(send, nsend, NULL, &len);
    void *got = NULL;
    int rc;
    if (c->rank == 0)
        rc = mine ? exchange_root(c, mine, len, &got, &got_len) : -1;
    else
        rc = blob_to(c, 0, mine, mine ? len : 0, TAG_XCHG) == 0 &&
                     blob_from(c, 0, &got, &got_len, TAG_XCHG) == 0 && mine
                 ? 0
                 : -1;
    if (rc == 0)
        rc = deliver(got, got_len, recv, nrecv);
    free(mine);
    free(got);
    for (size_t i = 0; i < nsend; i++) /* the call took the send buffers over */
        free(send[i].data);
    return rc;
}

/* -------------------------------------------------------- bcast, allreduce */
static int i_bcast(systree_comm *sc, const char *active, const systree_blob *in, systree_blob *out)
{
    ipc_comm *c = as_ipc(sc);
    if (!c->in)
        return 0;
    out[0] = (systree_blob){NULL, 0};
    if (active && !active[0])
        return 0;
    if (c->rank != 0) {
        uint64_t len = 0;
        int rc = blob_from(c, 0, &out[0].data, &len, TAG_BCAST);
        out[0].len = (size_t)len;
        return rc;
    }
    int rc = (out[0].data = malloc(in[0].len ? in[0].len : 1)) ? 0 : -1;
    if (rc == 0) {
        memcpy(out[0].data, in[0].data, in[0].len);
        out[0].len = in[0].len;
    }
    for (int r = 1; r < c->size; r++)
        if (blob_to(c, r, in[0].data, in[0].len, TAG_BCAST) != 0)
            rc = -1;
    return rc;
}

static int i_allreduce_max(systree_comm *sc, const char *active, const uint64_t *in, size_t count,
                           uint64_t *out)
{
    ipc_comm *c = as_ipc(sc);
    if (!c->in || (active && !active[0]))
        return 0;
    size_t bytes = count * sizeof *in;
    if (c->rank != 0)
        return to(c, 0, in, bytes, TAG_MAX) == 0 && from(c, 0, out, bytes, TAG_MAX) == 0 ? 0 : -1;
    uint64_t *v = malloc(bytes ? bytes : 1);
    int rc = v ? 0 : -1;
    memcpy(out, in, bytes);
    for (int r = 1; r < c->size; r++) {
        if (from(c, r, v ? v : out, bytes, TAG_MAX) != 0)
            rc = -1;
        for (size_t j = 0; v && j < count; j++)
            if (v[j] > out[j])
                out[j] = v[j];
    }
    free(v);
    for (int r = 1; r < c->size; r++)
        if (to(c, r, out, bytes, TAG_MAX) != 0)
            rc = -1;
    return rc;
}

static const systree_comm_ops ipc_ops = {
    i_nlocal, i_nlocal, i_zero,     i_rank,  i_size,          i_world,
    i_zero,   i_split,  i_exchange, i_bcast, i_allreduce_max, i_free,
};

systree_comm *systree_comm_ipc_world(void)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    int size = ipc->size();
    uint32_t *members = malloc((size_t)size * sizeof *members);
    if (!members)
        return NULL;
    for (int r = 0; r < size; r++)
        members[r] = (uint32_t)r;
    ipc_comm *c = make((uint64_t)ipc->rank(), members, size);
    return c ? &c->base : NULL;
}
