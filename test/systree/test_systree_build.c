/* SPDX-License-Identifier: BSD-3-Clause */
/* test_systree_build.c: the whole construction on the simulated backend: machines of several
 * shapes (homogeneous, heterogeneous, odd counts, one rank, two machines), forced hash
 * collisions, name patterns and their fallback; each global tree is expanded and compared
 * node by node with the plain method's, and every rank's place is checked. */
#include "systree/systree_build.h"
#include "systree/systree_plain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks, failures;

static void check(int ok, const char *what, const char *label, int line)
{
    checks++;
    if (!ok) {
        failures++;
        fprintf(stderr, "test_systree_build.c:%d: FAILED [%s]: %s\n", line, label, what);
    }
}

#define CHECK(label, cond) check((cond) != 0, #cond, (label), __LINE__)

static void *must(void *p)
{
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* ---- a simulated machine ---- */

enum { MAXL = 6, MAXLOC = 8 };

typedef struct ntype {
    int ranks;
    const char *locs; /* per process: 't' thread, 'g' GPU stream */
} ntype;

typedef struct gen {
    const char *label;
    uint32_t nlev; /* levels below the machine */
    uint64_t dims[MAXL];
    const char *classes[MAXL];
    const ntype *types;
    int (*type_of)(uint64_t node);
    /* the name of level l's element with index idx among all of that level (NULL: class+idx) */
    void (*level_name)(uint32_t l, uint64_t idx, char *buf, size_t size);
    const char *(*machine_of)(uint64_t rank); /* NULL: "Linux" */
    uint32_t (*depth_of)(uint64_t rank);      /* NULL: nlev + 1 */
    /* derived */
    uint64_t nnodes, nranks, *first;
    char lname[MAXL][32], pname[32], locname[MAXLOC][32];
    systree_level_desc lev[MAXL + 1];
    systree_loc_desc loc[MAXLOC];
} gen;

static int first_type(uint64_t node)
{
    (void)node;
    return 0;
}

static void gen_init(gen *g)
{
    g->nnodes = 1;
    for (uint32_t l = 0; l < g->nlev; l++)
        g->nnodes *= g->dims[l];
    if (g->type_of == NULL)
        g->type_of = first_type;
    g->first = must(malloc((g->nnodes + 1) * sizeof *g->first));
    g->nranks = 0;
    for (uint64_t i = 0; i < g->nnodes; i++) {
        g->first[i] = g->nranks;
        g->nranks += (uint64_t)g->types[g->type_of(i)].ranks;
    }
    g->first[g->nnodes] = g->nranks;
}

static int describe(void *arg, uint64_t w, systree_local *out)
{
    gen *g = arg;
    uint64_t node = 0, below = g->nnodes;
    while (node + 1 < g->nnodes && g->first[node + 1] <= w)
        node++;
    g->lev[0] = (systree_level_desc){"machine", g->machine_of ? g->machine_of(w) : "Linux"};
    for (uint32_t l = 0; l < g->nlev; l++) {
        below /= g->dims[l];
        uint64_t idx = node / below;
        if (g->level_name)
            g->level_name(l, idx, g->lname[l], sizeof g->lname[l]);
        else
            snprintf(g->lname[l], sizeof g->lname[l], "%s%llu", g->classes[l],
                     (unsigned long long)idx);
        g->lev[l + 1] = (systree_level_desc){g->classes[l], g->lname[l]};
    }
    const ntype *t = &g->types[g->type_of(node)];
    int nt = 0, ng = 0, n = (int)strlen(t->locs);
    for (int i = 0; i < n; i++) {
        int gpu = t->locs[i] == 'g';
        if (gpu)
            snprintf(g->locname[i], sizeof g->locname[i], "GPU stream %d", ng++);
        else if (nt++ == 0)
            snprintf(g->locname[i], sizeof g->locname[i], "Master thread");
        else
            snprintf(g->locname[i], sizeof g->locname[i], "Pthread thread %d", nt - 1);
        g->loc[i] = (systree_loc_desc){gpu ? "gpu" : "thread", g->locname[i],
                                       gpu ? SYSTREE_LOCATION_GPU : SYSTREE_LOCATION_CPU_THREAD};
    }
    snprintf(g->pname, sizeof g->pname, "MPI Rank %llu", (unsigned long long)w);
    uint32_t depth = g->depth_of ? g->depth_of(w) : g->nlev + 1;
    *out = (systree_local){depth,       g->lev, "process", g->pname, SYSTREE_LOCGROUP_PROCESS,
                           (uint32_t)n, g->loc};
    return 0;
}

/* ---- results ---- */

typedef struct result {
    systree_list global;
    uint64_t *proc; /* per rank: index of its process */
    uint64_t *loc;  /* per rank and location (MAXLOC each): index */
    uint64_t places;
    systree_sim_stats stats;
    systree_build_info info;
    systree_buf packed;
} result;

/* build's one argument for describe and place */
typedef struct both {
    gen *g;
    result *r;
} both;

static int describe_both(void *arg, uint64_t w, systree_local *out)
{
    return describe(((both *)arg)->g, w, out);
}

static int keep_place(void *arg, const systree_place *p)
{
    result *r = ((both *)arg)->r;
    r->proc[p->world] = p->process.k[0] + p->process.k[1] + p->process.k[2];
    for (uint32_t i = 0; i < p->nlocations; i++)
        r->loc[p->world * MAXLOC + i] =
            p->locations[i].k[0] + p->locations[i].k[1] + p->locations[i].k[2];
    r->places++;
    return 0;
}

static int run(gen *g, result *r)
{
    memset(r, 0, sizeof *r);
    r->proc = must(calloc(g->nranks, sizeof *r->proc));
    r->loc = must(calloc(g->nranks * MAXLOC, sizeof *r->loc));
    systree_comm *world = must(systree_comm_sim_world(g->nranks));
    both b = {g, r};
    systree_build_cfg cfg = {describe_both, keep_place, &b};
    int rc = systree_build(world, &cfg, &r->global, &r->info);
    systree_comm_sim_stats(world, &r->stats);
    systree_comm_free(world);
    if (rc == 0)
        systree_list_pack(&r->global, &r->packed);
    return rc;
}

static void result_free(result *r)
{
    systree_list_free(&r->global);
    systree_buf_free(&r->packed);
    free(r->proc);
    free(r->loc);
}

/* ---- expansions compared ---- */

typedef struct lines {
    char **v;
    size_t n, cap;
    char *path[64];   /* names of the current ancestors */
    uint64_t *origin; /* plain tree: per location group index, its world rank */
} lines;

static int add_line(void *arg, const systree_node *n)
{
    lines *x = arg;
    char line[1024];
    free(x->path[n->depth]);
    x->path[n->depth] = must(strdup(n->name));
    int len = snprintf(line, sizeof line, "#%llu ord %llu up %lld/%lld ",
                       (unsigned long long)n->index, (unsigned long long)n->ordinal,
                       (long long)n->parent, (long long)n->parent_ordinal);
    if (x->origin && n->kind == SYSTREE_LOCGROUP)
        x->origin[n->index] = n->origin;
    for (uint32_t d = 0; d <= n->depth && len < (int)sizeof line; d++)
        len += snprintf(line + len, sizeof line - (size_t)len, "/%s", x->path[d]);
    if (len < (int)sizeof line)
        snprintf(line + len, sizeof line - (size_t)len, " %u %u %s", n->kind, n->type, n->klass);
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 256;
        x->v = must(realloc(x->v, x->cap * sizeof *x->v));
    }
    x->v[x->n++] = must(strdup(line));
    return 0;
}

