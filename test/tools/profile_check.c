/* SPDX-License-Identifier: BSD-3-Clause */
/* profile_check.c: test tool that checks a Cube4 profile for consistency (values that an
 * independent Cube reader would show as impossible) through the src/cube reader library. */
#include "cube/cube.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Relative tolerance of comparisons between sums of doubles (times are tick counts converted
 * to seconds; sums of converted children may exceed the converted parent by rounding). */
#define REL_TOL 1e-9
#define ABS_TOL 1e-15

typedef struct {
    const char *file;
    const cube_reader *r;
    int *child_off, *children; /* children of c: children[child_off[c] .. child_off[c+1]) */
    int visits, time, min_time, max_time;
    long violations;
    long max_print;
} checker;

static double tol(double a, double b)
{
    return REL_TOL * fmax(fabs(a), fabs(b)) + ABS_TOL;
}

static bool is_summed(cube_dtype t)
{
    return t == CUBE_DTYPE_UINT64 || t == CUBE_DTYPE_INT64 || t == CUBE_DTYPE_DOUBLE;
}

/* Metrics that count or measure something and therefore can never be negative; user
 * metrics (any other unit) may be. */
static bool is_nonnegative(const cube_metric *m)
{
    static const char *const units[] = {"sec", "occ", "bytes"};
    if (m->dtype == CUBE_DTYPE_UINT64)
        return true;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (m->uom && strcmp(m->uom, units[i]) == 0)
            return true;
    return false;
}

/* A parameter call path: our writer marks it with <parameter>; Score-P writes a region
 * named "name=value" with role "unknown" (user_api sample). */
static bool is_param(const cube_reader *r, int c)
{
    const cube_region *g = &r->regions[r->cnodes[c].region];
    if (r->cnodes[c].param_name)
        return true;
    return g->role && strcmp(g->role, "unknown") == 0 && g->name && strchr(g->name, '=');
}

/* The parameter's name, as (pointer, length), for grouping siblings. */
static size_t param_name(const cube_reader *r, int c, const char **name)
{
    if (r->cnodes[c].param_name) {
        *name = r->cnodes[c].param_name;
        return strlen(*name);
    }
    *name = r->regions[r->cnodes[c].region].name;
    return (size_t)(strchr(*name, '=') - *name);
}

/* THREADS: the root of a pthread's calls (Score-P before 6), below the program root since */
static bool is_thread_root(const cube_reader *r, int c)
{
    const cube_region *g = &r->regions[r->cnodes[c].region];
    int parent = r->cnodes[c].parent;
    return (parent < 0 || r->cnodes[parent].parent < 0) && !r->cnodes[c].param_name && g->name &&
           strcmp(g->name, "THREADS") == 0;
}

static void print_path(const cube_reader *r, int c)
{
    if (r->cnodes[c].parent >= 0) {
        print_path(r, r->cnodes[c].parent);
        fputc('/', stderr);
    }
    const cube_cnode *n = &r->cnodes[c];
    if (n->param_name && n->param_string)
        fprintf(stderr, "%s=%s", n->param_name, n->param_string);
    else if (n->param_name)
        fprintf(stderr, "%s=%lld", n->param_name, (long long)n->param_int);
    else
        fputs(r->regions[n->region].name, stderr);
}

static void violation(checker *k, int c, int l, const char *metric, const char *fmt, double a,
                      double b)
{
    if (k->violations++ >= k->max_print)
        return;
    fprintf(stderr, "profile_check: %s: cnode %d (", k->file, c);
    print_path(k->r, c);
    fprintf(stderr, ") location %d: %s: ", l, metric);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
}

static double incl(const checker *k, int m, int c, int l)
{
    return cube_reader_inclusive(k->r, m, c, l);
}

static double excl(const checker *k, int m, int c, int l)
{
    return cube_reader_exclusive(k->r, m, c, l);
}

