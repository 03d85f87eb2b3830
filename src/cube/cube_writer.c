/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_writer.c: collects Cube4 definitions and sparse per-cnode value rows, then streams
 * a .cubex archive (anchor.xml + <metric>.index/.data) that CubeLib-based tools can open. */
#include "cube/cube.h"
#include "cube/cube_enum.h"
#include "cube/cube_error.h"
#include "cube/cube_plan.h"
#include "cube/cube_tar.h"
#include "cube/cube_xml.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

typedef struct {
    char *key, *value;
} w_attr;

typedef struct {
    int parent;
    char *uniq, *disp, *uom, *descr;
    cube_dtype dtype;
    cube_metric_kind kind;
    uint64_t **rows; /* per cnode: NULL or n_locations raw values (native byte order) */
    int rows_cap;
} w_metric;

typedef struct {
    char *name, *mangled, *paradigm, *role, *file, *descr;
    int begin, end;
} w_region;

typedef struct {
    int parent, region;
    char *param;     /* NULL unless a parameter cnode */
    char *param_str; /* string value, or NULL for an integer parameter */
    int64_t param_int;
} w_cnode;

typedef struct {
    int parent;
    char *name, *klass;
} w_stnode;

typedef struct {
    int owner; /* stnode of a location group, location group of a location */
    char *name, *type;
    int rank;
    char *attr_key, *attr_value; /* location groups: one <attr>, or NULLs */
} w_sysres;

struct cube_writer {
    w_attr *attrs;
    int n_attrs, cap_attrs;
    w_metric *metrics;
    int n_metrics, cap_metrics;
    w_region *regions;
    int n_regions, cap_regions;
    w_cnode *cnodes;
    int n_cnodes, cap_cnodes;
    int *cnode_parent; /* parallel to cnodes, the form cube_tree_build wants */
    w_stnode *stnodes;
    int n_stnodes, cap_stnodes;
    w_sysres *locgroups;
    int n_locgroups, cap_locgroups;
    w_sysres *locations;
    int n_locations, cap_locations;
    int row_len; /* locations per row, fixed by the first value set; 0 before */
    /* a streamed system tree (cube_writer_system_stream) instead of the arrays above */
    cube_system_fn sys_fn;
    void *sys_arg;
    uint64_t sys_locations;
    bool sys_accelerators;  /* the streamed tree holds accelerator groups: syntax 4.7 */
    bool every_metric_data; /* cube_writer_every_metric_data: empty index and data too */
    /* cube_writer_misc_data: one "misc data" member (the caller's static bytes) */
    const char *misc_name, *misc_data;
    size_t misc_len;
};

/* The open path of a streamed system tree while anchor.xml is written. */
struct cube_system_sink {
    FILE *fp;
    struct sink_open {
        int64_t id;
        bool had_child; /* then no more location groups for it */
    } * open;           /* the open system-tree nodes, outermost first */
    int depth, cap;
    int64_t n_stnodes, n_locgroups, n_locations;
    int64_t locgroup; /* the open location group, -1 when none */
    bool locgroup_has_location; /* then no more <attr> for it */
    bool failed;
};

/* The orders in which things appear in the file; CubeLib numbers system-tree entities by
 * document order, so the writer makes file ids follow it. */
typedef struct {
    int *metric_seq;  /* metrics in document order */
    int *metric_file; /* metric id -> file id */
    cube_tree ctree;
    int *cnode_deep; /* deep position -> cnode */
    int *cnode_wide; /* wide position -> cnode */
    int *cnode_file; /* cnode id -> file id (= deep position) */
    int *loc_seq;    /* file column -> location id */
    int *stnode_file, *locgroup_file;
    int *stnode_seq; /* stnodes in document (pre-)order */
    int *lg_off, *lg_items, *loc_off, *loc_items;
    cube_tree stree;
} w_layout;

static char *dup_str(const char *s)
{
    return strdup(s ? s : "");
}

