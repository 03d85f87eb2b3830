/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_engine.c: the distributed Cube engine of cube_engine.h: ownership of call paths by
 * the four enumerations, partial loading, and the request/response protocol in which a
 * process waiting for remote children keeps serving the requests of others (so that
 * chains of requests across processes cannot deadlock). */
#include "cube/cube_engine.h"
#include "cube/cube_enum.h"
#include "cube/cube_error.h"
#include "cube/cube_values.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_REQ = 1, TAG_RESP = 2, TAG_STOP = 3, TAG_AGREE = 4 };

/* a request: what the owner of cnode computes and sends back */
typedef struct {
    uint32_t id;
    int32_t metric, cnode;
    uint8_t view, per_location;
} request;

/* an awaited response: where its values go */
typedef struct {
    uint64_t *out;
    size_t n;
    bool done, used;
} pending;

struct cube_engine {
    cube_engine_comm comm;
    cube_reader *r;
    int *owner;        /* per cnode */
    bool *loaded;      /* per metric */
    uint64_t ***cache; /* [metric][cnode]: the derived view of an own cnode, or NULL */
    pending *wait;     /* indexed by request id */
    uint32_t n_wait, cap_wait;
    bool failed;         /* a partner was lost: every later call fails */
    bool *local_subtree; /* per cnode: it and all below it are owned here */
    int threads;         /* for local subtrees (cube_engine_set_threads) */
};

/* ------------------------------------------------------------ messages */
static int send_request(cube_engine *e, int dest, int metric, int cnode, cube_view view,
                        bool per_location, uint64_t *out)
{
    size_t n = per_location ? (size_t)e->r->n_locations : 1;
    if (e->n_wait == e->cap_wait) {
        uint32_t cap = e->cap_wait ? 2 * e->cap_wait : 64;
        pending *w = realloc(e->wait, cap * sizeof *w);
        if (w == NULL)
            return -1;
        memset(w + e->cap_wait, 0, (cap - e->cap_wait) * sizeof *w);
        e->wait = w;
        e->cap_wait = cap;
    }
    uint32_t id = e->n_wait++;
    e->wait[id] = (pending){out, n, false, true};
    request q = {id, metric, cnode, (uint8_t)view, per_location};
    return e->comm.send(e->comm.ctx, dest, TAG_REQ, &q, sizeof q);
}

static int serve_request(cube_engine *e, int source, const void *buf, size_t len);

/* Takes one message off the wire: a response is filed, a request served. */
static int progress(cube_engine *e)
{
    int source, tag;
    void *buf = NULL;
    size_t len = 0;
    if (e->failed || e->comm.recv(e->comm.ctx, &source, &tag, &buf, &len) != 0) {
        e->failed = true;
        return -1;
    }
    int rc = 0;
    if (tag == TAG_RESP && len >= sizeof(uint32_t)) {
        uint32_t id;
        memcpy(&id, buf, sizeof id);
        pending *w = id < e->n_wait ? &e->wait[id] : NULL;
        if (w == NULL || !w->used || w->done || len != sizeof id + w->n * sizeof(uint64_t) + 1) {
            rc = -1;
        } else {
            memcpy(w->out, (char *)buf + sizeof id, w->n * sizeof(uint64_t));
            w->done = true;
            rc = ((char *)buf)[len - 1] ? -1 : 0; /* the owner failed to compute */
        }
    } else if (tag == TAG_REQ) {
        rc = serve_request(e, source, buf, len);
    } else {
        rc = -1; /* a stop or anything else in the middle of a computation */
    }
    free(buf);
    if (rc != 0)
        e->failed = true;
    return rc;
}

/* Waits for the responses of requests [first, last), serving others meanwhile. */
static int await(cube_engine *e, uint32_t first, uint32_t last)
{
    for (uint32_t id = first; id < last; id++)
        while (!e->wait[id].done)
            if (progress(e) != 0)
                return -1;
    for (uint32_t id = first; id < last; id++)
        e->wait[id].used = false;
    while (e->n_wait > 0 && !e->wait[e->n_wait - 1].used) /* nothing later is outstanding */
        e->n_wait--;
    return 0;
}

/* ------------------------------------------------------------ computing */
static int row_of(cube_engine *e, int metric, int cnode, cube_view view, uint64_t *out);

static void stored_row(const cube_engine *e, int metric, int cnode, uint64_t *out)
{
    for (int l = 0; l < e->r->n_locations; l++)
        out[l] = cube_reader_value_bits(e->r, metric, cnode, l, CUBE_VIEW_STORED);
}

