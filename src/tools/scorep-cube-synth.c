/* SPDX-License-Identifier: BSD-3-Clause */
/* scorep-cube-synth.c: writes a synthetic Cube4 profile of any size (issue #19) for tests
 * and benchmarks, through the writer that writes profiles at finalize at scale: a
 * cube_plan whose rows every (here simulated) process writes its slice of, a streamed
 * system tree, anchor.xml last. --writer gather writes the same profile the way a single
 * process holding everything does (cube_writer_write), for comparison.
 *
 * Values (so that tests can derive them independently), for call path c, location l:
 *   time      INCLUSIVE DOUBLE: the stored row is the subtree sum of the exclusive time
 *             excl(c, l) = ((31 c + 17 l) mod 97 + 1) / 1000
 *   visits    EXCLUSIVE UINT64: (c + l) mod 5 + 1
 *   metric_k  EXCLUSIVE UINT64 (k = 2 .. M-1): (k c + l) mod 1000
 * Call paths are numbered depth-first (pre-order), as the file numbers them; the region of
 * call path c is "main" for c = 0 and "region_<c>" otherwise. Locations: one thread per
 * process unless --threads; --ranks-per-node processes on a node. */
#include "cube/cube.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    uint64_t locations, threads, ranks_per_node, writers;
    int cnodes, metrics;
    const char *shape, *out;
    int gather, compress, metric_tree;
} options;

static int usage(FILE *fp, int rc)
{
    fprintf(
        fp,
        "usage: scorep-cube-synth --locations N --cnodes C --shape binary|linear|flat|real-like\n"
        "                         --metrics M -o FILE [options]\n"
        "  --threads T          locations per process (default 1; must divide N)\n"
        "  --ranks-per-node R   processes per system-tree node (default 64)\n"
        "  --writers W          simulated processes writing rows (default: one per\n"
        "                       process up to 1024, else groups of processes)\n"
        "  --writer gather      one process holds everything (today's finalize writer)\n"
        "  --compress           with --writer gather: zlib rows\n"
        "  --metric-tree        metric_2 .. metric_M-1 below visits in the metric tree\n"
        "Prints one JSON line (sizes, seconds, peak_rss_bytes). Exit 2 on bad arguments.\n");
    return rc;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-')
        return -1;
    *v = x;
    return 0;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){0, 1, 64, 0, 0, 0, NULL, NULL, 0, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x = 0;
        if (!strcmp(a, "--compress") || !strcmp(a, "--metric-tree")) {
            *(a[2] == 'c' ? &o->compress : &o->metric_tree) = 1;
            continue;
        }
        if (v == NULL)
            return -1;
        i++;
        if (!strcmp(a, "--shape"))
            o->shape = v;
        else if (!strcmp(a, "-o"))
            o->out = v;
        else if (!strcmp(a, "--writer") && (!strcmp(v, "gather") || !strcmp(v, "plan")))
            o->gather = !strcmp(v, "gather");
        else if (parse_u64(v, &x) != 0)
            return -1;
        else if (!strcmp(a, "--locations"))
            o->locations = x;
        else if (!strcmp(a, "--threads"))
            o->threads = x;
        else if (!strcmp(a, "--ranks-per-node"))
            o->ranks_per_node = x;
        else if (!strcmp(a, "--writers"))
            o->writers = x;
        else if (!strcmp(a, "--cnodes") && x <= INT32_MAX)
            o->cnodes = (int)x;
        else if (!strcmp(a, "--metrics") && x <= 1000)
            o->metrics = (int)x;
        else
            return -1;
    }
    if (!o->locations || o->locations > INT32_MAX || !o->cnodes || !o->metrics || !o->shape ||
        !o->out || !o->threads || o->locations % o->threads || !o->ranks_per_node)
        return -1;
    uint64_t procs = o->locations / o->threads;
    if (o->writers == 0)
        o->writers = procs < 1024 ? procs : 1024;
    return o->writers <= procs ? 0 : -1;
}

/* ---------------------------------------------------------------- call tree */
/* Parent of node i (in generation order) for each shape; real-like: a program's shape,
 * a main loop with phases whose kernels nest a few levels (deterministic). */
