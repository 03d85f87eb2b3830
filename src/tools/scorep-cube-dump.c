/* SPDX-License-Identifier: BSD-3-Clause */
/* scorep-cube-dump.c: prints the values or the system tree of a .cubex profile as
 * tab-separated lines for scripts. The output format is stable (tests parse it with awk):
 *
 *   scorep-cube-dump [-i] [-m metric[,metric...]] file.cubex
 *     One line per (cnode, location) where at least one selected metric is non-zero,
 *     cnodes by ascending id, then locations by ascending id:
 *       cnode_id TAB callpath TAB location_id TAB metric=value [TAB metric=value ...]
 *     callpath: region names from the root down, joined by "/"; a parameter cnode shows as
 *     name=value. Every selected metric is printed (default: all, in metric id order; with
 *     -m in the order given). Values are exclusive, or inclusive with -i. Integers are
 *     printed exactly, doubles with %.9g.
 *
 *   scorep-cube-dump --system file.cubex
 *     One line per location, by ascending id:
 *       location_id TAB stnode path ("/"-joined names from the root) TAB location group name
 *       TAB location name TAB rank
 *     where rank is the rank of the location group (the MPI rank of a process).
 *
 *   scorep-cube-dump --system-groups file.cubex
 *     One line per location group, by ascending id:
 *       group_id TAB stnode path TAB stnode class TAB group name TAB type TAB rank
 *       TAB creator TAB locations
 *     type: process or accelerator; creator: the attribute "Creating location group" (the
 *     process that made a GPU context), "-" when absent; locations: "id:name:type:rank"
 *     of each location of the group by ascending id, joined by ";".
 *
 *   scorep-cube-dump --program-root file.cubex
 *     The name of the program region when it is the only root of the call tree (Score-P 6
 *     and later, scorep-rt: an artificial region of paradigm measurement; every call path
 *     starts there), else nothing (Score-P before 6: main, THREADS, ... are roots).
 *
 *   scorep-cube-dump --regions file.cubex
 *     One line per region definition, by ascending id:
 *       region_id TAB name TAB paradigm TAB role
 *     (role as the file spells it: "function", "parallel", "critical sblock", ...).
 *
 *   mpirun -np N scorep-cube-dump [--enumeration METHOD] ...
 *     The same output, the values computed by the distributed Cube engine
 *     (src/cube/cube_engine.h): each process holds the rows of its share of the call paths
 *     (METHOD: deepest-chain (default), plain, round-robin, shuffle); rank 0 prints.
 *     --engine uses the engine with one process too.
 *
 * Exit status: 0 success, 1 unreadable file or unknown metric, 2 usage error. */
#include "cube/cube.h"
#include "cube/cube_engine.h"
#include "cube/cube_engine_mpi.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    bool inclusive, system, groups, engine, metric_tree, program_root, regions;
    char *metric_list; /* -m argument, NULL = all */
    const char *path;
    int how;     /* cube_enum_method */
    int threads; /* the engine's threads per process */
} options;

static void usage(FILE *fp)
{
    fprintf(fp, "usage: scorep-cube-dump [-i] [-m metric[,metric...]] file.cubex\n"
                "       scorep-cube-dump --system file.cubex\n"
                "  -i        inclusive instead of exclusive values\n"
                "  -m LIST   only these metrics (unique names, comma separated)\n"
                "  --system  print the system tree, one line per location\n"
                "  --regions  print the region definitions: id, name, paradigm, role\n"
                "  --program-root  print the program region's name when it is the only root\n"
                "  --system-groups  print the system tree, one line per location group\n"
                "  --engine  compute with the distributed engine (always under mpirun)\n"
                "  --enumeration deepest-chain|plain|round-robin|shuffle\n"
                "            how the engine shares the call paths among the processes\n"
                "  --threads N  the engine's threads per process for local work (default 1)\n"
                "  --metric-exclusive  each metric without the metrics below it in the metric\n"
                "            tree (what an expanded metric shows; the plain values are what\n"
                "            a collapsed one shows, as CubeLib reads them; uses the engine)\n");
}

