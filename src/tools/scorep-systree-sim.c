/* SPDX-License-Identifier: BSD-3-Clause */
/* scorep-systree-sim.c: runs the system-tree sequence-definition algorithm for a simulated
 * job (up to millions of ranks in this process) and prints one JSON line with its cost;
 * --plain runs the single-node method beside it. */
#include "systree/systree_build.h"
#include "systree/systree_plain.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { MAX_LEVELS = 16, MAX_TYPES = 64 };

typedef struct ntype {
    uint64_t nodes, ranks, threads, gpus;
} ntype;

typedef struct opts {
    uint32_t nlev;
    uint64_t dims[MAX_LEVELS];
    const char *classes[MAX_LEVELS];
    ntype types[MAX_TYPES];
    size_t ntypes;
    int cyclic, round_robin, local_names, plain, check, dump, print;
    const char *machine;
    uint64_t rank_limit, mem_limit;
    uint32_t hash_bits;
} opts;

/* The simulated machine: which node each rank is on, and the names of everything. */
typedef struct sim {
    const opts *o;
    uint64_t nnodes, nranks, nlocations;
    uint8_t *node_type;   /* per node */
    uint64_t *node_first; /* first rank of each node; [nnodes] == nranks */
    uint64_t per_level[MAX_LEVELS];
    unsigned width[MAX_LEVELS];
    uint64_t cached_node;
    char lname[MAX_LEVELS][48];
    systree_level_desc lev[MAX_LEVELS];
    char pname[48];
    char (*locname)[48];
    systree_loc_desc *locs;
    uint64_t max_locs;
    /* checking */
    const systree_list *global;
    uint64_t places, bad;
} sim;

/* ---- options ---- */

static int usage(FILE *out, int rc)
{
    fprintf(out,
            "Usage: scorep-systree-sim --shape AxBx...  [options]\n"
            "  --shape AxBxCxD        system-tree levels above the processes: A top elements,\n"
            "                         B in each, ...; the last level are the nodes\n"
            "  --ranks-per-node N     processes per node (default 1)\n"
            "  --threads T            threads per process (default 1)\n"
            "  --gpus G               GPU streams per process (default 0)\n"
            "  --hetero SPEC          node types instead of the three above: SPEC is\n"
            "                         'nodes=N,ranks=R,threads=T[,gpus=G];nodes=...' and the\n"
            "                         nodes must add up to the product of the shape\n"
            "  --layout block|cyclic  how node types are placed (default block)\n"
            "  --placement block|round-robin  ranks: consecutive on a node (default), or\n"
            "                         rank r on node r mod nodes (nodes of one type only)\n"
            "  --classes a,b,...      class of each level (default rack,midplane,nodeboard,node)\n"
            "  --machine NAME         the machine's name (default Linux)\n"
            "  --local-names          number elements within their parent (else across all)\n"
            "  --max-runs N           name runs per record before class + number (default 32)\n"
            "  --hash-bits B          keep B bits of the path hash (forces collisions)\n"
            "  --check                verify every rank's place in the global tree\n"
            "  --dump                 print the sequence records, --print every node\n"
            "  --plain                also run the single-node method\n"
            "  --plain-rank-limit BYTES  stop the plain method when one rank's tree needs\n"
            "                         more (default 256Mi: 16 GiB per JUQUEEN node / 64 ranks)\n"
            "  --mem-limit BYTES      stop it when all simulated trees need more (default 3Gi)\n");
    return rc;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    uint64_t mul = 1;
    if (*end == 'K' || *end == 'M' || *end == 'G')
        mul = *end == 'K' ? 1ull << 10 : *end == 'M' ? 1ull << 20 : 1ull << 30, end++;
    if (*end == 'i')
        end++;
    if (errno || end == s || *end || s[0] == '-')
        return -1;
    *v = x * mul;
    return 0;
}

static int parse_shape(opts *o, const char *s)
{
    char *copy = strdup(s), *save = NULL;
    int rc = copy ? 0 : -1;
    o->nlev = 0;
    for (char *t = strtok_r(copy, "x", &save); t && rc == 0; t = strtok_r(NULL, "x", &save)) {
        rc = o->nlev < MAX_LEVELS && parse_u64(t, &o->dims[o->nlev]) == 0 && o->dims[o->nlev] ? 0
                                                                                              : -1;
        o->nlev++;
    }
    free(copy);
    return rc == 0 && o->nlev ? 0 : -1;
}

