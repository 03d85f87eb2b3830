/* SPDX-License-Identifier: BSD-3-Clause */
/* profile_cluster.c: dynamic regions in the profile and Score-P's iteration clustering.
 * Every visit of a dynamic region gets its own child call path "instance=N". With clustering
 * on, the instances of one dynamic region (the first one entered, or the one named by
 * SCOREP_PROFILING_CLUSTERED_REGION) are merged online, as each iteration ends, into at most
 * SCOREP_PROFILING_CLUSTER_COUNT clusters: Score-P's algorithm (scorep_profile_cluster.c) -
 * clusters live in equivalence lists of structurally equal call trees (mode), the pair with
 * the smallest normalized distance of their average metrics is merged when there are too
 * many. Memory: the clusters' call trees plus one union-find entry (5 bytes) per iteration,
 * which the Cube file's iteration-to-cluster mapping needs. docs/profile-clustering.md. */
#include "profile/profile_cluster.h"
#include "base/log.h"
#include "base/settings.h"
#include "defs/defs.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the metrics of an iteration, as Score-P's clusterer orders them; dense sources follow */
enum {
    MET_EXECUTION_TIME,
    MET_VISITS,
    MET_MPI_TIME,
    MET_MPI_COLL_SYNC_TIME,
    MET_MPI_COMM_TIME,
    MET_MPI_P2P_COMM_TIME,
    MET_MPI_COLL_COMM_TIME,
    MET_COLL_BSENT,
    MET_COLL_BRCVD,
    MET_COLL_SYNCS,
    MET_SEND_BYTES,
    MET_SEND_COMMS,
    MET_RECV_BYTES,
    MET_RECV_COMMS,
    MET_P2P_BYTES,
    MET_COLL_BYTES,
    MET_BYTES,
    MET_P2P_COMM,
    MET_COLL_COMM,
    MET_COMM,
    MET_DENSE_START
};

/* SCOREP_PROFILING_CLUSTERING_MODE */
enum { MODE_NONE, MODE_SUBTREE, MODE_SUBTREE_VISITS, MODE_MPI, MODE_MPI_VISITS, MODE_MPI_VISITS_ALL };

struct cluster;

/* the distance from a cluster to one that comes later in its equivalence list */
typedef struct distance {
    double value;
    struct cluster *to;
    struct distance *next;
} distance;

typedef struct cluster {
    pnode *root;        /* the instance node that holds the merged call trees */
    uint32_t set;       /* an iteration of the cluster (union-find) */
    uint32_t hash;      /* of the call tree's structure, without the root */
    uint32_t iterations;
    uint64_t *sum, *avg; /* metric sums and averages (integers, as Score-P keeps them) */
    distance *d;         /* to every later cluster of the list, in list order */
    double min_val;
    distance *min_pos;
    struct cluster *next;
} cluster;

typedef struct eq_list {
    cluster *head;
    double min_val;
    cluster *min_pos;
    struct eq_list *next;
} eq_list;

typedef struct {
    scorep_profile *owner; /* the location whose call path is clustered */
    pnode *parent;         /* the clustered region's node: the instances are its children */
    uint32_t max_clusters, n_clusters, n_met;
    eq_list *lists; /* sorted by hash */
    double set_min_val;
    eq_list *set_min_pos;
    double *ref; /* reference values: the mean of the iterations' metrics */
    uint64_t ref_count;
    /* union-find over iterations: up[i] (== i at a root), rank[i]; a cluster's set is
     * its root */
    uint32_t *up;
    uint8_t *rank;
    uint32_t n_it, cap_it;
    /* after finish: the roots of the clusters, sorted, and their numbers */
    uint64_t *root_num; /* root << 32 | number */
    uint32_t n_roots;
    struct distance *free_distances; /* reused, as Score-P's free lists */
    bool failed, finished;
} clusterer;

