/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_comm_sim.c: the simulated backend of systree_comm.h: every simulated rank lives in
 * this process, each call performs one step for all of them at once, and bytes and rounds on
 * the critical path are counted per rank. */
#include "systree/systree_comm.h"

#include <stdlib.h>
#include <string.h>

typedef struct sim_world {
    uint64_t n;
    uint64_t *bytes;       /* sent + received, per rank */
    uint64_t *split_bytes; /* the part spent in splits */
    uint32_t *clock;       /* communication steps this rank's state depends on */
    uint64_t messages, total, splits;
    int refs;
    /* exchange scratch, shared by every family of this world (one exchange at a time) and
     * kept between calls: megabytes allocated per call made glibc consolidate its free
     * lists of small chunks (millions of them) each time */
    int32_t *head;   /* per member: the last send to it, chained through next; -1: none */
    int32_t *next;   /* per send: the previous send to the same member, -1: none */
    size_t next_cap; /* sends next has room for */
} sim_world;

typedef struct sim_comm {
    systree_comm base;
    sim_world *w;
    size_t n, ngroups;
    uint32_t *world;  /* world rank per member; members ordered by group, then rank */
    uint32_t *group;  /* group per member */
    size_t *first;    /* first member of each group; first[ngroups] == n */
    uint32_t *parent; /* member index in the family this one was split from; NULL: none */
} sim_comm;

static const systree_comm_ops sim_ops;

static sim_comm *as_sim(const systree_comm *c)
{
    return (sim_comm *)c;
}

static unsigned ceil_log2(uint64_t s)
{
    unsigned l = 0;
    while ((1ull << l) < s)
        l++;
    return l;
}

/* ---- shape of a family ---- */

static size_t s_nlocal(const systree_comm *c)
{
    return as_sim(c)->n;
}

static size_t s_ngroups(const systree_comm *c)
{
    return as_sim(c)->ngroups;
}

static size_t s_group(const systree_comm *c, size_t m)
{
    return as_sim(c)->group[m];
}

static int s_rank(const systree_comm *c, size_t m)
{
    const sim_comm *s = as_sim(c);
    return (int)(m - s->first[s->group[m]]);
}

static int s_size(const systree_comm *c, size_t m)
{
    const sim_comm *s = as_sim(c);
    size_t g = s->group[m];
    return (int)(s->first[g + 1] - s->first[g]);
}

static uint64_t s_world(const systree_comm *c, size_t m)
{
    return as_sim(c)->world[m];
}

static size_t s_parent(const systree_comm *c, size_t m)
{
    const sim_comm *s = as_sim(c);
    return s->parent ? s->parent[m] : m;
}

static sim_comm *family_new(sim_world *w, size_t n, size_t ngroups)
{
    sim_comm *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->base.ops = &sim_ops;
    s->w = w;
    s->n = n;
    s->ngroups = ngroups;
    s->world = malloc((n ? n : 1) * sizeof *s->world);
    s->group = malloc((n ? n : 1) * sizeof *s->group);
    s->parent = malloc((n ? n : 1) * sizeof *s->parent);
    s->first = malloc((ngroups + 1) * sizeof *s->first);
    if (!s->world || !s->group || !s->parent || !s->first) {
        free(s->world);
        free(s->group);
        free(s->parent);
        free(s->first);
        free(s);
        return NULL;
    }
    w->refs++;
    return s;
}

static void world_unref(sim_world *w)
{
    if (--w->refs > 0)
        return;
    free(w->bytes);
    free(w->split_bytes);
    free(w->clock);
    free(w->head);
    free(w->next);
    free(w);
}

static void s_free(systree_comm *c)
{
    sim_comm *s = as_sim(c);
    free(s->world);
    free(s->group);
    free(s->first);
    free(s->parent);
    world_unref(s->w);
    free(s);
}

/* ---- cost accounting ---- */

/* Every member of group g waits for the slowest, then spends `rounds` steps. */
static void sync_group(sim_comm *s, size_t g, uint64_t rounds)
{
    uint32_t t = 0;
    for (size_t m = s->first[g]; m < s->first[g + 1]; m++)
        if (s->w->clock[s->world[m]] > t)
            t = s->w->clock[s->world[m]];
    for (size_t m = s->first[g]; m < s->first[g + 1]; m++)
        s->w->clock[s->world[m]] = t + (uint32_t)rounds;
}

static void charge(sim_comm *s, size_t m, uint64_t bytes, int in_split)
{
    s->w->bytes[s->world[m]] += bytes;
    if (in_split)
        s->w->split_bytes[s->world[m]] += bytes;
}