static int parse_type(ntype *t, char *spec)
{
    char *save = NULL;
    *t = (ntype){0, 1, 1, 0};
    for (char *kv = strtok_r(spec, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        uint64_t v;
        if (eq == NULL || parse_u64(eq + 1, &v) != 0)
            return -1;
        *eq = '\0';
        uint64_t *f = !strcmp(kv, "nodes")     ? &t->nodes
                      : !strcmp(kv, "ranks")   ? &t->ranks
                      : !strcmp(kv, "threads") ? &t->threads
                      : !strcmp(kv, "gpus")    ? &t->gpus
                                               : NULL;
        if (f == NULL)
            return -1;
        *f = v;
    }
    return t->nodes && t->ranks && t->threads + t->gpus ? 0 : -1;
}

static int parse_hetero(opts *o, const char *s)
{
    char *copy = strdup(s), *save = NULL;
    int rc = copy ? 0 : -1;
    o->ntypes = 0;
    for (char *t = strtok_r(copy, ";", &save); t && rc == 0; t = strtok_r(NULL, ";", &save))
        rc = o->ntypes < MAX_TYPES ? parse_type(&o->types[o->ntypes++], t) : -1;
    free(copy);
    return rc == 0 && o->ntypes ? 0 : -1;
}

static int parse_classes(opts *o, const char *s)
{
    char *copy = strdup(s), *save = NULL; /* kept: the classes point into it */
    uint32_t n = 0;
    for (char *t = strtok_r(copy, ",", &save); t && n < MAX_LEVELS; t = strtok_r(NULL, ",", &save))
        o->classes[n++] = t;
    return copy && n ? 0 : -1;
}

static void default_classes(opts *o)
{
    static const char *juqueen[] = {"rack", "midplane", "nodeboard", "node"};
    static char generic[MAX_LEVELS][16];
    for (uint32_t l = 0; l < o->nlev; l++) {
        if (o->classes[l])
            continue;
        if (o->nlev - l <= 4) {
            o->classes[l] = juqueen[4 - (o->nlev - l)];
        } else {
            snprintf(generic[l], sizeof generic[l], "level%u", l);
            o->classes[l] = generic[l];
        }
    }
}

/* Options without a value; 1 when a was one. */
static int parse_flag(opts *o, const char *a)
{
    int *f = !strcmp(a, "--plain")         ? &o->plain
             : !strcmp(a, "--check")       ? &o->check
             : !strcmp(a, "--dump")        ? &o->dump
             : !strcmp(a, "--print")       ? &o->print
             : !strcmp(a, "--local-names") ? &o->local_names
                                           : NULL;
    if (f)
        *f = 1;
    return f != NULL;
}

/* Options with a word; 1 when a was none of them. */
static int parse_word(opts *o, const char *a, const char *v)
{
    if (!strcmp(a, "--shape"))
        return parse_shape(o, v);
    if (!strcmp(a, "--hetero"))
        return parse_hetero(o, v);
    if (!strcmp(a, "--classes"))
        return parse_classes(o, v);
    if (!strcmp(a, "--machine")) {
        o->machine = v;
        return 0;
    }
    if (!strcmp(a, "--placement")) {
        o->round_robin = !strcmp(v, "round-robin");
        return o->round_robin || !strcmp(v, "block") ? 0 : -1;
    }
    if (!strcmp(a, "--layout")) {
        o->cyclic = !strcmp(v, "cyclic");
        return o->cyclic || !strcmp(v, "block") ? 0 : -1;
    }
    return 1;
}

/* Options with a number (single: ranks per node, threads, GPUs of the one node type). */
static int parse_number(opts *o, const char *a, const char *v, uint64_t *single)
{
    uint64_t x;
    if (parse_u64(v, &x) != 0)
        return -1;
    if (!strcmp(a, "--ranks-per-node"))
        single[0] = x;
    else if (!strcmp(a, "--threads"))
        single[1] = x;
    else if (!strcmp(a, "--gpus"))
        single[2] = x;
    else if (!strcmp(a, "--max-runs"))
        systree_names_max_runs = (uint32_t)x;
    else if (!strcmp(a, "--hash-bits"))
        o->hash_bits = (uint32_t)x;
    else if (!strcmp(a, "--plain-rank-limit"))
        o->rank_limit = x;
    else if (!strcmp(a, "--mem-limit"))
        o->mem_limit = x;
    else
        return -1;
    return 0;
}

static int parse_opt(opts *o, int argc, char **argv, int *i, uint64_t *single)
{
    const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (parse_flag(o, a))
        return 0;
    if (v == NULL)
        return -1;
    (*i)++;
    int rc = parse_word(o, a, v);
    return rc == 1 ? parse_number(o, a, v, single) : rc;
}

static int parse_args(opts *o, int argc, char **argv)
{
    uint64_t single[3] = {1, 1, 0};
    o->machine = "Linux";
    o->rank_limit = 256ull << 20;
    o->mem_limit = 3ull << 30;
    for (int i = 1; i < argc; i++)
        if (parse_opt(o, argc, argv, &i, single) != 0)
            return -1;
    if (o->nlev == 0)
        return -1;
    uint64_t nodes = 1;
    for (uint32_t l = 0; l < o->nlev; l++)
        nodes *= o->dims[l];
    if (o->ntypes == 0) {
        o->types[0] = (ntype){nodes, single[0], single[1], single[2]};
        o->ntypes = 1;
    }
    uint64_t sum = 0;
    for (size_t t = 0; t < o->ntypes; t++)
        sum += o->types[t].nodes;
    default_classes(o);
    for (size_t t = 1; o->round_robin && t < o->ntypes; t++)
        if (o->types[t].ranks != o->types[0].ranks)
            return -1;
    return sum == nodes && o->types[0].ranks && o->types[0].threads + o->types[0].gpus ? 0 : -1;
}

/* ---- the simulated machine ---- */

static unsigned digits(uint64_t v)
{
    unsigned d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* Node types in node order: blocks of each type, or round-robin while a type has nodes. */
static void place_types(sim *s)
{
    const opts *o = s->o;
    uint64_t left[MAX_TYPES], node = 0;
    for (size_t t = 0; t < o->ntypes; t++)
        left[t] = o->types[t].nodes;
    for (size_t t = 0; !o->cyclic && t < o->ntypes; t++)
        for (uint64_t k = 0; k < o->types[t].nodes; k++)
            s->node_type[node++] = (uint8_t)t;
    while (o->cyclic && node < s->nnodes)
        for (size_t t = 0; t < o->ntypes; t++)
            if (left[t]) {
                left[t]--;
                s->node_type[node++] = (uint8_t)t;
            }
}

static int sim_init(sim *s, const opts *o)
{
    memset(s, 0, sizeof *s);
    s->o = o;
    s->nnodes = 1;
    for (uint32_t l = 0; l < o->nlev; l++) {
        s->nnodes *= o->dims[l];
        s->per_level[l] = s->nnodes;
        s->width[l] = digits((o->local_names ? o->dims[l] : s->nnodes) - 1);
    }
    s->node_type = malloc(s->nnodes);
    s->node_first = malloc((s->nnodes + 1) * sizeof *s->node_first);
    if (s->node_type == NULL || s->node_first == NULL)
        return -1;
    place_types(s);
    for (uint64_t i = 0; i < s->nnodes; i++) {
        const ntype *t = &o->types[s->node_type[i]];
        s->node_first[i] = s->nranks;
        s->nranks += t->ranks;
        s->nlocations += t->ranks * (t->threads + t->gpus);
        if (t->threads + t->gpus > s->max_locs)
            s->max_locs = t->threads + t->gpus;
    }
    s->node_first[s->nnodes] = s->nranks;
    s->locname = malloc(s->max_locs * sizeof *s->locname);
    s->locs = malloc(s->max_locs * sizeof *s->locs);
    s->cached_node = UINT64_MAX;
    return s->locname && s->locs && s->nranks <= INT32_MAX ? 0 : -1;
}

static void sim_free(sim *s)
{
    free(s->node_type);
    free(s->node_first);
    free(s->locname);
    free(s->locs);
}

static uint64_t node_of_rank(const sim *s, uint64_t w)
{
    if (s->o->round_robin)
        return w % s->nnodes;
    uint64_t c = s->cached_node; /* the algorithm mostly asks rank after rank */
    if (c >= s->nnodes) /* none yet */
        c = 0;
    if (s->node_first[c] <= w && w < s->node_first[c + 1])
        return c;
    if (c + 1 < s->nnodes && s->node_first[c + 1] <= w && w < s->node_first[c + 2]) /* next */
        return c + 1;
    uint64_t lo = 0, hi = s->nnodes; /* node_first[lo] <= w < node_first[hi] */
    while (hi - lo > 1) {
        uint64_t mid = (lo + hi) / 2;
        if (s->node_first[mid] <= w)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Names of the levels above node i (cached: consecutive ranks share their node). */
static void name_levels(sim *s, uint64_t node)
{
    const opts *o = s->o;
    if (node == s->cached_node)
        return;
    s->cached_node = node;
    s->lev[0] = (systree_level_desc){"machine", o->machine};
    for (uint32_t l = 0; l < o->nlev; l++) {
        uint64_t idx = node / (s->nnodes / s->per_level[l]);
        if (o->local_names)
            idx %= o->dims[l];
        snprintf(s->lname[l], sizeof s->lname[l], "%s%0*llu", o->classes[l], (int)s->width[l],
                 (unsigned long long)idx);
        s->lev[l + 1] = (systree_level_desc){o->classes[l], s->lname[l]};
    }
    const ntype *t = &o->types[s->node_type[node]];
    for (uint64_t k = 0; k < t->threads + t->gpus; k++) {
        if (k == 0)
            snprintf(s->locname[k], sizeof s->locname[k], "Master thread");
        else if (k < t->threads)
            snprintf(s->locname[k], sizeof s->locname[k], "Pthread thread %llu",
                     (unsigned long long)k);
        else
            snprintf(s->locname[k], sizeof s->locname[k], "GPU stream %llu",
                     (unsigned long long)(k - t->threads));
        int gpu = k >= t->threads;
        s->locs[k] = (systree_loc_desc){gpu ? "gpu" : "thread", s->locname[k],
                                        gpu ? SYSTREE_LOCATION_GPU : SYSTREE_LOCATION_CPU_THREAD};
    }
}

/* "MPI Rank " and w in decimal, as snprintf's "MPI Rank %llu" writes it: describe runs
 * several times per rank and level, and snprintf was a tenth of the whole simulation. */
static void process_name(char *buf, uint64_t w)
{
    static const char prefix[] = "MPI Rank ";
    char digits[20];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + w % 10);
        w /= 10;
    } while (w);
    memcpy(buf, prefix, sizeof prefix - 1);
    buf += sizeof prefix - 1;
    while (n)
        *buf++ = digits[--n];
    *buf = '\0';
}

static int describe(void *arg, uint64_t w, systree_local *out)
{
    sim *s = arg;
    if (w >= s->nranks)
        return -1;
    uint64_t node = node_of_rank(s, w);
    const ntype *t = &s->o->types[s->node_type[node]];
    name_levels(s, node);
    process_name(s->pname, w); /* 9 + at most 20 characters: pname has 48 */
    *out = (systree_local){s->o->nlev + 1,
                           s->lev,
                           "process",
                           s->pname,
                           SYSTREE_LOCGROUP_PROCESS,
                           (uint32_t)(t->threads + t->gpus),
                           s->locs};
    return 0;
}

/* ---- checking places ---- */

static int node_is(const sim *s, uint64_t index, uint8_t kind, const char *name, uint64_t *parent)
{
    char buf[256];
    systree_node n;
    if (systree_node_at(s->global, index, &n, buf, sizeof buf) != 0)
        return 0;
    *parent = n.parent;
    return n.kind == kind && strcmp(n.name, name) == 0;
}

/* The place of a rank leads to its process, its locations and all its ancestors by name. */
static int check_place(void *arg, const systree_place *p)
{
    sim *s = arg;
    systree_local l;
    uint64_t parent, up, idx = p->process.k[0] + p->process.k[1] + p->process.k[2];
    s->places++;
    if (s->global == NULL)
        return 0;
    describe(s, p->world, &l);
    int ok = node_is(s, idx, SYSTREE_LOCGROUP, l.process_name, &parent);
    for (uint32_t i = 0; ok && i < l.nlocations; i++) {
        const systree_count *c = &p->locations[i];
        ok = node_is(s, c->k[0] + c->k[1] + c->k[2], SYSTREE_LOCATION, l.locations[i].name, &up) &&
             up == idx;
    }
    for (uint32_t d = l.nlevels; ok && d-- > 0;)
        ok = node_is(s, parent, SYSTREE_STNODE, l.levels[d].name, &parent);
    s->bad += !ok || parent != UINT64_MAX;
    return 0;
}

/* ---- output ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t peak_rss(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (uint64_t)u.ru_maxrss * 1024;
}

static const char *kind_name(uint8_t kind)
{
    return kind == SYSTREE_STNODE ? "stnode" : kind == SYSTREE_LOCGROUP ? "locgroup" : "location";
}

static int print_node(void *arg, const systree_node *n)
{
    (void)arg;
    printf("%*s%s %s \"%s\" #%llu\n", 2 * (int)n->depth, "", kind_name(n->kind), n->klass, n->name,
           (unsigned long long)n->index);
    return 0;
}

static int count_node(void *arg, const systree_node *n)
{
    (void)n;
    (*(uint64_t *)arg)++;
    return 0;
}

static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        h = (h ^ ((const uint8_t *)p)[i]) * 1099511628211ull;
    return h;
}

/* A digest of the expanded tree: every node's kind, type, class, name, index and parent. */
static int digest_node(void *arg, const systree_node *n)
{
    uint64_t *h = arg, v[3] = {n->index, n->parent, (uint64_t)n->kind << 8 | n->type};
    *h = fnv(*h, v, sizeof v);
    *h = fnv(*h, n->klass, strlen(n->klass) + 1);
    *h = fnv(*h, n->name, strlen(n->name) + 1);
    return 0;
}

static void dump_rec(const systree_rec *r, int depth)
{
    printf("%*s%s %s x%llu names:", 2 * depth, "", kind_name(r->kind), r->klass,
           (unsigned long long)r->copies);
    if (r->names.nruns == 0)
        printf(" (class + number)");
    for (uint32_t i = 0; i < r->names.nruns; i++) {
        const systree_run *u = &r->names.runs[i];
        if (u->numbered && u->width)
            printf(" \"%s%%0%ud%s\"", u->prefix, u->width, u->suffix);
        else if (u->numbered)
            printf(" \"%s%%d%s\"", u->prefix, u->suffix);
        if (u->numbered)
            printf(" from %llu step %lld x%llu", (unsigned long long)u->base, (long long)u->stride,
                   (unsigned long long)u->count);
        if (u->numbered && u->reps > 1)
            printf(", %llu times, step %lld", (unsigned long long)u->reps, (long long)u->outer);
        else if (!u->numbered)
            printf(" \"%s\" x%llu", u->prefix, (unsigned long long)u->count);
    }
    printf(" (period %llu)\n", (unsigned long long)r->names.period);
    for (uint32_t i = 0; i < r->children.n; i++)
        dump_rec(r->children.v[i], depth + 1);
}

static uint64_t count_recs(const systree_list *l)
{
    uint64_t n = l->n;
    for (uint32_t i = 0; i < l->n; i++)
        n += count_recs(&l->v[i]->children);
    return n;
}

static uint32_t hash_bits;

static uint32_t few_bits_hash(const char *path, size_t len, uint32_t seed)
{
    uint64_t h = 1469598103934665603ull ^ seed;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)path[i]) * 1099511628211ull;
    return (uint32_t)(h >> 33) & ((1u << hash_bits) - 1);
}