static clusterer cl_state;
static scorep_profile *cl_owner_claim; /* set once (CAS) by the location that clusters */

uint32_t scorep_profile_instance_param(void)
{
    static uint32_t id = SCOREP_INVALID_ID;
    uint32_t v = __atomic_load_n(&id, __ATOMIC_ACQUIRE);
    if (v == SCOREP_INVALID_ID) {
        v = scorep_defs_parameter("instance", SCOREP_PARAM_INT64);
        __atomic_store_n(&id, v, __ATOMIC_RELEASE);
    }
    return v;
}

/* --------------------------------------------------------- instances in the call tree */
static bool is_instance(const pnode *n, uint32_t param)
{
    return n && n->kind == PNODE_PARAM_INT && n->id == param;
}

/* Score-P decides on the first enter of a dynamic region which one it clusters. */
static void choose_clustered(scorep_profile *p, pnode *region_node)
{
    if (!scorep_cfg.profiling_enable_clustering || cl_state.parent ||
        __atomic_load_n(&cl_owner_claim, __ATOMIC_ACQUIRE))
        return;
    const char *want = scorep_cfg.profiling_clustered_region;
    const scorep_region_def *r = scorep_defs_region_get(region_node->id);
    if (want && *want && (!r || strcmp(r->name, want) != 0))
        return;
    if (scorep_cfg.profiling_cluster_count < 1) {
        scorep_warn("SCOREP_PROFILING_CLUSTER_COUNT is 0: clustering disabled; set it to a "
                    "number above 0 to cluster the instances of dynamic regions");
        scorep_cfg.profiling_enable_clustering = false;
        return;
    }
    scorep_profile *none = NULL;
    if (!__atomic_compare_exchange_n(&cl_owner_claim, &none, p, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return; /* another thread clusters its call path (Score-P: one clustered region) */
    cl_state.owner = p;
    cl_state.parent = region_node;
    cl_state.max_clusters = (uint32_t)scorep_cfg.profiling_cluster_count;
    cl_state.n_met = MET_DENSE_START + p->n_dense;
    cl_state.set_min_val = DBL_MAX;
}

void scorep_profile_dynamic_enter(scorep_profile *p, uint32_t region)
{
    pnode *r = p->cur;
    uint32_t param = scorep_profile_instance_param();
    if (p->overflow || r->kind != PNODE_REGION || r->id != region || param == SCOREP_INVALID_ID)
        return; /* the call was folded (depth) or not recorded */
    choose_clustered(p, r);
    /* the visit being made: the node counts visits at their end */
    int64_t instance = (int64_t)r->visits + 1;
    scorep_profile_parameter(p, PNODE_PARAM_INT, param, instance, r->enter_ts);
    pnode *n = p->cur;
    if (n != r && n->dense && r->dense)
        memcpy(n->dense, r->dense, p->n_dense * sizeof *n->dense);
}

pnode *scorep_profile_dynamic_instance(const scorep_profile *p, uint32_t region)
{
    pnode *n = p->cur;
    uint32_t param = scorep_profile_instance_param();
    if (!p->overflow && is_instance(n, param) && n->parent->kind == PNODE_REGION &&
        n->parent->id == region)
        return n;
    return NULL;
}

/* ------------------------------------------------------------ one iteration's cluster */
static bool is_mpi_node(const pnode *n)
{
    if (n->kind != PNODE_REGION)
        return false;
    const scorep_region_def *r = scorep_defs_region_get(n->id);
    return r && r->paradigm == SCOREP_PARADIGM_MPI;
}

static int node_less(const pnode *a, const pnode *b)
{
    if (a->kind != b->kind)
        return a->kind < b->kind;
    if (a->id != b->id)
        return a->id < b->id;
    return a->value < b->value;
}

static bool same_node(const pnode *a, const pnode *b)
{
    return a->kind == b->kind && a->id == b->id && (a->kind == PNODE_REGION || a->value == b->value);
}

/* merge sort of a child list (Score-P sorts the subtree before comparing call trees) */
static pnode *sort_list(pnode *h, uint32_t n)
{
    if (n <= 1)
        return h;
    pnode *mid = h, **cut = &h;
    for (uint32_t i = 0; i < n / 2; i++) {
        cut = &mid->next_sibling;
        mid = *cut;
    }
    *cut = NULL;
    pnode *a = sort_list(h, n / 2), *b = sort_list(mid, n - n / 2), *out = NULL, **t = &out;
    while (a && b) {
        pnode **pick = node_less(b, a) ? &b : &a;
        *t = *pick;
        t = &(*pick)->next_sibling;
        *pick = (*pick)->next_sibling;
    }
    *t = a ? a : b;
    return out;
}

static void sort_subtree(pnode *n)
{
    uint32_t k = 0;
    for (pnode *c = n->first_child; c; c = c->next_sibling)
        k++;
    n->first_child = sort_list(n->first_child, k);
    for (pnode *c = n->first_child; c; c = c->next_sibling)
        sort_subtree(c);
}

static bool consider_visits(uint64_t mode, const pnode *n)
{
    if (mode == MODE_SUBTREE_VISITS || mode == MODE_MPI_VISITS_ALL ||
        (mode == MODE_MPI_VISITS && is_mpi_node(n))) {
        if (n->kind == PNODE_REGION) {
            const scorep_region_def *r = scorep_defs_region_get(n->id);
            if (r && (strncmp(r->name, "MPI_Probe", 9) == 0 ||
                      strncmp(r->name, "MPI_Iprobe", 10) == 0 ||
                      strncmp(r->name, "MPI_Test", 8) == 0))
                return false;
        }
        return true;
    }
    return false;
}

static uint32_t node_hash(const pnode *n)
{
    uint64_t h = ((uint64_t)n->kind << 32 | n->id) * 0x9e3779b97f4a7c15ull;
    if (n->kind != PNODE_REGION)
        h ^= (uint64_t)n->value * 0xc2b2ae3d27d4eb4full;
    return (uint32_t)(h >> 32);
}

static uint32_t rotr1(uint32_t v)
{
    return (v >> 1) | (v << 31);
}

/* The structure's hash (Score-P's calculate_hash); also marks mpi_in_subtree. */
static uint32_t tree_hash(pnode *n, uint64_t mode)
{
    if (mode == MODE_NONE)
        return node_hash(n);
    uint32_t val = 0, used = 0;
    n->mpi_in_subtree = is_mpi_node(n);
    for (pnode *c = n->first_child; c; c = c->next_sibling) {
        uint32_t child = tree_hash(c, mode);
        if (mode >= MODE_MPI && !c->mpi_in_subtree)
            continue;
        if (c->mpi_in_subtree)
            n->mpi_in_subtree = 1;
        val += ++used;
        val = rotr1(val);
        val += child;
    }
    if (consider_visits(mode, n)) {
        val += (uint32_t)n->visits;
        val = rotr1(val);
    }
    return val + node_hash(n);
}

/* 0 when the call trees are equivalent in the clustering mode (Score-P's
 * compare_call_trees); itA, itB: the iterations in a and b (visits are compared per one). */
static int compare_trees(const pnode *a, const pnode *b, uint32_t itA, uint32_t itB, uint64_t mode)
{
    if (mode == MODE_NONE)
        return 0;
    const pnode *x = a->first_child, *y = b->first_child;
    for (; x && y; x = x->next_sibling, y = y->next_sibling) {
        if (mode >= MODE_MPI) {
            while (x && !x->mpi_in_subtree)
                x = x->next_sibling;
            while (y && !y->mpi_in_subtree)
                y = y->next_sibling;
            if (!x || !y)
                break;
        }
        if (same_node(x, y) &&
            (!consider_visits(mode, x) || x->visits / itA == y->visits / itB)) {
            int r = compare_trees(x, y, itA, itB, mode);
            if (r)
                return r;
        } else {
            if (node_less(x, y))
                return -1;
            if (node_less(y, x))
                return 1;
            return x->visits / itA < y->visits / itB ? -1 : 1;
        }
    }
    if (mode >= MODE_MPI) {
        while (x && !x->mpi_in_subtree)
            x = x->next_sibling;
        while (y && !y->mpi_in_subtree)
            y = y->next_sibling;
    }
    return x ? 1 : y ? -1 : 0;
}

/* Score-P's calculate_derived_metrics: visits, and MPI times, counts and bytes by kind. */
static void add_metrics(uint64_t *m, const pnode *n)
{
    m[MET_VISITS] += n->visits;
    if (is_mpi_node(n)) {
        const scorep_region_def *r = scorep_defs_region_get(n->id);
        uint64_t t = n->sum;
        m[MET_MPI_TIME] += t;
        switch (r->role) {
        case SCOREP_ROLE_BARRIER:
            m[MET_MPI_COLL_SYNC_TIME] += t;
            m[MET_COLL_SYNCS] += n->visits;
            break;
        case SCOREP_ROLE_COLL_ONE2ALL:
        case SCOREP_ROLE_COLL_ALL2ONE:
        case SCOREP_ROLE_COLL_ALL2ALL:
        case SCOREP_ROLE_COLL_OTHER:
            m[MET_MPI_COLL_COMM_TIME] += t;
            m[MET_COLL_COMM] += n->visits;
            m[MET_COLL_BSENT] += n->bytes_sent;
            m[MET_COLL_BRCVD] += n->bytes_received;
            break;
        case SCOREP_ROLE_POINT2POINT:
            m[MET_MPI_P2P_COMM_TIME] += t;
            m[MET_P2P_COMM] += n->visits;
            m[MET_SEND_BYTES] += n->bytes_sent;
            m[MET_SEND_COMMS] += n->bytes_sent ? n->visits : 0;
            m[MET_RECV_BYTES] += n->bytes_received;
            m[MET_RECV_COMMS] += n->bytes_received ? n->visits : 0;
            break;
        default:
            m[MET_MPI_TIME] += t; /* twice, as Score-P counts it */
        }
    }
    for (const pnode *c = n->first_child; c; c = c->next_sibling)
        add_metrics(m, c);
}

static void iteration_metrics(const clusterer *s, cluster *c, const scorep_profile *p)
{
    uint64_t *m = c->sum;
    add_metrics(m, c->root);
    m[MET_EXECUTION_TIME] = c->root->sum;
    m[MET_MPI_COMM_TIME] = m[MET_MPI_P2P_COMM_TIME] + m[MET_MPI_COLL_COMM_TIME];
    m[MET_MPI_TIME] += m[MET_MPI_COMM_TIME] + m[MET_MPI_COLL_SYNC_TIME];
    m[MET_P2P_BYTES] = m[MET_SEND_BYTES] + m[MET_RECV_BYTES];
    m[MET_COLL_BYTES] = m[MET_COLL_BRCVD] + m[MET_COLL_BSENT];
    m[MET_BYTES] = m[MET_P2P_BYTES] + m[MET_COLL_BYTES];
    m[MET_COLL_COMM] += m[MET_COLL_SYNCS];
    m[MET_COMM] = m[MET_P2P_COMM] + m[MET_COLL_COMM];
    for (uint32_t k = 0; c->root->dense && MET_DENSE_START + k < s->n_met; k++)
        m[MET_DENSE_START + k] = c->root->dense[p->n_dense + k];
    memcpy(c->avg, c->sum, s->n_met * sizeof *c->avg);
}

/* Score-P's calculate_cluster_distance. Its averages are unsigned integers whose difference
 * wraps around when b's is larger; the absolute difference is what its branches intend. */
static double cluster_distance(const clusterer *s, const cluster *a, const cluster *b)
{
    double dist = 0;
    for (uint32_t k = 0; k < s->n_met; k++) {
        if (a->avg[k] == b->avg[k] || s->ref[k] == 0)
            continue;
        double diff = a->avg[k] > b->avg[k] ? (double)(a->avg[k] - b->avg[k])
                                            : (double)(b->avg[k] - a->avg[k]);
        dist += diff / s->ref[k];
    }
    double mult = 0.4 + 0.05 * (a->iterations + b->iterations);
    return dist * (mult <= 1.0 ? mult : sqrt(mult));
}

/* ------------------------------------------------------------------ union-find */
static uint32_t find_root(uint32_t i)
{
    uint32_t r = i;
    while (cl_state.up[r] != r)
        r = cl_state.up[r];
    while (cl_state.up[i] != r) { /* path compression, iteratively */
        uint32_t next = cl_state.up[i];
        cl_state.up[i] = r;
        i = next;
    }
    return r;
}

static void union_sets(cluster *a, cluster *b)
{
    uint32_t x = find_root(a->set), y = find_root(b->set);
    if (cl_state.rank[x] < cl_state.rank[y]) {
        uint32_t t = x;
        x = y;
        y = t;
    } else if (cl_state.rank[x] == cl_state.rank[y]) {
        cl_state.rank[x]++;
    }
    cl_state.up[y] = x;
    a->set = x;
}

static int grow_iterations(clusterer *s)
{
    if (s->n_it < s->cap_it)
        return 0;
    uint32_t cap = s->cap_it ? 2 * s->cap_it : 1024;
    uint32_t *up = realloc(s->up, cap * sizeof *up);
    if (up)
        s->up = up;
    uint8_t *rank = realloc(s->rank, cap);
    if (rank)
        s->rank = rank;
    if (!up || !rank)
        return -1;
    s->cap_it = cap;
    return 0;
}

/* ------------------------------------------------------------ the equivalence lists */
static void row_min(cluster *c)
{
    c->min_val = DBL_MAX;
    c->min_pos = NULL;
    for (distance *d = c->d; d; d = d->next)
        if (c->min_val > d->value) {
            c->min_val = d->value;
            c->min_pos = d;
        }
}

/* Score-P's calculate_distances_for_new_cluster: c's distances to the later clusters. */
static int distances_of(clusterer *s, cluster *c, eq_list *l)
{
    distance **tail = &c->d;
    for (cluster *o = c->next; o; o = o->next) {
        distance *d = s->free_distances;
        if (d)
            s->free_distances = d->next;
        else if (!(d = malloc(sizeof *d)))
            return -1;
        *d = (distance){cluster_distance(s, c, o), o, NULL};
        *tail = d;
        tail = &d->next;
        if (c->min_val > d->value) {
            c->min_val = d->value;
            c->min_pos = d;
        }
    }
    if (l->min_val > c->min_val) {
        l->min_val = c->min_val;
        l->min_pos = c;
        if (s->set_min_val > l->min_val) {
            s->set_min_val = l->min_val;
            s->set_min_pos = l;
        }
    }
    return 0;
}

static eq_list *insert_cluster(clusterer *s, cluster *c, uint64_t mode)
{
    eq_list **last = &s->lists, *l;
    for (l = *last; l && l->head->hash < c->hash; last = &l->next, l = *last)
        ;
    for (; l && l->head->hash == c->hash; last = &l->next, l = *last)
        if (compare_trees(l->head->root, c->root, l->head->iterations, c->iterations, mode) == 0) {
            c->next = l->head;
            l->head = c;
            return l;
        }
    if (!(l = malloc(sizeof *l)))
        return NULL;
    *l = (eq_list){c, DBL_MAX, NULL, *last};
    *last = l;
    return l;
}

/* deletes c's distance to gone (c comes before gone in the list) */
static void drop_distance(clusterer *s, cluster *c, const cluster *gone)
{
    distance **at = &c->d;
    while ((*at)->to != gone)
        at = &(*at)->next;
    distance *d = *at;
    *at = d->next;
    if (c->min_pos == d)
        row_min(c);
    d->next = s->free_distances;
    s->free_distances = d;
}

/* Merges the two clusters with the smallest distance (Score-P's add_iter_to_clustering). */
static void merge_closest(clusterer *s)
{
    eq_list *l = s->set_min_pos;
    cluster *a = l->min_pos, *b = a->min_pos->to, *before_b = a;
    while (before_b->next != b)
        before_b = before_b->next;
    a->iterations += b->iterations;
    for (uint32_t k = 0; k < s->n_met; k++) {
        a->sum[k] += b->sum[k];
        a->avg[k] = a->sum[k] / a->iterations;
    }
    scorep_profile_merge_into(s->owner, a->root, b->root);
    union_sets(a, b);
    for (cluster *c = l->head; c != a; c = c->next) {
        distance *d = c->d;
        while (d->to != a)
            d = d->next;
        d->value = cluster_distance(s, c, a);
        if (c->min_val > d->value) {
            c->min_val = d->value;
            c->min_pos = d;
        } else if (c->min_pos == d) {
            row_min(c);
        }
        drop_distance(s, c, b);
    }
    for (cluster *c = a; c != b; c = c->next)
        drop_distance(s, c, b);
    before_b->next = b->next;
    for (distance *d = b->d, *next; d; d = next) {
        next = d->next;
        d->next = s->free_distances;
        s->free_distances = d;
    }
    free(b->sum);
    free(b);
    a->min_val = DBL_MAX;
    a->min_pos = NULL;
    for (distance *d = a->d; d; d = d->next) {
        d->value = cluster_distance(s, a, d->to);
        if (a->min_val > d->value) {
            a->min_val = d->value;
            a->min_pos = d;
        }
    }
    l->min_val = DBL_MAX;
    for (cluster *c = l->head; c; c = c->next)
        if (l->min_val > c->min_val) {
            l->min_val = c->min_val;
            l->min_pos = c;
        }
    s->set_min_val = DBL_MAX;
    for (eq_list *x = s->lists; x; x = x->next)
        if (s->set_min_val > x->min_val) {
            s->set_min_val = x->min_val;
            s->set_min_pos = x;
        }
    s->n_clusters--;
}

static int add_iteration(clusterer *s, pnode *inst)
{
    uint64_t mode = scorep_cfg.profiling_clustering_mode;
    if (!s->ref && !(s->ref = calloc(s->n_met, sizeof *s->ref)))
        return -1;
    cluster *c = calloc(1, sizeof *c);
    if (!c || grow_iterations(s) != 0 || !(c->sum = calloc(2 * (size_t)s->n_met, sizeof *c->sum))) {
        free(c);
        return -1;
    }
    c->avg = c->sum + s->n_met;
    c->root = inst;
    c->iterations = 1;
    c->min_val = DBL_MAX;
    c->set = s->n_it;
    s->up[s->n_it] = s->n_it;
    s->rank[s->n_it] = 0;
    s->n_it++;
    sort_subtree(inst);
    c->hash = tree_hash(inst, mode) - node_hash(inst);
    iteration_metrics(s, c, s->owner);
    eq_list *l = insert_cluster(s, c, mode);
    if (!l)
        return -1;
    double count = (double)s->ref_count;
    for (uint32_t k = 0; k < s->n_met; k++)
        s->ref[k] = s->ref[k] * (count / (count + 1.0)) + (double)c->avg[k] / (count + 1.0);
    s->ref_count++;
    if (s->n_it > s->max_clusters) {
        if (s->n_it == s->max_clusters + 1) { /* the first time: every pair, current reference */
            for (eq_list *x = s->lists; x; x = x->next)
                for (cluster *y = x->head; y; y = y->next)
                    if (distances_of(s, y, x) != 0)
                        return -1;
        } else if (distances_of(s, c, l) != 0) {
            return -1;
        }
    }
    if (++s->n_clusters > s->max_clusters) {
        if (s->set_min_val == DBL_MAX) { /* only structurally different clusters */
            s->max_clusters++;
            scorep_verbose("clustering: %u structurally different iterations, more clusters "
                           "than SCOREP_PROFILING_CLUSTER_COUNT",
                           s->max_clusters);
        } else {
            merge_closest(s);
        }
    }
    return 0;
}

void scorep_profile_dynamic_left(scorep_profile *p, pnode *inst)
{
    clusterer *s = &cl_state;
    if (!inst || s->owner != p || inst->parent != s->parent || s->failed || s->finished)
        return;
    if (add_iteration(s, inst) != 0) {
        s->failed = true;
        scorep_warn("clustering of dynamic regions: out of memory; the instances after "
                    "iteration %u are kept one by one",
                    s->n_it);
    }
}

/* ------------------------------------------------------------------------- the end */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

const pnode *scorep_profile_cluster_finish(void)
{
    clusterer *s = &cl_state;
    if (!s->parent || s->finished)
        return s->finished && s->n_it && !s->failed ? s->parent : NULL;
    /* instances closed without a leave event (the program ended inside them) */
    uint32_t param = scorep_profile_instance_param();
    for (bool again = true; again && !s->failed;) {
        again = false;
        for (pnode *c = s->parent->first_child; c; c = c->next_sibling) {
            bool known = false;
            for (eq_list *l = s->lists; l && !known; l = l->next)
                for (cluster *x = l->head; x && !known; x = x->next)
                    known = x->root == c;
            if (!known && is_instance(c, param)) {
                s->failed = add_iteration(s, c) != 0;
                again = true; /* the child list may have changed */
                break;
            }
        }
    }
    s->finished = true;
    if (s->failed || !s->n_it)
        return NULL;
    /* Score-P's scorep_cluster_postprocess: clusters numbered in list order. Values move
     * out of the way first, so that no two instance nodes share one at any time. */
    int64_t n = 0, top = 0;
    for (pnode *c = s->parent->first_child; c; c = c->next_sibling)
        top = c->value > top ? c->value : top;
    for (eq_list *l = s->lists; l; l = l->next)
        for (cluster *x = l->head; x; x = x->next)
            scorep_profile_set_value(s->owner, x->root, top + ++n);
    n = 0;
    for (eq_list *l = s->lists; l; l = l->next)
        for (cluster *x = l->head; x; x = x->next)
            n++;
    if (!(s->root_num = malloc(n * sizeof *s->root_num))) {
        s->failed = true;
        return NULL;
    }
    n = 0;
    for (eq_list *l = s->lists; l; l = l->next)
        for (cluster *x = l->head; x; x = x->next, n++) {
            scorep_profile_set_value(s->owner, x->root, n + 1);
            s->root_num[n] = (uint64_t)find_root(x->set) << 32 | (uint64_t)(n + 1);
        }
    s->n_roots = (uint32_t)n;
    qsort(s->root_num, n, sizeof *s->root_num, cmp_u64);
    return s->parent;
}

uint32_t scorep_profile_cluster_iterations(void)
{
    return cl_state.finished && !cl_state.failed ? cl_state.n_it : 0;
}

uint32_t scorep_profile_cluster_of(uint32_t i)
{
    uint64_t r = (uint64_t)find_root(i) << 32;
    uint32_t lo = 0, hi = cl_state.n_roots;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if ((cl_state.root_num[mid] & ~0xffffffffull) < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < cl_state.n_roots && (cl_state.root_num[lo] & ~0xffffffffull) == r
               ? (uint32_t)cl_state.root_num[lo]
               : 0;
}
