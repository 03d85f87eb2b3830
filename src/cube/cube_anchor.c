/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_anchor.c: turns anchor.xml into the reader's definition arrays (metrics, regions,
 * call tree, system tree, attributes), accepting Cube 4.x and the Cube3-style system tree. */
#include "cube/cube_anchor.h"
#include "cube/cube_xml.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    K_OTHER,
    K_CUBE,
    K_METRIC,
    K_REGION,
    K_CNODE,
    K_STNODE,
    K_LOCGROUP,
    K_LOCATION
} kind;

typedef struct {
    kind k;
    int id;
} frame;

/* A growable array of definitions addressed by id, with a flag per defined id. */
typedef struct {
    void *arr;
    int n;
    size_t elem;
    int cap;
    int limit; /* ids must stay below the number of such elements in the text */
    unsigned char *defined;
} table;

typedef struct {
    cube_reader *r;
    cube_anchor_extra *x;
    frame *stack;
    int depth, cap_stack;
    char *text;
    size_t tlen, tcap;
    table metrics, regions, cnodes, stnodes, locgroups, locations;
    int n_order, cap_order, cap_storage, cap_attrs;
    char *err;
    size_t errlen;
} parse_ctx;

static int fail(parse_ctx *c, const char *fmt, ...)
{
    if (c->err != NULL && c->errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, c->errlen, fmt, ap);
        va_end(ap);
    }
    return 1; /* non-zero stops the XML parse */
}

