/* SPDX-License-Identifier: BSD-3-Clause */
/* report_waits.c: the "Wait states" section of scorep-report, from scout.cubex (the wait-state
 * analysis, docs/analysis.md): each pattern's total and share of the time, the worst
 * (pattern, call path, rank and thread) combinations, the critical path's call paths and the
 * report's attributes (mode, clock condition violations, POP efficiencies); the root causes:
 * the delay-cost tree (short- and long-term, MPI and OpenMP), the call paths, ranks and threads
 * with the largest delay costs, and the classification of the point-to-point wait states
 * (propagating/terminal, direct/indirect). Values of a pattern include its sub-patterns, as
 * Cube shows a collapsed metric: by CubeLib's rule that is the stored value itself (a stored
 * value holds the metric with its sub-metrics; docs/analysis.md). */
#include "report.h"
#include "cube/cube.h"

#include <string.h>

enum { TOP_ROWS = 25 };

static const char *const patterns[] = {
    "mpi_latesender",         "mpi_latesender_wo",      "mpi_latereceiver",   "mpi_barrier_wait",
    "mpi_barrier_completion", "mpi_wait_nxn",           "mpi_nxn_completion", "mpi_earlyreduce",
    "mpi_earlyscan",          "mpi_latebroadcast",      "omp_ebarrier_wait",  "omp_ibarrier_wait",
    "omp_idle_threads",       "omp_limited_parallelism",
    /* lock contention (an_pattern_lock.c) */
    "omp_lock_contention_critical", "omp_lock_contention_api", "pthread_lock_contention_mutex_lock",
    "pthread_lock_contention_conditional",
    /* MPI_Init and MPI_Finalize (an_pattern_init_exit.c) */
    "mpi_finalize_wait", "mpi_init_completion"};
enum { N_PATTERNS = sizeof patterns / sizeof patterns[0] };

/* one (pattern, call path, location) value; v2: a delay cost's long-term part */
typedef struct {
    double v, v2;
    int pattern, cnode, location;
} row;

/* The TOP_ROWS largest rows seen, largest first; among equal values the first seen first
 * (what a stable sort of all of them would list), without holding all of them. */
typedef struct {
    row r[TOP_ROWS];
    size_t n;
} top_rows;

static void top_add(top_rows *t, row x)
{
    if (t->n == TOP_ROWS && !(x.v > t->r[TOP_ROWS - 1].v))
        return;
    size_t i = t->n < TOP_ROWS ? t->n++ : TOP_ROWS - 1;
    for (; i > 0 && x.v > t->r[i - 1].v; i--)
        t->r[i] = t->r[i - 1];
    t->r[i] = x;
}

/* the value of metric m with its sub-metrics at (cnode, location): the stored value */
static double metric_incl(const cube_reader *r, int m, int cnode, int loc)
{
    return cube_reader_stored(r, m, cnode, loc);
}

/* "a/b/c": the call path of cnode c */
static void callpath(const cube_reader *r, int c, char *buf, size_t len)
{
    int chain[64], n = 0;
    for (; c >= 0 && n < 64; c = r->cnodes[c].parent)
        chain[n++] = c;
    size_t at = 0;
    buf[0] = 0;
    while (n-- > 0 && at + 1 < len) {
        const char *name = r->regions[r->cnodes[chain[n]].region].name;
        at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "/" : "", name ? name : "?");
    }
}

static const char *attr(const cube_reader *r, const char *key)
{
    for (int i = 0; i < r->n_attrs; i++)
        if (strcmp(r->attr_keys[i], key) == 0)
            return r->attr_values[i];
    return NULL;
}

/* 1 if metric M is ROOT or below it in the metric tree */
static int under(const cube_reader *r, int m, int root)
{
    for (; m >= 0; m = r->metrics[m].parent)
        if (m == root)
            return 1;
    return 0;
}

static int depth_below(const cube_reader *r, int m, int root)
{
    int d = 0;
    for (; m >= 0 && m != root; m = r->metrics[m].parent)
        d++;
    return d;
}

/* a long-term delay cost (Scalasca's *_longterm metrics); the other delay leaves are
 * short-term */