/* ---- the two methods ---- */

static void print_sequence(const sim *s, const systree_list *global, const systree_build_info *info,
                           systree_comm *world, double seconds)
{
    systree_buf b = {0};
    systree_list_pack(global, &b);
    uint64_t walked = 0;
    double t0 = now();
    systree_walk(global, count_node, &walked);
    double walk = now() - t0;
    systree_sim_stats st;
    systree_comm_sim_stats(world, &st);
    printf("{\"ranks\":%llu,\"nodes\":%llu,\"locations\":%llu,\"levels\":%u,"
           "\"sequence_bytes\":%zu,\"sequence_records\":%llu,\"tree_nodes\":%llu,"
           "\"max_bytes_per_rank\":%llu,\"max_bytes_rank\":%llu,\"max_split_bytes_per_rank\":%llu,"
           "\"rounds\":%llu,\"messages\":%llu,\"splits\":%llu,\"resplits\":%llu,"
           "\"seconds\":%.3f,\"walk_seconds\":%.3f,\"peak_rss_bytes\":%llu",
           (unsigned long long)s->nranks, (unsigned long long)s->nnodes,
           (unsigned long long)s->nlocations, info->levels, b.len,
           (unsigned long long)count_recs(global), (unsigned long long)walked,
           (unsigned long long)st.max_bytes, (unsigned long long)st.max_bytes_rank,
           (unsigned long long)st.max_split_bytes, (unsigned long long)st.rounds,
           (unsigned long long)st.messages, (unsigned long long)st.splits,
           (unsigned long long)info->resplits, seconds, walk, (unsigned long long)peak_rss());
    if (s->o->check)
        printf(",\"checked_ranks\":%llu,\"check_failures\":%llu", (unsigned long long)s->places,
               (unsigned long long)s->bad);
    systree_buf_free(&b);
}