/* Makes room for one more element; keeps *arr untouched on failure. */
static int grow(void **arr, int *cap, int n, size_t elem)
{
    if (n < *cap)
        return 0;
    int nc = *cap ? *cap * 2 : 16;
    void *p = realloc(*arr, (size_t)nc * elem);
    if (p == NULL)
        return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

cube_writer *cube_writer_new(void)
{
    return calloc(1, sizeof(cube_writer));
}

static void free_metric(w_metric *m, int n_cnodes)
{
    free(m->uniq);
    free(m->disp);
    free(m->uom);
    free(m->descr);
    for (int c = 0; c < m->rows_cap && c < n_cnodes; c++)
        free(m->rows[c]);
    free(m->rows);
}

void cube_writer_free(cube_writer *w)
{
    if (w == NULL)
        return;
    for (int i = 0; i < w->n_attrs; i++) {
        free(w->attrs[i].key);
        free(w->attrs[i].value);
    }
    for (int i = 0; i < w->n_metrics; i++)
        free_metric(&w->metrics[i], w->n_cnodes);
    for (int i = 0; i < w->n_regions; i++) {
        w_region *r = &w->regions[i];
        free(r->name);
        free(r->mangled);
        free(r->paradigm);
        free(r->role);
        free(r->file);
        free(r->descr);
    }
    for (int i = 0; i < w->n_cnodes; i++) {
        free(w->cnodes[i].param);
        free(w->cnodes[i].param_str);
    }
    for (int i = 0; i < w->n_stnodes; i++) {
        free(w->stnodes[i].name);
        free(w->stnodes[i].klass);
    }
    for (int i = 0; i < w->n_locgroups; i++) {
        free(w->locgroups[i].name);
        free(w->locgroups[i].type);
        free(w->locgroups[i].attr_key);
        free(w->locgroups[i].attr_value);
    }
    for (int i = 0; i < w->n_locations; i++) {
        free(w->locations[i].name);
        free(w->locations[i].type);
    }
    free(w->attrs);
    free(w->metrics);
    free(w->regions);
    free(w->cnodes);
    free(w->cnode_parent);
    free(w->stnodes);
    free(w->locgroups);
    free(w->locations);
    free(w);
}

void cube_writer_every_metric_data(cube_writer *w)
{
    w->every_metric_data = true;
}

void cube_writer_misc_data(cube_writer *w, const char *name, const char *data, size_t len)
{
    w->misc_name = name;
    w->misc_data = data;
    w->misc_len = len;
}

int cube_writer_attr(cube_writer *w, const char *key, const char *value)
{
    if (w == NULL || key == NULL ||
        grow((void **)&w->attrs, &w->cap_attrs, w->n_attrs, sizeof(w_attr)) != 0)
        return -1;
    w_attr a = {dup_str(key), dup_str(value)};
    if (a.key == NULL || a.value == NULL) {
        free(a.key);
        free(a.value);
        return -1;
    }
    w->attrs[w->n_attrs++] = a;
    return 0;
}

int cube_writer_metric(cube_writer *w, int parent, const char *uniq_name, const char *disp_name,
                       cube_dtype dtype, const char *uom, const char *descr, cube_metric_kind kind)
{
    if (w == NULL || uniq_name == NULL || parent < -1 || parent >= w->n_metrics ||
        dtype > CUBE_DTYPE_MAXDOUBLE || kind > CUBE_INCLUSIVE ||
        grow((void **)&w->metrics, &w->cap_metrics, w->n_metrics, sizeof(w_metric)) != 0)
        return -1;
    w_metric m = {.parent = parent, .dtype = dtype, .kind = kind};
    m.uniq = dup_str(uniq_name);
    m.disp = dup_str(disp_name ? disp_name : uniq_name);
    m.uom = dup_str(uom);
    m.descr = dup_str(descr);
    if (!m.uniq || !m.disp || !m.uom || !m.descr) {
        free_metric(&m, 0);
        return -1;
    }
    w->metrics[w->n_metrics] = m;
    return w->n_metrics++;
}

int cube_writer_region(cube_writer *w, const char *name, const char *mangled_name,
                       const char *paradigm, const char *role, const char *file, int begin_line,
                       int end_line, const char *descr)
{
    if (w == NULL || name == NULL ||
        grow((void **)&w->regions, &w->cap_regions, w->n_regions, sizeof(w_region)) != 0)
        return -1;
    w_region r = {.begin = begin_line, .end = end_line};
    r.name = dup_str(name);
    r.mangled = dup_str(mangled_name ? mangled_name : name);
    r.paradigm = dup_str(paradigm ? paradigm : "unknown");
    r.role = dup_str(role ? role : "function");
    r.file = dup_str(file);
    r.descr = dup_str(descr);
    if (!r.name || !r.mangled || !r.paradigm || !r.role || !r.file || !r.descr) {
        free(r.name);
        free(r.mangled);
        free(r.paradigm);
        free(r.role);
        free(r.file);
        free(r.descr);
        return -1;
    }
    w->regions[w->n_regions] = r;
    return w->n_regions++;
}

static int add_cnode(cube_writer *w, int parent, int region, char *param, char *param_str,
                     int64_t param_int)
{
    int cap = w->cap_cnodes;
    if (grow((void **)&w->cnodes, &w->cap_cnodes, w->n_cnodes, sizeof(w_cnode)) != 0)
        return -1;
    if (w->cap_cnodes != cap) {
        int *p = realloc(w->cnode_parent, (size_t)w->cap_cnodes * sizeof(int));
        if (p == NULL)
            return -1;
        w->cnode_parent = p;
    }
    w->cnodes[w->n_cnodes] = (w_cnode){parent, region, param, param_str, param_int};
    w->cnode_parent[w->n_cnodes] = parent;
    return w->n_cnodes++;
}

static bool cnode_args_ok(const cube_writer *w, int parent, int region)
{
    return w != NULL && parent >= -1 && parent < w->n_cnodes && region >= 0 &&
           region < w->n_regions;
}

int cube_writer_cnode(cube_writer *w, int parent, int region)
{
    if (!cnode_args_ok(w, parent, region))
        return -1;
    return add_cnode(w, parent, region, NULL, NULL, 0);
}

int cube_writer_cnode_param_int(cube_writer *w, int parent, int region, const char *param,
                                int64_t value)
{
    if (!cnode_args_ok(w, parent, region) || param == NULL)
        return -1;
    char *p = strdup(param);
    int id = p ? add_cnode(w, parent, region, p, NULL, value) : -1;
    if (id < 0)
        free(p);
    return id;
}

int cube_writer_cnode_param_string(cube_writer *w, int parent, int region, const char *param,
                                   const char *value)
{
    if (!cnode_args_ok(w, parent, region) || param == NULL || value == NULL)
        return -1;
    char *p = strdup(param), *v = strdup(value);
    int id = (p && v) ? add_cnode(w, parent, region, p, v, 0) : -1;
    if (id < 0) {
        free(p);
        free(v);
    }
    return id;
}

int cube_writer_stnode(cube_writer *w, int parent, const char *name, const char *klass)
{
    if (w == NULL || name == NULL || parent < -1 || parent >= w->n_stnodes ||
        grow((void **)&w->stnodes, &w->cap_stnodes, w->n_stnodes, sizeof(w_stnode)) != 0)
        return -1;
    w_stnode s = {parent, dup_str(name), dup_str(klass)};
    if (s.name == NULL || s.klass == NULL) {
        free(s.name);
        free(s.klass);
        return -1;
    }
    w->stnodes[w->n_stnodes] = s;
    return w->n_stnodes++;
}

static int add_sysres(w_sysres **arr, int *n, int *cap, int owner, const char *name, int rank,
                      const char *type)
{
    if (grow((void **)arr, cap, *n, sizeof(w_sysres)) != 0)
        return -1;
    w_sysres r = {owner, dup_str(name), dup_str(type), rank, NULL, NULL};
    if (r.name == NULL || r.type == NULL) {
        free(r.name);
        free(r.type);
        return -1;
    }
    (*arr)[*n] = r;
    return (*n)++;
}

int cube_writer_locgroup(cube_writer *w, int stnode, const char *name, int rank, const char *type)
{
    if (w == NULL || name == NULL || stnode < 0 || stnode >= w->n_stnodes)
        return -1;
    return add_sysres(&w->locgroups, &w->n_locgroups, &w->cap_locgroups, stnode, name, rank,
                      type ? type : "process");
}

int cube_writer_locgroup_attr(cube_writer *w, int locgroup, const char *key, const char *value)
{
    if (w == NULL || key == NULL || value == NULL || locgroup < 0 || locgroup >= w->n_locgroups ||
        w->locgroups[locgroup].attr_key != NULL)
        return -1;
    w_sysres *g = &w->locgroups[locgroup];
    g->attr_key = dup_str(key);
    g->attr_value = dup_str(value);
    if (g->attr_key == NULL || g->attr_value == NULL) {
        free(g->attr_key);
        free(g->attr_value);
        g->attr_key = g->attr_value = NULL;
        return -1;
    }
    return 0;
}

int cube_writer_location(cube_writer *w, int locgroup, const char *name, int rank, const char *type)
{
    /* rows are sized by the number of locations, so it is fixed once values exist */
    if (w == NULL || name == NULL || locgroup < 0 || locgroup >= w->n_locgroups || w->row_len)
        return -1;
    return add_sysres(&w->locations, &w->n_locations, &w->cap_locations, locgroup, name, rank,
                      type ? type : "thread");
}

/* Returns the row of (metric, cnode), allocating a zeroed one on first use. */
static uint64_t *row_for(cube_writer *w, int metric, int cnode, int location)
{
    if (metric < 0 || metric >= w->n_metrics || cnode < 0 || cnode >= w->n_cnodes || location < 0 ||
        location >= w->n_locations)
        return NULL;
    w_metric *m = &w->metrics[metric];
    if (cnode >= m->rows_cap) {
        int nc = w->cap_cnodes;
        uint64_t **rows = realloc(m->rows, (size_t)nc * sizeof *rows);
        if (rows == NULL)
            return NULL;
        memset(rows + m->rows_cap, 0, (size_t)(nc - m->rows_cap) * sizeof *rows);
        m->rows = rows;
        m->rows_cap = nc;
    }
    if (m->rows[cnode] == NULL) {
        m->rows[cnode] = calloc((size_t)w->n_locations, sizeof(uint64_t));
        if (m->rows[cnode] == NULL)
            return NULL;
    }
    w->row_len = w->n_locations;
    return m->rows[cnode];
}

static uint64_t double_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

int cube_writer_set_u64(cube_writer *w, int metric, int cnode, int location, uint64_t v)
{
    uint64_t *row = w ? row_for(w, metric, cnode, location) : NULL;
    if (row == NULL)
        return -1;
    cube_dtype t = w->metrics[metric].dtype;
    /* INT64 keeps the two's-complement bit pattern; double metrics get the converted value */
    row[location] = (t == CUBE_DTYPE_UINT64 || t == CUBE_DTYPE_INT64) ? v : double_bits((double)v);
    return 0;
}

int cube_writer_set_double(cube_writer *w, int metric, int cnode, int location, double v)
{
    uint64_t *row = w ? row_for(w, metric, cnode, location) : NULL;
    if (row == NULL)
        return -1;
    switch (w->metrics[metric].dtype) {
    case CUBE_DTYPE_UINT64:
        if (!(v >= 0.0) || v >= 18446744073709551616.0)
            return -1;
        row[location] = (uint64_t)llround(v);
        return 0;
    case CUBE_DTYPE_INT64:
        if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
            return -1;
        row[location] = (uint64_t)(int64_t)llround(v);
        return 0;
    default:
        row[location] = double_bits(v);
        return 0;
    }
}

/* ---------------------------------------------------------------- layout */

static void layout_free(w_layout *l)
{
    free(l->metric_seq);
    free(l->metric_file);
    cube_tree_free(&l->ctree);
    free(l->cnode_deep);
    free(l->cnode_wide);
    free(l->cnode_file);
    free(l->loc_seq);
    free(l->stnode_file);
    free(l->locgroup_file);
    free(l->stnode_seq);
    free(l->lg_off);
    free(l->lg_items);
    free(l->loc_off);
    free(l->loc_items);
    cube_tree_free(&l->stree);
}

/* Groups items by owner (counting sort, stable): items of owner o are
 * items[off[o] .. off[o+1]). */
static int group_by_owner(const w_sysres *res, int n, int n_owners, int **off, int **items)
{
    *off = calloc((size_t)n_owners + 2, sizeof(int));
    *items = malloc(((size_t)n + 1) * sizeof(int));
    if (*off == NULL || *items == NULL)
        return -1;
    for (int i = 0; i < n; i++)
        (*off)[res[i].owner + 2]++;
    for (int o = 0; o < n_owners; o++)
        (*off)[o + 2] += (*off)[o + 1];
    for (int i = 0; i < n; i++)
        (*items)[(*off)[res[i].owner + 1]++] = i;
    return 0;
}

static int layout_metrics(const cube_writer *w, w_layout *l)
{
    int *parent = malloc(((size_t)w->n_metrics + 1) * sizeof(int));
    cube_tree t = {0};
    l->metric_seq = malloc(((size_t)w->n_metrics + 1) * sizeof(int));
    l->metric_file = malloc(((size_t)w->n_metrics + 1) * sizeof(int));
    int rc = (parent && l->metric_seq && l->metric_file) ? 0 : -1;
    for (int i = 0; rc == 0 && i < w->n_metrics; i++)
        parent[i] = w->metrics[i].parent;
    if (rc == 0)
        rc = cube_tree_build(&t, parent, NULL, w->n_metrics);
    if (rc == 0)
        rc = cube_tree_deep(&t, l->metric_seq);
    for (int k = 0; rc == 0 && k < w->n_metrics; k++)
        l->metric_file[l->metric_seq[k]] = k;
    cube_tree_free(&t);
    free(parent);
    return rc;
}

static int layout_cnodes(const cube_writer *w, w_layout *l)
{
    size_t n = (size_t)w->n_cnodes + 1;
    l->cnode_deep = malloc(n * sizeof(int));
    l->cnode_wide = malloc(n * sizeof(int));
    l->cnode_file = malloc(n * sizeof(int));
    if (!l->cnode_deep || !l->cnode_wide || !l->cnode_file ||
        cube_tree_build(&l->ctree, w->cnode_parent, NULL, w->n_cnodes) != 0 ||
        cube_tree_deep(&l->ctree, l->cnode_deep) != 0 ||
        cube_tree_wide(&l->ctree, l->cnode_wide) != 0)
        return -1;
    for (int k = 0; k < w->n_cnodes; k++)
        l->cnode_file[l->cnode_deep[k]] = k;
    return 0;
}

/* Document order of the system tree: in each stnode its location groups (with their
 * locations) come before its child stnodes, which is the order CubeLib's grammar demands. */
static int layout_system(const cube_writer *w, w_layout *l)
{
    int *parent = malloc(((size_t)w->n_stnodes + 1) * sizeof(int));
    l->stnode_seq = malloc(((size_t)w->n_stnodes + 1) * sizeof(int));
    l->stnode_file = malloc(((size_t)w->n_stnodes + 1) * sizeof(int));
    l->locgroup_file = malloc(((size_t)w->n_locgroups + 1) * sizeof(int));
    l->loc_seq = malloc(((size_t)w->n_locations + 1) * sizeof(int));
    int rc = (parent && l->stnode_seq && l->stnode_file && l->locgroup_file && l->loc_seq) ? 0 : -1;
    for (int i = 0; rc == 0 && i < w->n_stnodes; i++)
        parent[i] = w->stnodes[i].parent;
    if (rc == 0)
        rc = cube_tree_build(&l->stree, parent, NULL, w->n_stnodes);
    free(parent);
    if (rc == 0)
        rc = cube_tree_deep(&l->stree, l->stnode_seq);
    if (rc == 0)
        rc = group_by_owner(w->locgroups, w->n_locgroups, w->n_stnodes, &l->lg_off, &l->lg_items);
    if (rc == 0)
        rc = group_by_owner(w->locations, w->n_locations, w->n_locgroups, &l->loc_off,
                            &l->loc_items);
    int n_lg = 0, n_loc = 0;
    for (int k = 0; rc == 0 && k < w->n_stnodes; k++) {
        int s = l->stnode_seq[k];
        l->stnode_file[s] = k;
        for (int i = l->lg_off[s]; i < l->lg_off[s + 1]; i++) {
            int g = l->lg_items[i];
            l->locgroup_file[g] = n_lg++;
            for (int j = l->loc_off[g]; j < l->loc_off[g + 1]; j++)
                l->loc_seq[n_loc++] = l->loc_items[j];
        }
    }
    return rc;
}

static int check_complete(const cube_writer *w, char *err, size_t errlen)
{
    const char *missing = w->n_metrics == 0     ? "metric"
                          : w->n_regions == 0   ? "region"
                          : w->n_cnodes == 0    ? "call-tree node"
                          : w->n_stnodes == 0   ? "system-tree node"
                          : w->n_locations == 0 ? "location"
                                                : NULL;
    if (missing != NULL) {
        cube_set_err(err, errlen, "cannot write a cube without any %s", missing);
        return -1;
    }
    char *has_loc = calloc((size_t)w->n_locgroups + 1, 1);
    if (has_loc == NULL) {
        cube_set_err(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < w->n_locations; i++)
        has_loc[w->locations[i].owner] = 1;
    int bad = -1;
    for (int g = 0; g < w->n_locgroups && bad < 0; g++)
        if (!has_loc[g])
            bad = g;
    free(has_loc);
    if (bad >= 0) {
        cube_set_err(err, errlen, "location group %d (%s) has no locations", bad,
                w->locgroups[bad].name);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- anchor.xml */

static const char *dtype_name(cube_dtype t)
{
    static const char *const names[] = {"UINT64", "INT64", "DOUBLE", "MINDOUBLE", "MAXDOUBLE"};
    return names[t];
}

/* Writes <tag>escaped text</tag> and a newline. */
static void put_elem(FILE *fp, const char *tag, const char *text)
{
    fprintf(fp, "<%s>", tag);
    cube_xml_write_escaped(fp, text);
    fprintf(fp, "</%s>\n", tag);
}

static void put_attr_elem(FILE *fp, const char *key, const char *value)
{
    fputs("<attr key=\"", fp);
    cube_xml_write_escaped(fp, key);
    fputs("\" value=\"", fp);
    cube_xml_write_escaped(fp, value);
    fputs("\"/>\n", fp);
}

static bool has_attr(const cube_writer *w, const char *key)
{
    for (int i = 0; i < w->n_attrs; i++)
        if (strcmp(w->attrs[i].key, key) == 0)
            return true;
    return false;
}

/* CubeLib raises the anchor's syntax version from 4.4 to 4.7 when a location group of type
 * accelerator is defined (CubeAnchorVersion::GPU_VERSION); so does this writer. */
static bool has_accelerators(const cube_writer *w)
{
    if (w->sys_fn != NULL)
        return w->sys_accelerators;
    for (int i = 0; i < w->n_locgroups; i++)
        if (strcmp(w->locgroups[i].type, "accelerator") == 0)
            return true;
    return false;
}

static void write_header(FILE *fp, const cube_writer *w)
{
    const char *version = has_accelerators(w) ? "4.7" : "4.4";
    fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n<cube version=\"%s\">\n",
            version);
    /* what CubeLib itself records, unless the caller says otherwise */
    const char *const defaults[][2] = {{"CubePL Version", "1.1"},
                                       {"Cube anchor.xml syntax version", version},
                                       {"CUBE_CT_AGGR", "SUM"}};
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        if (!has_attr(w, defaults[i][0]))
            put_attr_elem(fp, defaults[i][0], defaults[i][1]);
    for (int i = 0; i < w->n_attrs; i++)
        put_attr_elem(fp, w->attrs[i].key, w->attrs[i].value);
}

/* Metrics nest; the open-element stack closes every metric that is not an ancestor of the
 * next one in document order. */
static int write_metrics(FILE *fp, const cube_writer *w, const w_layout *l)
{
    int *open = malloc(((size_t)w->n_metrics + 1) * sizeof(int));
    if (open == NULL)
        return -1;
    int depth = 0;
    fputs("<metrics>\n", fp);
    for (int k = 0; k < w->n_metrics; k++) {
        int id = l->metric_seq[k];
        const w_metric *m = &w->metrics[id];
        while (depth > 0 && open[depth - 1] != m->parent) {
            fputs("</metric>\n", fp);
            depth--;
        }
        fprintf(fp, "<metric id=\"%d\" type=\"%s\">\n", k,
                m->kind == CUBE_INCLUSIVE ? "INCLUSIVE" : "EXCLUSIVE");
        put_elem(fp, "disp_name", m->disp);
        put_elem(fp, "uniq_name", m->uniq);
        put_elem(fp, "dtype", dtype_name(m->dtype));
        put_elem(fp, "uom", m->uom);
        put_elem(fp, "url", "");
        put_elem(fp, "descr", m->descr);
        open[depth++] = id;
    }
    for (; depth > 0; depth--)
        fputs("</metric>\n", fp);
    fputs("</metrics>\n", fp);
    free(open);
    return 0;
}

static void write_regions(FILE *fp, const cube_writer *w)
{
    for (int i = 0; i < w->n_regions; i++) {
        const w_region *r = &w->regions[i];
        fprintf(fp, "<region id=\"%d\" mod=\"", i);
        cube_xml_write_escaped(fp, r->file);
        fprintf(fp, "\" begin=\"%d\" end=\"%d\">\n", r->begin, r->end);
        put_elem(fp, "name", r->name);
        put_elem(fp, "mangled_name", r->mangled);
        put_elem(fp, "paradigm", r->paradigm);
        put_elem(fp, "role", r->role);
        put_elem(fp, "url", "");
        put_elem(fp, "descr", r->descr);
        fputs("</region>\n", fp);
    }
}

static void write_cnode_open(FILE *fp, const cube_writer *w, const w_layout *l, int id)
{
    const w_cnode *c = &w->cnodes[id];
    fprintf(fp, "<cnode id=\"%d\" calleeId=\"%d\">\n", l->cnode_file[id], c->region);
    if (c->param == NULL)
        return;
    /* the form CubeLib writes: numeric values are read back with atof */
    fprintf(fp, "<parameter partype=\"%s\" parkey=\"", c->param_str ? "string" : "numeric");
    cube_xml_write_escaped(fp, c->param);
    fputs("\" parvalue=\"", fp);
    if (c->param_str)
        cube_xml_write_escaped(fp, c->param_str);
    else
        fprintf(fp, "%" PRId64, c->param_int);
    fputs("\"/>\n", fp);
}

static int write_program(FILE *fp, const cube_writer *w, const w_layout *l)
{
    int *open = malloc(((size_t)w->n_cnodes + 1) * sizeof(int));
    if (open == NULL)
        return -1;
    int depth = 0;
    fputs("<program>\n", fp);
    write_regions(fp, w);
    for (int k = 0; k < w->n_cnodes; k++) {
        int id = l->cnode_deep[k];
        while (depth > 0 && open[depth - 1] != w->cnodes[id].parent) {
            fputs("</cnode>\n", fp);
            depth--;
        }
        write_cnode_open(fp, w, l, id);
        open[depth++] = id;
    }
    for (; depth > 0; depth--)
        fputs("</cnode>\n", fp);
    fputs("</program>\n", fp);
    free(open);
    return 0;
}

static void write_locgroup(FILE *fp, const cube_writer *w, const w_layout *l, int g, int *loc_id)
{
    const w_sysres *lg = &w->locgroups[g];
    fprintf(fp, "<locationgroup Id=\"%d\">\n", l->locgroup_file[g]);
    put_elem(fp, "name", lg->name);
    fprintf(fp, "<rank>%d</rank>\n", lg->rank);
    put_elem(fp, "type", lg->type);
    if (lg->attr_key != NULL)
        put_attr_elem(fp, lg->attr_key, lg->attr_value);
    for (int j = l->loc_off[g]; j < l->loc_off[g + 1]; j++) {
        const w_sysres *loc = &w->locations[l->loc_items[j]];
        fprintf(fp, "<location Id=\"%d\">\n", (*loc_id)++);
        put_elem(fp, "name", loc->name);
        fprintf(fp, "<rank>%d</rank>\n", loc->rank);
        put_elem(fp, "type", loc->type);
        fputs("</location>\n", fp);
    }
    fputs("</locationgroup>\n", fp);
}

/* ---- the streamed system tree: document order is checked, nothing is kept */
static void sink_close_locgroup(cube_system_sink *s)
{
    if (s->locgroup >= 0)
        fputs("</locationgroup>\n", s->fp);
    s->locgroup = -1;
}

int64_t cube_sink_stnode(cube_system_sink *s, int64_t parent, const char *name, const char *klass)
{
    if (s->failed || name == NULL)
        return -1;
    while (s->depth > 0 && s->open[s->depth - 1].id != parent) {
        sink_close_locgroup(s);
        fputs("</systemtreenode>\n", s->fp);
        s->depth--;
    }
    if ((parent < 0) != (s->depth == 0) ||
        (s->depth == s->cap && grow((void **)&s->open, &s->cap, s->depth, sizeof *s->open))) {
        s->failed = true; /* a parent that is not open: not document order */
        return -1;
    }
    sink_close_locgroup(s);
    fprintf(s->fp, "<systemtreenode Id=\"%" PRId64 "\">\n", s->n_stnodes);
    put_elem(s->fp, "name", name);
    put_elem(s->fp, "class", klass ? klass : "");
    if (s->depth > 0)
        s->open[s->depth - 1].had_child = true;
    s->open[s->depth++] = (struct sink_open){s->n_stnodes, false};
    return s->n_stnodes++;
}

int64_t cube_sink_locgroup(cube_system_sink *s, int64_t stnode, const char *name, int rank,
                           const char *type)
{
    /* location groups of a node come before its child nodes */
    if (s->failed || name == NULL || s->depth == 0 || s->open[s->depth - 1].id != stnode ||
        s->open[s->depth - 1].had_child) {
        s->failed = true;
        return -1;
    }
    sink_close_locgroup(s);
    fprintf(s->fp, "<locationgroup Id=\"%" PRId64 "\">\n", s->n_locgroups);
    put_elem(s->fp, "name", name);
    fprintf(s->fp, "<rank>%d</rank>\n", rank);
    put_elem(s->fp, "type", type ? type : "process");
    s->locgroup = s->n_locgroups;
    s->locgroup_has_location = false;
    return s->n_locgroups++;
}

int cube_sink_locgroup_attr(cube_system_sink *s, const char *key, const char *value)
{
    if (s->failed || key == NULL || value == NULL || s->locgroup < 0 || s->locgroup_has_location) {
        s->failed = true;
        return -1;
    }
    put_attr_elem(s->fp, key, value);
    return 0;
}

int64_t cube_sink_location(cube_system_sink *s, int64_t locgroup, const char *name, int rank,
                           const char *type)
{
    if (s->failed || name == NULL || locgroup < 0 || s->locgroup != locgroup) {
        s->failed = true;
        return -1;
    }
    s->locgroup_has_location = true;
    fprintf(s->fp, "<location Id=\"%" PRId64 "\">\n", s->n_locations);
    put_elem(s->fp, "name", name);
    fprintf(s->fp, "<rank>%d</rank>\n", rank);
    put_elem(s->fp, "type", type ? type : "thread");
    fputs("</location>\n", s->fp);
    return s->n_locations++;
}

int cube_writer_system_stream(cube_writer *w, uint64_t n_locations, cube_system_fn fn, void *arg)
{
    if (w == NULL || fn == NULL || n_locations == 0 || n_locations > INT32_MAX ||
        w->n_stnodes > 0 || w->n_locations > 0)
        return -1;
    w->sys_fn = fn;
    w->sys_arg = arg;
    w->sys_locations = n_locations;
    return 0;
}

void cube_writer_system_accelerators(cube_writer *w)
{
    if (w != NULL)
        w->sys_accelerators = true;
}

static int write_system_stream(FILE *fp, const cube_writer *w)
{
    cube_system_sink s = {.fp = fp, .locgroup = -1};
    fputs("<system>\n", fp);
    int rc = w->sys_fn(w->sys_arg, &s);
    sink_close_locgroup(&s);
    for (; s.depth > 0; s.depth--)
        fputs("</systemtreenode>\n", fp);
    fputs("</system>\n", fp);
    free(s.open);
    return rc == 0 && !s.failed && (uint64_t)s.n_locations == w->sys_locations ? 0 : -1;
}

static int write_system(FILE *fp, const cube_writer *w, const w_layout *l)
{
    if (w->sys_fn)
        return write_system_stream(fp, w);
    int *open = malloc(((size_t)w->n_stnodes + 1) * sizeof(int));
    if (open == NULL)
        return -1;
    int depth = 0, loc_id = 0;
    fputs("<system>\n", fp);
    for (int k = 0; k < w->n_stnodes; k++) {
        int s = l->stnode_seq[k];
        while (depth > 0 && open[depth - 1] != w->stnodes[s].parent) {
            fputs("</systemtreenode>\n", fp);
            depth--;
        }
        fprintf(fp, "<systemtreenode Id=\"%d\">\n", k);
        put_elem(fp, "name", w->stnodes[s].name);
        put_elem(fp, "class", w->stnodes[s].klass);
        for (int i = l->lg_off[s]; i < l->lg_off[s + 1]; i++)
            write_locgroup(fp, w, l, l->lg_items[i], &loc_id);
        open[depth++] = s;
    }
    for (; depth > 0; depth--)
        fputs("</systemtreenode>\n", fp);
    fputs("</system>\n", fp);
    free(open);
    return 0;
}

/* the misc member, if any: readers find members by name, so its place is free; each
 * layout keeps its own first or last member (anchor.xml) where it was */
static int write_misc(FILE *fp, cube_tar_writer *tw, const cube_writer *w)
{
    if (w->misc_name == NULL)
        return 0;
    if (cube_tar_begin_member(tw, w->misc_name) != 0 ||
        fwrite(w->misc_data, 1, w->misc_len, fp) != w->misc_len)
        return -1;
    return cube_tar_end_member(tw);
}

static int write_anchor(FILE *fp, cube_tar_writer *tw, const cube_writer *w, const w_layout *l)
{
    if (cube_tar_begin_member(tw, "anchor.xml") != 0)
        return -1;
    write_header(fp, w);
    if (write_metrics(fp, w, l) != 0 || write_program(fp, w, l) != 0 || write_system(fp, w, l) != 0)
        return -1;
    fputs("</cube>\n", fp);
    if (ferror(fp))
        return -1;
    return cube_tar_end_member(tw);
}

/* ---------------------------------------------------------------- values */

static bool row_nonzero(const uint64_t *row, int n, cube_dtype t)
{
    bool is_double = t != CUBE_DTYPE_UINT64 && t != CUBE_DTYPE_INT64;
    for (int i = 0; i < n; i++) {
        if (!is_double) {
            if (row[i] != 0)
                return true;
            continue;
        }
        double d;
        memcpy(&d, &row[i], sizeof d);
        if (d != 0.0) /* NaN counts as data, -0.0 does not */
            return true;
    }
    return false;
}

/* Index positions (in the metric's enumeration) of the rows worth writing, ascending. */
static int collect_rows(const cube_writer *w, const w_layout *l, int metric, uint32_t **pos,
                        uint32_t *n)
{
    const w_metric *m = &w->metrics[metric];
    const int *seq = m->kind == CUBE_INCLUSIVE ? l->cnode_wide : l->cnode_deep;
    *n = 0;
    *pos = malloc(((size_t)w->n_cnodes + 1) * sizeof(uint32_t));
    if (*pos == NULL)
        return -1;
    for (int p = 0; p < w->n_cnodes; p++) {
        int c = seq[p];
        if (c < m->rows_cap && m->rows[c] && row_nonzero(m->rows[c], w->row_len, m->dtype))
            (*pos)[(*n)++] = (uint32_t)p;
    }
    return 0;
}

static int write_index(FILE *fp, cube_tar_writer *tw, int file_id, const uint32_t *pos, uint32_t n)
{
    char name[32];
    const uint32_t endian_probe = 1;
    const uint16_t version = 0;
    const uint8_t sparse = 1;
    snprintf(name, sizeof name, "%d.index", file_id);
    if (cube_tar_begin_member(tw, name) != 0)
        return -1;
    fwrite("CUBEX.INDEX", 1, 11, fp);
    fwrite(&endian_probe, sizeof endian_probe, 1, fp);
    fwrite(&version, sizeof version, 1, fp);
    fwrite(&sparse, sizeof sparse, 1, fp);
    fwrite(&n, sizeof n, 1, fp);
    fwrite(pos, sizeof *pos, n, fp);
    return ferror(fp) ? -1 : cube_tar_end_member(tw);
}

/* Row of metric m at enumeration position p, in file column order. */
static const uint64_t *file_row(const cube_writer *w, const w_layout *l, const w_metric *m,
                                uint32_t p, uint64_t *scratch)
{
    const int *seq = m->kind == CUBE_INCLUSIVE ? l->cnode_wide : l->cnode_deep;
    const uint64_t *row = m->rows[seq[p]];
    for (int k = 0; k < w->n_locations; k++)
        scratch[k] = row[l->loc_seq[k]];
    return scratch;
}

static int write_data_plain(FILE *fp, const cube_writer *w, const w_layout *l, const w_metric *m,
                            const uint32_t *pos, uint32_t n, uint64_t *scratch)
{
    fwrite("CUBEX.DATA", 1, 10, fp);
    for (uint32_t i = 0; i < n && !ferror(fp); i++)
        fwrite(file_row(w, l, m, pos[i], scratch), sizeof(uint64_t), (size_t)w->n_locations, fp);
    return ferror(fp) ? -1 : 0;
}

/* CubeLib's compressed layout: marker, uint64 row count, per row three uint64 (offset in
 * the uncompressed data, offset among the compressed streams, compressed size), then one
 * zlib stream per row. The table is patched in once the sizes are known. */
static int write_data_zlib(FILE *fp, const cube_writer *w, const w_layout *l, const w_metric *m,
                           const uint32_t *pos, uint32_t n, uint64_t *scratch)
{
    uint64_t count = n, row_bytes = (uint64_t)w->n_locations * sizeof(uint64_t);
    uLong bound = compressBound((uLong)row_bytes);
    uint64_t *table = calloc((size_t)n * 3 + 1, sizeof(uint64_t));
    Bytef *z = malloc(bound);
    int rc = (table && z) ? 0 : -1;
    fwrite("ZCUBEX.DATA", 1, 11, fp);
    fwrite(&count, sizeof count, 1, fp);
    off_t table_at = ftello(fp);
    if (rc == 0 && fwrite(table, sizeof(uint64_t), (size_t)n * 3, fp) != (size_t)n * 3)
        rc = -1;
    uint64_t coff = 0;
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        uLongf zlen = bound;
        const uint64_t *row = file_row(w, l, m, pos[i], scratch);
        if (compress2(z, &zlen, (const Bytef *)row, (uLong)row_bytes, Z_BEST_SPEED) != Z_OK ||
            fwrite(z, 1, zlen, fp) != zlen) {
            rc = -1;
            break;
        }
        table[3 * i] = i * row_bytes;
        table[3 * i + 1] = coff;
        table[3 * i + 2] = zlen;
        coff += zlen;
    }
    off_t end = ftello(fp);
    if (rc == 0 && (table_at < 0 || end < 0 || fseeko(fp, table_at, SEEK_SET) != 0 ||
                    fwrite(table, sizeof(uint64_t), (size_t)n * 3, fp) != (size_t)n * 3 ||
                    fseeko(fp, end, SEEK_SET) != 0))
        rc = -1;
    free(table);
    free(z);
    return (rc == 0 && !ferror(fp)) ? 0 : -1;
}

static int write_metric_data(FILE *fp, cube_tar_writer *tw, const cube_writer *w, const w_layout *l,
                             int file_id, bool compress, uint64_t *scratch)
{
    int metric = l->metric_seq[file_id];
    const w_metric *m = &w->metrics[metric];
    uint32_t *pos, n;
    if (collect_rows(w, l, metric, &pos, &n) != 0)
        return -1;
    int rc = 0;
    /* a metric without data gets no files at all, as in Score-P's output, unless asked */
    if (n > 0 || w->every_metric_data) {
        char name[32];
        snprintf(name, sizeof name, "%d.data", file_id);
        rc = write_index(fp, tw, file_id, pos, n);
        if (rc == 0)
            rc = cube_tar_begin_member(tw, name);
        if (rc == 0)
            rc = compress ? write_data_zlib(fp, w, l, m, pos, n, scratch)
                          : write_data_plain(fp, w, l, m, pos, n, scratch);
        if (rc == 0)
            rc = cube_tar_end_member(tw);
    }
    free(pos);
    return rc;
}

static int write_archive(FILE *fp, const cube_writer *w, const w_layout *l, bool compress)
{
    cube_tar_writer tw;
    cube_tar_writer_init(&tw, fp);
    uint64_t *scratch = malloc(((size_t)w->n_locations + 1) * sizeof(uint64_t));
    int rc = scratch ? write_anchor(fp, &tw, w, l) : -1;
    for (int k = 0; rc == 0 && k < w->n_metrics; k++)
        rc = write_metric_data(fp, &tw, w, l, k, compress, scratch);
    if (rc == 0)
        rc = write_misc(fp, &tw, w);
    if (rc == 0)
        rc = cube_tar_finish(&tw);
    free(scratch);
    return rc;
}

static int build_layout(const cube_writer *w, w_layout *l)
{
    memset(l, 0, sizeof *l);
    if (layout_metrics(w, l) != 0 || layout_cnodes(w, l) != 0 || layout_system(w, l) != 0)
        return -1;
    return 0;
}

int cube_writer_write(cube_writer *w, const char *path, bool compress, char *err, size_t errlen)
{
    if (w == NULL || path == NULL || w->sys_fn) {
        cube_set_err(err, errlen,
                w && w->sys_fn ? "a streamed system tree needs a cube_plan" : "invalid arguments");
        return -1;
    }
    if (check_complete(w, err, errlen) != 0)
        return -1;
    /* no location can be added once values exist, so this only fixes it for value-less cubes */
    w->row_len = w->n_locations;
    w_layout l;
    if (build_layout(w, &l) != 0) {
        cube_set_err(err, errlen, "out of memory while laying out the cube");
        layout_free(&l);
        return -1;
    }
    /* written beside it and renamed when complete: a process killed while writing (a job
     * cancelled at its end) leaves no empty or truncated file under the real name (the
     * library's own copy of base/atomic_file.h's rule: cube.h) */
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s.part-%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        cube_set_err(err, errlen, "file name too long: %s", path);
        layout_free(&l);
        return -1;
    }
    FILE *fp = fopen(tmp, "wb");
    if (fp == NULL) {
        cube_set_err(err, errlen, "cannot create %s: %s", path, strerror(errno));
        layout_free(&l);
        return -1;
    }
    int rc = write_archive(fp, w, &l, compress);
    int saved = errno;
    if (fclose(fp) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    layout_free(&l);
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0) {
        cube_set_err(err, errlen, "cannot write %s: %s", path, strerror(saved ? saved : EIO));
        remove(tmp);
    }
    return rc;
}

/* ------------------------------------------ anchor.xml of a file laid out by a cube_plan */
static int plan_matches(const cube_writer *w, const cube_plan *p)
{
    uint64_t n_loc = w->sys_fn ? w->sys_locations : (uint64_t)w->n_locations;
    if (w->n_metrics != p->n_metrics || w->n_cnodes != p->n_cnodes || n_loc != p->n_locations)
        return -1;
    for (int i = 0; i < w->n_metrics; i++)
        if (w->metrics[i].kind != p->kind[i])
            return -1;
    return 0;
}

int cube_writer_write_anchor(cube_writer *w, const cube_plan *p, const char *path, char *err,
                             size_t errlen)
{
    if (w == NULL || p == NULL || path == NULL || plan_matches(w, p) != 0) {
        cube_set_err(err, errlen, "the definitions differ from the plan's description");
        return -1;
    }
    if (w->n_regions == 0 || (!w->sys_fn && check_complete(w, err, errlen) != 0)) {
        if (w->n_regions == 0)
            cube_set_err(err, errlen, "cannot write a cube without any region");
        return -1;
    }
    w_layout l;
    if (build_layout(w, &l) != 0) {
        cube_set_err(err, errlen, "out of memory while laying out the cube");
        layout_free(&l);
        return -1;
    }
    FILE *fp = fopen(path, "r+b");
    int rc = fp ? 0 : -1, saved = errno;
    bool io_failed = !fp;
    if (rc == 0) {
        cube_tar_writer tw;
        cube_tar_writer_init(&tw, fp);
        bool seek_ok = fseeko(fp, (off_t)p->anchor_at, SEEK_SET) == 0;
        rc = seek_ok && write_misc(fp, &tw, w) == 0 && write_anchor(fp, &tw, w, &l) == 0 &&
                     cube_tar_finish(&tw) == 0
                 ? 0
                 : -1;
        saved = errno;
        io_failed = !seek_ok || ferror(fp);
        if (fclose(fp) != 0 && rc == 0) {
            rc = -1;
            saved = errno;
            io_failed = true;
        }
    }
    layout_free(&l);
    if (rc != 0 && w->sys_fn && !io_failed) /* the stream's own checks set no errno */
        cube_set_err(err, errlen,
                     "cannot write anchor.xml into %s: the streamed system tree was out of order "
                     "or incomplete, or memory ran out",
                     path);
    else if (rc != 0)
        cube_set_err(err, errlen, "cannot write anchor.xml into %s: %s", path,
                     strerror(saved ? saved : EIO));
    return rc;
}
