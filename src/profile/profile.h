/* SPDX-License-Identifier: BSD-3-Clause */
/* profile.h: the call-path profile of one location (visits, time sum/min/max, user
 * metrics per call path). Enter/leave are inline: the last child entered, the sibling entered
 * after it the last time (next_hit), then a hash. */
#ifndef SCOREP_PROFILE_H
#define SCOREP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    PNODE_ROOT,
    PNODE_REGION,
    PNODE_PARAM_INT,
    PNODE_PARAM_UINT,
    PNODE_PARAM_STRING
} pnode_kind;

typedef struct pmetric {
    struct pmetric *next;
    uint32_t metric;
    uint64_t count;
    double sum;
} pmetric;

/* A worker's open implicit task (scorep_profile.attach): where its calls hang and where
 * its own call path continues after it. */
typedef struct {
    struct pnode *at, *back;
    uint32_t back_depth;
} scorep_profile_attached;

/* The open implicit tasks in blocks: the first inside the profile, the next ones allocated
 * when a worker joins a team nested deeper than the blocks hold (a join, not a call) and
 * kept until the process ends, so that a checkpoint that reads them from the rescue thread
 * never meets freed memory. */
enum { SCOREP_PROFILE_ATTACH_BLOCK = 16 };
typedef struct scorep_profile_attach_block {
    scorep_profile_attached e[SCOREP_PROFILE_ATTACH_BLOCK];
    struct scorep_profile_attach_block *next;
} scorep_profile_attach_block;

typedef struct pnode {
    struct pnode *parent, *first_child, *next_sibling, *last_hit;
    /* the sibling entered after this node's call returned, the last time: with last_hit, the
     * children of a loop that calls several regions in turn (MPI_Irecv, MPI_Isend,
     * MPI_Waitall) are found without the index. Cleared when that sibling is freed or moves
     * (profile.c), checked against parent and key before use. */
    struct pnode *next_hit;
    uint64_t key; /* region id, or parameter (id, value) hashed with kind */
    uint32_t id;  /* region id or parameter id */
    uint8_t kind;
    uint8_t mpi_in_subtree; /* scratch of the clustering (profile_cluster.c) */
    /* reached as another location's call path mapped into this tree (a fork's, a task's
     * creation: scorep_profile_map_path): a node this location may never close, yet no
     * sampled one (sampling_profile.c); fills padding */
    uint8_t mapped;
    int64_t value;          /* parameter value (string id for strings) */
    uint64_t visits, sum, min, max, enter_ts;
    uint64_t bytes_sent, bytes_received, bytes_put, bytes_get;
    /* on a parallel region's node, per location (Score-P's task_migration_loss / _win):
     * explicit tasks that left this thread for another, and resumptions here of a task whose
     * last part ran on another thread (omp_tasks.c). Loss is signed as in Score-P. */
    int64_t task_mig_loss;
    uint64_t task_mig_win;
    pmetric *metrics;
    uint64_t *dense; /* metric sources: n_dense values at enter, then n_dense inclusive sums */
    /* a throttled region's node: the parameter child "scorep_throttled_from_visit=N" that
     * counts the visits made without time measurement (they are in visits as well) */
    struct pnode *throttled;
} pnode;

typedef struct {
    pnode root;
    pnode *cur;
    uint32_t depth, max_depth, overflow; /* calls deeper than max_depth are folded */
    /* children index: (parent, key) -> child, open addressing */
    pnode **slots;
    uint32_t cap, used;
    /* node memory: bump allocation from malloc'ed blocks (slow path only) */
    char *block, *block_end;
    bool out_of_memory;
    /* metric sources (src/metrics): values read at the current event, set by the location */
    uint32_t n_dense;
    const uint64_t *dense_values;
    const uint32_t *dense_ids; /* defs metric id of each value */
    uint64_t *dense_stack;     /* values at each open task suspension (profile_threads.c) */
    uint32_t dense_sp, dense_cap;
    /* throttling: a region node whose throttle_calls-th visit ends with a time sum below
     * throttle_sum asks throttle_hook to stop measuring the region (0: off) */
    uint64_t throttle_calls, throttle_sum;
    /* nodes and metric records given back by the clustering of dynamic regions
     * (profile_cluster.c), reused before new memory is taken */
    pnode *free_nodes;
    pmetric *free_metrics;
    /* Score-P's task migration counts of this location not yet on a call path (its
     * location's migration_sum / _win): the OpenMP adapter counts them here while an
     * implicit task runs and adds them to mig_node, the node of that task's parallel region,
     * at the implicit task's end, as Score-P at the region's exit (omp_parallel.c). A
     * checkpoint's piece adds them to mig_node's values (profile_ser.c), an end inside the
     * region adds them there (scorep_profile_settle_migrations): until session 25 a piece
     * taken inside the region lacked them. */
    pnode *mig_node;
    int64_t mig_loss;
    uint64_t mig_win;
    /* a worker's open implicit tasks, outermost first (scorep_profile_attach): each one's
     * calls hang below `at`, the fork's call path mapped into this tree (no call of this
     * location), and its own call path continues at `back` after it. An end or a checkpoint
     * inside a parallel region closes each one's calls, and gives `at` and the nodes above
     * it the time in the team without a visit, as the team's end does; until session 25 they
     * got a visit each and the time since 0 (a crash inside the region: a worker's program
     * root had a visit and the age of the machine's clock). Any nesting depth (until session
     * 25: 16); only one whose block could not be allocated is counted without an entry. */
    scorep_profile_attach_block attach;
    uint32_t n_attach;
} scorep_profile;