static void charge_split(sim_comm *s, size_t g)
{
    uint64_t size = s->first[g + 1] - s->first[g];
    uint64_t l = ceil_log2(size), rounds = l * (l + 1) / 2 + 2 * l;
    sync_group(s, g, rounds);
    for (size_t m = s->first[g]; m < s->first[g + 1]; m++)
        charge(s, m, 32 * rounds, 1);
}

/* ---- split ---- */

typedef struct entry {
    int64_t color;
    uint64_t key;
    uint32_t m;
} entry;

static int entry_cmp(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->color != y->color)
        return x->color < y->color ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->m > y->m) - (x->m < y->m);
}

/* Members next to each other with the same colour: a system tree's split puts whole nodes
 * (racks, ...) together, so there are far fewer runs than members. */
typedef struct run {
    int64_t color;
    uint32_t start, len;
} run;

static int run_cmp(const void *a, const void *b)
{
    const run *x = a, *y = b;
    if (x->color != y->color)
        return x->color < y->color ? -1 : 1;
    return (x->start > y->start) - (x->start < y->start);
}

/* Without keys, the entries of group [a, b) come in rank order, so their order by (colour,
 * rank) is that of their runs by (colour, first member): sorting the runs gives the same
 * entries as sorting them all, with far fewer items. *runs grows as needed. */
static int sort_by_runs(entry *e, size_t a, size_t b, run **runs, size_t *cap)
{
    size_t n = 0;
    for (size_t m = a; m < b; m++)
        n += m == a || e[m].color != e[m - 1].color;
    if (n == 1)
        return 0; /* one colour: in order already */
    if (n > *cap) {
        run *g = realloc(*runs, n * sizeof *g);
        if (g == NULL)
            return -1;
        *runs = g;
        *cap = n;
    }
    run *r = *runs;
    n = 0;
    for (size_t m = a; m < b; m++) {
        if (m == a || e[m].color != e[m - 1].color)
            r[n++] = (run){e[m].color, (uint32_t)m, 0};
        r[n - 1].len++;
    }
    qsort(r, n, sizeof *r, run_cmp);
    size_t k = a;
    for (size_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < r[i].len; j++) {
            uint32_t m = r[i].start + j;
            e[k++] = (entry){r[i].color, m - a, m}; /* the key: the rank in the group */
        }
    return 0;
}

/* Sorts each group's entries (by runs when there are no keys); -1 when KEEP is not used by
 * a whole group alike, or without memory. */
static int sort_groups(sim_comm *s, entry *e, int keyed)
{
    run *runs = NULL;
    size_t cap = 0;
    int rc = 0;
    for (size_t g = 0; g < s->ngroups && rc == 0; g++) {
        size_t a = s->first[g], b = s->first[g + 1];
        int keep = e[a].color == SYSTREE_KEEP;
        for (size_t m = a; m < b && rc == 0; m++)
            rc = (e[m].color == SYSTREE_KEEP) != keep ? -1 : 0;
        if (keep || rc != 0)
            continue;
        s->w->splits++;
        charge_split(s, g);
        if (b - a > 1 && keyed)
            qsort(e + a, b - a, sizeof *e, entry_cmp);
        else if (b - a > 1)
            rc = sort_by_runs(e, a, b, &runs, &cap);
    }
    free(runs);
    return rc;
}

/* The new family from sorted entries: a group per (old group, colour). */
static sim_comm *build_family(sim_comm *s, const entry *e)
{
    size_t n = 0, ng = 0;
    for (size_t m = 0; m < s->n; m++) {
        if (e[m].color == SYSTREE_UNDEFINED)
            continue;
        n++;
        ng += m == 0 || s->group[e[m].m] != s->group[e[m - 1].m] || e[m].color != e[m - 1].color ||
              e[m - 1].color == SYSTREE_UNDEFINED;
    }
    sim_comm *t = family_new(s->w, n, ng);
    if (t == NULL)
        return NULL;
    size_t k = 0, g = (size_t)-1;
    for (size_t m = 0; m < s->n; m++) {
        if (e[m].color == SYSTREE_UNDEFINED)
            continue;
        if (m == 0 || s->group[e[m].m] != s->group[e[m - 1].m] || e[m].color != e[m - 1].color ||
            e[m - 1].color == SYSTREE_UNDEFINED)
            t->first[++g] = k;
        t->world[k] = s->world[e[m].m];
        t->group[k] = (uint32_t)g;
        t->parent[k++] = e[m].m;
    }
    t->first[ng] = n;
    return t;
}

