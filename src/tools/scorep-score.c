/* SPDX-License-Identifier: BSD-3-Clause */
/* scorep-score.c: Score-P's scorep-score for our profiles: estimated trace size and memory,
 * time and visits per region group and region, the effect of a filter (-f) and a starting
 * filter file (-g). The numbers come from tools/score/score_model.c, the layout from
 * score_print.c, the filter file from score_filter_gen.c. Our additions: -t N (region
 * rows shown) and --top N (regions with the most exclusive time), and under mpirun the
 * distributed Cube engine (src/cube/cube_engine.h) holds the values, each process a share
 * of the call paths; rank 0 prints the same output. */
#include "cube/cube_engine.h"
#include "cube/cube_engine_mpi.h"
#include "tools/score/score_filter_gen.h"
#include "tools/score/score_model.h"
#include "tools/score/score_print.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef struct {
    bool regions, mangled, generate, engine;
    int how;         /* cube_enum_method of the engine */
    long threads;    /* the engine's threads per process */
    long limit, top; /* -t N (0 = all), --top N (0 = off) */
    unsigned counters;
    score_sort sort;
    const char *filter, *path;
    score_gen_params gen;
} options;

static void usage(FILE *fp)
{
    fprintf(fp,
            "Usage: scorep-score [options] <profile>\n"
            "  <profile>  a profile.cubex, or an experiment directory holding one\n"
            "Options:\n"
            "  -r          also show one row per region\n"
            "  -h, --help  show this help and exit\n"
            "  -f <filter> show the effect of the filter file: the flt column marks regions\n"
            "              it removes (+) and keeps (-); the estimate is for the filtered run\n"
            "  -c <num>    number of metric values recorded at every enter and leave\n"
            "              (SCOREP_METRIC_*); default 0; each adds 24 bytes per event\n"
            "  -m          print mangled region names instead of demangled ones\n"
            "  -g [<list>] write initial_scorep.filter with the frequently called, cheap\n"
            "              USR regions; <list> is key=value,... of:\n"
            "                bufferpercent=<0-100>  share of max_buf a region needs (1)\n"
            "                timepervisit=<us>      at most this time per visit (1)\n"
            "                visits=<n>             at least this many visits (0)\n"
            "                bufferabsolute=<MiB>   at least this much buffer (0)\n"
            "                type=usr|com|both      region types to list (usr)\n"
            "  -s <order>  sort rows by totaltime, timepervisit, maxbuffer (default),\n"
            "              visits or name\n"
            "  -t <num>    show only the first <num> region rows (implies -r)\n"
            "  --top <num> instead of the table: the <num> regions with the most exclusive time\n"
            "  --engine    use the distributed engine with one process too (always under mpirun)\n"
            "  --enumeration deepest-chain|plain|round-robin|shuffle\n"
            "              how the engine shares the call paths among processes (docs/scale.md)\n"
            "  --threads <num>  the engine's threads per process for local work (default 1)\n"
            "The buffer estimate counts our trace buffer's records: 16 bytes per enter or\n"
            "leave, 24 per metric value or parameter, 64 per MPI record (docs/user-guide.md).\n");
}

static int parse_count(const char *s, long min, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno != 0 || v < min || v > 1000000000L)
        return -1;
    *out = v;
    return 0;
}

static int parse_sort(const char *s, score_sort *k)
{
    static const struct {
        const char *name;
        score_sort key;
    } keys[] = {{"totaltime", SORT_TOTALTIME}, {"timepervisit", SORT_TIMEPERVISIT},
                {"maxbuffer", SORT_MAXBUF},    {"visits", SORT_VISITS},
                {"name", SORT_NAME},           {"time", SORT_TOTALTIME},
                {"excl", SORT_TOTALTIME},      {"incl", SORT_INCL},
                {"max_buf", SORT_MAXBUF}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (strcasecmp(s, keys[i].name) == 0) {
            *k = keys[i].key;
            return 0;
        }
    }
    return -1;
}

static int bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "scorep-score: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(scorep-score --help lists the options)\n");
    return -1;
}