static int gen_parent(const char *shape, int i, uint64_t *rng)
{
    if (i == 0)
        return -1;
    if (!strcmp(shape, "binary"))
        return (i - 1) / 2;
    if (!strcmp(shape, "linear"))
        return i - 1;
    if (!strcmp(shape, "flat"))
        return 0;
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t r = *rng >> 33;
    if (i < 4)
        return i == 1 ? 0 : 1;   /* main -> loop -> first phase */
    int back = (int)(r % 6) + 1; /* near the last nodes: chains and small fan-outs */
    return i - back < 1 ? 1 : i - back;
}

/* Renumbers the generated tree depth-first (pre-order), children in generation order. */
static int preorder_parents(const char *shape, int n, int *parent)
{
    int *gp = malloc(n * sizeof *gp), *first = malloc(n * sizeof *first),
        *next = malloc(n * sizeof *next), *last = malloc(n * sizeof *last),
        *stack = malloc((n + 1) * sizeof *stack), *newid = malloc(n * sizeof *newid);
    int rc = gp && first && next && last && stack && newid ? 0 : -1;
    uint64_t rng = 42;
    for (int i = 0; rc == 0 && i < n; i++) {
        gp[i] = gen_parent(shape, i, &rng);
        first[i] = last[i] = next[i] = -1;
        if (gp[i] >= 0) {
            if (last[gp[i]] >= 0)
                next[last[gp[i]]] = i;
            else
                first[gp[i]] = i;
            last[gp[i]] = i;
        }
    }
    int top = 0, k = 0;
    if (rc == 0)
        stack[top++] = 0;
    while (rc == 0 && top > 0) {
        int v = stack[--top], m = 0;
        newid[v] = k++;
        parent[newid[v]] = gp[v] < 0 ? -1 : newid[gp[v]];
        for (int c = first[v]; c >= 0; c = next[c])
            m++;
        int at = top + m;
        top = at;
        for (int c = first[v]; c >= 0; c = next[c])
            stack[--at] = c; /* first child on top */
    }
    free(gp);
    free(first);
    free(next);
    free(last);
    free(stack);
    free(newid);
    return rc == 0 && k == n ? 0 : -1;
}

/* ---------------------------------------------------------------- values */
static double excl_time(int c, uint64_t l)
{
    return (double)((31 * (uint64_t)c + 17 * l) % 97 + 1) / 1000.0;
}

static uint64_t int_value(int k, int c, uint64_t l)
{
    return k == 1 ? ((uint64_t)c + l) % 5 + 1 : ((uint64_t)k * (uint64_t)c + l) % 1000;
}

static uint64_t bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* The rows of metric k for locations [first, first + n): row[c * n + j]. Time is summed
 * over the subtree: children follow their parents in pre-order, so a reverse pass does. */
static void fill_rows(int k, const int *parent, int C, uint64_t first, uint64_t n, uint64_t *row,
                      double *tmp)
{
    if (k == 0) {
        for (int c = 0; c < C; c++)
            for (uint64_t j = 0; j < n; j++)
                tmp[(size_t)c * n + j] = excl_time(c, first + j);
        for (int c = C - 1; c > 0; c--)
            for (uint64_t j = 0; j < n; j++)
                tmp[(size_t)parent[c] * n + j] += tmp[(size_t)c * n + j];
        for (size_t i = 0; i < (size_t)C * n; i++)
            row[i] = bits(tmp[i]);
        return;
    }
    for (int c = 0; c < C; c++)
        for (uint64_t j = 0; j < n; j++)
            row[(size_t)c * n + j] = int_value(k, c, first + j);
}