static int longterm(const cube_reader *r, int m)
{
    const char *u = r->metrics[m].uniq_name, *suf = "_longterm";
    size_t n = strlen(u), k = strlen(suf);
    return n > k && strcmp(u + n - k, suf) == 0;
}

static double metric_total(const cube_reader *r, int m)
{
    double v = 0;
    for (int c = 0; c < r->n_cnodes; c++)
        for (int l = 0; l < r->n_locations; l++)
            v += metric_incl(r, m, c, l);
    return v;
}

/* the subtree of metric ROOT, depth first (metric ids are in document order): each metric's
 * unique and display name, its depth below ROOT and its total (inclusive) */
static void write_subtree(FILE *out, const cube_reader *r, int root)
{
    fputc('[', out);
    int first = 1;
    for (int m = 0; root >= 0 && m < r->n_metrics; m++) {
        if (!under(r, m, root))
            continue;
        fputs(first ? "{" : ",{", out);
        first = 0;
        json_member(out, "uniq", r->metrics[m].uniq_name, true);
        json_member(out, "name", r->metrics[m].disp_name, false);
        json_key(out, "depth", false);
        json_u64(out, (uint64_t)depth_below(r, m, root));
        json_key(out, "seconds", false);
        json_double(out, metric_total(r, m));
        fputc('}', out);
    }
    fputc(']', out);
}

static void write_location(FILE *out, const cube_reader *r, int l)
{
    const cube_location *loc = &r->locations[l];
    json_key(out, "rank", false);
    json_u64(out, (uint64_t)r->locgroups[loc->locgroup].rank);
    json_key(out, "thread", false); /* the location's number in its process */
    json_u64(out, (uint64_t)(loc->rank < 0 ? 0 : loc->rank));
    json_member(out, "location", loc->name ? loc->name : "", false);
}

/* "delay": the root causes of the wait states (docs/analysis.md): the delay-cost tree, its
 * short- and long-term totals and the (call path, rank, thread) combinations with the largest
 * delay costs; "classes": the propagating/terminal and direct/indirect classification of the
 * point-to-point wait states. Absent metrics (an older scout.cubex) give empty lists. */
static void write_causes(FILE *out, const cube_reader *r)
{
    int delay = cube_reader_metric_by_name(r, "delay");
    top_rows top = {.n = 0};
    double all = 0, all_long = 0;
    for (int c = 0; delay >= 0 && c < r->n_cnodes; c++)
        for (int l = 0; l < r->n_locations; l++) {
            double v = metric_incl(r, delay, c, l), lt = 0;
            if (!(v > 0))
                continue;
            for (int m = 0; m < r->n_metrics; m++)
                if (longterm(r, m) && under(r, m, delay))
                    lt += cube_reader_stored(r, m, c, l);
            top_add(&top, (row){v, lt, 0, c, l});
            all += v;
            all_long += lt;
        }
    json_key(out, "delay", false);
    fputc('{', out);
    json_key(out, "total", true);
    json_double(out, all);
    json_key(out, "short_term", false);
    json_double(out, all - all_long);
    json_key(out, "long_term", false);
    json_double(out, all_long);
    json_key(out, "tree", false);
    write_subtree(out, r, delay);
    json_key(out, "causes", false);
    fputc('[', out);
    char buf[2048];
    for (size_t i = 0; i < top.n; i++) {
        const row *c = &top.r[i];
        fputs(i ? ",{" : "{", out);
        callpath(r, c->cnode, buf, sizeof buf);
        json_member(out, "callpath", buf, true);
        write_location(out, r, c->location);
        json_key(out, "seconds", false);
        json_double(out, c->v);
        json_key(out, "short_term", false);
        json_double(out, c->v - c->v2);
        json_key(out, "long_term", false);
        json_double(out, c->v2);
        json_key(out, "percent", false);
        json_double(out, all > 0 ? 100 * c->v / all : 0);
        fputc('}', out);
    }
    fputs("]}", out);
    json_key(out, "classes", false);
    fputc('{', out);
    static const char *const keys[] = {"mpi_wait_propagating", "mpi_wait_terminal",
                                       "mpi_wait_direct", "mpi_wait_indirect"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        int m = cube_reader_metric_by_name(r, keys[k]);
        json_key(out, keys[k] + strlen("mpi_wait_"), k == 0);
        json_double(out, m >= 0 ? metric_total(r, m) : 0);
    }
    json_key(out, "propagation", false);
    write_subtree(out, r, cube_reader_metric_by_name(r, "waitstates_propagating_vs_terminal"));
    json_key(out, "directness", false);
    write_subtree(out, r, cube_reader_metric_by_name(r, "waitstates_direct_vs_indirect"));
    fputc('}', out);
}

