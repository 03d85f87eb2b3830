/* SPDX-License-Identifier: BSD-3-Clause */
/* test_systree_seq.c: unit tests of the sequence records: a process's record, shape equality,
 * merging (homogeneous, heterogeneous, where each record went), sizes and positions,
 * serialisation, and the expansion by walk and by index, fallback names included. */
#include "systree/systree_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks, failures;

static void check(int ok, const char *what, int line)
{
    checks++;
    if (!ok) {
        failures++;
        fprintf(stderr, "test_systree_seq.c:%d: FAILED: %s\n", line, what);
    }
}

#define CHECK(cond) check((cond) != 0, #cond, __LINE__)

static void check_str(const char *got, const char *want, int line)
{
    check(strcmp(got, want) == 0, "strings equal", line);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "  got:\n%s\n  want:\n%s\n", got, want);
}

#define CHECK_STR(got, want) check_str((got), (want), __LINE__)

static void *must(void *p)
{
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* The record of process "MPI Rank <rank>" with its locations: 't' thread, 'g' GPU stream. */
static systree_rec *proc(int rank, const char *locs, systree_where *where)
{
    static char pname[32], lname[16][32];
    systree_loc_desc d[16];
    int nt = 0, ng = 0;
    size_t n = strlen(locs);
    for (size_t i = 0; i < n; i++) {
        int gpu = locs[i] == 'g';
        if (gpu)
            snprintf(lname[i], sizeof lname[i], "GPU stream %d", ng++);
        else if (nt++ == 0)
            snprintf(lname[i], sizeof lname[i], "Master thread");
        else
            snprintf(lname[i], sizeof lname[i], "Pthread thread %d", nt - 1);
        d[i] = (systree_loc_desc){gpu ? "gpu" : "thread", lname[i],
                                  gpu ? SYSTREE_LOCATION_GPU : SYSTREE_LOCATION_CPU_THREAD};
    }
    snprintf(pname, sizeof pname, "MPI Rank %d", rank);
    systree_local l = {0, NULL, "process", pname, SYSTREE_LOCGROUP_PROCESS, (uint32_t)n, d};
    systree_rec *r = NULL;
    if (systree_local_record(&l, &r, where) != 0)
        exit(1);
    return r;
}

static systree_list one(systree_rec *r)
{
    systree_list l = {0};
    if (systree_list_push(&l, r) != 0)
        exit(1);
    return l;
}

/* A system-tree node over the records of list (moved into it). */
static systree_rec *stnode(const char *klass, const char *name, systree_list *children)
{
    systree_rec *r = must(systree_rec_new(SYSTREE_STNODE, 0, klass, name));
    r->children = *children;
    memset(children, 0, sizeof *children);
    systree_rec_seal(r);
    return r;
}

static int same_count(systree_count a, uint64_t s, uint64_t g, uint64_t l)
{
    return a.k[0] == s && a.k[1] == g && a.k[2] == l;
}

/* ---- expansions as text ---- */

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static int add_line(void *arg, const systree_node *n)
{
    text *t = arg;
    char line[512];
    int len = snprintf(line, sizeof line, "%*s%u %s \"%s\" #%llu ord %llu up %lld/%lld\n",
                       2 * (int)n->depth, "", n->kind, n->klass, n->name,
                       (unsigned long long)n->index, (unsigned long long)n->ordinal,
                       (long long)n->parent, (long long)n->parent_ordinal);
    if (t->len + (size_t)len + 1 > t->cap) {
        t->cap = 2 * (t->len + (size_t)len + 1);
        t->s = must(realloc(t->s, t->cap));
    }
    memcpy(t->s + t->len, line, (size_t)len + 1);
    t->len += (size_t)len;
    return 0;
}

static char *listing(const systree_list *l)
{
    text t = {must(calloc(1, 1)), 0, 1};
    systree_walk(l, add_line, &t);
    return t.s;
}

/* ---- tests ---- */

static void test_local_record(void)
{
    systree_where w[4];
    systree_rec *p = proc(3, "tgtt", w);
    CHECK(p->kind == SYSTREE_LOCGROUP && p->children.n == 2);
    CHECK(p->children.v[0]->copies == 3 && p->children.v[1]->copies == 1);
    CHECK(strcmp(p->children.v[1]->klass, "gpu") == 0);
    CHECK(w[0].target == 0 && w[0].offset == 0 && w[1].target == 1 && w[1].offset == 0);
    CHECK(w[2].target == 0 && w[2].offset == 1 && w[3].target == 0 && w[3].offset == 2);
    CHECK(same_count(systree_rec_size(p), 0, 1, 4));
    systree_count at = {{2, 5, 7}}, pos[4];
    systree_local_positions(p, at, w, 4, pos);
    CHECK(same_count(pos[0], 2, 6, 7) && same_count(pos[1], 2, 6, 10));
    CHECK(same_count(pos[2], 2, 6, 8) && same_count(pos[3], 2, 6, 9));
    systree_list l = one(p);
    char *s = listing(&l);
    CHECK_STR(s, "1 process \"MPI Rank 3\" #0 ord 0 up -1/-1\n"
                 "  2 thread \"Master thread\" #1 ord 0 up 0/0\n"
                 "  2 thread \"Pthread thread 1\" #2 ord 1 up 0/0\n"
                 "  2 thread \"Pthread thread 2\" #3 ord 2 up 0/0\n"
                 "  2 gpu \"GPU stream 0\" #4 ord 3 up 0/0\n");
    free(s);
    systree_list_free(&l);
}

static void test_shapes(void)
{
    systree_rec *a = proc(0, "tt", NULL), *b = proc(1, "tt", NULL), *c = proc(2, "ttt", NULL);
    systree_rec *d = proc(3, "ttg", NULL), *e = proc(4, "gtt", NULL);
    CHECK(systree_same_shape(a, b));  /* names do not matter */
    CHECK(!systree_same_shape(a, c)); /* copies of children do */
    CHECK(!systree_same_shape(d, e)); /* and their order */
    CHECK(e->children.n == 2 && e->children.v[0]->type == SYSTREE_LOCATION_GPU);
    systree_rec *f[] = {a, b, c, d, e};
    for (int i = 0; i < 5; i++)
        systree_rec_free(f[i]);
}

/* Merges processes 0..n-1 (location strings locs[i]) one after the other. */
static systree_list merged(int n, const char *const *locs, systree_map *maps)
{
    systree_list l = one(proc(0, locs[0], NULL));
    for (int i = 1; i < n; i++) {
        systree_list x = one(proc(i, locs[i], NULL));
        if (systree_list_merge(&l, &x, &maps[i]) != 0)
            exit(1);
    }
    return l;
}

static void test_merge_homogeneous(void)
{
    const char *locs[] = {"tt", "tt", "tt", "tt"};
    systree_map maps[4] = {{0}};
    systree_list l = merged(4, locs, maps);
    CHECK(l.n == 1 && l.v[0]->copies == 4);
    for (int i = 1; i < 4; i++)
        CHECK(maps[i].n == 1 && maps[i].e[0].target == 0 && maps[i].e[0].offset == (uint64_t)i);
    const systree_names *pn = &l.v[0]->names, *tn = &l.v[0]->children.v[0]->names;
    CHECK(pn->nruns == 1 && pn->runs[0].count == 4 && pn->runs[0].stride == 1);
    CHECK(tn->period == 2 && tn->nruns == 2); /* the same thread names in every process */
    char *s = listing(&l);
    CHECK(strstr(s, "1 process \"MPI Rank 3\" #9 ord 3 up -1/-1\n"
                    "  2 thread \"Master thread\" #10 ord 6 up 9/3\n"
                    "  2 thread \"Pthread thread 1\" #11 ord 7 up 9/3\n") != NULL);
    CHECK(systree_list_nodes(&l) == 12);
    free(s);
    for (int i = 0; i < 4; i++)
        systree_map_free(&maps[i]);
    systree_list_free(&l);
}

static void test_merge_heterogeneous(void)
{
    const char *locs[] = {"tt", "ttt", "tt", "ttt", "ttg"};
    systree_map maps[5] = {{0}};
    systree_list l = merged(5, locs, maps);
    CHECK(l.n == 3 && l.v[0]->copies == 2 && l.v[1]->copies == 2 && l.v[2]->copies == 1);
    CHECK(maps[1].e[0].target == 1 && maps[1].e[0].offset == 0);
    CHECK(maps[2].e[0].target == 0 && maps[2].e[0].offset == 1);
    CHECK(maps[3].e[0].target == 1 && maps[3].e[0].offset == 1);
    CHECK(maps[4].e[0].target == 2 && maps[4].e[0].offset == 0);
    const systree_run *r = &l.v[0]->names.runs[0]; /* ranks 0 and 2 */
    CHECK(l.v[0]->names.nruns == 1 && r->base == 0 && r->stride == 2 && r->count == 2);
    systree_count pos[3];
    systree_list_positions(&l, (systree_count){{1, 0, 0}}, pos);
    CHECK(same_count(pos[0], 1, 0, 0) && same_count(pos[1], 1, 2, 4) &&
          same_count(pos[2], 1, 4, 10));
    /* a node over these, merged with an equal node: copies 2, names continue */
    systree_list nodes = one(stnode("node", "node0", &l));
    systree_map maps2[5] = {{0}};
    systree_list again = merged(5, locs, maps2);
    for (uint32_t i = 0; i < again.n; i++) /* ranks 5..9 on node1 */
        for (uint32_t j = 0; j < again.v[i]->names.nruns; j++)
            again.v[i]->names.runs[j].base += 5;
    systree_list second = one(stnode("node", "node1", &again));
    systree_map m = {0};
    CHECK(systree_list_merge(&nodes, &second, &m) == 0);
    CHECK(nodes.n == 1 && nodes.v[0]->copies == 2 && m.e[0].target == 0 && m.e[0].offset == 1);
    CHECK(same_count(systree_rec_size(nodes.v[0]), 1, 5, 13));
    char *s = listing(&nodes);
    CHECK(strstr(s, "0 node \"node1\" #19 ord 1 up -1/-1\n"
                    "  1 process \"MPI Rank 5\" #20 ord 5 up 19/1\n") != NULL);
    CHECK(strstr(s, "  1 process \"MPI Rank 7\" #23 ord 6 up 19/1\n") != NULL);
    CHECK(strstr(s, "  1 process \"MPI Rank 9\" #34 ord 9 up 19/1\n"
                    "    2 thread \"Master thread\" #35 ord 23 up 34/9\n"
                    "    2 thread \"Pthread thread 1\" #36 ord 24 up 34/9\n"
                    "    2 gpu \"GPU stream 0\" #37 ord 25 up 34/9\n") != NULL);
    free(s);
    systree_map_free(&m);
    for (int i = 0; i < 5; i++) {
        systree_map_free(&maps[i]);
        systree_map_free(&maps2[i]);
    }
    systree_list_free(&nodes);
}

/* machine Linux -> 2 nodes -> 2 processes (2 threads) and a third node with 1 process. */
static systree_list small_tree(void)
{
    const char *locs[] = {"tt", "tt"};
    systree_map ma[2] = {{0}}, mb[2] = {{0}};
    systree_list a = merged(2, locs, ma), b = merged(2, locs, mb);
    systree_list c = one(proc(4, "t", NULL));
    for (uint32_t j = 0; j < b.v[0]->names.nruns; j++)
        b.v[0]->names.runs[j].base += 2;
    systree_list nodes = one(stnode("node", "n0", &a)), nb = one(stnode("node", "n1", &b));
    systree_list nc = one(stnode("node", "n7", &c));
    if (systree_list_merge(&nodes, &nb, NULL) || systree_list_merge(&nodes, &nc, NULL))
        exit(1);
    systree_map_free(&ma[1]);
    systree_map_free(&mb[1]);
    return one(stnode("machine", "Linux", &nodes));
}

static void test_walk(void)
{
    systree_list t = small_tree();
    char *s = listing(&t);
    CHECK_STR(s, "0 machine \"Linux\" #0 ord 0 up -1/-1\n"
                 "  0 node \"n0\" #1 ord 1 up 0/0\n"
                 "    1 process \"MPI Rank 0\" #2 ord 0 up 1/1\n"
                 "      2 thread \"Master thread\" #3 ord 0 up 2/0\n"
                 "      2 thread \"Pthread thread 1\" #4 ord 1 up 2/0\n"
                 "    1 process \"MPI Rank 1\" #5 ord 1 up 1/1\n"
                 "      2 thread \"Master thread\" #6 ord 2 up 5/1\n"
                 "      2 thread \"Pthread thread 1\" #7 ord 3 up 5/1\n"
                 "  0 node \"n1\" #8 ord 2 up 0/0\n"
                 "    1 process \"MPI Rank 2\" #9 ord 2 up 8/2\n"
                 "      2 thread \"Master thread\" #10 ord 4 up 9/2\n"
                 "      2 thread \"Pthread thread 1\" #11 ord 5 up 9/2\n"
                 "    1 process \"MPI Rank 3\" #12 ord 3 up 8/2\n"
                 "      2 thread \"Master thread\" #13 ord 6 up 12/3\n"
                 "      2 thread \"Pthread thread 1\" #14 ord 7 up 12/3\n"
                 "  0 node \"n7\" #15 ord 3 up 0/0\n"
                 "    1 process \"MPI Rank 4\" #16 ord 4 up 15/3\n"
                 "      2 thread \"Master thread\" #17 ord 8 up 16/4\n");
    CHECK(t.v[0]->children.n == 2 && t.v[0]->children.v[0]->copies == 2);
    free(s);
    systree_list_free(&t);
}

typedef struct nodes {
    systree_node *v;
    char (*name)[64];
    size_t n;
} nodes;

static int keep_node(void *arg, const systree_node *n)
{
    nodes *x = arg;
    x->v[x->n] = *n;
    snprintf(x->name[x->n], sizeof x->name[x->n], "%s", n->name);
    x->v[x->n].name = x->name[x->n];
    x->n++;
    return 0;
}

/* systree_node_at gives the walk's node for every index, and nothing past the end. */
static void check_node_at(const systree_list *t, int line)
{
    uint64_t total = systree_list_nodes(t);
    nodes x = {must(malloc(total * sizeof *x.v)), must(malloc(total * sizeof *x.name)), 0};
    systree_walk(t, keep_node, &x);
    check(x.n == total, "walk visits every node", line);
    for (uint64_t i = 0; i < total; i++) {
        systree_node n;
        char buf[64];
        int ok = systree_node_at(t, i, &n, buf, sizeof buf) == 0 && n.index == i &&
                 n.ordinal == x.v[i].ordinal && n.parent == x.v[i].parent &&
                 n.parent_ordinal == x.v[i].parent_ordinal && n.depth == x.v[i].depth &&
                 n.kind == x.v[i].kind && n.klass == x.v[i].klass && !strcmp(buf, x.name[i]);
        check(ok, "node_at equals the walk", line);
    }
    systree_node n;
    char buf[8];
    check(systree_node_at(t, total, &n, buf, sizeof buf) == -1, "nothing past the end", line);
    free(x.v);
    free(x.name);
}

static void test_node_at(void)
{
    systree_list t = small_tree();
    check_node_at(&t, __LINE__);
    systree_list_free(&t);
}

static void test_fallback_numbers(void)
{
    uint32_t saved = systree_names_max_runs;
    systree_names_max_runs = 1;
    systree_list t = small_tree(); /* nodes n0, n1 merged into one record, n7 apart */
    systree_rec *a = t.v[0]->children.v[0];
    CHECK(a->names.nruns == 1);        /* n0, n1 is one run */
    systree_names_fallback(&a->names); /* as if the names were irregular */
    systree_names_fallback(&t.v[0]->children.v[1]->names);
    char *s = listing(&t);
    CHECK(strstr(s, "  0 node \"node 0\" #1") && strstr(s, "  0 node \"node 1\" #8") &&
          strstr(s, "  0 node \"node 2\" #15"));
    free(s);
    check_node_at(&t, __LINE__);
    systree_names_max_runs = saved;
    systree_list_free(&t);
}

static void test_pack(void)
{
    systree_list t = small_tree(), u;
    systree_buf a = {0}, b = {0};
    CHECK(systree_list_pack(&t, &a) == 0);
    systree_reader r;
    systree_reader_init(&r, a.data, a.len);
    CHECK(systree_list_unpack(&r, &u) == 0 && r.p == r.end);
    CHECK(systree_list_pack(&u, &b) == 0 && a.len == b.len && !memcmp(a.data, b.data, a.len));
    char *s1 = listing(&t), *s2 = listing(&u);
    CHECK_STR(s2, s1);
    CHECK(u.v[0]->shape == t.v[0]->shape);
    int bad = 0;
    for (size_t len = 0; len < a.len; len++) { /* every truncation is refused */
        systree_list v;
        systree_reader_init(&r, a.data, len);
        if (systree_list_unpack(&r, &v) == 0) {
            bad++;
            systree_list_free(&v);
        }
    }
    CHECK(bad == 0);
    /* the simulator holds millions of such messages at once: a small one must stay small
     * (a 4096-byte first allocation took JUQUEEN's simulation from 1.2 to 4.8 GiB) */
    CHECK(a.cap <= 64 || a.cap < 2 * a.len);
    free(s1);
    free(s2);
    systree_buf_free(&a);
    systree_buf_free(&b);
    systree_list_free(&t);
    systree_list_free(&u);
}

/* LEB128 integers written and read in place (room for any value) and byte by byte (near
 * the end); overlong and cut integers fail; exact-size copies of a reused scratch buffer. */
static void test_integers(void)
{
    static const uint64_t v[] = {0, 127, 128, 300, 1ull << 32, UINT64_MAX, 300};
    systree_buf b = {0};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        systree_put_uv(&b, v[i]);
    static const unsigned char want[] = {0x00, 0x7f, 0x80, 0x01, 0xac, 0x02, 0x80, 0x80, 0x80,
                                         0x80, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                         0xff, 0xff, 0x01, 0xac, 0x02};
    CHECK(b.len == sizeof want && memcmp(b.data, want, sizeof want) == 0);
    systree_reader r;
    systree_reader_init(&r, b.data, b.len);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        CHECK(systree_get_uv(&r) == v[i] && !r.failed);
    CHECK(systree_get_uv(&r) == 0 && r.failed);
    systree_buf_free(&b);

    unsigned char overlong[12];
    memset(overlong, 0x80, sizeof overlong);
    systree_reader_init(&r, overlong, sizeof overlong); /* 10 bytes and more: in place */
    CHECK(systree_get_uv(&r) == 0 && r.failed);
    systree_reader_init(&r, overlong, 5); /* cut: byte by byte */
    CHECK(systree_get_uv(&r) == 0 && r.failed);
    systree_reader_init(&r, want + 3, 2); /* 0x01 0xac: 1, then a cut integer */
    CHECK(systree_get_uv(&r) == 1 && !r.failed);
    systree_get_uv(&r);
    CHECK(r.failed);

    systree_buf s = {0};
    size_t len = 0;
    systree_put(&s, "abc", 3);
    char *one = systree_buf_take(&s, &len);
    CHECK(one && len == 3 && memcmp(one, "abc", 3) == 0 && s.len == 0 && s.cap >= 3);
    systree_put(&s, "de", 2);
    char *two = systree_buf_take(&s, &len);
    CHECK(two && len == 2 && memcmp(two, "de", 2) == 0 && memcmp(one, "abc", 3) == 0);
    s.failed = 1; /* a put failed: no message */
    CHECK(systree_buf_take(&s, &len) == NULL && !s.failed && s.len == 0);
    free(one);
    free(two);
    systree_buf_free(&s);
}

int main(void)
{
    test_integers();
    test_local_record();
    test_shapes();
    test_merge_homogeneous();
    test_merge_heterogeneous();
    test_walk();
    test_node_at();
    test_fallback_numbers();
    test_pack();
    printf("test_systree_seq: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