static void lines_free(lines *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->v[i]);
    for (int d = 0; d < 64; d++)
        free(x->path[d]);
    free(x->v);
}

/* The sequence tree and the plain tree (same-shaped siblings grouped) expand to the same
 * nodes in the same order: names of all ancestors, kind, type, class, indices, ordinals,
 * parents. And the plain tree's process of each rank is where the rank's place says. */
static void compare_with_plain(gen *g, const result *r, int line)
{
    systree_comm *world = must(systree_comm_sim_world(g->nranks));
    systree_plain_cfg cfg = {describe, g, 0, 0};
    systree_plain_result pr;
    check(systree_plain_build(world, &cfg, &pr) == 0 && pr.root, "plain method", g->label, line);
    check(systree_plain_group(pr.root) == 0, "grouped", g->label, line);
    systree_comm_free(world);
    uint64_t total = systree_list_nodes(&r->global);
    lines a = {0}, b = {.origin = must(calloc(total + 1, sizeof *b.origin))};
    systree_walk(&r->global, add_line, &a);
    systree_plain_walk(pr.root, add_line, &b);
    int same = a.n == b.n;
    for (size_t i = 0; same && i < a.n; i++) {
        same = strcmp(a.v[i], b.v[i]) == 0;
        if (!same)
            fprintf(stderr, "  sequence: %s\n  plain:    %s\n", a.v[i], b.v[i]);
    }
    check(same, "same nodes, same order", g->label, line);
    check(total == a.n, "node count", g->label, line);
    int placed = 1;
    for (uint64_t w = 0; w < g->nranks && same; w++)
        placed &= r->proc[w] < total && b.origin[r->proc[w]] == w;
    check(placed, "places equal the plain tree's", g->label, line);
    free(b.origin);
    lines_free(&a);
    lines_free(&b);
    systree_pnode_free(pr.root);
}

