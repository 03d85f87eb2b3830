/* SPDX-License-Identifier: BSD-3-Clause */
/* report_trace.c: the report's data from traces.otf2 (read with src/tools/trace_model): the
 * timeline (region instances per location, downsampled, messages and CUDA launch -> kernel
 * arrows), the per-rank-pair
 * message matrix and the matrices of one-sided puts, gets and atomics.
 *
 * Downsampling: the trace's length is cut into TL_COLUMNS columns (about a pixel each on a
 * wide screen). A region instance at least one column long is always kept; of the shorter
 * ones, per location, call depth and column only the longest one that starts there is kept,
 * so every column with activity still shows something. When more than TL_MAX_INTERVALS are
 * left, the longest TL_MAX_INTERVALS are kept; of more than TL_MAX_MESSAGES messages, every
 * k-th one is drawn. The page states the counts before and after. */
#include "report.h"
#include "cube/cube.h"
#include "tools/trace_model.h"

#include <otf2/OTF2_GeneralDefinitions.h>
#include <stdlib.h>
#include <string.h>

enum { TL_COLUMNS = 2000, TL_MAX_INTERVALS = 200000, TL_MAX_MESSAGES = 20000, MATRIX_MAX = 1024 };

typedef struct {
    uint32_t row, region, depth;
    bool used; /* a candidate in timeline.best */
    uint64_t start, end;
} interval;

typedef struct {
    interval *v;
    size_t n, cap;
    size_t total;     /* region instances in the trace */
    uint64_t column;  /* ticks per column */
    interval *best;   /* per depth: the longest short instance of the current column */
    size_t n_best;    /* allocated depths */
    uint32_t *stack;  /* per depth: open region */
    uint64_t *opened; /* per depth: its enter time */
    size_t depth, cap_depth;
} timeline;

static int push(timeline *tl, const interval *iv)
{
    if (tl->n == tl->cap) {
        size_t cap = tl->cap ? 2 * tl->cap : 4096;
        interval *v = realloc(tl->v, cap * sizeof *v);
        if (v == NULL)
            return -1;
        tl->v = v;
        tl->cap = cap;
    }
    tl->v[tl->n++] = *iv;
    return 0;
}

static int grow_depth(timeline *tl)
{
    size_t cap = tl->cap_depth ? 2 * tl->cap_depth : 64;
    uint32_t *s = realloc(tl->stack, cap * sizeof *s);
    if (s)
        tl->stack = s;
    uint64_t *o = realloc(tl->opened, cap * sizeof *o);
    if (o)
        tl->opened = o;
    interval *b = realloc(tl->best, cap * sizeof *b);
    if (b) {
        tl->best = b;
        memset(b + tl->cap_depth, 0, (cap - tl->cap_depth) * sizeof *b);
    }
    if (!s || !o || !b)
        return -1;
    tl->cap_depth = cap;
    return 0;
}

/* A finished region instance: kept, or a candidate for its column (see the top comment). */
static int add_instance(timeline *tl, const interval *iv, uint64_t origin)
{
    tl->total++;
    if (iv->end - iv->start >= tl->column)
        return push(tl, iv);
    interval *b = &tl->best[iv->depth];
    uint64_t col = (iv->start - origin) / tl->column;
    if (b->used && (b->start - origin) / tl->column == col) {
        if (iv->end - iv->start > b->end - b->start) {
            *b = *iv;
            b->used = true;
        }
        return 0;
    }
    int rc = b->used ? push(tl, b) : 0;
    *b = *iv;
    b->used = true;
    return rc;
}

static int flush_best(timeline *tl)
{
    for (size_t d = 0; d < tl->cap_depth; d++) {
        if (tl->best[d].used && push(tl, &tl->best[d]) != 0)
            return -1;
        tl->best[d].used = false;
    }
    return 0;
}

/* One location's ENTER/LEAVE pairs into region instances; instances still open at the end
 * (a trace cut short) end at the location's last event. */
