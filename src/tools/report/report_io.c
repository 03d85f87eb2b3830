/* SPDX-License-Identifier: BSD-3-Clause */
/* report_io.c: the "io" member of scorep-report's data: a per-file I/O summary read from the
 * trace's I/O records (what Darshan shows per file): one row per file and I/O paradigm with
 * bytes and operations read and written, flushes, failed operations, the access sizes in
 * Darshan's ten buckets, the time inside the operations and the ranks that touched it; and
 * the I/O bandwidth over time (bytes of the outermost operations spread evenly over their
 * duration, in 100 bins). Reads the archive itself: its definitions with the shared loader
 * (trace/otf2_defs_load.h), the I/O records with OTF2's reader (trace_model keeps none). Without a
 * trace: the same rows, without time and chart, from the per-process summaries the runtime writes
 * (io_summary.<rank>.tsv). */
#include "report.h"
#include "trace/otf2_defs_load.h"
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
    otf2_defs defs;    /* I/O handles, files, paradigms; strings; locations */
    uint32_t n_groups; /* process location groups: the ranks */
    loc *locs;         /* the locations, in definition order */
    uint32_t n_locs;
    io_row *rows;
    uint32_t n_rows;
    uint64_t resolution, t0, length;
    double bins[2][BINS];
    int oom;
} io_ctx;

static loc *find_loc(io_ctx *c, OTF2_LocationRef id)
{
    for (uint32_t i = 0; i < c->n_locs; i++) /* few locations per process; ordered reads */
        if (c->locs[i].id == id)
            return &c->locs[i];
    return NULL;
}

static io_row *row_of(io_ctx *c, uint32_t handle)
{
    if (handle >= c->defs.n_io_handles)
        return NULL;
    const otf2_defs_io_handle *h = &c->defs.io_handles[handle];
    uint32_t f = h->defined ? h->file : UINT32_MAX, p = h->defined ? h->paradigm : UINT32_MAX;
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
    const otf2_defs *d = &c->defs;
    return handle < d->n_io_handles && d->io_handles[handle].defined
               ? d->io_handles[handle].paradigm
               : UINT32_MAX;
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

/* The locations with their ranks (the number of their process location group among those,
 * in definition order) and the clock, from the definitions. */
static int take_locations(io_ctx *c)
{
    const otf2_defs *d = &c->defs;
    c->resolution = d->clock.resolution;
    c->t0 = d->clock.global_offset;
    c->length = d->clock.length;
    if (!(c->locs = calloc(d->n_locations ? d->n_locations : 1, sizeof *c->locs)))
        return -1;
    c->n_locs = (uint32_t)d->n_locations;
    for (size_t k = 0; k < d->n_lgroups; k++)
        c->n_groups += d->lgroups[k].type == OTF2_LOCATION_GROUP_TYPE_PROCESS;
    for (uint32_t i = 0; i < c->n_locs; i++) {
        c->locs[i] = (loc){d->locations[i].id, UINT32_MAX, NULL, 0, 0};
        for (uint32_t k = 0, rank = 0; k < d->n_lgroups; k++) {
            if (d->lgroups[k].type != OTF2_LOCATION_GROUP_TYPE_PROCESS)
                continue;
            if (d->lgroups[k].id == d->locations[i].group)
                c->locs[i].rank = rank;
            rank++;
        }
    }
    return 0;
}

/* WHY into ERR; returns -1 */
static int say(char *err, size_t len, const char *why)
{
    snprintf(err, len, "%s", why);
    return -1;
}

/* every location's I/O events, each bounded by its file's intact chunks (otf2_read_guard.h);
 * the operations are matched per location, so no global order is needed */
static int read_events(OTF2_Reader *rd, const char *path, io_ctx *c, char *err, size_t len)
{
    uint64_t *ids = malloc((c->n_locs ? c->n_locs : 1) * sizeof *ids);
    if (!ids)
        return say(err, len, "out of memory");
    for (uint32_t i = 0; i < c->n_locs; i++)
        ids[i] = c->locs[i].id;
    int failed = otf2_defs_open_locations(rd, path, ids, c->n_locs, err, len);
    free(ids);
    OTF2_EvtReaderCallbacks *ec = failed ? NULL : OTF2_EvtReaderCallbacks_New();
    if (!failed && !ec)
        failed = say(err, len, "out of memory");
    if (failed)
        return -1;
    OTF2_EvtReaderCallbacks_SetIoOperationBeginCallback(ec, ev_begin);
    OTF2_EvtReaderCallbacks_SetIoOperationCompleteCallback(ec, ev_complete);
    OTF2_EvtReaderCallbacks_SetIoOperationCancelledCallback(ec, ev_cancelled);
    OTF2_EvtReaderCallbacks_SetIoOperationIssuedCallback(ec, ev_issued);
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    for (uint32_t i = 0; rc == OTF2_SUCCESS && !c->oom && i < c->n_locs; i++) {
        if (otf2_defs_location_lost(c->locs[i].id))
            continue; /* its event file did not open (noted as damage) */
        OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, c->locs[i].id);
        uint64_t n;
        rc = er ? OTF2_Reader_RegisterEvtCallbacks(rd, er, ec, c) : OTF2_ERROR_INVALID_ARGUMENT;
        if (rc != OTF2_SUCCESS)
            break;
        rc = otf2_read_guard_events(rd, er, c->locs[i].id, &n);
        OTF2_Reader_CloseEvtReader(rd, er); /* frees it; its error would be the read's */
        if (rc != OTF2_SUCCESS && rc != OTF2_ERROR_INTERRUPTED_BY_CALLBACK) {
            rc = OTF2_SUCCESS; /* noted as the file's damage: its operations before it count */
            otf2_read_guard_clear();
        }
    }
    OTF2_EvtReaderCallbacks_Delete(ec);
    OTF2_ErrorCode rc_close = OTF2_Reader_CloseEvtFiles(rd);
    if (c->oom)
        return say(err, len, "out of memory");
    if (rc != OTF2_SUCCESS || rc_close != OTF2_SUCCESS)
        return say(err, len, OTF2_Error_GetDescription(rc ? rc : rc_close));
    return 0;
}