int report_write_waits(FILE *out, const char *path, char *err, size_t errlen)
{
    cube_reader *r = cube_reader_open(path, err, errlen);
    if (!r)
        return -1;
    int time = cube_reader_metric_by_name(r, "time");
    double total = 0;
    for (int c = 0; time >= 0 && c < r->n_cnodes; c++)
        for (int l = 0; l < r->n_locations; l++)
            total += metric_incl(r, time, c, l);
    top_rows top = {.n = 0}; /* what is printed, not every row */
    json_key(out, "waits", false);
    fputc('{', out);
    json_member(out, "mode", attr(r, "scorep-rt analysis"), true);
    json_member(out, "ccv", attr(r, "clock condition violations"), false);
    json_member(out, "pop_parallel", attr(r, "POP parallel efficiency"), false);
    json_member(out, "pop_load_balance", attr(r, "POP load balance"), false);
    json_member(out, "pop_communication", attr(r, "POP communication efficiency"), false);
    json_member(out, "pop_serialisation", attr(r, "POP serialisation efficiency"), false);
    json_member(out, "pop_transfer", attr(r, "POP transfer efficiency"), false);
    json_key(out, "time", false);
    json_double(out, total);
    json_key(out, "patterns", false);
    fputc('[', out);
    int first = 1;
    for (int p = 0; p < N_PATTERNS; p++) {
        int m = cube_reader_metric_by_name(r, patterns[p]);
        if (m < 0)
            continue;
        double sum = 0;
        for (int c = 0; c < r->n_cnodes; c++)
            for (int l = 0; l < r->n_locations; l++) {
                double v = metric_incl(r, m, c, l);
                sum += v;
                if (v > 0)
                    top_add(&top, (row){v, 0, p, c, l});
            }
        fputs(first ? "{" : ",{", out);
        first = 0;
        json_member(out, "uniq", patterns[p], true);
        json_member(out, "name", r->metrics[m].disp_name, false);
        json_key(out, "seconds", false);
        json_double(out, sum);
        json_key(out, "percent", false);
        json_double(out, total > 0 ? 100 * sum / total : 0);
        fputc('}', out);
    }
    fputc(']', out);
    json_key(out, "worst", false);
    fputc('[', out);
    char buf[2048];
    for (size_t i = 0; i < top.n; i++) {
        fputs(i ? ",{" : "{", out);
        json_member(out, "pattern", patterns[top.r[i].pattern], true);
        callpath(r, top.r[i].cnode, buf, sizeof buf);
        json_member(out, "callpath", buf, false);
        write_location(out, r, top.r[i].location);
        json_key(out, "seconds", false);
        json_double(out, top.r[i].v);
        fputc('}', out);
    }
    fputc(']', out);
    write_causes(out, r);
    /* the critical path: its call paths (all ranks together), longest first */
    int cp = cube_reader_metric_by_name(r, "critical_path");
    top.n = 0;
    for (int c = 0; cp >= 0 && c < r->n_cnodes; c++) {
        double v = 0;
        for (int l = 0; l < r->n_locations; l++)
            v += metric_incl(r, cp, c, l);
        if (v > 0)
            top_add(&top, (row){v, 0, 0, c, 0});
    }
    json_key(out, "critical_path", false);
    fputc('[', out);
    for (size_t i = 0; i < top.n; i++) {
        fputs(i ? ",{" : "{", out);
        callpath(r, top.r[i].cnode, buf, sizeof buf);
        json_member(out, "callpath", buf, true);
        json_key(out, "seconds", false);
        json_double(out, top.r[i].v);
        fputc('}', out);
    }
    fputs("]}", out);
    cube_reader_free(r);
    return 0;
}
