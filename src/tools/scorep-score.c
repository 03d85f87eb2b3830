/* scorep-score.c: summarises a .cubex profile the way Score-P's scorep-score does (trace
 * size estimate, time per region group, optionally per region), and lists the top regions.
 *
 *   scorep-score [-r] [-t N] [-s visits|time|excl|incl|name|max_buf] profile.cubex
 *   scorep-score --top N profile.cubex
 *
 * Groups: MPI, OMP, SHMEM, CUDA by region paradigm, SCOREP for the measurement paradigm,
 * USR for all other regions, COM for those USR regions that reach MPI/OpenMP/SHMEM in
 * their subtree. Trace bytes per visit follow OTF2's record sizes: an Enter and a Leave
 * record, each 1 + c(nRegions-1) bytes plus a 9-byte timestamp, where c(v) is the size of
 * OTF2's compressed integer (1 byte for 0, else 1 + significant bytes). max_buf is the
 * largest per-process sum; the aggregate is the sum over processes.
 *
 * --top N prints, after a header line, one row per region with the most exclusive time:
 *   rank  region  excl_time[s]  incl_time[s]  visits  min_excl[s]  max_excl[s]
 * The region column is padded but may contain blanks; the five numbers are always the
 * last five fields of a row. Times are summed over all locations; min/max are taken over
 * locations of the region's per-location exclusive time. Exit status 1 if the profile
 * cannot be read. */
#include "cube/cube.h"

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { G_ALL, G_USR, G_COM, G_MPI, G_OMP, G_SHMEM, G_CUDA, G_SCOREP, N_GROUPS };
static const char *const group_names[N_GROUPS] = {"ALL", "USR",   "COM",  "MPI",
                                                  "OMP", "SHMEM", "CUDA", "SCOREP"};

typedef enum { S_MAXBUF, S_VISITS, S_EXCL, S_INCL, S_NAME, S_TIME_PER_VISIT } sort_key;

typedef struct {
    bool regions;
    long limit; /* -t: region rows shown, 0 = all */
    long top;   /* --top N, 0 = off */
    sort_key sort;
    const char *path;
} options;

/* One row of a table: a group or a region. */
typedef struct {
    const char *name;
    int group;
    uint64_t max_buf, visits;
    double excl, incl, min_excl, max_excl;
} row;

typedef struct {
    const cube_reader *r;
    int visits, time;
    int *group_of; /* per region */
    row *regions;  /* per region */
    row groups[N_GROUPS];
    uint64_t total_buf;
    int max_locs_per_process;
} score;

/* ------------------------------------------------------------------ options */

static void usage(FILE *fp)
{
    fprintf(fp, "usage: scorep-score [-r] [-t N] [-s visits|time|excl|incl|name|max_buf] "
                "profile.cubex\n"
                "       scorep-score --top N profile.cubex\n"
                "  -r        also show one row per region\n"
                "  -t N      show only the first N region rows (implies -r)\n"
                "  -s KEY    sort order (default max_buf)\n"
                "  --top N   table of the N regions with the most exclusive time\n");
}

static int parse_count(const char *s, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v <= 0)
        return -1;
    *out = v;
    return 0;
}

static int parse_sort(const char *s, sort_key *k)
{
    static const struct {
        const char *name;
        sort_key key;
    } keys[] = {{"visits", S_VISITS},    {"time", S_EXCL},      {"excl", S_EXCL},
                {"incl", S_INCL},        {"name", S_NAME},      {"max_buf", S_MAXBUF},
                {"maxbuffer", S_MAXBUF}, {"totaltime", S_EXCL}, {"timepervisit", S_TIME_PER_VISIT}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (strcasecmp(s, keys[i].name) == 0) {
            *k = keys[i].key;
            return 0;
        }
    }
    return -1;
}