static int add_location(timeline *tl, const tm_trace *t, const tm_location *loc, uint32_t row)
{
    uint64_t origin = t->clock.global_offset;
    tl->depth = 0;
    for (size_t i = 0; i < loc->n_events; i++) {
        const tm_event *e = &loc->events[i];
        if (e->kind == TM_EV_ENTER) {
            if (tl->depth == tl->cap_depth && grow_depth(tl) != 0)
                return -1;
            tl->stack[tl->depth] = e->ref;
            tl->opened[tl->depth++] = e->time;
        } else if (e->kind == TM_EV_LEAVE && tl->depth > 0) {
            tl->depth--;
            interval iv = {row,   tl->stack[tl->depth],  (uint32_t)tl->depth,
                           false, tl->opened[tl->depth], e->time};
            if (add_instance(tl, &iv, origin) != 0)
                return -1;
        }
    }
    uint64_t last = loc->n_events ? loc->events[loc->n_events - 1].time : origin;
    while (tl->depth > 0) {
        tl->depth--;
        interval iv = {row,   tl->stack[tl->depth],  (uint32_t)tl->depth,
                       false, tl->opened[tl->depth], last};
        if (add_instance(tl, &iv, origin) != 0)
            return -1;
    }
    return flush_best(tl);
}

static int by_length(const void *a, const void *b)
{
    const interval *x = a, *y = b;
    uint64_t lx = x->end - x->start, ly = y->end - y->start;
    return lx > ly ? -1 : lx < ly ? 1 : 0;
}

static const char *paradigm_name(int p)
{
    switch (p) {
    case OTF2_PARADIGM_MPI:
        return "mpi";
    case OTF2_PARADIGM_OPENMP:
        return "openmp";
    case OTF2_PARADIGM_SHMEM:
        return "shmem";
    case OTF2_PARADIGM_CUDA:
        return "cuda";
    case OTF2_PARADIGM_MEASUREMENT_SYSTEM:
        return "measurement";
    case OTF2_PARADIGM_PTHREAD:
        return "pthread";
    case OTF2_PARADIGM_COMPILER:
        return "compiler";
    default:
        return "user";
    }
}

/* Timeline rows: the locations that record regions (no metric locations). */
static uint32_t *timeline_rows(const tm_trace *t, uint32_t *n_rows)
{
    uint32_t *row = malloc((t->n_locations + 1) * sizeof *row);
    *n_rows = 0;
    for (size_t l = 0; row && l < t->n_locations; l++)
        row[l] = t->locations[l].kind == TM_LOC_METRIC ? TM_NONE : (*n_rows)++;
    return row;
}

static void write_timeline_defs(FILE *out, const tm_trace *t, const uint32_t *row)
{
    fputs("\"locations\":[", out);
    for (size_t l = 0, n = 0; l < t->n_locations; l++) {
        if (row[l] == TM_NONE)
            continue;
        fprintf(out, "%s{\"name\":", n++ ? "," : "");
        json_string(out, t->locations[l].name);
        fprintf(out, ",\"rank\":%u}", t->locations[l].rank);
    }
    fputs("],\"regions\":[", out);
    for (size_t g = 0; g < t->n_regions; g++) {
        fprintf(out, "%s{\"name\":", g ? "," : "");
        json_string(out, t->regions[g].name ? t->regions[g].name : "?");
        json_member(out, "paradigm", paradigm_name(t->regions[g].paradigm), false);
        fputc('}', out);
    }
    fputc(']', out);
}

static void write_intervals(FILE *out, const timeline *tl, uint64_t origin)
{
    fputs(",\"intervals\":[", out);
    for (size_t i = 0; i < tl->n; i++) {
        const interval *v = &tl->v[i];
        fprintf(out, "%s%u,%u,%u,", i ? "," : "", v->row, v->region, v->depth);
        json_u64(out, v->start - origin);
        fputc(',', out);
        json_u64(out, v->end - origin);
    }
    fputc(']', out);
}