/* Inclusive value not below zero nor below the children's sum; no value without visits. */
static void check_summed(checker *k, int m, int c, int l, double subtree_visits)
{
    const cube_metric *met = &k->r->metrics[m];
    double v = incl(k, m, c, l), kids = 0;
    for (int i = k->child_off[c]; i < k->child_off[c + 1]; i++)
        kids += incl(k, m, k->children[i], l);
    if (is_nonnegative(met)) {
        if (v < -tol(v, 0))
            violation(k, c, l, met->uniq_name, "inclusive value %g < 0%.0s", v, 0);
        if (v < kids - tol(v, kids))
            violation(k, c, l, met->uniq_name,
                      "inclusive value %.17g below the children's sum %.17g (negative exclusive)",
                      v, kids);
    }
    /* Scalasca's idle-thread patterns are the CPU time of threads that do not run there: a
     * wait-state report (scout.cubex) has them on the idle threads' locations at the master's
     * call paths, without visits (docs/analysis.md) */
    bool idle = strcmp(met->uniq_name, "omp_idle_threads") == 0 ||
                strcmp(met->uniq_name, "omp_limited_parallelism") == 0 ||
                /* square's computational imbalance tree (CubeLib's remapper): the underload
                 * of a location that does not visit a call path, imbalance_below_bypass */
                strncmp(met->uniq_name, "imbalance", strlen("imbalance")) == 0;
    /* and a metric above them holds them too (a stored value includes the sub-metrics,
     * CubeLib's rule): Time there is the idle time and nothing else */
    int im = cube_reader_metric_by_name(k->r, "omp_idle_threads");
    bool above = false;
    for (int a = im >= 0 ? k->r->metrics[im].parent : -1; a >= 0 && !above;
         a = k->r->metrics[a].parent)
        above = a == m;
    double idle_part = above ? incl(k, im, c, l) : 0;
    if (k->visits >= 0 && subtree_visits == 0 && !idle &&
        (above ? fabs(v - idle_part) > tol(v, idle_part) : v != 0))
        violation(k, c, l, met->uniq_name, "inclusive value %g on a call path without visits%.0s",
                  v, 0);
}

/* An OpenMP parallel region: role "parallel" (Score-P's; ours since session 27, before it
 * role "code", paradigm openmp, named "!$omp parallel @file:line": older files). */
static bool is_parallel(const cube_reader *r, int c)
{
    const cube_region *g = &r->regions[r->cnodes[c].region];
    if (r->cnodes[c].param_name || !g->name)
        return false;
    if (g->role && strcmp(g->role, "parallel") == 0)
        return true;
    return g->paradigm && strncmp(g->paradigm, "openmp", 6) == 0 &&
           strncmp(g->name, "!$omp parallel", strlen("!$omp parallel")) == 0;
}

/* The time of the outermost parallel regions below c on location l. A thread that runs in
 * a team it did not fork has its calls there under the fork's call path, which gets their
 * time but no visits (Score-P's expansion of thread start nodes adds the inclusive time to
 * every node of the path, not the count); at a node the thread also visits itself (a pooled
 * thread that joins another member's nested team) that time is no part of its visits. It
 * lies in these regions, so the visits' own time is at least the inclusive time less it. */
static double parallel_below(const checker *k, int c, int l)
{
    double t = 0;
    for (int i = k->child_off[c]; i < k->child_off[c + 1]; i++) {
        int ch = k->children[i];
        t += is_parallel(k->r, ch) ? incl(k, k->time, ch, l) : parallel_below(k, ch, l);
    }
    return t;
}

/* Where visited: 0 <= min <= inclusive time / visits, and the visits' own time (without
 * forked teams' time, parallel_below) / visits <= max. */
static void check_min_max(checker *k, int c, int l, double visits)
{
    double mn = excl(k, k->min_time, c, l), mx = excl(k, k->max_time, c, l);
    if (mn < -tol(mn, 0) || mn > mx + tol(mn, mx))
        violation(k, c, l, "min_time", "min_time %.17g, max_time %.17g (want 0 <= min <= max)", mn,
                  mx);
    if (k->time < 0)
        return;
    double t = incl(k, k->time, c, l), avg = t / visits;
    if (avg < mn - tol(avg, mn))
        violation(k, c, l, "min_time", "mean time per visit %.17g below min_time %.17g", avg, mn);
    double own = (t - parallel_below(k, c, l)) / visits;
    if (own > mx + tol(own, mx))
        violation(k, c, l, "max_time",
                  "mean time per visit %.17g (without parallel regions below) above max_time %.17g",
                  own, mx);
}