static int parse_int(const char *s, long lo, long hi, int *out)
{
    if (s == NULL)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
        end++;
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* Makes slot id exist (zeroed) and marks it defined; fails on redefinition. */
static void *table_define(table *t, int id)
{
    if (id >= t->limit)
        return NULL;
    if (id >= t->cap) {
        int nc = t->cap ? t->cap : 16;
        while (nc <= id)
            nc *= 2;
        void *a = realloc(t->arr, (size_t)nc * t->elem);
        unsigned char *d = realloc(t->defined, (size_t)nc);
        if (a != NULL)
            t->arr = a;
        if (d != NULL)
            t->defined = d;
        if (a == NULL || d == NULL)
            return NULL;
        memset((char *)a + (size_t)t->cap * t->elem, 0, (size_t)(nc - t->cap) * t->elem);
        memset(d + t->cap, 0, (size_t)(nc - t->cap));
        t->cap = nc;
    }
    if (t->defined[id])
        return NULL;
    t->defined[id] = 1;
    if (id >= t->n)
        t->n = id + 1;
    return (char *)t->arr + (size_t)id * t->elem;
}

/* The reader's arrays mirror the tables, so that definitions can be filled in through r. */
static void sync_reader(parse_ctx *c)
{
    cube_reader *r = c->r;
    r->metrics = c->metrics.arr;
    r->n_metrics = c->metrics.n;
    r->regions = c->regions.arr;
    r->n_regions = c->regions.n;
    r->cnodes = c->cnodes.arr;
    r->n_cnodes = c->cnodes.n;
    r->stnodes = c->stnodes.arr;
    r->n_stnodes = c->stnodes.n;
    r->locgroups = c->locgroups.arr;
    r->n_locgroups = c->locgroups.n;
    r->locations = c->locations.arr;
    r->n_locations = c->locations.n;
}

static void *define(parse_ctx *c, table *t, int id)
{
    void *slot = table_define(t, id);
    sync_reader(c);
    return slot;
}

static int table_check_dense(parse_ctx *c, const table *t, const char *what)
{
    for (int i = 0; i < t->n; i++)
        if (!t->defined[i])
            return fail(c, "anchor.xml: %s id %d is missing (ids must be 0..%d)", what, i,
                        t->n - 1);
    return 0;
}

static int push_frame(parse_ctx *c, kind k, int id)
{
    if (c->depth == c->cap_stack) {
        int nc = c->cap_stack ? c->cap_stack * 2 : 64;
        frame *s = realloc(c->stack, (size_t)nc * sizeof *s);
        if (s == NULL)
            return fail(c, "out of memory");
        c->stack = s;
        c->cap_stack = nc;
    }
    c->stack[c->depth++] = (frame){k, id};
    return 0;
}

static const frame *top(const parse_ctx *c)
{
    static const frame none = {K_OTHER, -1};
    return c->depth > 0 ? &c->stack[c->depth - 1] : &none;
}

/* Id of the innermost open element of kind k, or -1. Definitions nest directly, so only
 * the top frame counts. */
static int enclosing(const parse_ctx *c, kind k)
{
    return top(c)->k == k ? top(c)->id : -1;
}

static int add_global_attr(parse_ctx *c, const char **attrs)
{
    cube_reader *r = c->r;
    const char *key = cube_xml_attr(attrs, "key"), *val = cube_xml_attr(attrs, "value");
    if (key == NULL || val == NULL)
        return fail(c, "anchor.xml: <attr> without key or value");
    if (r->n_attrs == c->cap_attrs) {
        int nc = c->cap_attrs ? c->cap_attrs * 2 : 16;
        char **k = realloc(r->attr_keys, (size_t)nc * sizeof *k);
        if (k != NULL)
            r->attr_keys = k;
        char **v = realloc(r->attr_values, (size_t)nc * sizeof *v);
        if (v != NULL)
            r->attr_values = v;
        if (k == NULL || v == NULL)
            return fail(c, "out of memory");
        c->cap_attrs = nc;
    }
    r->attr_keys[r->n_attrs] = strdup(key);
    r->attr_values[r->n_attrs] = strdup(val);
    r->n_attrs++;
    if (r->attr_keys[r->n_attrs - 1] == NULL || r->attr_values[r->n_attrs - 1] == NULL)
        return fail(c, "out of memory");
    return 0;
}

static int start_metric(parse_ctx *c, const char **attrs)
{
    int id;
    if (parse_int(cube_xml_attr(attrs, "id"), 0, INT_MAX - 1, &id) != 0)
        return fail(c, "anchor.xml: metric without a valid id");
    cube_metric *m = define(c, &c->metrics, id);
    if (m == NULL)
        return fail(c, "anchor.xml: metric id %d is defined twice or out of range", id);
    m->parent = enclosing(c, K_METRIC);
    const char *type = cube_xml_attr(attrs, "type");
    m->kind = (type && strcmp(type, "INCLUSIVE") == 0) ? CUBE_INCLUSIVE : CUBE_EXCLUSIVE;
    m->dtype = CUBE_DTYPE_DOUBLE;
    /* derived metrics carry no data; they are kept so that ids stay aligned */
    c->x->storage[id].derived = type != NULL && strstr(type, "DERIVED") != NULL;
    return push_frame(c, K_METRIC, id);
}

static int start_region(parse_ctx *c, const char **attrs)
{
    int id;
    if (parse_int(cube_xml_attr(attrs, "id"), 0, INT_MAX - 1, &id) != 0)
        return fail(c, "anchor.xml: region without a valid id");
    cube_region *g = define(c, &c->regions, id);
    if (g == NULL)
        return fail(c, "anchor.xml: region id %d is defined twice or out of range", id);
    const char *mod = cube_xml_attr(attrs, "mod");
    g->file = strdup(mod ? mod : "");
    if (parse_int(cube_xml_attr(attrs, "begin"), INT_MIN, INT_MAX, &g->begin_line) != 0)
        g->begin_line = -1;
    if (parse_int(cube_xml_attr(attrs, "end"), INT_MIN, INT_MAX, &g->end_line) != 0)
        g->end_line = -1;
    if (g->file == NULL)
        return fail(c, "out of memory");
    return push_frame(c, K_REGION, id);
}

static int start_cnode(parse_ctx *c, const char **attrs)
{
    int id, callee;
    if (parse_int(cube_xml_attr(attrs, "id"), 0, INT_MAX - 1, &id) != 0 ||
        parse_int(cube_xml_attr(attrs, "calleeId"), 0, INT_MAX, &callee) != 0)
        return fail(c, "anchor.xml: cnode without a valid id or calleeId");
    cube_cnode *n = define(c, &c->cnodes, id);
    if (n == NULL)
        return fail(c, "anchor.xml: cnode id %d is defined twice or out of range", id);
    n->parent = enclosing(c, K_CNODE);
    n->region = callee;
    if (c->n_order == c->cap_order) {
        int nc = c->cap_order ? c->cap_order * 2 : 256;
        int *o = realloc(c->x->cnode_order, (size_t)nc * sizeof *o);
        if (o == NULL)
            return fail(c, "out of memory");
        c->x->cnode_order = o;
        c->cap_order = nc;
    }
    c->x->cnode_order[c->n_order++] = id;
    return push_frame(c, K_CNODE, id);
}

/* Score-P/CubeLib form: <parameter partype="numeric|string" parkey=".." parvalue=".."/>.
 * The reader's cnode holds one parameter; a second one on the same cnode is ignored. */
static int start_parameter(parse_ctx *c, const char **attrs)
{
    if (top(c)->k != K_CNODE)
        return push_frame(c, K_OTHER, -1);
    cube_cnode *n = &c->r->cnodes[top(c)->id];
    const char *type = cube_xml_attr(attrs, "partype"), *key = cube_xml_attr(attrs, "parkey"),
               *val = cube_xml_attr(attrs, "parvalue");
    if (type == NULL || key == NULL || val == NULL)
        return fail(c, "anchor.xml: incomplete <parameter> in cnode %d", top(c)->id);
    if (n->param_name == NULL) {
        n->param_name = strdup(key);
        if (strcmp(type, "string") == 0)
            n->param_string = strdup(val);
        else /* CubeLib writes numbers with %g, so accept any numeric spelling */
            n->param_int = (int64_t)strtod(val, NULL);
        if (n->param_name == NULL || (strcmp(type, "string") == 0 && n->param_string == NULL))
            return fail(c, "out of memory");
        if (strcmp(type, "string") != 0 && strchr(val, '.') == NULL && strpbrk(val, "eE") == NULL)
            n->param_int = strtoll(val, NULL, 10); /* exact beyond 2^53 */
    }
    return push_frame(c, K_OTHER, -1);
}

static int start_stnode(parse_ctx *c, const char *klass)
{
    cube_stnode *s = define(c, &c->stnodes, c->r->n_stnodes);
    if (s == NULL)
        return fail(c, "out of memory");
    s->parent = enclosing(c, K_STNODE);
    if (klass != NULL && (s->klass = strdup(klass)) == NULL)
        return fail(c, "out of memory");
    return push_frame(c, K_STNODE, c->r->n_stnodes - 1);
}

/* CubeLib numbers location groups in document order and ignores their Id attribute. */
static int start_locgroup(parse_ctx *c, const char *type)
{
    int st = enclosing(c, K_STNODE);
    if (st < 0)
        return fail(c, "anchor.xml: location group outside a system-tree node");
    cube_locgroup *g = define(c, &c->locgroups, c->r->n_locgroups);
    if (g == NULL)
        return fail(c, "out of memory");
    g->stnode = st;
    if (type != NULL && (g->type = strdup(type)) == NULL)
        return fail(c, "out of memory");
    return push_frame(c, K_LOCGROUP, c->r->n_locgroups - 1);
}

/* Location ids are the data columns, so the Id attribute counts here. */
static int start_location(parse_ctx *c, const char **attrs, const char *type)
{
    int lg = enclosing(c, K_LOCGROUP), id;
    const char *ids = cube_xml_attr(attrs, "Id");
    if (ids == NULL)
        ids = cube_xml_attr(attrs, "id");
    if (lg < 0)
        return fail(c, "anchor.xml: location outside a location group");
    if (parse_int(ids, 0, INT_MAX - 1, &id) != 0)
        return fail(c, "anchor.xml: location without a valid Id");
    cube_location *l = define(c, &c->locations, id);
    if (l == NULL)
        return fail(c, "anchor.xml: location id %d is defined twice or out of range", id);
    l->locgroup = lg;
    if (type != NULL && (l->type = strdup(type)) == NULL)
        return fail(c, "out of memory");
    return push_frame(c, K_LOCATION, id);
}

static int on_start(void *ctx, const char *name, const char **attrs)
{
    parse_ctx *c = ctx;
    c->tlen = 0;
    if (strcmp(name, "cube") == 0)
        return c->depth == 0 ? push_frame(c, K_CUBE, 0) : fail(c, "anchor.xml: nested <cube>");
    if (c->depth == 0)
        return fail(c, "anchor.xml: root element is <%s>, not <cube>", name);
    if (strcmp(name, "attr") == 0 && top(c)->k == K_CUBE) {
        int rc = add_global_attr(c, attrs);
        return rc ? rc : push_frame(c, K_OTHER, -1);
    }
    if (strcmp(name, "attr") == 0 && top(c)->k == K_LOCGROUP) {
        const char *key = cube_xml_attr(attrs, "key"), *val = cube_xml_attr(attrs, "value");
        char **creator = &c->r->locgroups[top(c)->id].creator;
        if (key && val && strcmp(key, "Creating location group") == 0 && *creator == NULL &&
            (*creator = strdup(val)) == NULL)
            return fail(c, "out of memory");
        return push_frame(c, K_OTHER, -1);
    }
    if (strcmp(name, "metric") == 0)
        return start_metric(c, attrs);
    if (strcmp(name, "region") == 0)
        return start_region(c, attrs);
    if (strcmp(name, "cnode") == 0)
        return start_cnode(c, attrs);
    if (strcmp(name, "parameter") == 0)
        return start_parameter(c, attrs);
    if (strcmp(name, "systemtreenode") == 0)
        return start_stnode(c, NULL);
    if (strcmp(name, "machine") == 0 || strcmp(name, "node") == 0)
        return start_stnode(c, name);
    if (strcmp(name, "locationgroup") == 0)
        return start_locgroup(c, NULL);
    if (strcmp(name, "process") == 0)
        return start_locgroup(c, "process");
    if (strcmp(name, "location") == 0)
        return start_location(c, attrs, NULL);
    if (strcmp(name, "thread") == 0)
        return start_location(c, attrs, "thread");
    return push_frame(c, K_OTHER, -1);
}

static int on_text(void *ctx, const char *text, size_t len)
{
    parse_ctx *c = ctx;
    if (c->tlen + len + 1 > c->tcap) {
        size_t nc = c->tcap ? c->tcap : 256;
        while (nc < c->tlen + len + 1)
            nc *= 2;
        char *t = realloc(c->text, nc);
        if (t == NULL)
            return fail(c, "out of memory");
        c->text = t;
        c->tcap = nc;
    }
    memcpy(c->text + c->tlen, text, len);
    c->tlen += len;
    c->text[c->tlen] = '\0';
    return 0;
}

/* Replaces *field with a copy of the collected text (the last occurrence wins). */
static int set_field(parse_ctx *c, char **field)
{
    char *s = strdup(c->tlen ? c->text : "");
    if (s == NULL)
        return fail(c, "out of memory");
    free(*field);
    *field = s;
    return 0;
}

static const struct {
    const char *name;
    cube_dtype dtype;
    int size;
    bool is_signed;
} dtypes[] = {
    {"UINT64", CUBE_DTYPE_UINT64, 8, false},       {"INT64", CUBE_DTYPE_INT64, 8, true},
    {"DOUBLE", CUBE_DTYPE_DOUBLE, 8, false},       {"MINDOUBLE", CUBE_DTYPE_MINDOUBLE, 8, false},
    {"MAXDOUBLE", CUBE_DTYPE_MAXDOUBLE, 8, false}, {"INTEGER", CUBE_DTYPE_INT64, 8, true},
    {"FLOAT", CUBE_DTYPE_DOUBLE, 8, false},        {"UINT32", CUBE_DTYPE_UINT64, 4, false},
    {"INT32", CUBE_DTYPE_INT64, 4, true},          {"UINT16", CUBE_DTYPE_UINT64, 2, false},
    {"INT16", CUBE_DTYPE_INT64, 2, true},          {"UINT8", CUBE_DTYPE_UINT64, 1, false},
    {"INT8", CUBE_DTYPE_INT64, 1, true},
};

static int end_metric_field(parse_ctx *c, const char *name, int id)
{
    cube_metric *m = &c->r->metrics[id];
    if (strcmp(name, "disp_name") == 0)
        return set_field(c, &m->disp_name);
    if (strcmp(name, "uniq_name") == 0)
        return set_field(c, &m->uniq_name);
    if (strcmp(name, "uom") == 0)
        return set_field(c, &m->uom);
    if (strcmp(name, "descr") == 0)
        return set_field(c, &m->descr);
    if (strcmp(name, "dtype") != 0)
        return 0;
    cube_storage *st = &c->x->storage[id];
    m->dtype = CUBE_DTYPE_DOUBLE;
    st->elem_size = 0; /* histograms, tau atomics, ... stay without data */
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++) {
        if (c->tlen && strcmp(c->text, dtypes[i].name) == 0) {
            m->dtype = dtypes[i].dtype;
            st->elem_size = st->derived ? 0 : dtypes[i].size;
            st->is_signed = dtypes[i].is_signed;
        }
    }
    return 0;
}