static int parse_options(int argc, char **argv, options *o)
{
    static const struct option longs[] = {{"system", no_argument, NULL, 'S'},
                                          {"system-groups", no_argument, NULL, 'G'},
                                          {"inclusive", no_argument, NULL, 'i'},
                                          {"metrics", required_argument, NULL, 'm'},
                                          {"help", no_argument, NULL, 'h'},
                                          {"engine", no_argument, NULL, 'E'},
                                          {"enumeration", required_argument, NULL, 'N'},
                                          {"threads", required_argument, NULL, 'T'},
                                          {"metric-exclusive", no_argument, NULL, 'I'},
                                          {"program-root", no_argument, NULL, 'R'},
                                          {"regions", no_argument, NULL, 'D'},
                                          {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "im:h", longs, NULL)) != -1) {
        switch (c) {
        case 'i':
            o->inclusive = true;
            break;
        case 'm':
            o->metric_list = optarg;
            break;
        case 'S':
            o->system = true;
            break;
        case 'G':
            o->groups = true;
            break;
        case 'R':
            o->program_root = true;
            break;
        case 'D':
            o->regions = true;
            break;
        case 'E':
            o->engine = true;
            break;
        case 'I': /* values along the metric tree need the engine */
            o->metric_tree = o->engine = true;
            break;
        case 'T':
            o->threads = atoi(optarg);
            if (o->threads < 1 || o->threads > 64) {
                fprintf(stderr, "scorep-cube-dump: --threads: '%s' is not 1-64\n", optarg);
                return -1;
            }
            break;
        case 'N':
            if ((o->how = cube_enum_method_parse(optarg)) < 0) {
                fprintf(stderr, "scorep-cube-dump: unknown enumeration '%s'\n", optarg);
                usage(stderr);
                return -1;
            }
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            usage(stderr);
            return -1;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "scorep-cube-dump: expected exactly one profile file\n");
        usage(stderr);
        return -1;
    }
    o->path = argv[optind];
    return 0;
}

/* Resolves the -m list into metric ids; returns the count or -1 for an unknown name. */
static int select_metrics(const cube_reader *r, char *list, int *ids)
{
    if (list == NULL) {
        for (int m = 0; m < r->n_metrics; m++)
            ids[m] = m;
        return r->n_metrics;
    }
    int n = 0;
    char *save = NULL;
    for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        int m = cube_reader_metric_by_name(r, name);
        if (m < 0) {
            fprintf(stderr, "scorep-cube-dump: no metric '%s' in the profile\n", name);
            return -1;
        }
        if (n < r->n_metrics)
            ids[n++] = m;
    }
    return n;
}

/* The program root: the only root call path, an artificial region of paradigm measurement
 * (Score-P's SCOREP_RuntimeManagement.c). */
static int dump_program_root(const cube_reader *r)
{
    int root = -1;
    for (int c = 0; c < r->n_cnodes; c++) {
        if (r->cnodes[c].parent >= 0)
            continue;
        if (root >= 0)
            return 0; /* several roots */
        root = c;
    }
    const cube_region *g = root >= 0 && !r->cnodes[root].param_name
                               ? &r->regions[r->cnodes[root].region]
                               : NULL;
    if (g && g->paradigm && strcmp(g->paradigm, "measurement") == 0 && g->role &&
        strcmp(g->role, "artificial") == 0)
        printf("%s\n", g->name);
    return 0;
}

/* the region definitions, for checks of their roles and paradigms */
static int dump_regions(const cube_reader *r)
{
    for (int i = 0; i < r->n_regions; i++) {
        const cube_region *g = &r->regions[i];
        printf("%d\t%s\t%s\t%s\n", i, g->name ? g->name : "", g->paradigm ? g->paradigm : "",
               g->role ? g->role : "");
    }
    return 0;
}

static void print_cnode_name(const cube_reader *r, int c)
{
    const cube_cnode *n = &r->cnodes[c];
    if (n->param_name == NULL)
        fputs(r->regions[n->region].name, stdout);
    else if (n->param_string != NULL)
        printf("%s=%s", n->param_name, n->param_string);
    else
        printf("%s=%" PRId64, n->param_name, n->param_int);
}

/* Root-first path of cnode c; path is scratch space of n_cnodes ints. */
static void print_callpath(const cube_reader *r, int c, int *path)
{
    int depth = 0;
    for (int v = c; v >= 0 && depth < r->n_cnodes; v = r->cnodes[v].parent)
        path[depth++] = v;
    for (int i = depth - 1; i >= 0; i--) {
        print_cnode_name(r, path[i]);
        if (i > 0)
            putchar('/');
    }
}