/* messages: [from row, to row, send time, receive time, bytes] per drawn message */
static size_t write_messages(FILE *out, const tm_trace *t, const uint32_t *row)
{
    size_t step = t->n_messages > TL_MAX_MESSAGES ? t->n_messages / TL_MAX_MESSAGES + 1 : 1;
    size_t n = 0;
    uint64_t origin = t->clock.global_offset;
    fputs(",\"messages\":[", out);
    for (size_t i = 0; i < t->n_messages; i += step) {
        const tm_message *m = &t->messages[i];
        if (row[m->send_loc] == TM_NONE || row[m->recv_loc] == TM_NONE)
            continue;
        fprintf(out, "%s%u,%u,", n++ ? "," : "", row[m->send_loc], row[m->recv_loc]);
        json_u64(out, m->send_time - origin);
        fputc(',', out);
        json_u64(out, m->recv_time - origin);
        fputc(',', out);
        json_u64(out, m->bytes);
    }
    fputc(']', out);
    return step;
}

/* A CUDA launch or its kernel: the parameter "CUDA correlation id" (SCOREP_CUDA_ENABLE
 * references) on a host thread and on a GPU stream of the same process. */
typedef struct {
    uint32_t rank, row;
    uint64_t id, time;
    int gpu;
} launch_end;

static int by_launch(const void *a, const void *b)
{
    const launch_end *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->gpu - y->gpu; /* the launch first */
}

/* launches: [host row, GPU row, launch time, kernel start, ...] per drawn launch -> kernel
 * arrow, as the Chrome export draws them; at most TL_MAX_MESSAGES (every k-th). Returns
 * the number of pairs found. */
static size_t write_launches(FILE *out, const tm_trace *t, const uint32_t *row)
{
    size_t n = 0, pairs = 0, drawn = 0;
    for (size_t l = 0; l < t->n_locations; l++)
        for (size_t i = 0; row[l] != TM_NONE && i < t->locations[l].n_events; i++)
            n += t->locations[l].events[i].kind == TM_EV_CUDA_REF;
    launch_end *v = n ? malloc(n * sizeof *v) : NULL;
    fputs(",\"launches\":[", out);
    if (v) {
        n = 0;
        for (size_t l = 0; l < t->n_locations; l++) {
            const tm_location *loc = &t->locations[l];
            for (size_t i = 0; row[l] != TM_NONE && i < loc->n_events; i++)
                if (loc->events[i].kind == TM_EV_CUDA_REF)
                    v[n++] = (launch_end){loc->rank, row[l], loc->events[i].u,
                                          loc->events[i].time, loc->kind == TM_LOC_GPU};
        }
        qsort(v, n, sizeof *v, by_launch);
        for (size_t i = 0; i + 1 < n; i++)
            pairs += !v[i].gpu && v[i + 1].gpu && v[i].rank == v[i + 1].rank &&
                     v[i].id == v[i + 1].id;
        size_t step = pairs > TL_MAX_MESSAGES ? pairs / TL_MAX_MESSAGES + 1 : 1, k = 0;
        uint64_t origin = t->clock.global_offset;
        for (size_t i = 0; i + 1 < n; i++) {
            const launch_end *a = &v[i], *b = &v[i + 1];
            if (a->gpu || !b->gpu || a->rank != b->rank || a->id != b->id || k++ % step)
                continue;
            fprintf(out, "%s%u,%u,", drawn++ ? "," : "", a->row, b->row);
            json_u64(out, a->time - origin);
            fputc(',', out);
            json_u64(out, b->time - origin);
        }
    }
    fputc(']', out);
    free(v);
    return pairs;
}

