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
 * Exit status: 0 success, 1 unreadable file or unknown metric, 2 usage error. */
#include "cube/cube.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    bool inclusive, system;
    char *metric_list; /* -m argument, NULL = all */
    const char *path;
} options;

static void usage(FILE *fp)
{
    fprintf(fp, "usage: scorep-cube-dump [-i] [-m metric[,metric...]] file.cubex\n"
                "       scorep-cube-dump --system file.cubex\n"
                "  -i        inclusive instead of exclusive values\n"
                "  -m LIST   only these metrics (unique names, comma separated)\n"
                "  --system  print the system tree, one line per location\n");
}

static int parse_options(int argc, char **argv, options *o)
{
    static const struct option longs[] = {{"system", no_argument, NULL, 'S'},
                                          {"inclusive", no_argument, NULL, 'i'},
                                          {"metrics", required_argument, NULL, 'm'},
                                          {"help", no_argument, NULL, 'h'},
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

int main(int argc, char **argv)
{
    options o = {0};
    if (parse_options(argc, argv, &o) != 0)
        return 2;
    char err[1024];
    cube_reader *r = cube_reader_open(o.path, err, sizeof err);
    if (r == NULL) {
        fprintf(stderr, "scorep-cube-dump: %s\n", err);
        return 1;
    }
    int rc = o.system ? dump_system(r) : dump_values(r, &o);
    cube_reader_free(r);
    if (fflush(stdout) != 0) {
        perror("scorep-cube-dump: writing output");
        return 1;
    }
    return rc;
}