/* ---------------------------------------------------------------- definitions */
static int define(cube_writer *w, const options *o, const int *parent, int *mparent,
                  cube_metric_kind *kind)
{
    int rc = cube_writer_attr(w, "Creator", "scorep-cube-synth");
    for (int k = 0; rc == 0 && k < o->metrics; k++) {
        char name[32];
        snprintf(name, sizeof name, "metric_%d", k);
        kind[k] = k == 0 ? CUBE_INCLUSIVE : CUBE_EXCLUSIVE;
        mparent[k] = o->metric_tree && k >= 2 ? 1 : -1;
        rc = cube_writer_metric(w, mparent[k],
                                k == 0   ? "time"
                                : k == 1 ? "visits"
                                         : name,
                                k == 0   ? "Time"
                                : k == 1 ? "Visits"
                                         : name,
                                k == 0 ? CUBE_DTYPE_DOUBLE : CUBE_DTYPE_UINT64,
                                k == 0   ? "sec"
                                : k == 1 ? "occ"
                                         : "#",
                                "synthetic", kind[k]) == k
                 ? 0
                 : -1;
    }
    for (int c = 0; rc == 0 && c < o->cnodes; c++) {
        char name[32];
        snprintf(name, sizeof name, "region_%d", c);
        rc = cube_writer_region(w, c ? name : "main", c ? name : "main", "user", "function",
                                "synth.c", c + 1, c + 1, "") == c &&
                     cube_writer_cnode(w, parent[c], c) == c
                 ? 0
                 : -1;
    }
    return rc;
}

/* The system tree: machine / node<i> (ranks_per_node processes) / rank / threads. */
static int stream_system(void *arg, cube_system_sink *s)
{
    const options *o = arg;
    uint64_t procs = o->locations / o->threads;
    int64_t root = cube_sink_stnode(s, -1, "Synthetic machine", "machine"), node = -1;
    for (uint64_t p = 0; root >= 0 && p < procs; p++) {
        char name[48];
        if (p % o->ranks_per_node == 0) {
            snprintf(name, sizeof name, "node%06" PRIu64, p / o->ranks_per_node);
            if ((node = cube_sink_stnode(s, root, name, "node")) < 0)
                return -1;
        }
        snprintf(name, sizeof name, "MPI Rank %" PRIu64, p);
        int64_t g = cube_sink_locgroup(s, node, name, (int)p, "process");
        for (uint64_t t = 0; g >= 0 && t < o->threads; t++) {
            snprintf(name, sizeof name, "thread %" PRIu64, t);
            if (cube_sink_location(s, g, name, (int)t, "thread") < 0)
                return -1;
        }
        if (g < 0)
            return -1;
    }
    return root >= 0 ? 0 : -1;
}

static int define_system(cube_writer *w, const options *o)
{
    uint64_t procs = o->locations / o->threads;
    int root = cube_writer_stnode(w, -1, "Synthetic machine", "machine"), node = -1, rc = 0;
    for (uint64_t p = 0; rc == 0 && p < procs; p++) {
        char name[48];
        if (p % o->ranks_per_node == 0) {
            snprintf(name, sizeof name, "node%06" PRIu64, p / o->ranks_per_node);
            node = cube_writer_stnode(w, root, name, "node");
        }
        snprintf(name, sizeof name, "MPI Rank %" PRIu64, p);
        int g = cube_writer_locgroup(w, node, name, (int)p, "process");
        for (uint64_t t = 0; g >= 0 && t < o->threads; t++) {
            snprintf(name, sizeof name, "thread %" PRIu64, t);
            rc = cube_writer_location(w, g, name, (int)t, "thread") < 0 ? -1 : 0;
        }
        rc = g < 0 ? -1 : rc;
    }
    return rc;
}

/* ---------------------------------------------------------------- the two writers */
/* Every simulated writer owns a block of whole processes and writes its slice of every
 * row; what it holds is that slice: C x (its locations) values of one metric. */