static int parse_options(int argc, char **argv, options *o)
{
    static const struct option longs[] = {{"top", required_argument, NULL, 'T'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "rt:s:h", longs, NULL)) != -1) {
        if (c == 'r') {
            o->regions = true;
        } else if (c == 't' && parse_count(optarg, &o->limit) == 0) {
            o->regions = true;
        } else if (c == 'T' && parse_count(optarg, &o->top) == 0) {
            continue;
        } else if (c == 's' && parse_sort(optarg, &o->sort) == 0) {
            continue;
        } else if (c == 'h') {
            usage(stdout);
            exit(0);
        } else {
            if (c == 't' || c == 'T' || c == 's')
                fprintf(stderr, "scorep-score: invalid argument '%s'\n", optarg);
            usage(stderr);
            return -1;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "scorep-score: expected exactly one profile file\n");
        usage(stderr);
        return -1;
    }
    o->path = argv[optind];
    return 0;
}

/* ------------------------------------------------------------------ classification */

/* Paradigm without Score-P's ":group" suffix, compared case-insensitively. */
static bool paradigm_is(const char *paradigm, const char *want)
{
    size_t n = strcspn(paradigm, ":");
    return strlen(want) == n && strncasecmp(paradigm, want, n) == 0;
}

static int paradigm_group(const char *paradigm)
{
    if (paradigm_is(paradigm, "mpi"))
        return G_MPI;
    if (paradigm_is(paradigm, "openmp"))
        return G_OMP;
    if (paradigm_is(paradigm, "shmem"))
        return G_SHMEM;
    if (paradigm_is(paradigm, "cuda"))
        return G_CUDA;
    if (paradigm_is(paradigm, "measurement"))
        return G_SCOREP;
    return G_USR;
}

static bool is_communication(int group)
{
    return group == G_MPI || group == G_OMP || group == G_SHMEM;
}

/* USR regions with a communication call anywhere below one of their cnodes become COM.
 * Each communication cnode marks its ancestors, stopping at the first one already marked,
 * so every cnode is marked at most once. */
static int classify_regions(score *s)
{
    const cube_reader *r = s->r;
    char *comm_below = calloc((size_t)r->n_cnodes + 1, 1);
    s->group_of = malloc(((size_t)r->n_regions + 1) * sizeof(int));
    if (comm_below == NULL || s->group_of == NULL) {
        free(comm_below);
        return -1;
    }
    for (int g = 0; g < r->n_regions; g++)
        s->group_of[g] = paradigm_group(r->regions[g].paradigm);
    for (int c = 0; c < r->n_cnodes; c++) {
        if (!is_communication(s->group_of[r->cnodes[c].region]))
            continue;
        for (int p = r->cnodes[c].parent; p >= 0 && !comm_below[p]; p = r->cnodes[p].parent)
            comm_below[p] = 1;
    }
    for (int c = 0; c < r->n_cnodes; c++)
        if (comm_below[c] && s->group_of[r->cnodes[c].region] == G_USR)
            s->group_of[r->cnodes[c].region] = G_COM;
    free(comm_below);
    return 0;
}