/* Runs the algorithm, prints its numbers; *digest: of its expansion, for --plain. */
static int run_sequence(sim *s, systree_comm *world, uint64_t *digest)
{
    systree_list global = {0};
    systree_build_info info;
    systree_build_cfg cfg = {describe, check_place, s};
    s->global = s->o->check ? &global : NULL;
    double t0 = now();
    if (systree_build(world, &cfg, &global, &info) != 0) {
        printf("{\"error\":\"the sequence algorithm failed (out of memory?)\"}\n");
        return -1;
    }
    double seconds = now() - t0;
    *digest = 1469598103934665603ull;
    if (s->o->plain)
        systree_walk(&global, digest_node, digest);
    for (uint32_t i = 0; s->o->dump && i < global.n; i++)
        dump_rec(global.v[i], 0);
    if (s->o->print)
        systree_walk(&global, print_node, NULL);
    print_sequence(s, &global, &info, world, seconds);
    systree_list_free(&global);
    return s->bad ? 1 : 0;
}

static void run_plain(sim *s, systree_comm *world, uint64_t digest)
{
    systree_plain_cfg cfg = {describe, s, s->o->rank_limit, s->o->mem_limit};
    systree_plain_result res;
    systree_comm_sim_reset(world);
    double t0 = now();
    int rc = systree_plain_build(world, &cfg, &res);
    double t1 = now();
    systree_sim_stats st;
    systree_comm_sim_stats(world, &st);
    if (rc != 0) {
        printf(",\"plain_error\":\"the plain method failed (out of memory?)\"");
        return;
    }
    printf(",\"plain_max_bytes_per_rank\":%llu,\"plain_rounds\":%llu,\"plain_seconds\":%.3f,"
           "\"plain_peak_bytes\":%llu",
           (unsigned long long)st.max_bytes, (unsigned long long)st.rounds, t1 - t0,
           (unsigned long long)res.peak_bytes);
    if (res.stopped) {
        printf(",\"plain_error\":\"stopped in merge round %u: a rank holding %llu ranks' "
               "definitions needs %llu bytes, over the limit (--plain-rank-limit %llu, "
               "--mem-limit %llu)\"",
               res.stop_round, (unsigned long long)res.stop_ranks,
               (unsigned long long)res.stop_bytes, (unsigned long long)s->o->rank_limit,
               (unsigned long long)s->o->mem_limit);
        return;
    }
    systree_buf b = {0};
    systree_plain_pack(res.root, &b);
    uint64_t h = 1469598103934665603ull;
    int same = systree_plain_group(res.root) == 0 &&
               systree_plain_walk(res.root, digest_node, &h) == 0 && h == digest;
    printf(",\"plain_bytes\":%zu,\"plain_root_bytes\":%llu,\"plain_same_tree\":%s", b.len,
           (unsigned long long)res.root_bytes, same ? "true" : "false");
    systree_buf_free(&b);
    systree_pnode_free(res.root);
}