/* ---- threads: the children whose subtrees are wholly local need no message */
typedef struct {
    cube_engine *e;
    int metric;
    cube_view view;
    const int *kids;
    int n_kids, first, step; /* this thread's children: first, first + step, ... */
    uint64_t *rows;
    int rc;
} local_job;

static int local_row(cube_engine *e, int metric, int cnode, cube_view view, uint64_t *out);

static void *local_worker(void *arg)
{
    local_job *j = arg;
    size_t L = (size_t)j->e->r->n_locations;
    for (int i = j->first; i < j->n_kids && j->rc == 0; i += j->step)
        if (j->e->local_subtree[j->kids[i]])
            j->rc = local_row(j->e, j->metric, j->kids[i], j->view, j->rows + (size_t)i * L);
    return NULL;
}

/* Rows of the local children: those with a wholly local subtree by up to e->threads
 * threads (they touch only their own subtrees' cache entries), the others here. */
static int local_children(cube_engine *e, int metric, const int *kids, int n_kids, cube_view view,
                          uint64_t *rows)
{
    size_t L = (size_t)e->r->n_locations;
    int n_free = 0, rc = 0;
    for (int i = 0; i < n_kids; i++)
        n_free += e->local_subtree[kids[i]];
    int t = e->threads < n_free ? e->threads : n_free;
    local_job jobs[64];
    pthread_t tid[64];
    int started = 0;
    t = t > 64 ? 64 : t;
    for (int k = 0; k < t; k++)
        jobs[k] = (local_job){e, metric, view, kids, n_kids, k, t, rows, 0};
    for (int k = 1; k < t; k++) /* this thread is worker 0 */
        if (pthread_create(&tid[k], NULL, local_worker, &jobs[k]) == 0)
            started = k;
        else
            break;
    if (t > 0) {
        if (started < t - 1) { /* fewer threads than wanted: this one takes the rest */
            for (int k = started + 1; k < t; k++)
                local_worker(&jobs[k]);
        }
        local_worker(&jobs[0]);
    }
    for (int k = 1; k <= started; k++)
        pthread_join(tid[k], NULL);
    for (int k = 0; k < t; k++)
        rc = jobs[k].rc ? -1 : rc;
    for (int i = 0; rc == 0 && i < n_kids; i++)
        if (e->owner[kids[i]] == e->comm.rank && !e->local_subtree[kids[i]])
            rc = row_of(e, metric, kids[i], view, rows + (size_t)i * L);
    return rc;
}

/* The derived view of an own cnode: stored row combined with the children's rows (their
 * stored rows for own-minus-children, else their inclusive rows), remote ones requested
 * first, local ones computed meanwhile, all combined in document order. */
static int derive(cube_engine *e, int metric, int c, uint64_t *out)
{
    const cube_metric *m = &e->r->metrics[metric];
    const cube_tree *t = cube_reader_call_tree(e->r);
    bool subtract = m->kind == CUBE_INCLUSIVE && !cube_dtype_is_minmax(m->dtype);
    cube_view kid_view = subtract ? CUBE_VIEW_STORED : CUBE_VIEW_INCLUSIVE;
    int n_kids = t->child_off[c + 1] - t->child_off[c];
    const int *kids = t->children + t->child_off[c];
    size_t L = (size_t)e->r->n_locations;
    uint64_t *rows = malloc(((size_t)n_kids * L + 1) * sizeof *rows);
    if (rows == NULL)
        return -1;
    uint32_t first = e->n_wait;
    int rc = 0;
    for (int i = 0; rc == 0 && i < n_kids; i++)
        if (e->owner[kids[i]] != e->comm.rank)
            rc = send_request(e, e->owner[kids[i]], metric, kids[i], kid_view, true, rows + i * L);
    uint32_t last = e->n_wait;
    if (rc == 0)
        rc = local_children(e, metric, kids, n_kids, kid_view, rows);
    if (last > first && await(e, first, last) != 0)
        rc = -1;
    if (rc == 0) {
        stored_row(e, metric, c, out);
        for (int i = 0; i < n_kids; i++)
            for (size_t l = 0; l < L; l++)
                out[l] = cube_value_combine(m->dtype, out[l], rows[i * L + l], subtract);
    }
    free(rows);
    return rc;
}