/* Size of OTF2's compressed unsigned integer. */
static unsigned compressed_size(uint64_t v)
{
    unsigned n = 1;
    while (v > 0) {
        n++;
        v >>= 8;
    }
    return n > 9 ? 9 : n;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Number of distinct parameter names (sorted, then counted). */
static int count_parameters(const cube_reader *r)
{
    const char **names = malloc(((size_t)r->n_cnodes + 1) * sizeof *names);
    int n = 0, distinct = 0;
    for (int c = 0; names != NULL && c < r->n_cnodes; c++)
        if (r->cnodes[c].param_name != NULL)
            names[n++] = r->cnodes[c].param_name;
    if (names != NULL)
        qsort(names, (size_t)n, sizeof *names, compare_strings);
    for (int i = 0; i < n; i++)
        distinct += i == 0 || strcmp(names[i], names[i - 1]) != 0;
    free(names);
    return distinct;
}

/* Bytes one visit of a cnode adds to the trace. A parameter cnode's visits are
 * ParameterInt/String records: timestamp + type + parameter ref + value (an int64 is at
 * most 9 compressed bytes; a string ref is estimated as a region-sized ref). */
static void visit_sizes(const cube_reader *r, uint64_t *region_visit, uint64_t *param_visit)
{
    uint64_t enter_leave = 1 + compressed_size((uint64_t)(r->n_regions > 0 ? r->n_regions - 1 : 0));
    *region_visit = 2 * (9 + enter_leave);
    int np = count_parameters(r);
    *param_visit = 9 + 1 + compressed_size((uint64_t)(np > 0 ? np - 1 : 0)) + 9;
}

/* ------------------------------------------------------------------ aggregation */

static uint64_t cnode_visits(const score *s, int c, int l)
{
    return cube_reader_value_bits(s->r, s->visits, c, l, CUBE_VIEW_EXCLUSIVE);
}

/* outer[c]: no ancestor of c calls the same region, so c's inclusive time is not already
 * part of an enclosing call of that region (recursion). One depth-first walk with a count
 * of open calls per region keeps this linear even for very deep call paths. */
static int mark_outer_calls(const cube_reader *r, bool *outer)
{
    int n = r->n_cnodes;
    int *off = calloc((size_t)n + 2, sizeof(int)), *kids = malloc(((size_t)n + 1) * sizeof(int));
    int *open = calloc((size_t)r->n_regions + 1, sizeof(int));
    int *stack = malloc(((size_t)n + 1) * sizeof(int)); /* entries: ~c = leave c, c = enter c */
    int rc = (off && kids && open && stack) ? 0 : -1;
    for (int c = 0; rc == 0 && c < n; c++)
        if (r->cnodes[c].parent >= 0)
            off[r->cnodes[c].parent + 2]++;
    for (int c = 0; rc == 0 && c < n; c++)
        off[c + 2] += off[c + 1];
    for (int c = 0; rc == 0 && c < n; c++)
        if (r->cnodes[c].parent >= 0)
            kids[off[r->cnodes[c].parent + 1]++] = c;
    for (int root = 0; rc == 0 && root < n; root++) {
        if (r->cnodes[root].parent >= 0)
            continue;
        int top = 0;
        stack[top++] = root;
        while (top > 0) {
            int e = stack[--top];
            if (e < 0) {
                open[r->cnodes[~e].region]--;
                continue;
            }
            outer[e] = open[r->cnodes[e].region]++ == 0;
            stack[top++] = ~e; /* each cnode holds at most one slot: enter, then leave */
            for (int i = off[e]; i < off[e + 1]; i++)
                stack[top++] = kids[i];
        }
    }
    free(off);
    free(kids);
    free(open);
    free(stack);
    return rc;
}

/* Groups cnodes by region (counting sort) so each region's cnodes are visited together. */
static int cnodes_by_region(const cube_reader *r, int **off, int **items)
{
    *off = calloc((size_t)r->n_regions + 2, sizeof(int));
    *items = malloc(((size_t)r->n_cnodes + 1) * sizeof(int));
    if (*off == NULL || *items == NULL)
        return -1;
    for (int c = 0; c < r->n_cnodes; c++)
        (*off)[r->cnodes[c].region + 2]++;
    for (int g = 0; g < r->n_regions; g++)
        (*off)[g + 2] += (*off)[g + 1];
    for (int c = 0; c < r->n_cnodes; c++)
        (*items)[(*off)[r->cnodes[c].region + 1]++] = c;
    return 0;
}

/* Byte estimates saturate instead of wrapping on absurd visit counts. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

/* Fills one region row; proc_bytes/loc_excl are zeroed scratch arrays it leaves zeroed.
 * loc_excl has 2 * n_locations entries: the second half marks locations that visited the
 * region, so min/max are taken over those only. */
static void aggregate_region(score *s, int g, const int *cn, int n, uint64_t visit_bytes,
                             uint64_t param_bytes, uint64_t *proc_bytes, double *loc_excl,
                             uint64_t *group_proc, const bool *outer)
{
    const cube_reader *r = s->r;
    row *w = &s->regions[g];
    w->name = r->regions[g].name;
    w->group = s->group_of[g];
    for (int i = 0; i < n; i++) {
        int c = cn[i];
        bool param = r->cnodes[c].param_name != NULL;
        bool top = outer[c];
        for (int l = 0; l < r->n_locations; l++) {
            uint64_t v = cnode_visits(s, c, l);
            double t = cube_reader_exclusive(r, s->time, c, l);
            uint64_t *pb = &proc_bytes[r->locations[l].locgroup];
            *pb = sat_add(*pb, sat_mul(v, param ? param_bytes : visit_bytes));
            w->visits = sat_add(w->visits, param ? 0 : v);
            w->excl += t;
            loc_excl[l] += t;
            if (v)
                loc_excl[r->n_locations + l] = 1.0;
            if (top)
                w->incl += cube_reader_inclusive(r, s->time, c, l);
        }
    }
    w->min_excl = INFINITY;
    w->max_excl = -INFINITY;
    for (int l = 0; l < r->n_locations; l++) {
        if (loc_excl[r->n_locations + l] != 0.0) {
            w->min_excl = fmin(w->min_excl, loc_excl[l]);
            w->max_excl = fmax(w->max_excl, loc_excl[l]);
        }
        loc_excl[l] = 0.0;
        loc_excl[r->n_locations + l] = 0.0;
    }
    if (w->min_excl > w->max_excl) /* visited nowhere */
        w->min_excl = w->max_excl = 0.0;
    for (int p = 0; p < r->n_locgroups; p++) {
        if (proc_bytes[p] > w->max_buf)
            w->max_buf = proc_bytes[p];
        uint64_t *own = &group_proc[(size_t)w->group * r->n_locgroups + p];
        uint64_t *all = &group_proc[(size_t)G_ALL * r->n_locgroups + p];
        *own = sat_add(*own, proc_bytes[p]);
        *all = sat_add(*all, proc_bytes[p]);
        proc_bytes[p] = 0;
    }
}

static void finish_groups(score *s, const uint64_t *group_proc)
{
    const cube_reader *r = s->r;
    for (int k = 0; k < N_GROUPS; k++) {
        s->groups[k].name = group_names[k];
        s->groups[k].group = k;
        for (int p = 0; p < r->n_locgroups; p++) {
            uint64_t b = group_proc[(size_t)k * r->n_locgroups + p];
            if (b > s->groups[k].max_buf)
                s->groups[k].max_buf = b;
            if (k == G_ALL)
                s->total_buf = sat_add(s->total_buf, b);
        }
    }
    for (int g = 0; g < r->n_regions; g++) {
        const row *w = &s->regions[g];
        for (int k = 0; k < 2; k++) {
            row *d = &s->groups[k == 0 ? G_ALL : w->group];
            d->visits = sat_add(d->visits, w->visits);
            d->excl += w->excl;
            d->incl += w->incl;
        }
    }
    int *per = calloc((size_t)r->n_locgroups + 1, sizeof(int));
    for (int l = 0; per != NULL && l < r->n_locations; l++)
        if (++per[r->locations[l].locgroup] > s->max_locs_per_process)
            s->max_locs_per_process = per[r->locations[l].locgroup];
    free(per);
}

static int compute(score *s)
{
    const cube_reader *r = s->r;
    uint64_t visit_bytes, param_bytes;
    int *off = NULL, *items = NULL;
    s->regions = calloc((size_t)r->n_regions + 1, sizeof(row));
    uint64_t *proc_bytes = calloc((size_t)r->n_locgroups + 1, sizeof(uint64_t));
    uint64_t *group_proc = calloc((size_t)N_GROUPS * r->n_locgroups + 1, sizeof(uint64_t));
    double *loc_excl = calloc(2 * (size_t)r->n_locations + 1, sizeof(double));
    bool *outer = calloc((size_t)r->n_cnodes + 1, sizeof(bool));
    int rc = (s->regions && proc_bytes && group_proc && loc_excl && outer) ? 0 : -1;
    if (rc == 0)
        rc = mark_outer_calls(r, outer);
    if (rc == 0)
        rc = classify_regions(s);
    if (rc == 0)
        rc = cnodes_by_region(r, &off, &items);
    if (rc == 0) {
        visit_sizes(r, &visit_bytes, &param_bytes);
        for (int g = 0; g < r->n_regions; g++)
            aggregate_region(s, g, items + off[g], off[g + 1] - off[g], visit_bytes, param_bytes,
                             proc_bytes, loc_excl, group_proc, outer);
        finish_groups(s, group_proc);
    }
    free(off);
    free(items);
    free(proc_bytes);
    free(group_proc);
    free(loc_excl);
    free(outer);
    return rc;
}

/* ------------------------------------------------------------------ printing */

static double time_per_visit(const row *w)
{
    return w->visits ? w->excl / (double)w->visits * 1e6 : 0.0;
}

/* Descending by the key (ascending for names and time per visit), ties by name. */
static int compare_rows(const void *pa, const void *pb, void *key)
{
    const row *a = pa, *b = pb;
    int c = 0;
    switch (*(const sort_key *)key) {
    case S_MAXBUF:
        c = (a->max_buf < b->max_buf) - (a->max_buf > b->max_buf);
        break;
    case S_VISITS:
        c = (a->visits < b->visits) - (a->visits > b->visits);
        break;
    case S_EXCL:
        c = (a->excl < b->excl) - (a->excl > b->excl);
        break;
    case S_INCL:
        c = (a->incl < b->incl) - (a->incl > b->incl);
        break;
    case S_TIME_PER_VISIT:
        c = (time_per_visit(a) > time_per_visit(b)) - (time_per_visit(a) < time_per_visit(b));
        break;
    case S_NAME:
        break;
    }
    return c ? c : strcmp(a->name, b->name);
}

/* Integer with thousands separators, as scorep-score prints them. */
static const char *grouped(uint64_t v, char *buf)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v), o = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