/* Set by the compiler adapter: stops timing and tracing region (its calls only count). */
extern void (*scorep_profile_throttle_hook)(uint32_t region);
/* Parameter "scorep_throttled_from_visit", defined by the hook when it first throttles
 * (so that traces and profiles without throttling do not carry it). */
extern uint32_t scorep_profile_throttle_param;

int scorep_profile_init(scorep_profile *p, uint32_t max_depth);
/* The k-th (from 0, outermost first) open implicit task's entry; NULL where its block is
 * missing (no memory at the join). */
static inline scorep_profile_attached *scorep_profile_attached_at(const scorep_profile *p,
                                                                  uint32_t k)
{
    const scorep_profile_attach_block *b = &p->attach;
    for (; b && k >= SCOREP_PROFILE_ATTACH_BLOCK; k -= SCOREP_PROFILE_ATTACH_BLOCK)
        b = __atomic_load_n(&b->next, __ATOMIC_ACQUIRE);
    return b ? (scorep_profile_attached *)&b->e[k] : NULL;
}
pnode *scorep_profile_child_slow(scorep_profile *p, pnode *parent, uint64_t key, uint8_t kind,
                                 uint32_t id, int64_t value);
/* Closes frames whose leave was lost (exceptions, longjmp, exit in a deep call). */
void scorep_profile_leave_mismatch(scorep_profile *p, uint32_t region, uint64_t ts);
void scorep_profile_close_all(scorep_profile *p, uint64_t ts);
/* At an end inside a parallel region (a signal, exit(), MPI_Abort; the program's threads
 * stopped): the migration counts not yet on a call path go to mig_node's, as that region's
 * end would have added them. Nothing at an end outside any region (mig_node NULL). */
void scorep_profile_settle_migrations(scorep_profile *p);
void scorep_profile_parameter(scorep_profile *p, uint8_t kind, uint32_t param, int64_t value,
                              uint64_t ts);
void scorep_profile_metric(scorep_profile *p, uint32_t metric, double v);
/* Adds the values of src and its subtree into dst (equal call paths below them become one),
 * then removes src's subtree from the tree and keeps its memory for reuse. src must be
 * closed (not on the current call path). */
int scorep_profile_merge_into(scorep_profile *p, pnode *dst, pnode *src);
/* The program region's node as the only root of a closed profile (Score-P's
 * scorep_profile_process_tasks): the calls that start elsewhere than in it (a pthread's
 * THREADS, a GPU stream's activities, a thread of unknown origin) move below it, and it
 * gets their inclusive time and counters without a visit. The first location's node is
 * its call, opened at ProgramBegin; OpenMP workers have it from the fork's call path.
 * Returns -1 when out of memory (the tree is then unchanged) or the profile is open. */
int scorep_profile_adopt_roots(scorep_profile *p, uint32_t region);
/* Gives parameter node n another value (its place in the children index moves with it). */
void scorep_profile_set_value(scorep_profile *p, pnode *n, int64_t value);
void scorep_profile_throttle_check(scorep_profile *p, pnode *n);
/* Adds n visits of throttled region under the current call path (also the n pending calls
 * of plugin-instrumented code, throttle_pending.h). */
void scorep_profile_throttled_slow(scorep_profile *p, uint32_t region, uint64_t n);

/* A call of a throttled region: one more visit of its node under the current call path
 * (no time), also counted in the node's throttled-visits child. */