/* The per-location row of an own cnode in a view; derived rows are cached. */
static int row_of(cube_engine *e, int metric, int cnode, cube_view view, uint64_t *out)
{
    const cube_metric *m = &e->r->metrics[metric];
    size_t L = (size_t)e->r->n_locations;
    if (cube_view_is_stored(m, view)) {
        stored_row(e, metric, cnode, out);
        return 0;
    }
    uint64_t **cache = e->cache[metric];
    if (cache[cnode] == NULL) {
        uint64_t *row = malloc((L + 1) * sizeof *row);
        if (row == NULL || derive(e, metric, cnode, row) != 0) {
            free(row);
            return -1;
        }
        cache[cnode] = row;
    }
    memcpy(out, cache[cnode], L * sizeof *out);
    return 0;
}

/* row_of for a wholly local subtree, without messages: safe in several threads at once for
 * disjoint subtrees (each writes only its own cache entries). */
static int local_row(cube_engine *e, int metric, int c, cube_view view, uint64_t *out)
{
    const cube_metric *m = &e->r->metrics[metric];
    size_t L = (size_t)e->r->n_locations;
    if (cube_view_is_stored(m, view)) {
        stored_row(e, metric, c, out);
        return 0;
    }
    if (e->cache[metric][c] == NULL) {
        const cube_tree *t = cube_reader_call_tree(e->r);
        bool subtract = m->kind == CUBE_INCLUSIVE && !cube_dtype_is_minmax(m->dtype);
        cube_view kid_view = subtract ? CUBE_VIEW_STORED : CUBE_VIEW_INCLUSIVE;
        uint64_t *row = malloc((L + 1) * sizeof *row), *kid = malloc((L + 1) * sizeof *kid);
        int rc = row && kid ? 0 : -1;
        if (rc == 0)
            stored_row(e, metric, c, row);
        for (int i = t->child_off[c]; rc == 0 && i < t->child_off[c + 1]; i++) {
            rc = local_row(e, metric, t->children[i], kid_view, kid);
            for (size_t l = 0; rc == 0 && l < L; l++)
                row[l] = cube_value_combine(m->dtype, row[l], kid[l], subtract);
        }
        free(kid);
        if (rc != 0) {
            free(row);
            return -1;
        }
        e->cache[metric][c] = row;
    }
    memcpy(out, e->cache[metric][c], L * sizeof *out);
    return 0;
}

static uint64_t aggregate(cube_dtype t, const uint64_t *row, size_t n)
{
    if (n == 0)
        return 0;
    uint64_t acc = cube_dtype_is_minmax(t) ? row[0] : 0;
    for (size_t l = cube_dtype_is_minmax(t) ? 1 : 0; l < n; l++)
        acc = cube_value_combine(t, acc, row[l], false);
    return acc;
}

/* The answer to a request, computed here (the owner). */
static int answer(cube_engine *e, int metric, int cnode, cube_view view, bool per_location,
                  uint64_t *out)
{
    size_t L = (size_t)e->r->n_locations;
    uint64_t *row = per_location ? out : malloc((L + 1) * sizeof *row);
    if (row == NULL)
        return -1;
    int rc = row_of(e, metric, cnode, view, row);
    if (!per_location) {
        out[0] = rc == 0 ? aggregate(e->r->metrics[metric].dtype, row, L) : 0;
        free(row);
    }
    return rc;
}

static bool request_ok(const cube_engine *e, int metric, int cnode, int view)
{
    return metric >= 0 && metric < e->r->n_metrics && e->loaded[metric] && cnode >= 0 &&
           cnode < e->r->n_cnodes && view >= CUBE_VIEW_STORED && view <= CUBE_VIEW_INCLUSIVE;
}

static int serve_request(cube_engine *e, int source, const void *buf, size_t len)
{
    request q;
    if (len != sizeof q)
        return -1;
    memcpy(&q, buf, sizeof q);
    size_t n = q.per_location ? (size_t)e->r->n_locations : 1;
    size_t bytes = n * sizeof(uint64_t);
    char *msg = calloc(1, sizeof q.id + bytes + 1);
    uint64_t *vals = calloc(n + 1, sizeof *vals);
    if (msg == NULL || vals == NULL) {
        free(msg);
        free(vals);
        return -1;
    }
    /* the response: id, values, and a failure byte (the asker must not wait forever) */
    bool ok = request_ok(e, q.metric, q.cnode, q.view) && e->owner[q.cnode] == e->comm.rank &&
              answer(e, q.metric, q.cnode, (cube_view)q.view, q.per_location, vals) == 0;
    memcpy(msg, &q.id, sizeof q.id);
    memcpy(msg + sizeof q.id, vals, bytes);
    msg[sizeof q.id + bytes] = !ok;
    int rc = e->comm.send(e->comm.ctx, source, TAG_RESP, msg, sizeof q.id + bytes + 1);
    free(msg);
    free(vals);
    return rc;
}