/* Score-P's human-readable sizes: divide while above 4 units, then round up. */
static void human_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *const units[] = {" bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
    int e = 0;
    while (bytes > 4 * 1024 && e < 6) {
        bytes /= 1024;
        e++;
    }
    snprintf(buf, len, "%" PRIu64 "%s", bytes + 1, units[e]);
}

typedef struct {
    int type, buf, visits, time, tpv;
} widths;

static void print_row(const row *w, const widths *wd, double total, bool region_row)
{
    char b1[40], b2[40];
    printf("    %*s %*s %*s %*.2f %7.1f %*.2f  %s\n", wd->type, group_names[w->group], wd->buf,
           grouped(w->max_buf, b1), wd->visits, grouped(w->visits, b2), wd->time, w->excl,
           total > 0 ? 100.0 * w->excl / total : 0.0, wd->tpv, time_per_visit(w),
           region_row ? w->name : group_names[w->group]);
}

static void print_summary(const score *s, const options *o)
{
    const row *all = &s->groups[G_ALL];
    char b[64], hint[64];
    const uint64_t page = 2 * 1024 * 1024;
    uint64_t mem =
        (all->max_buf > page ? all->max_buf : page) + page * (uint64_t)s->max_locs_per_process;
    human_bytes(s->total_buf, b, sizeof b);
    printf("\nEstimated aggregate size of event trace:                   %s\n", b);
    human_bytes(all->max_buf, b, sizeof b);
    printf("Estimated requirements for largest trace buffer (max_buf): %s\n", b);
    human_bytes(mem, hint, sizeof hint);
    printf("Estimated memory requirements (SCOREP_TOTAL_MEMORY):       %s\n", hint);
    printf("(hint: When tracing set SCOREP_TOTAL_MEMORY=%s to avoid intermediate flushes\n"
           " or reduce requirements using USR regions filters.)\n\n",
           hint);
    char b1[40];
    widths wd = {6, (int)strlen(grouped(all->max_buf, b1)), 0, 0, 14};
    wd.visits = (int)strlen(grouped(all->visits, b1));
    wd.buf = wd.buf < 10 ? 10 : wd.buf;
    wd.visits = wd.visits < 6 ? 6 : wd.visits;
    wd.time = snprintf(b1, sizeof b1, "%.2f", all->excl);
    wd.time = wd.time < 7 ? 7 : wd.time;
    printf("flt %*s %*s %*s %*s %7s %*s  %s\n", wd.type, "type", wd.buf, "max_buf[B]", wd.visits,
           "visits", wd.time, "time[s]", "time[%]", wd.tpv, "time/visit[us]", "region");
    row groups[N_GROUPS];
    memcpy(groups, s->groups, sizeof groups);
    sort_key key = o->sort;
    qsort_r(groups + 1, N_GROUPS - 1, sizeof(row), compare_rows, &key);
    for (int k = 0; k < N_GROUPS; k++)
        if (k == 0 || groups[k].visits > 0 || groups[k].excl != 0.0)
            print_row(&groups[k], &wd, all->excl, false);
    if (!o->regions)
        return;
    row *rows = malloc(((size_t)s->r->n_regions + 1) * sizeof(row));
    if (rows == NULL)
        return;
    int n = 0;
    for (int g = 0; g < s->r->n_regions; g++)
        if (s->regions[g].visits > 0 || s->regions[g].excl != 0.0)
            rows[n++] = s->regions[g];
    qsort_r(rows, (size_t)n, sizeof(row), compare_rows, &key);
    putchar('\n');
    for (int i = 0; i < n && (o->limit == 0 || i < o->limit); i++)
        print_row(&rows[i], &wd, all->excl, true);
    free(rows);
}