static bool value_nonzero(cube_dtype t, uint64_t bits)
{
    if (t == CUBE_DTYPE_UINT64 || t == CUBE_DTYPE_INT64)
        return bits != 0;
    return cube_value_to_double(t, bits) != 0.0;
}

static void dump_cnode(const cube_reader *r, int c, const int *ids, int n_ids, cube_view view,
                       int *path)
{
    bool any_row = false;
    for (int i = 0; i < n_ids && !any_row; i++)
        any_row = cube_reader_has_row(r, ids[i], c, view);
    if (!any_row)
        return;
    for (int l = 0; l < r->n_locations; l++) {
        bool any = false;
        for (int i = 0; i < n_ids && !any; i++)
            any = value_nonzero(r->metrics[ids[i]].dtype,
                                cube_reader_value_bits(r, ids[i], c, l, view));
        if (!any)
            continue;
        printf("%d\t", c);
        print_callpath(r, c, path);
        printf("\t%d", l);
        for (int i = 0; i < n_ids; i++) {
            char buf[64];
            cube_format_value(buf, sizeof buf, r->metrics[ids[i]].dtype,
                              cube_reader_value_bits(r, ids[i], c, l, view));
            printf("\t%s=%s", r->metrics[ids[i]].uniq_name, buf);
        }
        putchar('\n');
    }
}

static int dump_values(const cube_reader *r, const options *o)
{
    int *ids = malloc(((size_t)r->n_metrics + 1) * sizeof *ids);
    int *path = malloc(((size_t)r->n_cnodes + 1) * sizeof *path);
    int n_ids = (ids && path) ? select_metrics(r, o->metric_list, ids) : -1;
    cube_view view = o->inclusive ? CUBE_VIEW_INCLUSIVE : CUBE_VIEW_EXCLUSIVE;
    for (int c = 0; n_ids > 0 && c < r->n_cnodes; c++)
        dump_cnode(r, c, ids, n_ids, view, path);
    free(ids);
    free(path);
    return n_ids < 0 ? 1 : 0;
}

static void print_stnode_path(const cube_reader *r, int s)
{
    if (s < 0)
        return;
    /* system trees are shallow (machine/node/...), recursion depth is harmless */
    if (r->stnodes[s].parent >= 0) {
        print_stnode_path(r, r->stnodes[s].parent);
        putchar('/');
    }
    fputs(r->stnodes[s].name, stdout);
}

static int dump_system(const cube_reader *r)
{
    for (int l = 0; l < r->n_locations; l++) {
        const cube_location *loc = &r->locations[l];
        const cube_locgroup *g = &r->locgroups[loc->locgroup];
        printf("%d\t", l);
        print_stnode_path(r, g->stnode);
        printf("\t%s\t%s\t%d\n", g->name, loc->name, g->rank);
    }
    return 0;
}

static int dump_groups(const cube_reader *r)
{
    for (int g = 0; g < r->n_locgroups; g++) {
        const cube_locgroup *lg = &r->locgroups[g];
        printf("%d\t", g);
        print_stnode_path(r, lg->stnode);
        printf("\t%s\t%s\t%s\t%d\t%s\t", lg->stnode >= 0 ? r->stnodes[lg->stnode].klass : "",
               lg->name, lg->type, lg->rank, lg->creator ? lg->creator : "-");
        const char *sep = "";
        for (int l = 0; l < r->n_locations; l++) {
            const cube_location *loc = &r->locations[l];
            if (loc->locgroup != g)
                continue;
            printf("%s%d:%s:%s:%d", sep, l, loc->name, loc->type, loc->rank);
            sep = ";";
        }
        putchar('\n');
    }
    return 0;
}

/* ---- the same dump from the distributed engine (rank 0 asks, one cnode at a time) */
static int dump_engine_cnode(cube_engine *e, int c, const int *ids, int n_ids, cube_view view,
                             bool metric_tree, uint64_t *rows, int *path)
{
    const cube_reader *r = cube_engine_defs(e);
    size_t L = (size_t)r->n_locations;
    for (int i = 0; i < n_ids; i++)
        if ((metric_tree
                 ? cube_engine_value_metric_exclusive(e, ids[i], c, view, true,
                                                     rows + (size_t)i * L)
                 : cube_engine_value(e, ids[i], c, view, true, rows + (size_t)i * L)) != 0)
            return -1;
    for (size_t l = 0; l < L; l++) {
        bool any = false;
        for (int i = 0; i < n_ids && !any; i++)
            any = value_nonzero(r->metrics[ids[i]].dtype, rows[(size_t)i * L + l]);
        if (!any)
            continue;
        printf("%d\t", c);
        print_callpath(r, c, path);
        printf("\t%zu", l);
        for (int i = 0; i < n_ids; i++) {
            char buf[64];
            cube_format_value(buf, sizeof buf, r->metrics[ids[i]].dtype, rows[(size_t)i * L + l]);
            printf("\t%s=%s", r->metrics[ids[i]].uniq_name, buf);
        }
        putchar('\n');
    }
    return 0;
}