/* ------------------------------------------------------------ ownership */
/* Blocks of a sequence: position k of n goes to process k * size / n. */
static void blocks(const int *seq, int n, int size, int *owner)
{
    for (int k = 0; k < n; k++)
        owner[seq[k]] = (int)((int64_t)k * size / n);
}

/* Depth-first blocks of about n/size call paths; a block may take up to a quarter more to
 * finish the chain it is in (the seed's "leverage"): it ends where the next call path is
 * not a child of the previous one. */
static void deepest_chain(const cube_reader *r, const int *deep, int size, int *owner)
{
    int n = r->n_cnodes, target = n / size, lever = target / 4, rank = 0, in_block = 0;
    for (int k = 0; k < n; k++) {
        int c = deep[k];
        bool full = in_block >= target && rank < size - 1;
        bool chain_goes_on = k > 0 && r->cnodes[c].parent == deep[k - 1];
        /* the blocks left must each get at least one call path */
        bool must = n - k <= size - 1 - rank;
        if (full && (!chain_goes_on || in_block >= target + lever || must)) {
            rank++;
            in_block = 0;
        }
        owner[c] = rank;
        in_block++;
    }
}

static int assign(cube_engine *e, cube_enum_method how)
{
    int n = e->r->n_cnodes, size = e->comm.size;
    const cube_tree *t = cube_reader_call_tree(e->r);
    int *seq = malloc(((size_t)n + 1) * sizeof *seq);
    if (seq == NULL)
        return -1;
    int rc = 0;
    switch (how) {
    case CUBE_ENUM_PLAIN:
        rc = cube_tree_wide(t, seq);
        if (rc == 0)
            blocks(seq, n, size, e->owner);
        break;
    case CUBE_ENUM_ROUND_ROBIN:
        for (int c = 0; c < n; c++)
            e->owner[c] = c % size;
        break;
    case CUBE_ENUM_SHUFFLE: {
        uint64_t s = 0x9e3779b97f4a7c15ull; /* the same permutation on every process */
        for (int c = 0; c < n; c++)
            seq[c] = c;
        for (int c = n - 1; c > 0; c--) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            int j = (int)((s >> 33) % (uint64_t)(c + 1)), x = seq[c];
            seq[c] = seq[j];
            seq[j] = x;
        }
        blocks(seq, n, size, e->owner);
        break;
    }
    default:
        rc = cube_tree_deep(t, seq);
        if (rc == 0)
            deepest_chain(e->r, seq, size, e->owner);
    }
    free(seq);
    return rc;
}

const char *cube_enum_method_name(cube_enum_method how)
{
    static const char *const names[] = {"deepest-chain", "plain", "round-robin", "shuffle"};
    return how <= CUBE_ENUM_SHUFFLE ? names[how] : "?";
}

int cube_enum_method_parse(const char *name)
{
    for (int k = 0; k <= CUBE_ENUM_SHUFFLE; k++)
        if (name && strcmp(name, cube_enum_method_name((cube_enum_method)k)) == 0)
            return k;
    return -1;
}

/* ------------------------------------------------------------ open and close */
/* Every process learns whether all succeeded, and rank 0's message if one did not. */
static int agree(const cube_engine_comm *c, int rc, char *err, size_t errlen)
{
    char msg[256] = "";
    if (rc != 0)
        snprintf(msg, sizeof msg, "rank %d: %s", c->rank, err && errlen ? err : "failed");
    if (c->rank != 0) {
        void *buf = NULL;
        size_t len = 0;
        int src, tag;
        if (c->send(c->ctx, 0, TAG_AGREE, msg, strlen(msg) + 1) != 0 ||
            c->recv(c->ctx, &src, &tag, &buf, &len) != 0 || tag != TAG_AGREE || len == 0) {
            free(buf);
            cube_set_err(err, errlen, "lost contact with rank 0");
            return -1;
        }
        ((char *)buf)[len - 1] = '\0';
        if (((char *)buf)[0])
            cube_set_err(err, errlen, "%s", (char *)buf);
        rc = ((char *)buf)[0] ? -1 : 0;
        free(buf);
        return rc;
    }
    char first[256];
    snprintf(first, sizeof first, "%s", msg);
    for (int k = 1; k < c->size; k++) {
        void *buf = NULL;
        size_t len = 0;
        int src, tag;
        if (c->recv(c->ctx, &src, &tag, &buf, &len) != 0 || tag != TAG_AGREE || len == 0) {
            free(buf);
            snprintf(first, sizeof first, "lost contact with a rank while opening");
            continue;
        }
        ((char *)buf)[len - 1] = '\0';
        if (!first[0] && ((char *)buf)[0])
            snprintf(first, sizeof first, "%s", (char *)buf);
        free(buf);
    }
    for (int k = 1; k < c->size; k++)
        c->send(c->ctx, k, TAG_AGREE, first, strlen(first) + 1);
    if (first[0])
        cube_set_err(err, errlen, "%s", first);
    return first[0] ? -1 : 0;
}

