/* profile_cube.c: merges the call trees of all locations into one tree (equal call paths
 * become one cnode) and writes it with the values of every location as profile.cubex. */
#include "config.h"
#include "core/location.h"
#include "core/runtime.h"
#include "core/system_tree.h"
#include "core/timer.h"
#include "cube/cube.h"
#include "defs/defs.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int parent, first_child, last_child, next_sibling;
    uint8_t kind;
    uint32_t id;
    int64_t value;
    int cube_id;
} gnode;

typedef struct {
    int gnode;
    uint32_t location;
    const pnode *node;
} binding;

typedef struct {
    gnode *g;
    int n, cap;
    int *slots; /* hash (parent, kind, id, value) -> gnode */
    int nslots;
    binding *b;
    size_t nb, capb;
} merged;

static uint64_t gkey(int parent, uint8_t kind, uint32_t id, int64_t value)
{
    uint64_t h = (uint64_t)(parent + 1) * 0x9e3779b97f4a7c15ull;
    h ^= ((uint64_t)kind << 40 | id) * 0xc2b2ae3d27d4eb4full;
    return h ^ (uint64_t)value * 0x165667b19e3779f9ull;
}

static int rehash(merged *m)
{
    int ns = m->nslots ? m->nslots * 2 : 1024;
    int *s = malloc(ns * sizeof *s);
    if (!s)
        return -1;
    memset(s, 0xff, ns * sizeof *s);
    for (int i = 0; i < m->n; i++) {
        gnode *x = &m->g[i];
        int j = (int)(gkey(x->parent, x->kind, x->id, x->value) & (uint64_t)(ns - 1));
        while (s[j] >= 0)
            j = (j + 1) & (ns - 1);
        s[j] = i;
    }
    free(m->slots);
    m->slots = s;
    m->nslots = ns;
    return 0;
}

static int gnode_get(merged *m, int parent, const pnode *p)
{
    if ((m->n + 1) * 2 > m->nslots && rehash(m) != 0)
        return -1;
    int j = (int)(gkey(parent, p->kind, p->id, p->value) & (uint64_t)(m->nslots - 1));
    for (; m->slots[j] >= 0; j = (j + 1) & (m->nslots - 1)) {
        gnode *x = &m->g[m->slots[j]];
        if (x->parent == parent && x->kind == p->kind && x->id == p->id && x->value == p->value)
            return m->slots[j];
    }
    if (m->n == m->cap) {
        int c = m->cap ? m->cap * 2 : 1024;
        gnode *g = realloc(m->g, c * sizeof *g);
        if (!g)
            return -1;
        m->g = g;
        m->cap = c;
    }
    int id = m->n++;
    m->g[id] = (gnode){parent, -1, -1, -1, p->kind, p->id, p->value, -1};
    if (parent >= 0) {
        gnode *par = &m->g[parent];
        if (par->last_child >= 0)
            m->g[par->last_child].next_sibling = id;
        else
            par->first_child = id;
        par->last_child = id;
    }
    m->slots[j] = id;
    return id;
}

static int bind(merged *m, int g, uint32_t loc, const pnode *p)
{
    if (m->nb == m->capb) {
        size_t c = m->capb ? m->capb * 2 : 4096;
        binding *b = realloc(m->b, c * sizeof *b);
        if (!b)
            return -1;
        m->b = b;
        m->capb = c;
    }
    m->b[m->nb++] = (binding){g, loc, p};
    return 0;
}

/* Depth-first over one location's tree; children were prepended, so walk them reversed
 * to keep first-call order. */
static int merge_subtree(merged *m, int gparent, const pnode *p, uint32_t loc)
{
    int n = 0;
    for (const pnode *c = p->first_child; c; c = c->next_sibling)
        n++;
    const pnode **kids = malloc((n ? n : 1) * sizeof *kids);
    if (!kids)
        return -1;
    int i = n;
    for (const pnode *c = p->first_child; c; c = c->next_sibling)
        kids[--i] = c;
    int rc = 0;
    for (i = 0; i < n && rc == 0; i++) {
        int g = gnode_get(m, gparent, kids[i]);
        rc = g < 0 || bind(m, g, loc, kids[i]) != 0 ? -1 : merge_subtree(m, g, kids[i], loc);
    }
    free(kids);
    return rc;
}

static uint32_t region_of(const merged *m, int g)
{
    while (g >= 0 && m->g[g].kind != PNODE_REGION)
        g = m->g[g].parent;
    return g >= 0 ? m->g[g].id : 0;
}

static int define_cnode(cube_writer *w, const merged *m, int g, int parent_cube)
{
    const gnode *x = &m->g[g];
    int region = (int)region_of(m, g);
    if (x->kind == PNODE_REGION)
        return cube_writer_cnode(w, parent_cube, region);
    const char *pname = scorep_defs_parameter_get(x->id)->name;
    if (x->kind == PNODE_PARAM_STRING)
        return cube_writer_cnode_param_string(w, parent_cube, region, pname,
                                              scorep_defs_string_get((uint32_t)x->value));
    return cube_writer_cnode_param_int(w, parent_cube, region, pname, x->value);
}