static int dump_engine(cube_engine *e, const options *o, char *list)
{
    const cube_reader *r = cube_engine_defs(e);
    int *ids = malloc(((size_t)r->n_metrics + 1) * sizeof *ids);
    int *path = malloc(((size_t)r->n_cnodes + 1) * sizeof *path);
    int n_ids = (ids && path) ? select_metrics(r, list, ids) : -1;
    uint64_t *rows = malloc(((size_t)(n_ids > 0 ? n_ids : 1) * (size_t)r->n_locations + 1) * 8);
    cube_view view = o->inclusive ? CUBE_VIEW_INCLUSIVE : CUBE_VIEW_EXCLUSIVE;
    int rc = n_ids < 0 || !rows ? 1 : 0;
    for (int c = 0; rc == 0 && n_ids > 0 && c < r->n_cnodes; c++)
        if (dump_engine_cnode(e, c, ids, n_ids, view, o->metric_tree, rows, path) != 0) {
            fprintf(stderr, "scorep-cube-dump: the engine lost a process\n");
            rc = 1;
        }
    free(ids);
    free(path);
    free(rows);
    return rc;
}

/* Every process opens the engine; rank 0 dumps, the others serve it. */
static int run_engine(const options *o, const cube_engine_comm *comm)
{
    char err[1024] = "", *names[1024];
    int n = 0;
    char *copy = o->metric_list ? strdup(o->metric_list) : NULL, *save = NULL;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && n < 1024;
         t = strtok_r(NULL, ",", &save))
        names[n++] = t;
    /* the metrics below the selected ones are needed too: every metric is loaded then
     * (rank 0 still checks the names) */
    bool some = copy && !o->metric_tree;
    cube_engine *e =
        cube_engine_open(o->path, comm, (cube_enum_method)o->how,
                         some ? (const char *const *)names : NULL, some ? n : 0, err, sizeof err);
    free(copy);
    if (e == NULL) {
        if (comm->rank == 0) /* the same message reached every process: one prints it */
            fprintf(stderr, "scorep-cube-dump: %s\n", err);
        return 1;
    }
    cube_engine_set_threads(e, o->threads);
    int rc;
    if (comm->rank != 0) {
        rc = cube_engine_serve(e) == 0 ? 0 : 1;
    } else {
        char *list = o->metric_list ? strdup(o->metric_list) : NULL;
        rc = o->groups   ? dump_groups(cube_engine_defs(e))
             : o->system ? dump_system(cube_engine_defs(e))
                         : dump_engine(e, o, list);
        free(list);
    }
    cube_engine_close(e);
    return rc;
}

int main(int argc, char **argv)
{
    options o = {0};
    cube_engine_comm comm;
    cube_engine_transport_init(&argc, &argv, &comm);
    if (parse_options(argc, argv, &o) != 0) {
        cube_engine_transport_finalize();
        return 2;
    }
    if (comm.size > 1 || o.engine) {
        int rc = run_engine(&o, &comm);
        if (comm.rank == 0 && fflush(stdout) != 0) {
            perror("scorep-cube-dump: writing output");
            rc = 1;
        }
        cube_engine_transport_finalize();
        return rc;
    }
    cube_engine_transport_finalize();
    char err[1024];
    cube_reader *r = cube_reader_open(o.path, err, sizeof err);
    if (r == NULL) {
        fprintf(stderr, "scorep-cube-dump: %s\n", err);
        return 1;
    }
    int rc = o.program_root ? dump_program_root(r)
             : o.regions    ? dump_regions(r)
             : o.groups     ? dump_groups(r)
             : o.system     ? dump_system(r)
                            : dump_values(r, &o);
    cube_reader_free(r);
    if (fflush(stdout) != 0) {
        perror("scorep-cube-dump: writing output");
        return 1;
    }
    return rc;
}