/* Score-P counts a thread root once per thread (so at most once per location), also for a
 * thread that entered no region, and always where the thread has call paths below it. */
static void check_thread_root(checker *k, int c, int l, double visits, double subtree_visits)
{
    if (visits > 1 || (visits == 0 && subtree_visits > 0))
        violation(k, c, l, "visits",
                  "thread root with %g visits, its subtree %g (want 1 per thread)", visits,
                  subtree_visits);
}

/* Score-P counts every setting of a parameter as a visit of its node; per parameter name,
 * the settings below one node are at most that node's visits. A thread that continues the
 * call path of an OpenMP fork has that path without visits, parameter nodes included. */
static void check_param(checker *k, int c, int l, double visits, double subtree_visits)
{
    int parent = k->r->cnodes[c].parent;
    if (parent < 0) {
        violation(k, c, l, "visits", "parameter node %g is a root%.0s", c, 0);
        return;
    }
    if (subtree_visits > 0 && visits < 1 && excl(k, k->visits, parent, l) > 0)
        violation(k, c, l, "visits", "parameter node with %g visits, its subtree %g", visits,
                  subtree_visits);
}

static bool same_param(const cube_reader *r, int a, int b)
{
    const char *na, *nb;
    if (!is_param(r, a) || !is_param(r, b))
        return false;
    size_t la = param_name(r, a, &na);
    return param_name(r, b, &nb) == la && strncmp(na, nb, la) == 0;
}

static void check_param_siblings(checker *k, int c, int l, double visits)
{
    const int *kid = k->children + k->child_off[c];
    int n = k->child_off[c + 1] - k->child_off[c];
    for (int i = 0; i < n; i++) {
        bool seen = !is_param(k->r, kid[i]);
        for (int j = 0; j < i && !seen; j++)
            seen = same_param(k->r, kid[i], kid[j]);
        if (seen)
            continue; /* each parameter name is summed at its first child */
        double sum = 0;
        for (int j = i; j < n; j++)
            if (same_param(k->r, kid[i], kid[j]))
                sum += excl(k, k->visits, kid[j], l);
        if (sum > visits)
            violation(k, c, l, "visits",
                      "parameter children set %g times under a node visited %g times", sum, visits);
    }
}

static void check_node(checker *k, int c, int l)
{
    const cube_reader *r = k->r;
    double visits = 0, subtree = 1;
    if (k->visits >= 0) {
        visits = excl(k, k->visits, c, l);
        subtree = incl(k, k->visits, c, l);
    }
    for (int m = 0; m < r->n_metrics; m++)
        if (is_summed(r->metrics[m].dtype))
            check_summed(k, m, c, l, subtree);
    if (k->visits < 0)
        return;
    if (visits > 0 && k->min_time >= 0 && k->max_time >= 0)
        check_min_max(k, c, l, visits);
    if (is_thread_root(r, c))
        check_thread_root(k, c, l, visits, subtree);
    if (is_param(r, c))
        check_param(k, c, l, visits, subtree);
    check_param_siblings(k, c, l, visits);
}

static int build_children(checker *k)
{
    const cube_reader *r = k->r;
    int n = r->n_cnodes;
    k->child_off = calloc((size_t)n + 2, sizeof *k->child_off);
    k->children = malloc(((size_t)n + 1) * sizeof *k->children);
    if (!k->child_off || !k->children)
        return -1;
    for (int c = 0; c < n; c++)
        if (r->cnodes[c].parent >= 0)
            k->child_off[r->cnodes[c].parent + 2]++;
    for (int c = 0; c < n; c++)
        k->child_off[c + 2] += k->child_off[c + 1];
    for (int c = 0; c < n; c++)
        if (r->cnodes[c].parent >= 0)
            k->children[k->child_off[r->cnodes[c].parent + 1]++] = c;
    return 0;
}