static inline void scorep_profile_throttled_visit(scorep_profile *p, uint32_t region)
{
    pnode *c = p->cur->last_hit;
    if (__builtin_expect(c && c->key == region && c->kind == PNODE_REGION && c->throttled, 1)) {
        c->visits++;
        c->throttled->visits++;
    } else {
        scorep_profile_throttled_slow(p, region, 1);
    }
}
/* Score-P's artificial regions of the profile (defined on first use; SCOREP_INVALID_ID when
 * out of memory): "THREADS", the root above the call tree of every thread started by
 * pthread_create, visited once per thread (pthread_roots sample); "MEASUREMENT OFF", the
 * call path of the time with recording switched off (user_api sample). */
uint32_t scorep_profile_threads_region(void);
uint32_t scorep_profile_off_region(void);

static inline void scorep_profile_close_node(pnode *n, uint64_t ts)
{
    uint64_t d = ts - n->enter_ts;
    n->visits++;
    n->sum += d;
    if (d < n->min)
        n->min = d;
    if (d > n->max)
        n->max = d;
}

/* A visit of one tick (a stamped call, events.h): scorep_profile_close_node with
 * ts = enter_ts + 1, without the timestamps. */
static inline void scorep_profile_close_node_tick(pnode *n)
{
    n->visits++;
    n->sum++;
    if (n->min > 1)
        n->min = 1;
    if (n->max < 1)
        n->max = 1;
}

/* Metric sources: remember the values at enter, add the difference at leave. */
static inline void scorep_profile_dense_start(const scorep_profile *p, pnode *n)
{
    for (uint32_t i = 0; i < p->n_dense; i++)
        n->dense[i] = p->dense_values[i];
}

static inline void scorep_profile_dense_stop(const scorep_profile *p, pnode *n)
{
    for (uint32_t i = 0; i < p->n_dense; i++)
        n->dense[p->n_dense + i] += p->dense_values[i] - n->dense[i];
}

static inline void scorep_profile_enter(scorep_profile *p, uint32_t region, uint64_t ts)
{
    if (__builtin_expect(p->depth >= p->max_depth, 0)) {
        p->overflow++;
        return;
    }
    pnode *cur = p->cur;
    pnode *c = cur->last_hit;
    if (__builtin_expect(!c || c->key != region, 0)) {
        pnode *prev = c, *next = c ? c->next_hit : NULL;
        if (next && next->key == region && next->parent == cur) {
            c = next;
        } else {
            c = scorep_profile_child_slow(p, cur, region, PNODE_REGION, region, 0);
            if (!c) { /* out of memory: the time stays with the parent */
                p->overflow++;
                return;
            }
            if (prev)
                prev->next_hit = c;
        }
        cur->last_hit = c;
    }
    c->enter_ts = ts;
    if (c->dense)
        scorep_profile_dense_start(p, c);
    p->cur = c;
    p->depth++;
}

static inline void scorep_profile_leave(scorep_profile *p, uint32_t region, uint64_t ts)
{
    if (__builtin_expect(p->overflow > 0, 0)) {
        p->overflow--;
        return;
    }
    pnode *c = p->cur;
    if (__builtin_expect(c->kind != PNODE_REGION || c->id != region, 0)) {
        scorep_profile_leave_mismatch(p, region, ts);
        return;
    }
    scorep_profile_close_node(c, ts);
    if (c->dense)
        scorep_profile_dense_stop(p, c);
    if (__builtin_expect(c->visits == p->throttle_calls, 0))
        scorep_profile_throttle_check(p, c);
    p->cur = c->parent;
    p->depth--;
}

/* A call that entered at ts and left at ts + 1 with nothing in between (events.h,
 * scorep_event_stamped): the node the last visit found gets the visit directly; any other
 * case (a new node, the depth limit, metric sources, the visit that throttles) as an enter
 * and a leave. */
void scorep_profile_stamped_slow(scorep_profile *p, uint32_t region, uint64_t ts);
static inline __attribute__((always_inline)) void scorep_profile_stamped(scorep_profile *p,
                                                                        uint32_t region,
                                                                        uint64_t ts)
{
    pnode *c = p->cur->last_hit;
    if (__builtin_expect(c && c->key == region && c->kind == PNODE_REGION &&
                             p->depth < p->max_depth && !c->dense &&
                             c->visits + 1 != p->throttle_calls,
                         1)) {
        c->enter_ts = ts;
        scorep_profile_close_node(c, ts + 1);
        return;
    }
    /* out of line (profile.c): inlined here, the enter and leave made the common case above
     * save and restore five registers for them (issue #31: MPI_Comm_rank's +20 ns) */
    scorep_profile_stamped_slow(p, region, ts);
}

#endif