static int node_named(const systree_list *t, uint64_t index, const char *name, uint64_t *parent)
{
    systree_node n;
    char buf[128];
    if (systree_node_at(t, index, &n, buf, sizeof buf) != 0)
        return 0;
    *parent = n.parent;
    return strcmp(buf, name) == 0;
}

/* Each rank's place: its process, locations and (with levels) ancestors have its names. */
static void check_places(gen *g, const result *r, int levels, int line)
{
    int bad = 0;
    check(r->places == g->nranks, "a place per rank", g->label, line);
    for (uint64_t w = 0; w < g->nranks && !bad; w++) {
        systree_local l;
        uint64_t up = 0, parent = UINT64_MAX;
        describe(g, w, &l);
        bad = !node_named(&r->global, r->proc[w], l.process_name, &parent);
        for (uint32_t i = 0; i < l.nlocations && !bad; i++)
            bad = !node_named(&r->global, r->loc[w * MAXLOC + i], l.locations[i].name, &up) ||
                  up != r->proc[w];
        for (uint32_t d = l.nlevels; levels && d-- > 0 && !bad;)
            bad = !node_named(&r->global, parent, l.levels[d].name, &parent);
        bad |= levels && parent != UINT64_MAX;
        if (bad)
            fprintf(stderr, "  rank %llu misplaced\n", (unsigned long long)w);
    }
    check(!bad, "every rank's place", g->label, line);
}

/* Builds, checks places and compares with the plain method. */
static void full_check(gen *g, result *r, int line)
{
    gen_init(g);
    check(run(g, r) == 0, "build", g->label, line);
    check_places(g, r, 1, line);
    compare_with_plain(g, r, line);
}

static uint64_t records(const systree_list *l)
{
    uint64_t n = l->n;
    for (uint32_t i = 0; i < l->n; i++)
        n += records(&l->v[i]->children);
    return n;
}

/* ---- the cases ---- */