static void engine_free(cube_engine *e)
{
    if (e == NULL)
        return;
    for (int m = 0; e->cache && e->r && m < e->r->n_metrics; m++) {
        for (int c = 0; e->cache[m] && c < e->r->n_cnodes; c++)
            free(e->cache[m][c]);
        free(e->cache[m]);
    }
    free(e->cache);
    free(e->local_subtree);
    free(e->owner);
    free(e->loaded);
    free(e->wait);
    cube_reader_free(e->r);
    free(e);
}

static int select_metrics(cube_engine *e, const char *const *metrics, int n_metrics, char *err,
                          size_t errlen)
{
    for (int m = 0; m < e->r->n_metrics; m++)
        e->loaded[m] = metrics == NULL;
    for (int i = 0; metrics && i < n_metrics; i++) {
        int m = cube_reader_metric_by_name(e->r, metrics[i]);
        if (m < 0) {
            cube_set_err(err, errlen, "no metric '%s' in the profile", metrics[i]);
            return -1;
        }
        e->loaded[m] = true;
    }
    return 0;
}

static int setup(cube_engine *e, const char *path, cube_enum_method how, const char *const *metrics,
                 int n_metrics, char *err, size_t errlen)
{
    e->r = cube_reader_open_defs(path, err, errlen);
    if (e->r == NULL)
        return -1;
    int n = e->r->n_cnodes, nm = e->r->n_metrics;
    if (e->comm.size > n) {
        cube_set_err(err, errlen, "%d processes but only %d call paths: use at most %d", e->comm.size, n,
                n);
        return -1;
    }
    e->owner = malloc(((size_t)n + 1) * sizeof *e->owner);
    e->loaded = calloc((size_t)nm + 1, sizeof *e->loaded);
    e->cache = calloc((size_t)nm + 1, sizeof *e->cache);
    bool *mine = calloc((size_t)n + 1, sizeof *mine);
    int rc = e->owner && e->loaded && e->cache && mine ? 0 : -1;
    if (rc != 0)
        cube_set_err(err, errlen, "out of memory");
    if (rc == 0)
        rc = select_metrics(e, metrics, n_metrics, err, errlen);
    if (rc == 0 && assign(e, how) != 0) {
        cube_set_err(err, errlen, "the call tree has a cycle");
        rc = -1;
    }
    for (int m = 0; rc == 0 && m < nm; m++)
        if (e->loaded[m] && (e->cache[m] = calloc((size_t)n + 1, sizeof **e->cache)) == NULL)
            rc = -1;
    for (int c = 0; rc == 0 && c < n; c++)
        mine[c] = e->owner[c] == e->comm.rank;
    /* wholly local subtrees: reverse depth-first order sees the children first */
    const cube_tree *t = cube_reader_call_tree(e->r);
    int *deep = rc == 0 ? malloc(((size_t)n + 1) * sizeof *deep) : NULL;
    e->local_subtree = rc == 0 ? calloc((size_t)n + 1, sizeof *e->local_subtree) : NULL;
    if (rc == 0 && (!deep || !e->local_subtree || cube_tree_deep(t, deep) != 0))
        rc = -1;
    for (int k = n - 1; rc == 0 && k >= 0; k--) {
        int c = deep[k];
        bool all = mine[c];
        for (int i = t->child_off[c]; all && i < t->child_off[c + 1]; i++)
            all = e->local_subtree[t->children[i]];
        e->local_subtree[c] = all;
    }
    free(deep);
    if (rc == 0)
        rc = cube_reader_load_rows(e->r, e->loaded, e->comm.size > 1 ? mine : NULL, err, errlen);
    free(mine);
    return rc;
}