int main(int argc, char **argv)
{
    opts o = {0};
    sim s;
    /* One process holds every simulated rank's buffers, allocated and freed by the million
     * in each round: glibc's default gives the top of the heap back to the kernel and takes
     * it again round after round (a fifth of the run at 10^6 ranks). Keep it: 22% faster,
     * 7% more peak memory (make bench, bench/run_scale_bench.sh). */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 256 << 20);
    if (argc == 2 && !strcmp(argv[1], "--help"))
        return usage(stdout, 0);
    if (parse_args(&o, argc, argv) != 0) {
        printf("{\"error\":\"bad arguments (see scorep-systree-sim --help)\"}\n");
        return usage(stderr, 2);
    }
    if (o.hash_bits && o.hash_bits < 31) {
        hash_bits = o.hash_bits;
        systree_hash_hook = few_bits_hash;
    }
    systree_comm *world = sim_init(&s, &o) == 0 ? systree_comm_sim_world(s.nranks) : NULL;
    if (world == NULL) {
        printf("{\"error\":\"cannot set up %llu simulated ranks\"}\n",
               (unsigned long long)s.nranks);
        sim_free(&s);
        return 1;
    }
    uint64_t digest;
    int rc = run_sequence(&s, world, &digest);
    if (rc >= 0 && o.plain)
        run_plain(&s, world, digest);
    if (rc >= 0)
        printf(",\"total_peak_rss_bytes\":%llu}\n", (unsigned long long)peak_rss());
    systree_comm_free(world);
    sim_free(&s);
    return rc ? 1 : 0;
}