static char *ordered_listing(const systree_list *t)
{
    lines x = {0};
    systree_walk(t, add_line, &x);
    size_t len = 1;
    for (size_t i = 0; i < x.n; i++)
        len += strlen(x.v[i]) + 1;
    char *s = must(calloc(len, 1));
    for (size_t i = 0; i < x.n; i++)
        strcat(strcat(s, x.v[i]), "\n");
    lines_free(&x);
    return s;
}

static const ntype one_thread[] = {{1, "t"}};

static void test_one_rank(void)
{
    gen g = {.label = "one rank", .nlev = 1, .dims = {1}, .classes = {"node"}, .types = one_thread};
    result r;
    full_check(&g, &r, __LINE__);
    char *s = ordered_listing(&r.global);
    CHECK(g.label,
          strcmp(s, "#0 ord 0 up -1/-1 /Linux 0 0 machine\n"
                    "#1 ord 1 up 0/0 /Linux/node0 0 0 node\n"
                    "#2 ord 0 up 1/1 /Linux/node0/MPI Rank 0 1 1 process\n"
                    "#3 ord 0 up 2/0 /Linux/node0/MPI Rank 0/Master thread 2 1 thread\n") == 0);
    CHECK(g.label, r.proc[0] == 2 && r.loc[0] == 3);
    CHECK(g.label, r.stats.max_bytes == 0 && r.stats.rounds == 0 && r.stats.messages == 0);
    CHECK(g.label, records(&r.global) == 4 && r.info.levels == 2 && r.info.resplits == 0);
    free(s);
    result_free(&r);
    free(g.first);
}

static void test_homogeneous(void)
{
    static const ntype t[] = {{4, "tt"}};
    gen g = {.label = "2x3 nodes, 4 ranks, 2 threads",
             .nlev = 2,
             .dims = {2, 3},
             .classes = {"rack", "node"},
             .types = t};
    result r;
    full_check(&g, &r, __LINE__);
    const systree_rec *m = r.global.v[0], *rack = m->children.v[0];
    const systree_rec *node = rack->children.v[0], *proc = node->children.v[0];
    CHECK(g.label, r.global.n == 1 && records(&r.global) == 5);
    CHECK(g.label, rack->copies == 2 && node->copies == 3 && proc->copies == 4);
    CHECK(g.label, proc->children.v[0]->copies == 2);
    CHECK(g.label, node->names.nruns == 1 && node->names.runs[0].count == 6);
    CHECK(g.label, r.packed.len == 153); /* as scorep-systree-sim --shape 2x3 (158) less "board" */
    CHECK(g.label, r.stats.rounds > 0 && r.stats.max_bytes > 0);
    result_free(&r);
    free(g.first);
}

static void test_odd_counts(void)
{
    static const ntype t[] = {{7, "ttt"}};
    gen g = {.label = "3x5 nodes, 7 ranks, 3 threads",
             .nlev = 2,
             .dims = {3, 5},
             .classes = {"rack", "node"},
             .types = t};
    result r;
    full_check(&g, &r, __LINE__);
    const systree_rec *rack = r.global.v[0]->children.v[0];
    CHECK(g.label, records(&r.global) == 5 && rack->copies == 3);
    CHECK(g.label, rack->children.v[0]->copies == 5);
    CHECK(g.label, rack->children.v[0]->children.v[0]->copies == 7);
    CHECK(g.label, g.nranks == 105 && r.places == 105);
    result_free(&r);
    free(g.first);
}

static int half_and_half(uint64_t node)
{
    return node >= 4;
}

static int alternate(uint64_t node)
{
    return (int)(node % 2);
}

static int every_third(uint64_t node)
{
    return node % 3 == 2;
}