static int end_region_field(parse_ctx *c, const char *name, int id)
{
    cube_region *g = &c->r->regions[id];
    if (strcmp(name, "name") == 0)
        return set_field(c, &g->name);
    if (strcmp(name, "mangled_name") == 0)
        return set_field(c, &g->mangled_name);
    if (strcmp(name, "paradigm") == 0)
        return set_field(c, &g->paradigm);
    if (strcmp(name, "role") == 0)
        return set_field(c, &g->role);
    if (strcmp(name, "descr") == 0)
        return set_field(c, &g->descr);
    return 0;
}

/* name / rank / type / class of the system-tree entities. */
static int end_system_field(parse_ctx *c, const char *name, const frame *f)
{
    cube_reader *r = c->r;
    char **pname = NULL, **ptype = NULL;
    int *prank = NULL;
    if (f->k == K_STNODE) {
        pname = &r->stnodes[f->id].name;
        ptype = &r->stnodes[f->id].klass;
    } else if (f->k == K_LOCGROUP) {
        pname = &r->locgroups[f->id].name;
        ptype = &r->locgroups[f->id].type;
        prank = &r->locgroups[f->id].rank;
    } else {
        pname = &r->locations[f->id].name;
        ptype = &r->locations[f->id].type;
        prank = &r->locations[f->id].rank;
    }
    if (strcmp(name, "name") == 0)
        return set_field(c, pname);
    if (strcmp(name, f->k == K_STNODE ? "class" : "type") == 0)
        return set_field(c, ptype);
    if (prank != NULL && strcmp(name, "rank") == 0 &&
        parse_int(c->tlen ? c->text : "", INT_MIN, INT_MAX, prank) != 0)
        return fail(c, "anchor.xml: bad <rank> '%s'", c->tlen ? c->text : "");
    return 0;
}