static bool one_of(const char *s, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(s, *set) == 0)
            return true;
    return false;
}

/* The system tree as CubeLib reads it: location group types process, metrics, accelerator
 * (LocationGroup::getLocationGroupType), location types thread, gpu, accelerator stream,
 * metric (Location::getLocationType; anything else is an AnchorSyntaxError there); an
 * accelerator group names the process that created it (Score-P's scorep-score adds its
 * values to that process and warns without it). */
static void check_system(checker *k)
{
    static const char *const group_types[] = {"process", "metrics", "accelerator", NULL};
    static const char *const location_types[] = {"thread", "gpu", "accelerator stream", "metric",
                                                 NULL};
    const cube_reader *r = k->r;
    for (int g = 0; g < r->n_locgroups; g++) {
        const cube_locgroup *lg = &r->locgroups[g];
        if (!one_of(lg->type, group_types)) {
            fprintf(stderr, "profile_check: %s: location group %d '%s': type '%s' is not one CubeLib reads\n",
                    k->file, g, lg->name, lg->type);
            k->violations++;
        }
        if (strcmp(lg->type, "accelerator") != 0)
            continue;
        bool known = false;
        for (int q = 0; lg->creator && q < r->n_locgroups && !known; q++)
            known = strcmp(r->locgroups[q].type, "process") == 0 &&
                    strcmp(r->locgroups[q].name, lg->creator) == 0;
        if (!known) {
            fprintf(stderr,
                    "profile_check: %s: accelerator group %d '%s': 'Creating location group' %s%s%s names no process\n",
                    k->file, g, lg->name, lg->creator ? "'" : "", lg->creator ? lg->creator : "missing",
                    lg->creator ? "'" : "");
            k->violations++;
        }
    }
    for (int l = 0; l < r->n_locations; l++)
        if (!one_of(r->locations[l].type, location_types)) {
            fprintf(stderr, "profile_check: %s: location %d '%s': type '%s' is not one CubeLib reads\n",
                    k->file, l, r->locations[l].name, r->locations[l].type);
            k->violations++;
        }
}

static bool written_by_us(const cube_reader *r)
{
    for (int i = 0; i < r->n_attrs; i++)
        if (strcmp(r->attr_keys[i], "Creator") == 0)
            return strncmp(r->attr_values[i], "scorep-rt", 9) == 0;
    return false;
}

/* Whether process lg ("MPI Rank N") is one that scorep-recover lists as missing (the Cube
 * attribute "scorep-rt ranks missing": "1, 4, 5"): it left no piece, so its location is
 * there (the job's ranks stay in order) without data, the program root not visited. */
static bool missing_rank(const cube_reader *r, int lg)
{
    int rank;
    char rest;
    if (sscanf(r->locgroups[lg].name, "MPI Rank %d%c", &rank, &rest) != 1)
        return false;
    for (int i = 0; i < r->n_attrs; i++) {
        if (strcmp(r->attr_keys[i], "scorep-rt ranks missing") != 0)
            continue;
        for (const char *p = r->attr_values[i]; *p;) {
            char *end;
            long m = strtol(p, &end, 10);
            if (end == p)
                return false;
            if (m == rank)
                return true;
            p = end + strspn(end, ", ");
        }
    }
    return false;
}

static void root_violation(checker *k, const char *fmt, const char *what, double v)
{
    fprintf(stderr, "profile_check: %s: program root: ", k->file);
    fprintf(stderr, fmt, what, v);
    fputc('\n', stderr);
    k->violations++;
}

/* A profile of ours (Creator scorep-rt) has Score-P's program root (6 and later,
 * SCOREP_RuntimeManagement.c): one root call path, an artificial region of paradigm
 * measurement, visited once on each process's first location (ProgramBegin to ProgramEnd)
 * and never elsewhere; other locations' calls lie below it (time without visits). Its
 * inclusive time on the first location is the run, longer than on any other location of
 * the process (1 ms for the few ticks between the locations' ends at finalize). A rank that
 * scorep-recover lists as missing has its location without any visit. */