static void test_heterogeneous(void)
{
    static const ntype t[] = {{4, "tttt"}, {4, "ttg"}}; /* the paper's figure 4 */
    gen g = {.label = "heterogeneous blocks",
             .nlev = 2,
             .dims = {2, 4},
             .classes = {"rack", "node"},
             .types = t,
             .type_of = half_and_half};
    result r;
    full_check(&g, &r, __LINE__);
    const systree_rec *m = r.global.v[0];
    CHECK(g.label, m->children.n == 2 && records(&r.global) == 10);
    result_free(&r);
    free(g.first);

    gen c = {.label = "heterogeneous alternating",
             .nlev = 2,
             .dims = {2, 4},
             .classes = {"rack", "node"},
             .types = t,
             .type_of = alternate};
    full_check(&c, &r, __LINE__);
    const systree_rec *rack = r.global.v[0]->children.v[0];
    CHECK(c.label, rack->copies == 2 && rack->children.n == 2 && records(&r.global) == 9);
    const systree_names *nn = &rack->children.v[0]->names;
    CHECK(c.label, nn->nruns == 1 && nn->runs[0].stride == 2 && nn->runs[0].count == 4);
    result_free(&r);
    free(c.first);

    static const ntype odd[] = {{7, "ttt"}, {5, "t"}};
    gen o = {.label = "odd heterogeneous",
             .nlev = 2,
             .dims = {3, 5},
             .classes = {"rack", "node"},
             .types = odd,
             .type_of = every_third};
    full_check(&o, &r, __LINE__);
    result_free(&r);
    free(o.first);
}

static uint32_t constant_hash(const char *path, size_t len, uint32_t seed)
{
    (void)path;
    (void)len;
    (void)seed;
    return 7;
}

static uint32_t parity_hash(const char *path, size_t len, uint32_t seed)
{
    return (uint32_t)(path[len - 2] + seed) & 1; /* the last digit of the last name */
}

/* Forced collisions: the same tree and the same places as without. */
static void test_collisions(void)
{
    static const ntype t[] = {{3, "tt"}, {2, "t"}};
    systree_hash_fn hooks[] = {constant_hash, parity_hash};
    gen g = {.label = "collisions",
             .nlev = 3,
             .dims = {2, 3, 4},
             .classes = {"rack", "board", "node"},
             .types = t,
             .type_of = every_third};
    result base, r;
    gen_init(&g);
    CHECK(g.label, run(&g, &base) == 0 && base.info.resplits == 0);
    for (int h = 0; h < 2; h++) {
        systree_hash_hook = hooks[h];
        CHECK(g.label, run(&g, &r) == 0);
        systree_hash_hook = NULL;
        CHECK(g.label, r.info.resplits > 0);
        CHECK(g.label, r.packed.len == base.packed.len &&
                           !memcmp(r.packed.data, base.packed.data, r.packed.len));
        CHECK(g.label, !memcmp(r.proc, base.proc, g.nranks * sizeof *r.proc));
        CHECK(g.label, !memcmp(r.loc, base.loc, g.nranks * MAXLOC * sizeof *r.loc));
        check_places(&g, &r, 1, __LINE__);
        result_free(&r);
    }
    result_free(&base);
    free(g.first);
}

static void node0001(uint32_t l, uint64_t idx, char *buf, size_t size)
{
    (void)l;
    snprintf(buf, size, "node%04llu", (unsigned long long)idx + 1);
}

static void irregular(uint32_t l, uint64_t idx, char *buf, size_t size)
{
    static const char *syl[] = {"ka", "lo", "mi", "nu", "pe", "ra", "so", "ti"};
    (void)l;
    snprintf(buf, size, "%s%s%s", syl[idx % 8], syl[(idx / 8) % 8], syl[(idx * 5 + 3) % 8]);
}