static void print_top(const score *s, long top)
{
    const cube_reader *r = s->r;
    row *rows = malloc(((size_t)r->n_regions + 1) * sizeof(row));
    if (rows == NULL)
        return;
    memcpy(rows, s->regions, (size_t)r->n_regions * sizeof(row));
    sort_key key = S_EXCL;
    qsort_r(rows, (size_t)r->n_regions, sizeof(row), compare_rows, &key);
    long n = top < r->n_regions ? top : r->n_regions;
    /* pad to the longest name, but not beyond 40 columns: longer C++ names just push
     * their numbers right, which keeps short names readable */
    int name_w = 6;
    for (long i = 0; i < n; i++)
        if ((int)strlen(rows[i].name) > name_w)
            name_w = (int)strlen(rows[i].name) < 40 ? (int)strlen(rows[i].name) : 40;
    printf("%4s  %-*s %14s %14s %14s %14s %14s\n", "rank", name_w, "region", "excl_time[s]",
           "incl_time[s]", "visits", "min_excl[s]", "max_excl[s]");
    for (long i = 0; i < n; i++)
        printf("%4ld  %-*s %14.6f %14.6f %14" PRIu64 " %14.6f %14.6f\n", i + 1, name_w,
               rows[i].name, rows[i].excl, rows[i].incl, rows[i].visits, rows[i].min_excl,
               rows[i].max_excl);
    free(rows);
}

int main(int argc, char **argv)
{
    options o = {.sort = S_MAXBUF};
    if (parse_options(argc, argv, &o) != 0)
        return 2;
    char err[1024];
    cube_reader *r = cube_reader_open(o.path, err, sizeof err);
    if (r == NULL) {
        fprintf(stderr, "scorep-score: %s\n", err);
        return 1;
    }
    score s = {.r = r};
    s.visits = cube_reader_metric_by_name(r, "visits");
    s.time = cube_reader_metric_by_name(r, "time");
    int rc = 0;
    if (s.visits < 0 || s.time < 0) {
        fprintf(stderr, "scorep-score: %s: profile has no '%s' metric\n", o.path,
                s.visits < 0 ? "visits" : "time");
        rc = 1;
    } else if (compute(&s) != 0) {
        fprintf(stderr, "scorep-score: out of memory\n");
        rc = 1;
    } else if (o.top > 0) {
        print_top(&s, o.top);
    } else {
        print_summary(&s, &o);
    }
    free(s.group_of);
    free(s.regions);
    cube_reader_free(r);
    if (fflush(stdout) != 0) {
        perror("scorep-score: writing output");
        return 1;
    }
    return rc;
}