/* The option at argv[*i] (the profile, argv[argc - 1], is not passed in). */
static int parse_option(int argc, char **argv, int *i, options *o)
{
    const char *a = argv[*i], *next = *i + 1 < argc ? argv[*i + 1] : NULL;
    long n;
    bool takes = !strcmp(a, "-f") || !strcmp(a, "-c") || !strcmp(a, "-s") || !strcmp(a, "-t") ||
                 !strcmp(a, "--top") || !strcmp(a, "--enumeration") || !strcmp(a, "--threads");
    if (takes && next == NULL)
        return bad("option %s needs an argument", a);
    if (!strcmp(a, "--engine")) {
        o->engine = true;
        return 0;
    }
    if (!strcmp(a, "-r") || !strcmp(a, "-m")) {
        *(a[1] == 'r' ? &o->regions : &o->mangled) = true;
        return 0;
    }
    if (!strcmp(a, "-g")) {
        o->generate = true;
        if (next == NULL || next[0] == '-')
            return 0;
        char err[256];
        ++*i;
        return score_gen_parse(next, &o->gen, err, sizeof err) == 0 ? 0 : bad("%s", err);
    }
    if (takes)
        ++*i;
    if (!strcmp(a, "-f"))
        o->filter = next;
    else if (!strcmp(a, "-c"))
        return parse_count(next, 0, &n) == 0
                   ? (o->counters = (unsigned)n, 0)
                   : bad("-c: '%s' is not a number of counters >= 0", next);
    else if (!strcmp(a, "-s"))
        return parse_sort(next, &o->sort) == 0 ? 0
                                               : bad("-s: unknown order '%s' (totaltime, "
                                                     "timepervisit, maxbuffer, visits, name)",
                                                     next);
    else if (!strcmp(a, "-t"))
        return parse_count(next, 1, &o->limit) == 0 ? (o->regions = true, 0)
                                                    : bad("-t: '%s' is not a count >= 1", next);
    else if (!strcmp(a, "--threads"))
        return parse_count(next, 1, &o->threads) == 0 && o->threads <= 64
                   ? 0
                   : bad("--threads: '%s' is not 1-64", next);
    else if (!strcmp(a, "--enumeration"))
        return (o->how = cube_enum_method_parse(next)) >= 0
                   ? 0
                   : bad("--enumeration: unknown method '%s' (deepest-chain, plain, "
                         "round-robin, shuffle)",
                         next);
    else if (!strcmp(a, "--top"))
        return parse_count(next, 1, &o->top) == 0 ? 0
                                                  : bad("--top: '%s' is not a count >= 1", next);
    else
        return bad("unknown option '%s'", a);
    return 0;
}

/* Score-P's command line: options first, the profile last. 1 = help shown. */
static int parse_options(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 1;
        }
    }
    if (argc < 2 || argv[argc - 1][0] == '-')
        return bad("%s", "the profile (a .cubex file or an experiment directory) must be the "
                         "last argument");
    o->path = argv[argc - 1];
    for (int i = 1; i < argc - 1; i++)
        if (parse_option(argc - 1, argv, &i, o) != 0)
            return -1;
    return 0;
}

/* An experiment directory stands for its profile.cubex. */
static int resolve_profile(const char *path, char *out, size_t len)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(out, len, "%s", path);
        return 0;
    }
    snprintf(out, len, "%s/profile.cubex", path);
    if (stat(out, &st) == 0)
        return 0;
    fprintf(stderr,
            "scorep-score: %s: a directory without profile.cubex (no profile was written "
            "there: was SCOREP_ENABLE_PROFILING false, or did the run not end?)\n",
            path);
    return -1;
}

/* A plain rule that matched no region name but the symbol of a wrapped library function was
 * written for the bare C names of before session 22 (as the runtime says, libwrap_adapter.c). */
static void warn_symbol_rule(void *ctx, const char *origin, int line, bool exclude,
                             const char *pattern)
{
    (void)ctx;
    const char *action = exclude ? "EXCLUDE" : "INCLUDE";
    fprintf(stderr,
            "scorep-score: warning: %s:%d: '%s %s' matches no region name, only the symbol of a "
            "wrapped library function: a plain rule matches the region name (as Score-P's, "
            "'ml_add(int, int)'), a MANGLED rule the symbol: write '%s MANGLED %s' or '%s %s(*' "
            "(docs/libwrap.md)\n",
            origin, line, action, pattern, action, pattern, action, pattern);
}