static int s_split(systree_comm *c, const int64_t *color, const uint64_t *key, systree_comm **out)
{
    sim_comm *s = as_sim(c);
    entry *e = malloc((s->n ? s->n : 1) * sizeof *e);
    if (e == NULL)
        return -1;
    for (size_t m = 0; m < s->n; m++) {
        e[m].color = color[m] < 0 && color[m] != SYSTREE_KEEP ? SYSTREE_UNDEFINED : color[m];
        e[m].key = key ? key[m] : (uint64_t)s_rank(c, m);
        e[m].m = (uint32_t)m;
    }
    sim_comm *t = sort_groups(s, e, key != NULL) == 0 ? build_family(s, e) : NULL;
    free(e);
    *out = t ? &t->base : NULL;
    return t ? 0 : -1;
}

/* ---- point-to-point ---- */

/* Room for nsend sends in the world's scratch; head covers every member of any family (at
 * most the world's ranks) and is all -1 between calls. */
static int scratch(sim_world *w, size_t nsend)
{
    if (w->head == NULL) {
        w->head = malloc(w->n * sizeof *w->head);
        if (w->head == NULL)
            return -1;
        memset(w->head, 0xff, w->n * sizeof *w->head);
    }
    if (nsend > w->next_cap) {
        size_t cap = nsend > 2 * w->next_cap ? nsend : 2 * w->next_cap;
        int32_t *next = realloc(w->next, cap * sizeof *next);
        if (next == NULL)
            return -1;
        w->next = next;
        w->next_cap = cap;
    }
    return 0;
}

static size_t dest(const sim_comm *s, const systree_msg *m)
{
    return s->first[s->group[m->member]] + (size_t)m->peer;
}

/* Chains the sends by destination (the latest first); *linked tells how many (to undo). */
static int link_sends(sim_comm *s, const systree_msg *send, size_t nsend, size_t *linked)
{
    int32_t *head = s->w->head, *next = s->w->next;
    for (size_t i = 0; i < nsend; i++) {
        size_t m = send[i].member;
        if (m >= s->n || send[i].peer < 0 || send[i].peer >= s_size(&s->base, m))
            return -1;
        size_t d = dest(s, &send[i]);
        next[i] = head[d];
        head[d] = (int32_t)i;
        *linked = i + 1;
    }
    return 0;
}

/* Hands the latest send from r's peer to r over: the receiver owns the sender's buffer, no
 * copy (the call took the send buffers over), and the send leaves its chain. */
static int deliver(sim_comm *s, const systree_msg *send, systree_msg *r)
{
    if (r->member >= s->n || r->peer < 0 || r->peer >= s_size(&s->base, r->member))
        return -1;
    size_t src = s->first[s->group[r->member]] + (size_t)r->peer;
    int32_t *link = &s->w->head[r->member], *next = s->w->next;
    while (*link >= 0 && send[*link].member != src)
        link = &next[*link];
    if (*link < 0)
        return -1;
    int32_t i = *link;
    *link = next[i];
    r->len = send[i].len;
    r->data = send[i].data;
    return 0;
}

/* A message is a step for both sides: it starts when both are ready and ends one step later. */
static void account(sim_comm *s, const systree_msg *send, size_t nsend)
{
    uint32_t *clock = s->w->clock;
    for (size_t i = 0; i < nsend; i++) {
        size_t d = dest(s, &send[i]);
        uint32_t *a = &clock[s->world[send[i].member]], *b = &clock[s->world[d]];
        *a = *b = (*a > *b ? *a : *b) + 1;
        charge(s, send[i].member, send[i].len, 0);
        charge(s, d, send[i].len, 0);
        s->w->messages++;
        s->w->total += send[i].len;
    }
}

static int s_exchange(systree_comm *c, const systree_msg *send, size_t nsend, systree_msg *recv,
                      size_t nrecv)
{
    sim_comm *s = as_sim(c);
    size_t linked = 0;
    int rc = nsend == nrecv && nsend <= INT32_MAX && scratch(s->w, nsend) == 0 ? 0 : -1;
    if (rc == 0)
        rc = link_sends(s, send, nsend, &linked);
    for (size_t i = 0; i < nrecv && rc == 0; i++)
        rc = deliver(s, send, &recv[i]);
    if (rc == 0)
        account(s, send, nsend);
    /* every send was handed over when all went well (the chains are empty then); after an
     * error the rest are freed here, as the call took them over */
    for (size_t i = 0; i < linked; i++) {
        int32_t *head = &s->w->head[dest(s, &send[i])];
        for (int32_t j = *head; j >= 0; j = s->w->next[j])
            free(send[j].data);
        *head = -1;
    }
    for (size_t i = linked; i < nsend; i++)
        free(send[i].data);
    return rc;
}