static int read_io(const char *path, io_ctx *c, char *err, size_t len)
{
    OTF2_Reader *rd;
    if (otf2_defs_load(path, &rd, &c->defs, err, len))
        return -1;
    int rc = 0;
    if (take_locations(c))
        rc = say(err, len, "out of memory");
    else if (c->defs.n_io_handles) /* none: no I/O recorded */
        rc = read_events(rd, path, c, err, len);
    if (OTF2_Reader_Close(rd) != OTF2_SUCCESS && !rc)
        rc = say(err, len, "cannot close the trace");
    return rc;
}

static const char *str(const io_ctx *c, uint32_t id, const char *none)
{
    const char *s = otf2_defs_string(&c->defs, id);
    return s ? s : none;
}

/* a file's name: "?" if its definition is missing, "(no file)" for a handle without one */
static const char *file_name(const io_ctx *c, uint32_t file)
{
    const otf2_defs *d = &c->defs;
    if (file < d->n_io_files && d->io_files[file].defined)
        return str(c, d->io_files[file].name, "?");
    return file == OTF2_UNDEFINED_IO_FILE ? "(no file)" : "?";
}

static const char *paradigm_name(const io_ctx *c, uint32_t paradigm)
{
    const otf2_defs *d = &c->defs;
    return paradigm < d->n_io_paradigms && d->io_paradigms[paradigm].defined
               ? str(c, d->io_paradigms[paradigm].identification, "?")
               : "?";
}

static void write_row(FILE *out, const io_ctx *c, const io_row *r, bool first)
{
    if (!first)
        fputc(',', out);
    fputc('{', out);
    json_member(out, "file", file_name(c, r->file), true);
    json_member(out, "paradigm", paradigm_name(c, r->paradigm), false);
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
    for (uint32_t i = 0; i < c->n_locs; i++)
        free(c->locs[i].stack);
    for (uint32_t i = 0; i < c->n_rows; i++)
        free(c->rows[i].ranks);
    otf2_defs_free(&c->defs);
    free(c->locs);
    free(c->rows);
}

int report_write_io(FILE *out, const char *path, char *err, size_t errlen)
{
    otf2_read_guard_begin(path); /* errors kept, damaged files found before OTF2 reads */
    io_ctx c;
    memset(&c, 0, sizeof c);
    char why[512] = "";
    int rc = read_io(path, &c, why, sizeof why);
    otf2_read_guard_end();
    if (rc != 0)
        snprintf(err, errlen, "cannot read the I/O records of the trace %s: %s", path, why);
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