static int on_end(void *ctx, const char *name)
{
    parse_ctx *c = ctx;
    c->depth--; /* the element's own frame; the parser guarantees matching tags */
    const frame *f = top(c);
    int rc = 0;
    switch (f->k) {
    case K_METRIC:
        rc = end_metric_field(c, name, f->id);
        break;
    case K_REGION:
        rc = end_region_field(c, name, f->id);
        break;
    case K_STNODE:
    case K_LOCGROUP:
    case K_LOCATION:
        rc = end_system_field(c, name, f);
        break;
    default:
        break;
    }
    c->tlen = 0;
    return rc;
}

/* Counts start tags <name followed by a blank, '>' or '/': an upper bound for the ids of
 * that kind, which keeps a corrupt id from allocating gigabytes. */
static int count_tags(const char *xml, size_t len, const char *name)
{
    size_t nl = strlen(name), count = 0;
    const char *end = xml + len;
    for (const char *p = xml; (p = memchr(p, '<', (size_t)(end - p))) != NULL; p++) {
        if ((size_t)(end - p) > nl + 1 && memcmp(p + 1, name, nl) == 0 &&
            strchr(" \t\r\n>/", p[1 + nl]) != NULL)
            count++;
    }
    return count > INT_MAX - 1 ? INT_MAX - 1 : (int)count;
}