static int load_filter(const char *path, scorep_filter **f)
{
    char err[1024];
    *f = scorep_filter_new();
    if (*f == NULL) {
        fprintf(stderr, "scorep-score: out of memory\n");
        return -1;
    }
    if (scorep_filter_parse_file(*f, path, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "scorep-score: filter file %s\n", err);
    return -1;
}

static int generate(const score_model *m, const options *o)
{
    char moved[512], err[1024];
    if (score_gen_write(m, &o->gen, o->filter, (int)o->sort, moved, sizeof moved, err,
                        sizeof err) != 0) {
        fprintf(stderr, "scorep-score: %s\n", err);
        return -1;
    }
    printf("\n\nAn initial filter file template has been generated: '%s'\n\n", SCORE_FILTER_FILE);
    if (*moved)
        printf("Moved existing filter file to: '%s'\n\n", moved);
    printf("To use this file for filtering at run-time, set the respective Score-P variable:\n\n"
           "    SCOREP_FILTERING_FILE=%s\n\n"
           "For compile-time filtering scorep-cc has to be given the '--filter' option:\n\n"
           "    $ scorep-cc --filter=%s ...\n\n"
           "The filter file is annotated with comments, please check if the selection is\n"
           "suitable for your purposes and add or remove functions if needed.\n",
           SCORE_FILTER_FILE, SCORE_FILTER_FILE);
    return 0;
}

static int engine_row(void *ctx, int metric, int cnode, cube_view view, uint64_t *out)
{
    return cube_engine_value(ctx, metric, cnode, view, true, out);
}

static int run(const options *o, const cube_reader *r, cube_engine *e, const scorep_filter *flt)
{
    score_params p = {o->counters, flt};
    score_model m;
    score_source src = {e, engine_row};
    char err[256];
    int rc = 0;
    if ((e ? score_model_compute_from(&m, r, &src, &p, err, sizeof err)
           : score_model_compute(&m, r, &p, err, sizeof err)) != 0) {
        fprintf(stderr, "scorep-score: %s: %s\n", o->path, err);
        rc = -1;
    } else if (o->top > 0) {
        score_print_top(stdout, &m, o->top);
    } else {
        score_print_groups(stdout, &m, o->sort);
        if (o->regions)
            score_print_regions(stdout, &m, o->sort, o->limit, o->mangled);
        if (o->generate)
            rc = generate(&m, o);
    }
    score_model_free(&m);
    return rc;
}

/* Every process opens the engine (visits and time only); rank 0 scores, the others serve. */
static int run_engine(const options *o, const char *path, const cube_engine_comm *comm,
                      const scorep_filter *flt)
{
    static const char *const metrics[] = {"visits", "time"};
    char err[1024] = "";
    cube_engine *e =
        cube_engine_open(path, comm, (cube_enum_method)o->how, metrics, 2, err, sizeof err);
    if (e == NULL) {
        if (comm->rank == 0) /* every process got the same message: one prints it */
            fprintf(stderr, "scorep-score: %s\n", err);
        return 1;
    }
    cube_engine_set_threads(e, (int)o->threads);
    int rc = comm->rank != 0 ? (cube_engine_serve(e) == 0 ? 0 : 1)
                             : (run(o, cube_engine_defs(e), e, flt) == 0 ? 0 : 1);
    cube_engine_close(e);
    return rc;
}

static int score(const options *o, const cube_engine_comm *comm)
{
    char path[4096], err[1024];
    if (resolve_profile(o->path, path, sizeof path) != 0)
        return 1;
    scorep_filter *flt = NULL;
    if (o->filter && load_filter(o->filter, &flt) != 0) {
        scorep_filter_free(flt);
        return 1;
    }
    int rc = 1;
    if (comm->size > 1 || o->engine) {
        rc = run_engine(o, path, comm, flt);
    } else {
        cube_reader *r = cube_reader_open(path, err, sizeof err);
        if (r == NULL)
            fprintf(stderr, "scorep-score: %s\n", err);
        else
            rc = run(o, r, NULL, flt) == 0 ? 0 : 1;
        cube_reader_free(r);
    }
    if (flt && comm->rank == 0)
        scorep_filter_symbol_only_rules(flt, warn_symbol_rule, NULL);
    scorep_filter_free(flt);
    if (comm->rank == 0 && fflush(stdout) != 0) {
        perror("scorep-score: writing output");
        return 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    options o = {.sort = SORT_MAXBUF};
    score_gen_defaults(&o.gen);
    cube_engine_comm comm;
    cube_engine_transport_init(&argc, &argv, &comm);
    int prc = parse_options(argc, argv, &o);
    int rc = prc != 0 ? (prc > 0 ? 0 : 2) : score(&o, &comm);
    cube_engine_transport_finalize();
    return rc;
}
