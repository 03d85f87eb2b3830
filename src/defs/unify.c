/* SPDX-License-Identifier: BSD-3-Clause */
/* unify.c: merges all processes' definitions (see unify.h). Definitions travel as blobs;
 * equal blobs are the same definition, except communicators and windows, whose identity is
 * their key (the first 8 bytes of the blob). References between definitions (a
 * communicator's parent, a window's communicator) travel as keys, not ids. Their name
 * follows the key; members that disagree on it (MPI_Comm_set_name called by some only, or
 * with different names) resolve alike on every merge order: a non-empty name beats the
 * empty one, and of two non-empty names the one first in byte order wins. */
#include "defs/unify.h"
#include "defs/hash_index.h"
#include "base/ser.h"
#include "ipc/ipc.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    ser_buf data;
    size_t *off;
    uint32_t *len;
    uint32_t n, cap;
    int kind;
    hash_index index;
} blob_table;

enum { TAG_SIZE = 7101, TAG_DATA = 7102 };

static size_t identity_len(int kind, uint32_t len)
{
    return (kind == U_COMM || kind == U_WIN) && len >= 8 ? 8 : len;
}

static uint64_t blob_hash(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static uint64_t entry_hash(void *ctx, uint32_t id)
{
    blob_table *t = ctx;
    return blob_hash(t->data.data + t->off[id], identity_len(t->kind, t->len[id]));
}

typedef struct {
    blob_table *t;
    const unsigned char *p;
    size_t il;
} blob_key;

static int entry_equal(void *ctx, uint32_t id)
{
    blob_key *k = ctx;
    return identity_len(k->t->kind, k->t->len[id]) == k->il &&
           memcmp(k->t->data.data + k->t->off[id], k->p, k->il) == 0;
}

/* The name of a communicator or window blob (after its key); NULL for a malformed one. */
static const unsigned char *blob_name(const unsigned char *p, uint32_t len, uint32_t *n)
{
    if (len < 12)
        return NULL;
    memcpy(n, p + 8, sizeof *n);
    return *n == UINT32_MAX ? (*n = 0, p + 12) : *n <= len - 12 ? p + 12 : NULL;
}

/* Does blob p name the definition better than the one stored as id? (see the top) */
static int better_name(const blob_table *t, uint32_t id, const unsigned char *p, uint32_t len)
{
    uint32_t na = 0, nb = 0;
    const unsigned char *a = blob_name(p, len, &na);
    const unsigned char *b = blob_name(t->data.data + t->off[id], t->len[id], &nb);
    if (!a || !b || na == 0)
        return 0;
    if (nb == 0)
        return 1;
    int c = memcmp(a, b, na < nb ? na : nb);
    return c < 0 || (c == 0 && na < nb);
}

/* Stores blob p as entry id instead of the old one (whose bytes stay unused). */
static int table_replace(blob_table *t, uint32_t id, const unsigned char *p, uint32_t len)
{
    size_t off = t->data.len;
    ser_put(&t->data, p, len);
    if (t->data.failed)
        return -1;
    t->off[id] = off;
    t->len[id] = len;
    return 0;
}

/* Finds or appends a blob; returns its index or UINT32_MAX. With reconcile, a found
 * communicator or window takes the better of the two names. */
static uint32_t table_intern_r(blob_table *t, int kind, const unsigned char *p, uint32_t len,
                               int reconcile)
{
    t->kind = kind;
    if (hash_index_reserve(&t->index, t->n, entry_hash, t) != 0)
        return UINT32_MAX;
    blob_key key = {t, p, identity_len(kind, len)};
    uint32_t j, found = hash_index_find(&t->index, blob_hash(p, key.il), entry_equal, &key, &j);
    if (found != UINT32_MAX) {
        if (reconcile && (kind == U_COMM || kind == U_WIN) && better_name(t, found, p, len) &&
            table_replace(t, found, p, len) != 0)
            return UINT32_MAX;
        return found;
    }
    if (t->n == t->cap) {
        uint32_t c = t->cap ? t->cap * 2 : 256;
        size_t *o = realloc(t->off, c * sizeof *o);
        uint32_t *l = o ? realloc(t->len, c * sizeof *l) : NULL;
        if (o)
            t->off = o;
        if (!l)
            return UINT32_MAX;
        t->len = l;
        t->cap = c;
    }
    t->off[t->n] = t->data.len;
    t->len[t->n] = len;
    ser_put(&t->data, p, len);
    if (t->data.failed)
        return UINT32_MAX;
    hash_index_set(&t->index, j, t->n);
    return t->n++;
}

static uint32_t table_intern(blob_table *t, int kind, const unsigned char *p, uint32_t len)
{
    return table_intern_r(t, kind, p, len, 1);
}

static void table_free(blob_table *t)
{
    ser_free(&t->data);
    free(t->off);
    free(t->len);
    hash_index_free(&t->index);
}

/* ------------------------------------------------------- local definitions */
static void blob_region(ser_buf *b, uint32_t i)
{
    const scorep_region_def *r = scorep_defs_region_get(i);
    ser_str(b, r->name);
    ser_str(b, r->mangled);
    ser_str(b, r->file);
    ser_u32(b, (uint32_t)r->begin_line);
    ser_u32(b, (uint32_t)r->end_line);
    ser_u32(b, r->paradigm);
    ser_u32(b, r->role);
    ser_str(b, r->group);
}

static void blob_comm(ser_buf *b, uint32_t i)
{
    const scorep_comm_def *c = scorep_defs_comm_get(i);
    ser_u64(b, c->key);
    ser_str(b, c->name);
    ser_u32(b, c->size);
    ser_put(b, c->members, c->size * sizeof *c->members);
    ser_u32(b, c->size_b);
    ser_put(b, c->members_b, c->size_b * sizeof *c->members_b);
    ser_u64(b, c->parent_key);
    ser_u32(b, (uint32_t)c->is_inter);
}

/* the rank makes every process's handles its own; the file travels by name */
static void blob_io_handle(ser_buf *b, uint32_t i)
{
    const scorep_io_handle_def *h = scorep_defs_io_handle_get(i);
    ser_u32(b, (uint32_t)scorep_ipc_get()->rank());
    ser_str(b, h->name);
    ser_str(b, h->file == SCOREP_INVALID_ID ? NULL : scorep_defs_io_file_get(h->file)->name);
    ser_u32(b, h->paradigm);
    ser_u32(b, h->flags);
    ser_u32(b, h->access);
    ser_u64(b, h->comm == SCOREP_INVALID_ID ? UINT64_MAX : scorep_defs_comm_get(h->comm)->key);
}

static void blob_local(ser_buf *b, int kind, uint32_t i)
{
    switch (kind) {
    case U_STRING:
        ser_str(b, scorep_defs_string_get(i));
        break;
    case U_REGION:
        blob_region(b, i);
        break;
    case U_PARAM:
        ser_str(b, scorep_defs_parameter_get(i)->name);
        ser_u32(b, scorep_defs_parameter_get(i)->type);
        break;
    case U_METRIC: {
        const scorep_metric_def *m = scorep_defs_metric_get(i);
        ser_str(b, m->name);
        ser_str(b, m->unit);
        ser_u32(b, m->type);
        ser_u32(b, m->per_callpath);
        ser_str(b, m->description);
        ser_u32(b, m->source);
        ser_u32(b, m->mode);
        ser_u32(b, m->base);
        ser_u64(b, (uint64_t)m->exponent);
        ser_u32(b, m->recorder);
        ser_u32(b, m->per);
        break;
    }
    case U_COMM:
        blob_comm(b, i);
        break;
    case U_GROUP:
        ser_u32(b, scorep_defs_group_get(i)->size);
        ser_put(b, scorep_defs_group_get(i)->members,
                scorep_defs_group_get(i)->size * sizeof(uint32_t));
        break;
    case U_WIN: {
        const scorep_win_def *w = scorep_defs_win_get(i);
        ser_u64(b, w->key);
        ser_str(b, w->name);
        ser_u64(b, scorep_defs_comm_get(w->comm)->key);
        break;
    }
    case U_IOFILE:
        ser_str(b, scorep_defs_io_file_get(i)->name);
        break;
    case U_IOHANDLE:
        blob_io_handle(b, i);
        break;
    }
}

static uint32_t local_count(int kind)
{
    switch (kind) {
    case U_STRING:
        return scorep_defs_string_count();
    case U_REGION:
        return scorep_defs_region_count();
    case U_PARAM:
        return scorep_defs_parameter_count();
    case U_METRIC:
        return scorep_defs_metric_count();
    case U_COMM:
        return scorep_defs_comm_count();
    case U_GROUP:
        return scorep_defs_group_count();
    case U_IOFILE:
        return scorep_defs_io_file_count();
    case U_IOHANDLE:
        return scorep_defs_io_handle_count();
    default:
        return scorep_defs_win_count();
    }
}

/* Builds this process's tables; map[k][i] = index of local def i in table k. */
static int build_local(blob_table *t, scorep_unified *u)
{
    ser_buf tmp = {0};
    for (int k = 0; k < U_KINDS; k++) {
        uint32_t n = local_count(k);
        u->n_local[k] = n;
        u->map[k] = malloc((n ? n : 1) * sizeof(uint32_t));
        if (!u->map[k])
            return -1;
        for (uint32_t i = 0; i < n; i++) {
            tmp.len = 0;
            blob_local(&tmp, k, i);
            if (tmp.failed)
                return -1;
            u->map[k][i] = table_intern(&t[k], k, tmp.data, (uint32_t)tmp.len);
            if (u->map[k][i] == UINT32_MAX)
                return -1;
        }
    }
    ser_free(&tmp);
    return 0;
}

/* ----------------------------------------------------------------- exchange */
static void pack(const blob_table *t, ser_buf *out)
{
    for (int k = 0; k < U_KINDS; k++) {
        ser_u32(out, t[k].n);
        for (uint32_t i = 0; i < t[k].n; i++) {
            ser_u32(out, t[k].len[i]);
            ser_put(out, t[k].data.data + t[k].off[i], t[k].len[i]);
        }
    }
}

static int merge_packed(blob_table *t, const unsigned char *p, size_t len)
{
    ser_reader r = {p, p + len, 0};
    for (int k = 0; k < U_KINDS; k++) {
        uint32_t n = ser_get_u32(&r);
        for (uint32_t i = 0; i < n && !r.failed; i++) {
            uint32_t l = ser_get_u32(&r);
            const unsigned char *b = ser_get(&r, l);
            if (!b || table_intern(&t[k], k, b, l) == UINT32_MAX)
                return -1;
        }
    }
    return r.failed ? -1 : 0;
}

static int send_blob(const scorep_ipc *ipc, const ser_buf *b, int dest)
{
    uint64_t n = b->len;
    if (ipc->send(&n, sizeof n, dest, TAG_SIZE) != 0)
        return -1;
    return ipc->send(b->data, b->len, dest, TAG_DATA);
}

static int recv_and_merge(const scorep_ipc *ipc, blob_table *t, int source)
{
    uint64_t n = 0;
    if (ipc->recv(&n, sizeof n, source, TAG_SIZE) != 0)
        return -1;
    unsigned char *d = malloc(n ? n : 1);
    int rc = d && ipc->recv(d, n, source, TAG_DATA) == 0 ? merge_packed(t, d, n) : -1;
    free(d);
    return rc;
}

/* Binomial tree: in round k, ranks with bit k set hand their tables to rank - 2^k. */
static int tree_reduce(const scorep_ipc *ipc, blob_table *t)
{
    int rank = ipc->rank(), size = ipc->size(), rc = 0;
    for (int step = 1; step < size; step <<= 1) {
        if (rank & step) {
            ser_buf b = {0};
            pack(t, &b);
            rc = b.failed ? -1 : send_blob(ipc, &b, rank - step);
            ser_free(&b);
            break;
        }
        if (rank + step < size && recv_and_merge(ipc, t, rank + step) != 0)
            rc = -1;
    }
    return rc;
}

static int broadcast_global(const scorep_ipc *ipc, blob_table *t, blob_table *global)
{
    ser_buf b = {0};
    uint64_t n = 0;
    if (ipc->rank() == 0) {
        pack(t, &b);
        n = b.failed ? UINT64_MAX : b.len;
    }
    if (ipc->bcast(&n, sizeof n, 0) != 0 || n == UINT64_MAX)
        return -1;
    if (ipc->rank() != 0) {
        b.data = malloc(n ? n : 1);
        b.len = b.cap = n;
        if (!b.data)
            return -1; /* other ranks would hang in bcast; memory for this is tiny */
    }
    int rc = ipc->bcast(b.data, n, 0) == 0 ? merge_packed(global, b.data, n) : -1;
    ser_free(&b);
    return rc;
}

/* ------------------------------------------------------------------ decode */
/* The global id of a communicator key, by the global table's index (its identity is the
 * key's 8 bytes): references resolve in constant time however many communicators. */
static uint32_t comm_by_key(const blob_table *comms, uint64_t key)
{
    unsigned char k[sizeof key];
    memcpy(k, &key, sizeof key);
    blob_key bk = {(blob_table *)comms, k, sizeof key};
    uint32_t slot, id = comms->n ? hash_index_find(&comms->index, blob_hash(k, sizeof key),
                                                   entry_equal, &bk, &slot)
                                 : UINT32_MAX;
    return id == UINT32_MAX ? SCOREP_INVALID_ID : id;
}

/* n world ranks from the reader, malloc'ed; NULL on failure */
static uint32_t *get_members(ser_reader *r, uint32_t n)
{
    const void *p = ser_get(r, (size_t)n * sizeof(uint32_t));
    uint32_t *m = p ? malloc((n ? n : 1) * sizeof *m) : NULL;
    if (m)
        memcpy(m, p, (size_t)n * sizeof *m);
    return m;
}

/* the global file table while decoding (handles refer to files by name) */
static blob_table *decode_files;

static uint32_t file_by_name(const unsigned char *blob, uint32_t len)
{
    blob_key bk = {decode_files, blob, len};
    uint32_t slot, id = decode_files->n
                            ? hash_index_find(&decode_files->index, blob_hash(blob, len),
                                              entry_equal, &bk, &slot)
                            : UINT32_MAX;
    return id == UINT32_MAX ? SCOREP_INVALID_ID : id;
}

static int decode_one(scorep_unified *u, int k, uint32_t i, ser_reader *r, uint64_t *ref)
{
    switch (k) {
    case U_STRING:
        u->strings[i] = ser_get_str(r);
        break;
    case U_REGION: {
        scorep_region_def *d = &u->regions[i];
        d->name = ser_get_str(r);
        d->mangled = ser_get_str(r);
        d->file = ser_get_str(r);
        d->begin_line = (int)ser_get_u32(r);
        d->end_line = (int)ser_get_u32(r);
        d->paradigm = ser_get_u32(r);
        d->role = ser_get_u32(r);
        d->group = ser_get_str(r);
        break;
    }
    case U_PARAM:
        u->params[i].name = ser_get_str(r);
        u->params[i].type = ser_get_u32(r);
        break;
    case U_METRIC:
        u->metrics[i].name = ser_get_str(r);
        u->metrics[i].unit = ser_get_str(r);
        u->metrics[i].type = ser_get_u32(r);
        u->metrics[i].per_callpath = ser_get_u32(r);
        u->metrics[i].description = ser_get_str(r);
        u->metrics[i].source = ser_get_u32(r);
        u->metrics[i].mode = ser_get_u32(r);
        u->metrics[i].base = ser_get_u32(r);
        u->metrics[i].exponent = (int64_t)ser_get_u64(r);
        u->metrics[i].recorder = ser_get_u32(r);
        u->metrics[i].per = ser_get_u32(r);
        break;
    case U_COMM: {
        scorep_comm_def *c = &u->comms[i];
        c->key = ser_get_u64(r);
        c->name = ser_get_str(r);
        c->size = ser_get_u32(r);
        c->members = get_members(r, c->size);
        c->size_b = ser_get_u32(r);
        c->members_b = get_members(r, c->size_b);
        c->parent_key = *ref = ser_get_u64(r);
        c->is_inter = (int)ser_get_u32(r);
        return r->failed || !c->members || !c->members_b ? -1 : 0;
    }
    case U_GROUP:
        u->groups[i].size = ser_get_u32(r);
        u->groups[i].members = get_members(r, u->groups[i].size);
        return r->failed || !u->groups[i].members ? -1 : 0;
    case U_WIN:
        u->wins[i].key = ser_get_u64(r);
        u->wins[i].name = ser_get_str(r);
        *ref = ser_get_u64(r);
        break;
    case U_IOFILE:
        u->io_files[i].name = ser_get_str(r);
        break;
    case U_IOHANDLE: {
        scorep_io_handle_def *h = &u->io_handles[i];
        (void)ser_get_u32(r); /* rank */
        h->name = ser_get_str(r);
        h->file = SCOREP_INVALID_ID;
        char *file = ser_get_str(r); /* resolved in decode */
        h->paradigm = ser_get_u32(r);
        h->flags = ser_get_u32(r);
        h->access = ser_get_u32(r);
        *ref = ser_get_u64(r);
        h->comm = SCOREP_INVALID_ID;
        if (file) {
            ser_buf b = {0};
            ser_str(&b, file);
            free(file);
            h->file = b.failed ? SCOREP_INVALID_ID : file_by_name(b.data, (uint32_t)b.len);
            ser_free(&b);
            if (h->file == SCOREP_INVALID_ID)
                return -1;
        }
        break;
    }
    }
    return r->failed ? -1 : 0;
}

static int decode(scorep_unified *u, const blob_table *g)
{
    const size_t sizes[U_KINDS] = {sizeof(char *),
                                   sizeof(scorep_region_def),
                                   sizeof(scorep_parameter_def),
                                   sizeof(scorep_metric_def),
                                   sizeof(scorep_comm_def),
                                   sizeof(scorep_group_def),
                                   sizeof(scorep_win_def),
                                   sizeof(scorep_io_file_def),
                                   sizeof(scorep_io_handle_def)};
    void **arrays[U_KINDS] = {(void **)&u->strings, (void **)&u->regions,  (void **)&u->params,
                              (void **)&u->metrics, (void **)&u->comms,    (void **)&u->groups,
                              (void **)&u->wins,    (void **)&u->io_files, (void **)&u->io_handles};
    uint64_t *refs[U_KINDS] = {0};
    int rc = 0;
    decode_files = (blob_table *)&g[U_IOFILE];
    for (int k = 0; k < U_KINDS && rc == 0; k++) {
        u->n[k] = g[k].n;
        *arrays[k] = calloc(g[k].n ? g[k].n : 1, sizes[k]);
        refs[k] = calloc(g[k].n ? g[k].n : 1, sizeof(uint64_t));
        if (!*arrays[k] || !refs[k])
            rc = -1;
        for (uint32_t i = 0; i < g[k].n && rc == 0; i++) {
            ser_reader r = {g[k].data.data + g[k].off[i],
                            g[k].data.data + g[k].off[i] + g[k].len[i], 0};
            rc = decode_one(u, k, i, &r, &refs[k][i]);
        }
    }
    for (uint32_t i = 0; rc == 0 && i < u->n[U_COMM]; i++)
        u->comms[i].parent = refs[U_COMM][i] == UINT64_MAX
                                 ? SCOREP_INVALID_ID
                                 : comm_by_key(&g[U_COMM], refs[U_COMM][i]);
    for (uint32_t i = 0; rc == 0 && i < u->n[U_WIN]; i++)
        u->wins[i].comm = comm_by_key(&g[U_COMM], refs[U_WIN][i]);
    for (uint32_t i = 0; rc == 0 && i < u->n[U_IOHANDLE]; i++)
        if (refs[U_IOHANDLE][i] != UINT64_MAX)
            u->io_handles[i].comm = comm_by_key(&g[U_COMM], refs[U_IOHANDLE][i]);
    for (int k = 0; k < U_KINDS; k++)
        free(refs[k]);
    return rc;
}

/* local index in this process's table -> global id, by looking the blob up globally */
static int derive_maps(scorep_unified *u, blob_table *local, blob_table *global)
{
    for (int k = 0; k < U_KINDS; k++) {
        for (uint32_t i = 0; i < u->n_local[k]; i++) {
            uint32_t li = u->map[k][i];
            uint32_t gi = table_intern_r(&global[k], k, local[k].data.data + local[k].off[li],
                                         local[k].len[li], 0);
            if (gi == UINT32_MAX || gi >= u->n[k])
                return -1; /* every local definition must be in the global table */
            u->map[k][i] = gi;
        }
    }
    return 0;
}

int scorep_unify(scorep_unified *u)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    blob_table local[U_KINDS] = {0}, merged[U_KINDS] = {0}, global[U_KINDS] = {0};
    memset(u, 0, sizeof *u);
    int rc = build_local(local, u);
    for (int k = 0; rc == 0 && k < U_KINDS; k++) /* the tree merges into a copy */
        for (uint32_t i = 0; i < local[k].n && rc == 0; i++)
            rc = table_intern(&merged[k], k, local[k].data.data + local[k].off[i],
                              local[k].len[i]) == UINT32_MAX;
    uint64_t failed = rc != 0;
    if (tree_reduce(ipc, merged) != 0)
        failed = 1;
    if (broadcast_global(ipc, merged, global) != 0 || decode(u, global) != 0 ||
        derive_maps(u, local, global) != 0)
        failed = 1;
    ipc->allreduce_max_u64(&failed);
    for (int k = 0; k < U_KINDS; k++) {
        table_free(&local[k]);
        table_free(&merged[k]);
        table_free(&global[k]);
    }
    return failed ? -1 : 0;
}