static int fill_defaults(parse_ctx *c)
{
    cube_reader *r = c->r;
    for (int i = 0; i < r->n_metrics; i++) {
        cube_metric *m = &r->metrics[i];
        if (m->uniq_name == NULL && m->disp_name != NULL)
            m->uniq_name = strdup(m->disp_name);
        char **f[] = {&m->uniq_name, &m->disp_name, &m->uom, &m->descr};
        for (size_t k = 0; k < 4; k++)
            if (*f[k] == NULL &&
                (*f[k] = strdup(k < 2 && m->uniq_name ? m->uniq_name : "")) == NULL)
                return fail(c, "out of memory");
    }
    for (int i = 0; i < r->n_regions; i++) {
        cube_region *g = &r->regions[i];
        if (g->mangled_name == NULL && g->name != NULL)
            g->mangled_name = strdup(g->name);
        char **f[] = {&g->name, &g->mangled_name, &g->paradigm, &g->role, &g->descr};
        for (size_t k = 0; k < 5; k++)
            if (*f[k] == NULL && (*f[k] = strdup(k >= 2 && k <= 3 ? "unknown" : "")) == NULL)
                return fail(c, "out of memory");
    }
    for (int i = 0; i < r->n_stnodes; i++) {
        cube_stnode *s = &r->stnodes[i];
        if ((s->name == NULL && (s->name = strdup("")) == NULL) ||
            (s->klass == NULL && (s->klass = strdup("")) == NULL))
            return fail(c, "out of memory");
    }
    for (int i = 0; i < r->n_locgroups; i++) {
        cube_locgroup *g = &r->locgroups[i];
        if ((g->name == NULL && (g->name = strdup("")) == NULL) ||
            (g->type == NULL && (g->type = strdup("process")) == NULL))
            return fail(c, "out of memory");
    }
    for (int i = 0; i < r->n_locations; i++) {
        cube_location *l = &r->locations[i];
        if ((l->name == NULL && (l->name = strdup("")) == NULL) ||
            (l->type == NULL && (l->type = strdup("thread")) == NULL))
            return fail(c, "out of memory");
    }
    return 0;
}

