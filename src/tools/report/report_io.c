/* SPDX-License-Identifier: BSD-3-Clause */
/* report_io.c: the "io" member of scorep-report's data: a per-file I/O summary read from the
 * trace's I/O records (what Darshan shows per file): one row per file and I/O paradigm with
 * bytes and operations read and written, flushes, failed operations, the access sizes in
 * Darshan's ten buckets, the time inside the operations and the ranks that touched it; and
 * the I/O bandwidth over time (bytes of the outermost operations spread evenly over their
 * duration, in 100 bins). Reads the archive itself with OTF2's reader (trace_model keeps no
 * I/O records). Without a trace: the same rows, without time and chart, from the
 * per-process summaries the runtime writes (io_summary.<rank>.tsv). */
#include "report.h"
#include "trace/otf2_read_guard.h"

#include <dirent.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

enum { BUCKETS = 10, BINS = 100 };
static const uint64_t bucket_top[BUCKETS - 1] = {100,     1024,     10240,     102400,    1048576,
                                                 4194304, 10485760, 104857600, 1073741824};

typedef struct {
    uint32_t file, paradigm; /* global definition ids (UINT32_MAX: no file) */
    uint64_t bytes[2], ops[2], flushes, failed, ticks;
    uint64_t hist[2][BUCKETS];
    unsigned char *ranks; /* one byte per rank */
} io_row;

typedef struct {
    uint32_t handle, mode, outer, issued; /* issued: a non-blocking operation under way */
    uint64_t matching, begin;
} pending;

typedef struct {
    uint64_t id;
    uint32_t rank;
    pending *stack;
    uint32_t depth, cap;
} loc;

typedef struct {
    char **strings;
    uint32_t n_strings;
    uint32_t *file_name; /* file id -> string id */
    uint32_t n_files;
    uint32_t *handle_file, *handle_paradigm, n_handles;
    uint32_t *paradigm_id; /* io paradigm -> identification string */
    uint32_t n_paradigms;
    uint64_t *group_ids; /* process location groups, in definition order */
    uint32_t n_groups;
    loc *locs;
    uint32_t n_locs;
    uint32_t *loc_group; /* per location: its group id (before ranks are known) */
    io_row *rows;
    uint32_t n_rows;
    uint64_t resolution, t0, length;
    double bins[2][BINS];
    int oom;
} io_ctx;