void scorep_unified_free(scorep_unified *u)
{
    for (uint32_t i = 0; u->strings && i < u->n[U_STRING]; i++)
        free(u->strings[i]);
    for (uint32_t i = 0; u->regions && i < u->n[U_REGION]; i++) {
        free((char *)u->regions[i].name);
        free((char *)u->regions[i].mangled);
        free((char *)u->regions[i].file);
        free((char *)u->regions[i].group);
    }
    for (uint32_t i = 0; u->params && i < u->n[U_PARAM]; i++)
        free((char *)u->params[i].name);
    for (uint32_t i = 0; u->metrics && i < u->n[U_METRIC]; i++) {
        free((char *)u->metrics[i].name);
        free((char *)u->metrics[i].unit);
        free((char *)u->metrics[i].description);
    }
    for (uint32_t i = 0; u->comms && i < u->n[U_COMM]; i++) {
        free((char *)u->comms[i].name);
        free((uint32_t *)u->comms[i].members);
        free((uint32_t *)u->comms[i].members_b);
    }
    for (uint32_t i = 0; u->groups && i < u->n[U_GROUP]; i++)
        free((uint32_t *)u->groups[i].members);
    for (uint32_t i = 0; u->wins && i < u->n[U_WIN]; i++)
        free((char *)u->wins[i].name);
    for (uint32_t i = 0; u->io_files && i < u->n[U_IOFILE]; i++)
        free((char *)u->io_files[i].name);
    for (uint32_t i = 0; u->io_handles && i < u->n[U_IOHANDLE]; i++)
        free((char *)u->io_handles[i].name);
    free(u->io_files);
    free(u->io_handles);
    free(u->strings);
    free(u->regions);
    free(u->params);
    free(u->metrics);
    free(u->comms);
    free(u->groups);
    free(u->wins);
    for (int k = 0; k < U_KINDS; k++)
        free(u->map[k]);
    memset(u, 0, sizeof *u);
}