/* Pre-order ids, as Score-P numbers its cnodes. Iterative: call paths may be deep. */
static int define_cnodes(cube_writer *w, merged *m)
{
    int *stack = malloc((m->n + 1) * sizeof *stack), top = 0;
    if (!stack)
        return -1;
    for (int r = m->n - 1; r >= 0; r--)
        if (m->g[r].parent < 0)
            stack[top++] = r;
    /* roots were pushed last-first so that the first root is defined first */
    while (top > 0) {
        int g = stack[--top];
        int pc = m->g[g].parent >= 0 ? m->g[m->g[g].parent].cube_id : -1;
        if ((m->g[g].cube_id = define_cnode(w, m, g, pc)) < 0) {
            free(stack);
            return -1;
        }
        int first = top;
        for (int c = m->g[g].first_child; c >= 0; c = m->g[c].next_sibling)
            stack[top++] = c;
        for (int a = first, b = top - 1; a < b; a++, b--) {
            int t = stack[a];
            stack[a] = stack[b];
            stack[b] = t;
        }
    }
    free(stack);
    return 0;
}

static const char *region_file(const scorep_region_def *r)
{
    return r->file ? r->file : "";
}

static int define_static(cube_writer *w, int *metric_ids, uint32_t n_loc)
{
    cube_writer_attr(w, "Creator", "scorep-rt " PACKAGE_VERSION);
    cube_writer_attr(w, "CUBE_CT_AGGR", "SUM");
    metric_ids[0] = cube_writer_metric(w, -1, "visits", "Visits", CUBE_DTYPE_UINT64, "occ",
                                       "Number of visits", CUBE_EXCLUSIVE);
    metric_ids[1] = cube_writer_metric(w, -1, "time", "Time", CUBE_DTYPE_DOUBLE, "sec",
                                       "Total CPU allocation time", CUBE_INCLUSIVE);
    metric_ids[2] = cube_writer_metric(w, -1, "min_time", "Minimum Inclusive Time",
                                       CUBE_DTYPE_MINDOUBLE, "sec",
                                       "Minimum inclusive CPU allocation time", CUBE_EXCLUSIVE);
    metric_ids[3] = cube_writer_metric(w, -1, "max_time", "Maximum Inclusive Time",
                                       CUBE_DTYPE_MAXDOUBLE, "sec",
                                       "Maximum inclusive CPU allocation time", CUBE_EXCLUSIVE);
    for (uint32_t i = 0; i < scorep_defs_metric_count(); i++) {
        const scorep_metric_def *d = scorep_defs_metric_get(i);
        cube_dtype t = d->type == SCOREP_METRIC_INT64    ? CUBE_DTYPE_INT64
                       : d->type == SCOREP_METRIC_UINT64 ? CUBE_DTYPE_UINT64
                                                         : CUBE_DTYPE_DOUBLE;
        metric_ids[4 + i] =
            cube_writer_metric(w, -1, d->name, d->name, t, d->unit, "user metric", CUBE_EXCLUSIVE);
    }
    for (uint32_t i = 0; i < scorep_defs_region_count(); i++) {
        const scorep_region_def *r = scorep_defs_region_get(i);
        if (cube_writer_region(w, r->name, r->mangled, scorep_paradigm_name(r->paradigm),
                               scorep_role_name(r->role), region_file(r), r->begin_line,
                               r->end_line, "") < 0)
            return -1;
    }
    int machine = cube_writer_stnode(w, -1, scorep_machine_name(), "machine");
    int node = cube_writer_stnode(w, machine, scorep_node_name(), "node");
    int lg = cube_writer_locgroup(w, node, scorep_process_name(), 0, "process");
    uint32_t i = 0;
    for (scorep_location *l = scorep_location_first(); l && i < n_loc; l = l->next, i++)
        if (cube_writer_location(w, lg, l->name, (int)l->id, "thread") < 0)
            return -1;
    return 0;
}

static void set_values(cube_writer *w, const merged *m, const int *mid)
{
    double res = (double)scorep_timer_resolution();
    for (size_t i = 0; i < m->nb; i++) {
        const binding *b = &m->b[i];
        const pnode *p = b->node;
        int c = m->g[b->gnode].cube_id, l = (int)b->location;
        cube_writer_set_u64(w, mid[0], c, l, p->visits);
        cube_writer_set_double(w, mid[1], c, l, (double)p->sum / res);
        if (p->visits) {
            cube_writer_set_double(w, mid[2], c, l, (double)p->min / res);
            cube_writer_set_double(w, mid[3], c, l, (double)p->max / res);
        }
        for (const pmetric *x = p->metrics; x; x = x->next) {
            scorep_metric_type t = scorep_defs_metric_get(x->metric)->type;
            if (t == SCOREP_METRIC_DOUBLE)
                cube_writer_set_double(w, mid[4 + x->metric], c, l, x->sum);
            else
                cube_writer_set_u64(w, mid[4 + x->metric], c, l,
                                    t == SCOREP_METRIC_INT64 ? (uint64_t)(int64_t)x->sum
                                                             : (uint64_t)x->sum);
        }
    }
}

int scorep_profile_write_cube(const char *path)
{
    merged m = {0};
    uint32_t n_loc = scorep_location_count(), i = 0;
    int rc = 0;
    for (scorep_location *l = scorep_location_first(); l && rc == 0 && i < n_loc; l = l->next)
        rc = merge_subtree(&m, -1, &l->profile.root, i++);
    cube_writer *w = rc == 0 ? cube_writer_new() : NULL;
    int *mid = malloc((4 + scorep_defs_metric_count()) * sizeof *mid);
    char err[512] = "out of memory";
    if (!w || !mid || define_static(w, mid, n_loc) != 0 || define_cnodes(w, &m) != 0)
        rc = -1;
    if (rc == 0) {
        set_values(w, &m, mid);
        rc = cube_writer_write(w, path, true, err, sizeof err);
    }
    if (rc != 0)
        scorep_warn("cannot write the profile '%s': %s", path, err);
    cube_writer_free(w);
    free(mid);
    free(m.g);
    free(m.slots);
    free(m.b);
    return rc;
}