static void check_program_root(checker *k)
{
    const cube_reader *r = k->r;
    int root = -1, roots = 0;
    for (int c = 0; c < r->n_cnodes; c++)
        if (r->cnodes[c].parent < 0)
            root = roots++ ? root : c;
    if (roots != 1) {
        root_violation(k, "%s %g root call paths (want 1)", "", roots);
        return;
    }
    const cube_region *g = &r->regions[r->cnodes[root].region];
    if (r->cnodes[root].param_name || !g->paradigm || strcmp(g->paradigm, "measurement") != 0 ||
        !g->role || strcmp(g->role, "artificial") != 0)
        root_violation(k, "'%s' is not an artificial region of paradigm measurement%.0g",
                       g->name, 0);
    if (k->visits < 0 || k->time < 0)
        return;
    for (int lg = 0; lg < r->n_locgroups; lg++) {
        bool process = strcmp(r->locgroups[lg].type, "process") == 0, first = true;
        bool missing = process && missing_rank(r, lg);
        double run = 0;
        for (int l = 0; l < r->n_locations; l++) {
            if (r->locations[l].locgroup != lg)
                continue;
            double v = excl(k, k->visits, root, l), t = incl(k, k->time, root, l);
            if (v != (first && process && !missing ? 1 : 0))
                root_violation(k, "location '%s' has %g visits (want 1 on a process's first "
                                  "location, else 0; 0 on a rank listed as missing)",
                               r->locations[l].name, v);
            if (first)
                run = t;
            else if (process && t > run + 1e-3)
                root_violation(k, "location '%s' longer than its process's run: %g s",
                               r->locations[l].name, t - run);
            first = false;
        }
    }
}

static int check_file(const char *path, long max_print, bool quiet)
{
    char err[512];
    cube_reader *r = cube_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "profile_check: %s: %s\n", path, err);
        return 2;
    }
    checker k = {path, r, NULL, NULL, -1, -1, -1, -1, 0, max_print};
    k.visits = cube_reader_metric_by_name(r, "visits");
    k.time = cube_reader_metric_by_name(r, "time");
    k.min_time = cube_reader_metric_by_name(r, "min_time");
    k.max_time = cube_reader_metric_by_name(r, "max_time");
    int rc = build_children(&k);
    if (rc != 0)
        fprintf(stderr, "profile_check: %s: out of memory\n", path);
    check_system(&k);
    if (written_by_us(r))
        check_program_root(&k);
    for (int c = 0; rc == 0 && c < r->n_cnodes; c++)
        for (int l = 0; l < r->n_locations; l++)
            check_node(&k, c, l);
    if (k.violations > max_print)
        fprintf(stderr, "profile_check: %s: %ld more violations\n", path, k.violations - max_print);
    if (rc == 0 && k.violations == 0 && !quiet)
        printf("profile_check: %s: ok (%d metrics, %d call paths, %d locations)\n", path,
               r->n_metrics, r->n_cnodes, r->n_locations);
    free(k.child_off);
    free(k.children);
    cube_reader_free(r);
    return rc != 0 ? 2 : k.violations ? 1 : 0;
}

int main(int argc, char **argv)
{
    bool quiet = false;
    int i = 1, rc = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-q") == 0) {
            quiet = true;
        } else {
            fprintf(stderr, "profile_check: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    if (i == argc) {
        fprintf(stderr, "usage: profile_check [-q] file.cubex...\n"
                        "Checks every metric, call path and location of each profile: inclusive\n"
                        "values >= 0 and >= their children's sum, nothing on call paths without\n"
                        "visits, min_time <= time/visits <= max_time, visits of THREADS roots\n"
                        "and parameter nodes as Score-P counts them; in scorep-rt's profiles\n"
                        "the program root (one, visited once on each process's first location);\n"
                        "location group and\n"
                        "location types CubeLib reads, every accelerator group's creator a\n"
                        "process. Exit status 1: violations.\n");
        return 2;
    }
    for (; i < argc; i++) {
        int r = check_file(argv[i], 20, quiet);
        rc = r > rc ? r : rc;
    }
    return rc;
}