/* ------------------------------------------- rank-local pieces (rescue and recovery) */
int scorep_defs_pack_local(ser_buf *out)
{
    ser_buf tmp = {0};
    for (int k = 0; k < U_KINDS; k++) {
        uint32_t n = local_count(k);
        ser_u32(out, n);
        for (uint32_t i = 0; i < n; i++) {
            tmp.len = 0;
            blob_local(&tmp, k, i);
            ser_u32(out, (uint32_t)tmp.len);
            ser_put(out, tmp.data, tmp.len);
        }
    }
    uint32_t n = scorep_defs_region_count(); /* filtered regions are defined, never recorded */
    ser_u32(out, n);
    for (uint32_t i = 0; i < n; i++)
        ser_u32(out, scorep_defs_region_get(i)->filtered);
    int rc = out->failed || tmp.failed ? -1 : 0;
    ser_free(&tmp);
    return rc;
}

static uint32_t local_comm_by_key(uint64_t key)
{
    for (uint32_t i = 0, n = scorep_defs_comm_count(); i < n; i++)
        if (scorep_defs_comm_get(i)->key == key)
            return i;
    return SCOREP_INVALID_ID;
}

static uint32_t restore_io_handle(ser_reader *r)
{
    scorep_io_handle_def h = {0};
    (void)ser_get_u32(r); /* the rank that wrote it: the recovered rank's own */
    char *name = ser_get_str(r), *file = ser_get_str(r);
    h.name = name;
    h.file = file ? scorep_defs_io_file(file) : SCOREP_INVALID_ID;
    h.paradigm = ser_get_u32(r);
    h.flags = ser_get_u32(r);
    h.access = ser_get_u32(r);
    uint64_t comm = ser_get_u64(r);
    h.comm = comm == UINT64_MAX ? SCOREP_INVALID_ID : local_comm_by_key(comm);
    uint32_t id = r->failed || !name ? SCOREP_INVALID_ID : scorep_defs_io_handle(&h);
    free(name);
    free(file);
    return id;
}