cube_engine *cube_engine_open(const char *path, const cube_engine_comm *comm, cube_enum_method how,
                              const char *const *metrics, int n_metrics, char *err, size_t errlen)
{
    cube_engine *e = comm ? calloc(1, sizeof *e) : NULL;
    if (e == NULL) {
        cube_set_err(err, errlen, "out of memory");
        return NULL;
    }
    e->comm = *comm;
    e->threads = 1;
    int rc = setup(e, path, how, metrics, n_metrics, err, errlen);
    if (agree(comm, rc, err, errlen) != 0) {
        engine_free(e);
        return NULL;
    }
    return e;
}

void cube_engine_set_threads(cube_engine *e, int n)
{
    e->threads = n < 1 ? 1 : n > 64 ? 64 : n;
}

const cube_reader *cube_engine_defs(const cube_engine *e)
{
    return e->r;
}

int cube_engine_owner(const cube_engine *e, int cnode)
{
    return cnode >= 0 && cnode < e->r->n_cnodes ? e->owner[cnode] : -1;
}

bool cube_engine_has_metric(const cube_engine *e, int metric)
{
    return metric >= 0 && metric < e->r->n_metrics && e->loaded[metric];
}

int cube_engine_value(cube_engine *e, int metric, int cnode, cube_view view, bool per_location,
                      uint64_t *out)
{
    if (e->failed || e->comm.rank != 0 || !request_ok(e, metric, cnode, (int)view))
        return -1;
    if (e->owner[cnode] == 0)
        return answer(e, metric, cnode, view, per_location, out);
    uint32_t first = e->n_wait;
    if (send_request(e, e->owner[cnode], metric, cnode, view, per_location, out) != 0)
        return -1;
    return await(e, first, e->n_wait);
}

/* CubeLib's exclusive value along the metric tree (Cube::get_sev_adv): the metric's value
 * minus its children's (a stored value holds the metric with its sub-metrics) */
int cube_engine_value_metric_exclusive(cube_engine *e, int metric, int cnode, cube_view view,
                                       bool per_location, uint64_t *out)
{
    if (cube_engine_value(e, metric, cnode, view, per_location, out) != 0)
        return -1;
    const cube_reader *r = e->r;
    cube_dtype t = r->metrics[metric].dtype;
    if (cube_dtype_is_minmax(t))
        return 0;
    size_t n = per_location ? (size_t)r->n_locations : 1;
    uint64_t *tmp = malloc((n + 1) * sizeof *tmp);
    int rc = tmp ? 0 : -1;
    for (int k = 0; rc == 0 && k < r->n_metrics; k++) {
        if (r->metrics[k].parent != metric || r->metrics[k].dtype != t)
            continue;
        if ((rc = cube_engine_value(e, k, cnode, view, per_location, tmp)) == 0)
            for (size_t i = 0; i < n; i++)
                out[i] = cube_value_combine(t, out[i], tmp[i], true);
    }
    free(tmp);
    return rc;
}

int cube_engine_serve(cube_engine *e)
{
    for (;;) {
        int source, tag;
        void *buf = NULL;
        size_t len = 0;
        if (e->comm.recv(e->comm.ctx, &source, &tag, &buf, &len) != 0)
            return -1;
        int rc = tag == TAG_REQ ? serve_request(e, source, buf, len) : tag == TAG_STOP ? 1 : -1;
        free(buf);
        if (rc != 0)
            return rc > 0 ? 0 : -1;
    }
}

void cube_engine_close(cube_engine *e)
{
    if (e == NULL)
        return;
    if (e->comm.rank == 0)
        for (int k = 1; k < e->comm.size; k++)
            e->comm.send(e->comm.ctx, k, TAG_STOP, "", 1);
    engine_free(e);
}

/* ------------------------------------------------------------ one process */
static int single_send(void *ctx, int dest, int tag, const void *buf, size_t len)
{
    (void)ctx, (void)dest, (void)tag, (void)buf, (void)len;
    return -1; /* nothing to talk to: every call path is local */
}

static int single_recv(void *ctx, int *source, int *tag, void **buf, size_t *len)
{
    (void)ctx, (void)source, (void)tag, (void)buf, (void)len;
    return -1;
}

void cube_engine_comm_single(cube_engine_comm *c)
{
    *c = (cube_engine_comm){0, 1, NULL, single_send, single_recv};
}