/* ---- collectives ---- */

/* Children of rank r in a binomial tree over size ranks rooted at 0. */
static uint64_t binomial_children(uint64_t r, uint64_t size)
{
    uint64_t n = 0;
    for (uint64_t d = 1; d < size && (r == 0 || d < (r & -r)); d <<= 1)
        n += r + d < size;
    return n;
}

static int s_bcast(systree_comm *c, const char *active, const systree_blob *in, systree_blob *out)
{
    sim_comm *s = as_sim(c);
    for (size_t g = 0; g < s->ngroups; g++) {
        if (active && !active[g]) {
            out[g] = (systree_blob){NULL, 0};
            continue;
        }
        size_t a = s->first[g], size = s->first[g + 1] - a, len = in[g].len;
        out[g].len = len;
        out[g].data = malloc(len ? len : 1);
        if (out[g].data == NULL)
            return -1;
        memcpy(out[g].data, in[g].data, len);
        sync_group(s, g, ceil_log2(size));
        for (size_t m = a; m < a + size; m++)
            charge(s, m, len * ((m > a) + binomial_children(m - a, size)), 0);
    }
    return 0;
}

static int s_allreduce_max(systree_comm *c, const char *active, const uint64_t *in, size_t count,
                           uint64_t *out)
{
    sim_comm *s = as_sim(c);
    for (size_t g = 0; g < s->ngroups; g++) {
        size_t a = s->first[g], b = s->first[g + 1];
        if (active && !active[g])
            continue;
        for (size_t j = 0; j < count; j++) {
            uint64_t v = 0;
            for (size_t m = a; m < b; m++)
                v = in[m * count + j] > v ? in[m * count + j] : v;
            out[g * count + j] = v;
        }
        uint64_t l = ceil_log2(b - a); /* recursive doubling */
        sync_group(s, g, l);
        for (size_t m = a; m < b; m++)
            charge(s, m, 16 * count * l, 0);
    }
    return 0;
}

static const systree_comm_ops sim_ops = {
    s_nlocal, s_ngroups, s_group,    s_rank,  s_size,          s_world,
    s_parent, s_split,   s_exchange, s_bcast, s_allreduce_max, s_free,
};

/* ---- the world and its counters ---- */

systree_comm *systree_comm_sim_world(uint64_t nranks)
{
    if (nranks == 0 || nranks > INT32_MAX)
        return NULL;
    sim_world *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->n = nranks;
    w->bytes = calloc(nranks, sizeof *w->bytes);
    w->split_bytes = calloc(nranks, sizeof *w->split_bytes);
    w->clock = calloc(nranks, sizeof *w->clock);
    sim_comm *s = w->bytes && w->split_bytes && w->clock ? family_new(w, nranks, 1) : NULL;
    if (s == NULL) {
        w->refs = 1;
        world_unref(w);
        return NULL;
    }
    for (uint64_t m = 0; m < nranks; m++) {
        s->world[m] = (uint32_t)m;
        s->group[m] = 0;
    }
    free(s->parent);
    s->parent = NULL;
    s->first[0] = 0;
    s->first[1] = nranks;
    return &s->base;
}

void systree_comm_sim_stats(const systree_comm *c, systree_sim_stats *out)
{
    const sim_world *w = as_sim(c)->w;
    memset(out, 0, sizeof *out);
    out->ranks = w->n;
    for (uint64_t r = 0; r < w->n; r++) {
        if (w->bytes[r] > out->max_bytes) {
            out->max_bytes = w->bytes[r];
            out->max_bytes_rank = r;
        }
        if (w->split_bytes[r] > out->max_split_bytes)
            out->max_split_bytes = w->split_bytes[r];
        if (w->clock[r] > out->rounds)
            out->rounds = w->clock[r];
    }
    out->messages = w->messages;
    out->total_bytes = w->total;
    out->splits = w->splits;
}

void systree_comm_sim_reset(systree_comm *c)
{
    sim_world *w = as_sim(c)->w;
    memset(w->bytes, 0, w->n * sizeof *w->bytes);
    memset(w->split_bytes, 0, w->n * sizeof *w->split_bytes);
    memset(w->clock, 0, w->n * sizeof *w->clock);
    w->messages = w->total = w->splits = 0;
}