/* Defines one blob of kind k in this process's tables; returns the id it got. */
static uint32_t restore_one(int k, ser_reader *r)
{
    char *s = NULL;
    scorep_region_def reg = {0};
    scorep_parameter_def par = {0};
    scorep_metric_def met = {0};
    scorep_comm_def comm = {0};
    scorep_group_def grp = {0};
    scorep_win_def win = {0};
    scorep_io_file_def file = {0};
    scorep_unified u = {.strings = &s,
                        .regions = &reg,
                        .params = &par,
                        .metrics = &met,
                        .comms = &comm,
                        .groups = &grp,
                        .wins = &win,
                        .io_files = &file};
    if (k == U_IOHANDLE)
        return restore_io_handle(r);
    uint64_t ref = UINT64_MAX;
    uint32_t id = SCOREP_INVALID_ID;
    if (decode_one(&u, k, 0, r, &ref) == 0) {
        switch (k) {
        case U_STRING:
            id = s ? scorep_defs_string(s) : SCOREP_INVALID_ID;
            break;
        case U_REGION:
            id = scorep_defs_region_grouped(reg.name, reg.mangled, reg.file, reg.begin_line,
                                            reg.end_line, reg.paradigm, reg.role, reg.group);
            break;
        case U_PARAM:
            id = scorep_defs_parameter(par.name, par.type);
            break;
        case U_METRIC:
            id = scorep_defs_metric_full(&met);
            break;
        case U_COMM:
            id = scorep_defs_comm(&comm);
            break;
        case U_GROUP:
            id = scorep_defs_group(grp.size, grp.members);
            break;
        case U_WIN:
            id = scorep_defs_win(win.key, win.name, local_comm_by_key(ref));
            break;
        case U_IOFILE:
            id = scorep_defs_io_file(file.name);
            break;
        }
    }
    /* the decoded copies (the tables made their own) */
    {
        free(s);
        free((char *)reg.name);
        free((char *)reg.mangled);
        free((char *)reg.file);
        free((char *)reg.group);
        free((char *)par.name);
        free((char *)met.name);
        free((char *)met.unit);
        free((char *)met.description);
        free((char *)comm.name);
        free((uint32_t *)comm.members);
        free((uint32_t *)comm.members_b);
        free((uint32_t *)grp.members);
        free((char *)win.name);
        free((char *)file.name);
    }
    return id;
}

int scorep_defs_restore_local(const unsigned char *p, size_t len)
{
    ser_reader r = {p, p + len, 0};
    for (int k = 0; k < U_KINDS; k++) {
        uint32_t n = ser_get_u32(&r);
        for (uint32_t i = 0; i < n && !r.failed; i++) {
            uint32_t l = ser_get_u32(&r);
            const unsigned char *b = ser_get(&r, l);
            if (!b)
                return -1;
            ser_reader one = {b, b + l, 0};
            if (restore_one(k, &one) != i)
                return -1; /* the tables were not empty, or the piece is damaged */
        }
    }
    uint32_t n = ser_get_u32(&r);
    for (uint32_t i = 0; i < n && !r.failed && i < scorep_defs_region_count(); i++)
        scorep_defs_region_set_filtered(i, ser_get_u32(&r) != 0);
    return r.failed ? -1 : 0;
}