/* grows *p (n elements of size) to hold index i */
static int fit(io_ctx *c, void **p, uint32_t *n, uint32_t i, size_t size)
{
    if (i < *n)
        return 0;
    uint32_t m = i + 1 > *n * 2 ? i + 1 : *n * 2;
    char *q = realloc(*p, (size_t)m * size);
    if (!q) {
        c->oom = 1;
        return -1;
    }
    memset(q + (size_t)*n * size, 0xff, (size_t)(m - *n) * size);
    *p = q;
    *n = m;
    return 0;
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *s)
{
    io_ctx *c = u;
    uint32_t n = c->n_strings;
    if (fit(c, (void **)&c->strings, &n, self, sizeof(char *)) == 0) {
        for (uint32_t i = c->n_strings; i < n; i++)
            c->strings[i] = NULL;
        c->n_strings = n;
        c->strings[self] = strdup(s);
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_clock(void *u, uint64_t res, uint64_t offset, uint64_t length,
                                   uint64_t realtime)
{
    (void)realtime;
    io_ctx *c = u;
    c->resolution = res;
    c->t0 = offset;
    c->length = length;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                   OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                   OTF2_LocationGroupRef creator)
{
    (void)name, (void)parent, (void)creator;
    io_ctx *c = u;
    if (type != OTF2_LOCATION_GROUP_TYPE_PROCESS)
        return OTF2_CALLBACK_SUCCESS;
    uint64_t *g = realloc(c->group_ids, (c->n_groups + 1) * sizeof *g);
    if (!g) {
        c->oom = 1;
        return OTF2_CALLBACK_SUCCESS;
    }
    c->group_ids = g;
    g[c->n_groups++] = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef group)
{
    (void)name, (void)type, (void)events;
    io_ctx *c = u;
    loc *l = realloc(c->locs, (c->n_locs + 1) * sizeof *l);
    uint32_t *lg = l ? realloc(c->loc_group, (c->n_locs + 1) * sizeof *lg) : NULL;
    if (l)
        c->locs = l;
    if (!lg) {
        c->oom = 1;
        return OTF2_CALLBACK_SUCCESS;
    }
    c->loc_group = lg;
    l[c->n_locs] = (loc){self, 0, NULL, 0, 0};
    lg[c->n_locs++] = group;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_paradigm(void *u, OTF2_IoParadigmRef self, OTF2_StringRef ident,
                                      OTF2_StringRef name, OTF2_IoParadigmClass klass,
                                      OTF2_IoParadigmFlag flags, uint8_t n,
                                      const OTF2_IoParadigmProperty *p, const OTF2_Type *t,
                                      const OTF2_AttributeValue *v)
{
    (void)name, (void)klass, (void)flags, (void)n, (void)p, (void)t, (void)v;
    io_ctx *c = u;
    if (fit(c, (void **)&c->paradigm_id, &c->n_paradigms, self, sizeof(uint32_t)) == 0)
        c->paradigm_id[self] = ident;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_file(void *u, OTF2_IoFileRef self, OTF2_StringRef name,
                                  OTF2_SystemTreeNodeRef scope)
{
    (void)scope;
    io_ctx *c = u;
    if (fit(c, (void **)&c->file_name, &c->n_files, self, sizeof(uint32_t)) == 0)
        c->file_name[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_handle(void *u, OTF2_IoHandleRef self, OTF2_StringRef name,
                                    OTF2_IoFileRef file, OTF2_IoParadigmRef paradigm,
                                    OTF2_IoHandleFlag flags, OTF2_CommRef comm,
                                    OTF2_IoHandleRef parent)
{
    (void)name, (void)flags, (void)comm, (void)parent;
    io_ctx *c = u;
    uint32_t n = c->n_handles;
    if (fit(c, (void **)&c->handle_file, &n, self, sizeof(uint32_t)) == 0 &&
        fit(c, (void **)&c->handle_paradigm, &c->n_handles, self, sizeof(uint32_t)) == 0) {
        c->handle_file[self] = file;
        c->handle_paradigm[self] = paradigm;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static loc *find_loc(io_ctx *c, OTF2_LocationRef id)
{
    for (uint32_t i = 0; i < c->n_locs; i++) /* few locations per process; ordered reads */
        if (c->locs[i].id == id)
            return &c->locs[i];
    return NULL;
}

static io_row *row_of(io_ctx *c, uint32_t handle)
{
    if (handle >= c->n_handles)
        return NULL;
    uint32_t f = c->handle_file[handle], p = c->handle_paradigm[handle];
    for (uint32_t i = 0; i < c->n_rows; i++)
        if (c->rows[i].file == f && c->rows[i].paradigm == p)
            return &c->rows[i];
    io_row *r = realloc(c->rows, (c->n_rows + 1) * sizeof *r);
    unsigned char *ranks = calloc(c->n_groups ? c->n_groups : 1, 1);
    if (r)
        c->rows = r;
    if (!r || !ranks) {
        free(ranks);
        c->oom = 1;
        return NULL;
    }
    r = &c->rows[c->n_rows++];
    memset(r, 0, sizeof *r);
    r->file = f;
    r->paradigm = p;
    r->ranks = ranks;
    return r;
}

static uint32_t paradigm_of(const io_ctx *c, uint32_t handle)
{
    return handle < c->n_handles ? c->handle_paradigm[handle] : UINT32_MAX;
}

static OTF2_CallbackCode ev_begin(OTF2_LocationRef where, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *a, OTF2_IoHandleRef handle,
                                  OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags,
                                  uint64_t request, uint64_t matching)
{
    (void)pos;
    (void)a, (void)flags, (void)request;
    io_ctx *c = u;
    loc *l = find_loc(c, where);
    if (!l)
        return OTF2_CALLBACK_SUCCESS;
    if (l->depth == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 8;
        pending *s = realloc(l->stack, cap * sizeof *s);
        if (!s) {
            c->oom = 1;
            return OTF2_CALLBACK_SUCCESS;
        }
        l->stack = s;
        l->cap = cap;
    }
    /* outermost: no blocking operation of another I/O paradigm is in progress around it
     * (an MPI-IO write around its POSIX writes); issued non-blocking ones and those of the
     * same paradigm (lio_listio's list) run beside it */
    uint32_t outer = 1;
    for (uint32_t i = 0; i < l->depth; i++)
        outer &= l->stack[i].issued || paradigm_of(c, l->stack[i].handle) == paradigm_of(c, handle);
    l->stack[l->depth] = (pending){handle, mode, outer, 0, matching, t};
    l->depth++;
    return OTF2_CALLBACK_SUCCESS;
}

static int bucket(uint64_t b)
{
    int k = 0;
    while (k < BUCKETS - 1 && b >= bucket_top[k])
        k++;
    return k;
}

/* bytes spread evenly over [b, e] (ticks since the trace's start) into the bins */
static void spread(io_ctx *c, int w, uint64_t b, uint64_t e, uint64_t bytes)
{
    if (!c->length || !bytes)
        return;
    double width = (double)c->length / BINS, x0 = (double)b / width, x1 = (double)e / width;
    if (x1 >= BINS)
        x1 = BINS - 1e-9;
    if (x0 >= x1) {
        c->bins[w][(int)x1] += (double)bytes;
        return;
    }
    for (int k = (int)x0; k <= (int)x1; k++) {
        double lo = k > x0 ? k : x0, hi = k + 1 < x1 ? k + 1 : x1;
        c->bins[w][k] += (double)bytes * (hi - lo) / (x1 - x0);
    }
}

static OTF2_CallbackCode ev_complete(OTF2_LocationRef where, OTF2_TimeStamp t, uint64_t pos,
                                     void *u, OTF2_AttributeList *a, OTF2_IoHandleRef handle,
                                     uint64_t bytes, uint64_t matching)
{
    (void)pos;
    io_ctx *c = u;
    loc *l = find_loc(c, where);
    if (!l)
        return OTF2_CALLBACK_SUCCESS;
    uint32_t i = l->depth;
    while (i > 0 && !(l->stack[i - 1].matching == matching && l->stack[i - 1].handle == handle))
        i--;
    if (i == 0)
        return OTF2_CALLBACK_SUCCESS; /* a completion without its begin (cut trace) */
    pending p = l->stack[i - 1];
    memmove(&l->stack[i - 1], &l->stack[i], (l->depth - i) * sizeof *l->stack);
    l->depth--;
    io_row *r = row_of(c, handle);
    if (!r)
        return OTF2_CALLBACK_SUCCESS;
    r->ticks += t - p.begin;
    if (l->rank < c->n_groups)
        r->ranks[l->rank] = 1;
    /* undefined bytes: a failure (with the attribute io_error) or an operation of unknown
     * size (fscanf: without attributes) */
    if (bytes == OTF2_UNDEFINED_UINT64 && a && OTF2_AttributeList_GetNumberOfElements(a) > 0) {
        r->failed++;
        return OTF2_CALLBACK_SUCCESS;
    }
    if (p.mode == OTF2_IO_OPERATION_MODE_FLUSH) {
        r->flushes++;
        return OTF2_CALLBACK_SUCCESS;
    }
    int w = p.mode == OTF2_IO_OPERATION_MODE_WRITE;
    if (bytes == OTF2_UNDEFINED_UINT64) {
        r->ops[w]++;
        return OTF2_CALLBACK_SUCCESS;
    }
    r->bytes[w] += bytes;
    r->ops[w]++;
    r->hist[w][bucket(bytes)]++;
    if (p.outer)
        spread(c, w, p.begin - c->t0, t - c->t0, bytes);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_issued(OTF2_LocationRef where, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *a, OTF2_IoHandleRef handle,
                                   uint64_t matching)
{
    (void)pos;
    (void)t, (void)a;
    loc *l = find_loc(u, where);
    for (uint32_t i = l ? l->depth : 0; i > 0; i--)
        if (l->stack[i - 1].matching == matching && l->stack[i - 1].handle == handle) {
            l->stack[i - 1].issued = 1;
            break;
        }
    return OTF2_CALLBACK_SUCCESS;
}

/* a cancelled operation (aio_cancel) has no completion: it is no longer pending */
static OTF2_CallbackCode ev_cancelled(OTF2_LocationRef where, OTF2_TimeStamp t, uint64_t pos,
                                      void *u, OTF2_AttributeList *a, OTF2_IoHandleRef handle,
                                      uint64_t matching)
{
    (void)pos;
    (void)t, (void)a;
    loc *l = find_loc(u, where);
    if (!l)
        return OTF2_CALLBACK_SUCCESS;
    for (uint32_t i = l->depth; i > 0; i--)
        if (l->stack[i - 1].matching == matching && l->stack[i - 1].handle == handle) {
            memmove(&l->stack[i - 1], &l->stack[i], (l->depth - i) * sizeof *l->stack);
            l->depth--;
            break;
        }
    return OTF2_CALLBACK_SUCCESS;
}

static int read_io(OTF2_Reader *rd, io_ctx *c)
{
    OTF2_GlobalDefReader *g = OTF2_Reader_GetGlobalDefReader(rd);
    OTF2_GlobalDefReaderCallbacks *dc = OTF2_GlobalDefReaderCallbacks_New();
    if (!g || !dc) {
        OTF2_GlobalDefReaderCallbacks_Delete(dc);
        return -1;
    }
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(dc, def_string);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dc, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(dc, def_group);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dc, def_location);
    OTF2_GlobalDefReaderCallbacks_SetIoParadigmCallback(dc, def_paradigm);
    OTF2_GlobalDefReaderCallbacks_SetIoRegularFileCallback(dc, def_file);
    OTF2_GlobalDefReaderCallbacks_SetIoHandleCallback(dc, def_handle);
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, g, dc, c);
    uint64_t n;
    OTF2_ErrorCode rc = otf2_read_guard_global_defs(rd, g, &n);
    OTF2_GlobalDefReaderCallbacks_Delete(dc);
    OTF2_Reader_CloseGlobalDefReader(rd, g);
    if (rc != OTF2_SUCCESS || c->oom)
        return -1;
    if (c->n_handles == 0)
        return 0; /* no I/O recorded */
    for (uint32_t i = 0; i < c->n_locs; i++) {
        c->locs[i].rank = UINT32_MAX;
        for (uint32_t k = 0; k < c->n_groups; k++)
            if (c->group_ids[k] == c->loc_group[i])
                c->locs[i].rank = k;
        OTF2_Reader_SelectLocation(rd, c->locs[i].id);
    }
    if (OTF2_Reader_OpenDefFiles(rd) != OTF2_SUCCESS ||
        OTF2_Reader_OpenEvtFiles(rd) != OTF2_SUCCESS)
        return -1;
    OTF2_DefReaderCallbacks *lc = OTF2_DefReaderCallbacks_New();
    for (uint32_t i = 0; i < c->n_locs; i++) { /* the local definitions: mappings, offsets */
        OTF2_DefReader *d = OTF2_Reader_GetDefReader(rd, c->locs[i].id);
        if (d) {
            OTF2_Reader_RegisterDefCallbacks(rd, d, lc, NULL);
            otf2_read_guard_local_defs(rd, d, c->locs[i].id, &n);
            OTF2_Reader_CloseDefReader(rd, d);
        }
        OTF2_Reader_GetEvtReader(rd, c->locs[i].id);
    }
    OTF2_DefReaderCallbacks_Delete(lc);
    OTF2_Reader_CloseDefFiles(rd);
    /* location by location, each bounded by its file's intact chunks (otf2_read_guard.h);
     * the operations are matched per location, so no global order is needed */
    OTF2_EvtReaderCallbacks *ec = OTF2_EvtReaderCallbacks_New();
    if (!ec)
        return -1;
    OTF2_EvtReaderCallbacks_SetIoOperationBeginCallback(ec, ev_begin);
    OTF2_EvtReaderCallbacks_SetIoOperationCompleteCallback(ec, ev_complete);
    OTF2_EvtReaderCallbacks_SetIoOperationCancelledCallback(ec, ev_cancelled);
    OTF2_EvtReaderCallbacks_SetIoOperationIssuedCallback(ec, ev_issued);
    for (uint32_t i = 0; rc == OTF2_SUCCESS && !c->oom && i < c->n_locs; i++) {
        OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, c->locs[i].id);
        if (!er) {
            rc = OTF2_ERROR_INVALID_ARGUMENT;
            break;
        }
        OTF2_Reader_RegisterEvtCallbacks(rd, er, ec, c);
        rc = otf2_read_guard_events(rd, er, c->locs[i].id, &n);
        OTF2_Reader_CloseEvtReader(rd, er);
        if (rc != OTF2_SUCCESS && rc != OTF2_ERROR_INTERRUPTED_BY_CALLBACK) {
            rc = OTF2_SUCCESS; /* noted as the file's damage: its operations before it count */
            otf2_read_guard_clear();
        }
    }
    OTF2_EvtReaderCallbacks_Delete(ec);
    OTF2_Reader_CloseEvtFiles(rd);
    return rc == OTF2_SUCCESS && !c->oom ? 0 : -1;
}

static const char *str(const io_ctx *c, uint32_t id, const char *none)
{
    return id < c->n_strings && c->strings[id] ? c->strings[id] : none;
}

static void write_row(FILE *out, const io_ctx *c, const io_row *r, bool first)
{
    if (!first)
        fputc(',', out);
    fputc('{', out);
    json_member(out, "file",
                r->file < c->n_files ? str(c, c->file_name[r->file], "?") : "(no file)", true);
    json_member(out, "paradigm",
                r->paradigm < c->n_paradigms ? str(c, c->paradigm_id[r->paradigm], "?") : "?",
                false);
    const char *keys[] = {"read_bytes", "write_bytes", "read_ops", "write_ops"};
    uint64_t v[] = {r->bytes[0], r->bytes[1], r->ops[0], r->ops[1]};
    for (int k = 0; k < 4; k++) {
        json_key(out, keys[k], false);
        json_u64(out, v[k]);
    }
    json_key(out, "flushes", false);
    json_u64(out, r->flushes);
    json_key(out, "failed", false);
    json_u64(out, r->failed);
    json_key(out, "time", false);
    json_double(out, c->resolution ? (double)r->ticks / (double)c->resolution : 0);
    for (int w = 0; w < 2; w++) {
        json_key(out, w ? "write_sizes" : "read_sizes", false);
        for (int k = 0; k < BUCKETS; k++) {
            fputc(k ? ',' : '[', out);
            json_u64(out, r->hist[w][k]);
        }
        fputc(']', out);
    }
    json_key(out, "ranks", false);
    fputc('[', out);
    for (uint32_t k = 0, n = 0; k < c->n_groups; k++)
        if (r->ranks[k])
            fprintf(out, "%s%u", n++ ? "," : "", k);
    fputs("]}", out);
}

static void write_io(FILE *out, const io_ctx *c)
{
    json_key(out, "io", false);
    fputs("{\"rows\":[", out);
    for (uint32_t i = 0; i < c->n_rows; i++)
        write_row(out, c, &c->rows[i], i == 0);
    fputs("],\"size_buckets\":[\"0-100\",\"100-1K\",\"1K-10K\",\"10K-100K\",\"100K-1M\",\"1M-4M\","
          "\"4M-10M\",\"10M-100M\",\"100M-1G\",\"1G+\"]",
          out);
    json_key(out, "bin_seconds", false);
    json_double(out, c->resolution ? (double)c->length / BINS / (double)c->resolution : 0);
    for (int w = 0; w < 2; w++) {
        json_key(out, w ? "write_bins" : "read_bins", false);
        for (int k = 0; k < BINS; k++) {
            fputc(k ? ',' : '[', out);
            json_double(out, c->bins[w][k]);
        }
        fputc(']', out);
    }
    fputc('}', out);
}

static void free_ctx(io_ctx *c)
{
    for (uint32_t i = 0; i < c->n_strings; i++)
        free(c->strings[i]);
    for (uint32_t i = 0; i < c->n_locs; i++)
        free(c->locs[i].stack);
    for (uint32_t i = 0; i < c->n_rows; i++)
        free(c->rows[i].ranks);
    free(c->strings);
    free(c->file_name);
    free(c->handle_file);
    free(c->handle_paradigm);
    free(c->paradigm_id);
    free(c->group_ids);
    free(c->locs);
    free(c->loc_group);
    free(c->rows);
}

int report_write_io(FILE *out, const char *path, char *err, size_t errlen)
{
    otf2_read_guard_begin(path); /* errors kept, damaged files found before OTF2 reads */
    OTF2_Reader *rd = OTF2_Reader_Open(path);
    if (!rd) {
        otf2_read_guard_end();
        snprintf(err, errlen, "cannot open the trace %s", path);
        return -1;
    }
    OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    io_ctx c;
    memset(&c, 0, sizeof c);
    int rc = read_io(rd, &c);
    OTF2_Reader_Close(rd);
    otf2_read_guard_end();
    if (rc != 0)
        snprintf(err, errlen, "cannot read the I/O records of the trace %s%s%s%s", path,
                 c.oom ? " (out of memory)" : "", otf2_read_guard_error()[0] ? ": " : "",
                 otf2_read_guard_error());
    else if (c.n_rows)
        write_io(out, &c);
    int written = rc == 0 && c.n_rows > 0;
    free_ctx(&c);
    return rc != 0 ? -1 : written;
}

/* ------------------------------------------------- from io_summary.<rank>.tsv files */
typedef struct {
    char *paradigm, *file;
    uint64_t v[6]; /* read bytes, write bytes, reads, writes, flushes, failed */
    uint64_t sizes[2][BUCKETS];
    int *ranks; /* each rank's file has one row per (paradigm, file) */
    size_t n_ranks;
} sum_row;

typedef struct {
    sum_row *rows;
    size_t n;
} sum_table;

static sum_row *sum_row_of(sum_table *t, const char *paradigm, const char *file)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->rows[i].paradigm, paradigm) == 0 && strcmp(t->rows[i].file, file) == 0)
            return &t->rows[i];
    sum_row *r = realloc(t->rows, (t->n + 1) * sizeof *r);
    if (!r)
        return NULL;
    t->rows = r;
    r = &t->rows[t->n];
    memset(r, 0, sizeof *r);
    r->paradigm = strdup(paradigm);
    r->file = strdup(file);
    if (!r->paradigm || !r->file) {
        free(r->paradigm);
        free(r->file);
        return NULL;
    }
    t->n++;
    return r;
}

/* one data line: PARADIGM, 6 numbers, 10 read sizes, 10 write sizes, FILE (tab-separated);
 * -1 for a malformed line, -2 without memory */
static int parse_line(sum_table *t, char *line, int rank)
{
    char *f[10];
    char *p = line;
    for (int n = 0; n < 10; n++) {
        f[n] = p;
        if (n == 9)
            break;
        char *tab = strchr(p, '\t');
        if (!tab)
            return -1;
        *tab = '\0';
        p = tab + 1;
    }
    f[9][strcspn(f[9], "\n")] = '\0';
    sum_row *r = sum_row_of(t, f[0], f[9]);
    int *ranks = r ? realloc(r->ranks, (r->n_ranks + 1) * sizeof *ranks) : NULL;
    if (!ranks)
        return -2;
    r->ranks = ranks;
    r->ranks[r->n_ranks++] = rank;
    for (int k = 0; k < 6; k++)
        r->v[k] += strtoull(f[1 + k], NULL, 10);
    for (int w = 0; w < 2; w++) {
        char *q = f[7 + w];
        for (int k = 0; k < BUCKETS; k++) {
            r->sizes[w][k] += strtoull(q, &q, 10);
            if (*q == ',')
                q++;
        }
    }
    return 0;
}

static int read_summary(sum_table *t, const char *path, int rank, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read %s", path);
        return -1;
    }
    char line[8192];
    int rc = 0, no = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        no++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        rc = parse_line(t, line, rank);
        if (rc == -1)
            snprintf(err, errlen, "%s:%d: not a line of an I/O summary", path, no);
        else if (rc == -2)
            snprintf(err, errlen, "out of memory reading %s", path);
    }
    fclose(f);
    return rc;
}

static int by_rank(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static void write_summary_rows(FILE *out, const sum_table *t)
{
    json_key(out, "io", false);
    fputs("{\"source\":\"summary\",\"rows\":[", out);
    for (size_t i = 0; i < t->n; i++) {
        const sum_row *r = &t->rows[i];
        fputs(i ? ",{" : "{", out);
        json_member(out, "file", r->file, true);
        json_member(out, "paradigm", r->paradigm, false);
        const char *keys[] = {"read_bytes", "write_bytes", "read_ops",
                              "write_ops",  "flushes",     "failed"};
        for (int k = 0; k < 6; k++) {
            json_key(out, keys[k], false);
            json_u64(out, r->v[k]);
        }
        fputs(",\"time\":null", out);
        for (int w = 0; w < 2; w++) {
            json_key(out, w ? "write_sizes" : "read_sizes", false);
            for (int k = 0; k < BUCKETS; k++) {
                fputc(k ? ',' : '[', out);
                json_u64(out, r->sizes[w][k]);
            }
            fputc(']', out);
        }
        qsort(r->ranks, r->n_ranks, sizeof *r->ranks, by_rank);
        fputs(",\"ranks\":[", out);
        for (size_t k = 0; k < r->n_ranks; k++)
            fprintf(out, "%s%d", k ? "," : "", r->ranks[k]);
        fputs("]}", out);
    }
    fputs("],\"size_buckets\":[\"0-100\",\"100-1K\",\"1K-10K\",\"10K-100K\",\"100K-1M\",\"1M-4M\","
          "\"4M-10M\",\"10M-100M\",\"100M-1G\",\"1G+\"]}",
          out);
}

int report_write_io_summary(FILE *out, const char *dir, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    sum_table t = {NULL, 0};
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        int rank, end = 0;
        if (sscanf(e->d_name, "io_summary.%d.tsv%n", &rank, &end) != 1 || end == 0 ||
            e->d_name[end] != '\0' || rank < 0)
            continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        rc = read_summary(&t, path, rank, err, errlen);
    }
    closedir(d);
    if (rc == 0 && t.n)
        write_summary_rows(out, &t);
    int written = rc == 0 && t.n > 0;
    for (size_t i = 0; i < t.n; i++) {
        free(t.rows[i].paradigm);
        free(t.rows[i].file);
        free(t.rows[i].ranks);
    }
    free(t.rows);
    return rc != 0 ? -1 : written;
}