static void test_names(void)
{
    gen g = {.label = "node0001..node1024",
             .nlev = 1,
             .dims = {1024},
             .classes = {"node"},
             .types = one_thread,
             .level_name = node0001};
    result r;
    full_check(&g, &r, __LINE__);
    const systree_rec *node = r.global.v[0]->children.v[0];
    CHECK(g.label, node->copies == 1024 && node->names.nruns == 1);
    CHECK(g.label, node->names.runs[0].base == 1 && node->names.runs[0].width == 4);
    CHECK(g.label, r.packed.len < 160);
    result_free(&r);
    free(g.first);

    gen k = {.label = "irregular names kept",
             .nlev = 1,
             .dims = {20},
             .classes = {"node"},
             .types = one_thread,
             .level_name = irregular};
    full_check(&k, &r, __LINE__);
    CHECK(k.label, r.global.v[0]->children.v[0]->names.nruns == 20);
    result_free(&r);
    free(k.first);

    gen f = {.label = "irregular names, fallback",
             .nlev = 1,
             .dims = {40},
             .classes = {"node"},
             .types = one_thread,
             .level_name = irregular};
    gen_init(&f);
    CHECK(f.label, run(&f, &r) == 0);
    CHECK(f.label, systree_names_is_fallback(&r.global.v[0]->children.v[0]->names));
    systree_node n;
    char buf[64];
    int ok = 1;
    for (uint64_t i = 0; i < 40; i++) { /* node i: index 1 + 3 i */
        char want[32];
        snprintf(want, sizeof want, "node %llu", (unsigned long long)i);
        ok &= systree_node_at(&r.global, 1 + 3 * i, &n, buf, sizeof buf) == 0 &&
              !strcmp(buf, want) && n.kind == SYSTREE_STNODE;
    }
    CHECK(f.label, ok);
    check_places(&f, &r, 0, __LINE__); /* processes and threads keep their names */
    result_free(&r);
    free(f.first);
}

static const char *two_machines(uint64_t rank)
{
    return rank < 4 ? "alpha" : "beta";
}

static uint32_t uneven_depth(uint64_t rank)
{
    return rank == 3 ? 1 : 2;
}

static void test_machines_and_depth(void)
{
    static const ntype t[] = {{2, "t"}};
    gen g = {.label = "two machines",
             .nlev = 1,
             .dims = {4},
             .classes = {"node"},
             .types = t,
             .machine_of = two_machines};
    result r;
    full_check(&g, &r, __LINE__);
    CHECK(g.label, r.global.n == 1 && r.global.v[0]->copies == 2);
    CHECK(g.label, r.global.v[0]->names.nruns == 2);
    result_free(&r);
    free(g.first);

    gen d = {.label = "uneven depth",
             .nlev = 1,
             .dims = {4},
             .classes = {"node"},
             .types = t,
             .depth_of = uneven_depth};
    gen_init(&d);
    CHECK(d.label, run(&d, &r) != 0 && r.global.n == 0);
    result_free(&r);
    free(d.first);
}

/* On a regular machine the definitions do not grow with it. */
static void test_constant_size(void)
{
    static const ntype t[] = {{16, "t"}};
    gen a = {.label = "2x4x8",
             .nlev = 3,
             .dims = {2, 4, 8},
             .types = t,
             .classes = {"rack", "board", "node"}};
    gen b = {.label = "8x8x8",
             .nlev = 3,
             .dims = {8, 8, 8},
             .types = t,
             .classes = {"rack", "board", "node"}};
    result ra, rb;
    gen_init(&a);
    gen_init(&b);
    CHECK(a.label, run(&a, &ra) == 0 && run(&b, &rb) == 0);
    CHECK(a.label, records(&ra.global) == 6 && records(&rb.global) == 6);
    CHECK(a.label, rb.packed.len - ra.packed.len <= 4); /* a few bigger numbers */
    CHECK(a.label, rb.stats.max_bytes < 4 * ra.stats.max_bytes);
    result_free(&ra);
    result_free(&rb);
    free(a.first);
    free(b.first);
}

int main(void)
{
    test_one_rank();
    test_homogeneous();
    test_odd_counts();
    test_heterogeneous();
    test_collisions();
    test_names();
    test_machines_and_depth();
    test_constant_size();
    printf("test_systree_build: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