/* the critical path of the wait-state analysis, when scout.cubex lies beside the trace: its
 * pieces ("critical path segments": "rank begin end;" in the trace's ticks) as [row, begin,
 * end] on the row of each rank's master thread (docs/analysis.md) */
static void write_critical_path(FILE *out, const tm_trace *t, const uint32_t *row,
                                const char *trace_path)
{
    char path[4096], err[256];
    const char *slash = strrchr(trace_path, '/');
    int dir = slash ? (int)(slash - trace_path) : 1;
    snprintf(path, sizeof path, "%.*s/scout.cubex", dir, slash ? trace_path : ".");
    FILE *probe = fopen(path, "rb");
    if (!probe)
        return;
    fclose(probe);
    cube_reader *r = cube_reader_open(path, err, sizeof err);
    if (!r)
        return; /* the Wait states section says what is wrong with it */
    const char *seg = NULL;
    for (int i = 0; i < r->n_attrs; i++)
        if (strcmp(r->attr_keys[i], "critical path segments") == 0)
            seg = r->attr_values[i];
    if (seg) {
        fputs(",\"critical_path\":[", out);
        int n = 0;
        unsigned rank;
        unsigned long long b, e;
        int used;
        while (sscanf(seg, "%u %llu %llu;%n", &rank, &b, &e, &used) == 3) {
            seg += used;
            uint32_t rw = TM_NONE;
            for (size_t l = 0; l < t->n_locations && rw == TM_NONE; l++)
                if (row[l] != TM_NONE && t->locations[l].rank == rank &&
                    t->locations[l].kind == TM_LOC_CPU)
                    rw = row[l];
            if (rw == TM_NONE || b < t->clock.global_offset || e < b)
                continue;
            fprintf(out, "%s%u,", n++ ? "," : "", rw);
            json_u64(out, b - t->clock.global_offset);
            fputc(',', out);
            json_u64(out, e - t->clock.global_offset);
        }
        fputc(']', out);
    }
    cube_reader_free(r);
}

static int write_timeline(FILE *out, const tm_trace *t, const char *trace_path)
{
    uint32_t n_rows;
    uint32_t *row = timeline_rows(t, &n_rows);
    timeline tl = {.column = t->clock.length / TL_COLUMNS + 1};
    int rc = row ? 0 : -1;
    for (size_t l = 0; rc == 0 && l < t->n_locations; l++)
        if (row[l] != TM_NONE)
            rc = add_location(&tl, t, &t->locations[l], row[l]);
    size_t kept = tl.n;
    if (rc == 0 && tl.n > TL_MAX_INTERVALS) {
        qsort(tl.v, tl.n, sizeof *tl.v, by_length);
        tl.n = TL_MAX_INTERVALS;
    }
    if (rc == 0) {
        json_key(out, "timeline", false);
        fputc('{', out);
        write_timeline_defs(out, t, row);
        fprintf(out, ",\"resolution\":");
        json_u64(out, t->clock.resolution);
        fputs(",\"duration\":", out);
        json_u64(out, t->clock.length);
        fprintf(out, ",\"total_intervals\":%zu,\"total_messages\":%zu", tl.total, t->n_messages);
        write_intervals(out, &tl, t->clock.global_offset);
        size_t step = write_messages(out, t, row);
        size_t launches = write_launches(out, t, row);
        fprintf(out, ",\"total_launches\":%zu", launches);
        write_critical_path(out, t, row, trace_path);
        fprintf(out,
                ",\"downsampled\":%s,\"method\":", tl.n < tl.total || step > 1 ? "true" : "false");
        char note[512];
        snprintf(note, sizeof note,
                 "Downsampled for drawing: of the region instances shorter than 1/%d of the run, "
                 "only the longest per location, call depth and 1/%d of the run is kept "
                 "(%zu of %zu instances left)%s; %s.",
                 TL_COLUMNS, TL_COLUMNS, kept, tl.total,
                 kept > TL_MAX_INTERVALS ? ", then the longest 200000" : "",
                 step > 1 ? "every k-th message is drawn, at most 20000"
                          : "all messages are drawn");
        json_string(out, note);
        fputc('}', out);
    }
    free(row);
    free(tl.v);
    free(tl.best);
    free(tl.stack);
    free(tl.opened);
    return rc;
}