static int validate(parse_ctx *c)
{
    cube_reader *r = c->r;
    if (table_check_dense(c, &c->metrics, "metric") ||
        table_check_dense(c, &c->regions, "region") || table_check_dense(c, &c->cnodes, "cnode") ||
        table_check_dense(c, &c->locations, "location"))
        return 1;
    for (int i = 0; i < r->n_cnodes; i++)
        if (r->cnodes[i].region >= r->n_regions)
            return fail(c, "anchor.xml: cnode %d calls undefined region %d", i,
                        r->cnodes[i].region);
    if (r->n_cnodes == 0 || r->n_locations == 0)
        return fail(c, "anchor.xml: no %s defined", r->n_cnodes ? "locations" : "call-tree nodes");
    return 0;
}

int cube_anchor_parse(cube_reader *r, cube_anchor_extra *extra, char *xml, size_t len, char *err,
                      size_t errlen)
{
    parse_ctx c = {.r = r, .x = extra, .err = err, .errlen = errlen};
    c.metrics.elem = sizeof(cube_metric);
    c.regions.elem = sizeof(cube_region);
    c.cnodes.elem = sizeof(cube_cnode);
    c.stnodes.elem = sizeof(cube_stnode);
    c.locgroups.elem = sizeof(cube_locgroup);
    c.locations.elem = sizeof(cube_location);
    c.metrics.limit = count_tags(xml, len, "metric");
    c.regions.limit = count_tags(xml, len, "region");
    c.cnodes.limit = count_tags(xml, len, "cnode");
    c.locations.limit = count_tags(xml, len, "location") + count_tags(xml, len, "thread");
    c.stnodes.limit = c.locgroups.limit = INT_MAX - 1; /* numbered by the reader itself */
    const cube_xml_handler h = {on_start, on_end, on_text};
    int rc = 0;
    /* storage is indexed by metric id during the parse */
    extra->storage = calloc((size_t)c.metrics.limit + 1, sizeof(cube_storage));
    if (extra->storage == NULL)
        rc = fail(&c, "out of memory");
    if (rc == 0)
        rc = cube_xml_parse(xml, len, &h, &c, err, errlen);
    if (rc == 0)
        rc = validate(&c);
    if (rc == 0)
        rc = fill_defaults(&c);
    free(c.stack);
    free(c.text);
    free(c.metrics.defined);
    free(c.regions.defined);
    free(c.cnodes.defined);
    free(c.stnodes.defined);
    free(c.locgroups.defined);
    free(c.locations.defined);
    return rc == 0 ? 0 : -1;
}

void cube_anchor_extra_free(cube_anchor_extra *extra)
{
    free(extra->storage);
    free(extra->cnode_order);
    extra->storage = NULL;
    extra->cnode_order = NULL;
}