static int write_planned(const options *o, const int *parent, cube_writer *w, const int *mparent,
                         const cube_metric_kind *kind, char *err, size_t errlen)
{
    cube_plan_desc d = {o->metrics, mparent, kind, o->cnodes, parent, o->locations, NULL};
    cube_plan *p = cube_plan_new(&d);
    int fd = p ? open(o->out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    int rc = fd >= 0 && cube_plan_write_frame(p, fd) == 0 ? 0 : -1;
    uint64_t procs = o->locations / o->threads;
    for (uint64_t r = 0; rc == 0 && r < o->writers; r++) {
        uint64_t first = procs * r / o->writers * o->threads,
                 n = procs * (r + 1) / o->writers * o->threads - first;
        uint64_t *row = malloc((size_t)o->cnodes * n * sizeof *row);
        double *tmp = malloc((size_t)o->cnodes * n * sizeof *tmp);
        rc = row && tmp ? 0 : -1;
        for (int k = 0; rc == 0 && k < o->metrics; k++) {
            fill_rows(k, parent, o->cnodes, first, n, row, tmp);
            for (int c = 0; rc == 0 && c < o->cnodes; c++)
                rc = cube_plan_write_slice(p, fd, k, c, first, n, row + (size_t)c * n);
        }
        free(row);
        free(tmp);
    }
    if (rc != 0)
        snprintf(err, errlen, "cannot write %s: %s", o->out, strerror(errno));
    if (fd >= 0 && close(fd) != 0 && rc == 0) {
        rc = -1;
        snprintf(err, errlen, "cannot write %s: %s", o->out, strerror(errno));
    }
    if (rc == 0)
        rc = cube_writer_system_stream(w, o->locations, stream_system, (void *)o) == 0
                 ? cube_writer_write_anchor(w, p, o->out, err, errlen)
                 : -1;
    cube_plan_free(p);
    return rc;
}

static int write_gathered(const options *o, const int *parent, cube_writer *w, char *err,
                          size_t errlen)
{
    int rc = define_system(w, o);
    uint64_t *row = malloc((size_t)o->cnodes * o->locations * sizeof *row);
    double *tmp = malloc((size_t)o->cnodes * o->locations * sizeof *tmp);
    rc = rc == 0 && row && tmp ? 0 : -1;
    for (int k = 0; rc == 0 && k < o->metrics; k++) {
        fill_rows(k, parent, o->cnodes, 0, o->locations, row, tmp);
        for (int c = 0; rc == 0 && c < o->cnodes; c++)
            for (uint64_t l = 0; rc == 0 && l < o->locations; l++) {
                uint64_t v = row[(size_t)c * o->locations + l];
                double d;
                memcpy(&d, &v, sizeof d);
                rc = k == 0 ? cube_writer_set_double(w, k, c, (int)l, d)
                            : cube_writer_set_u64(w, k, c, (int)l, v);
            }
    }
    free(row);
    free(tmp);
    if (rc != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return cube_writer_write(w, o->out, o->compress, err, errlen);
}

int main(int argc, char **argv)
{
    options o;
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
        return usage(stdout, 0);
    if (parse(argc, argv, &o) != 0 || (strcmp(o.shape, "binary") && strcmp(o.shape, "linear") &&
                                       strcmp(o.shape, "flat") && strcmp(o.shape, "real-like"))) {
        fprintf(stderr, "scorep-cube-synth: bad or missing arguments\n");
        return usage(stderr, 2);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int *parent = malloc((size_t)o.cnodes * sizeof *parent),
        *mparent = malloc(o.metrics * sizeof *mparent);
    cube_metric_kind *kind = malloc(o.metrics * sizeof *kind);
    cube_writer *w = cube_writer_new();
    char err[512] = "out of memory";
    int rc = parent && mparent && kind && w && preorder_parents(o.shape, o.cnodes, parent) == 0 &&
                     define(w, &o, parent, mparent, kind) == 0
                 ? 0
                 : -1;
    if (rc == 0)
        rc = o.gather ? write_gathered(&o, parent, w, err, sizeof err)
                      : write_planned(&o, parent, w, mparent, kind, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cube_writer_free(w);
    free(parent);
    free(mparent);
    free(kind);
    if (rc != 0) {
        fprintf(stderr, "scorep-cube-synth: %s\n", err);
        remove(o.out);
        return 1;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("{\"locations\":%" PRIu64 ",\"cnodes\":%d,\"metrics\":%d,\"writers\":%" PRIu64
           ",\"writer\":\"%s\",\"seconds\":%.3f,\"peak_rss_bytes\":%ld}\n",
           o.locations, o.cnodes, o.metrics, o.gather ? 1 : o.writers, o.gather ? "gather" : "plan",
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9,
           ru.ru_maxrss * 1024L);
    return 0;
}