static void write_square(FILE *out, const uint64_t *m, uint32_t n)
{
    fputc('[', out);
    for (uint32_t i = 0; i < n; i++) {
        fputs(i ? ",[" : "[", out);
        for (uint32_t j = 0; j < n; j++) {
            if (j)
                fputc(',', out);
            json_u64(out, m[(size_t)i * n + j]);
        }
        fputc(']', out);
    }
    fputc(']', out);
}

/* "messages" and "bytes" of a matrix, left out above MATRIX_MAX ranks. */
static void write_cells(FILE *out, const uint64_t *ops, const uint64_t *bytes, uint32_t n)
{
    if (n > MATRIX_MAX)
        return;
    fputs(",\"messages\":", out);
    write_square(out, ops, n);
    fputs(",\"bytes\":", out);
    write_square(out, bytes, n);
}

/* "matrix": matched point-to-point messages and their bytes per (sender, receiver) rank. */
static void write_matrix(FILE *out, const tm_trace *t)
{
    if (t->n_messages == 0 && t->unmatched_sends == 0)
        return;
    json_key(out, "matrix", false);
    fprintf(out, "{\"ranks\":%u,\"unmatched_sends\":%zu,\"unmatched_receives\":%zu", t->n_ranks,
            t->unmatched_sends, t->unmatched_recvs);
    write_cells(out, t->matrix_messages, t->matrix_bytes, t->n_ranks);
    fputc('}', out);
}

/* "rma" (only when the trace has puts or gets): one-sided operations per (origin, target)
 * rank from trace_model's matrices. Atomics have a matrix of their own (bytes: the operands
 * sent), so the puts and gets matrices hold exactly the data moved by puts and gets. */
static void write_rma(FILE *out, const tm_trace *t)
{
    size_t puts = t->events_by_kind[TM_EV_RMA_PUT], gets = t->events_by_kind[TM_EV_RMA_GET];
    size_t atomics = t->events_by_kind[TM_EV_RMA_ATOMIC];
    if (puts + gets == 0)
        return;
    json_key(out, "rma", false);
    fprintf(out, "{\"ranks\":%u,\"puts_total\":%zu,\"gets_total\":%zu,\"atomics_total\":%zu",
            t->n_ranks, puts, gets, atomics);
    const char *keys[3] = {"puts", "gets", "atomics"};
    const tm_rank_matrix *m[3] = {&t->rma_put, &t->rma_get, &t->rma_atomic};
    for (int k = 0; k < 3 && t->n_ranks <= MATRIX_MAX; k++) {
        if (k == 2 && atomics == 0)
            break;
        fprintf(out, ",\"%s\":{\"ranks\":%u", keys[k], t->n_ranks);
        write_cells(out, m[k]->ops, m[k]->bytes, t->n_ranks);
        fputc('}', out);
    }
    fputc('}', out);
}

int report_write_trace(FILE *out, const char *path, char *err, size_t errlen)
{
    tm_trace *t = NULL;
    char why[512];
    if (tm_load(path, &t, why, sizeof why) != 0) {
        snprintf(err, errlen, "cannot read the trace %s: %s", path, why);
        return -1;
    }
    if (t->damage[0]) /* the intact part is shown */
        fprintf(stderr, "scorep-report: warning: %s: damaged trace, showing what is intact: %s\n",
                path, t->damage);
    int rc = write_timeline(out, t, path);
    if (rc == 0) {
        write_matrix(out, t);
        write_rma(out, t);
    } else
        snprintf(err, errlen, "out of memory while reading the trace %s", path);
    tm_free(t);
    return rc;
}
