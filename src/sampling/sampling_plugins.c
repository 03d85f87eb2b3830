/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_plugins.c: Score-P's calling-context events for substrate plugins under
 * SCOREP_ENABLE_UNWINDING: CALLING_CONTEXT_ENTER and _EXIT in place of ENTER_REGION and
 * EXIT_REGION, and SAMPLE, with calling-context handles of one process-wide table that
 * plugins resolve through SCOREP_CallingContextHandle_GetRegion and _GetParent.
 *
 * The contexts are built as the trace writer builds its own (sampling_trace.c), from the same
 * data, so that a plugin sees the contexts the trace shows: an instrumented call's context
 * lies below its caller's, through the frames unwound at its enter (unwind_enter.c), keyed
 * by region and code address; a sample's frames below its innermost instrumented call hang
 * below that call's context, a sample outside any call from the root.
 *
 * Samples are taken in the signal handler as raw code addresses; resolving them to regions
 * is not async-signal-safe. They are delivered at the location's next calling-context event
 * (those taken before its timestamp, in order, with their own timestamps), or at its end:
 * the order and the previous contexts are those of the trace; a plugin sees a sample late.
 *
 * Only reached when a plugin is loaded (l->substrates_on): nothing here runs without one. */
#include "sampling/sampling_internal.h"
#include "core/events.h"
#include "core/location.h"
#include "substrates/substrates_bridge.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define CC_NONE UINT32_MAX

/* ------------------------------------------------------- the process's contexts */
/* Blocks that never move, so that the plugins' look-ups read them without the lock. */
typedef struct {
    uint32_t parent, region, depth;
    uint64_t addr;
} pcc;

enum { CC_BLOCK = 4096, CC_BLOCKS = 65536, CC_CACHE = 256 };

static pcc *blocks[CC_BLOCKS];
static uint32_t n_cc;         /* published with release after the entry is written */
static uint32_t *slots, mask; /* key -> id + 1, under the lock */
static pthread_mutex_t cc_lock = PTHREAD_MUTEX_INITIALIZER;
static int generators_announced;

static pcc *cc_at(uint32_t id)
{
    return &blocks[id / CC_BLOCK][id % CC_BLOCK];
}

static uint32_t key_slot(uint32_t parent, uint32_t region, uint64_t addr)
{
    uint64_t h = ((uint64_t)parent << 32 | region) * 0x9e3779b97f4a7c15ull;
    h = (h ^ addr) * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32) & mask;
}

/* Room for one more entry and its slot; under the lock. */
static int room(void)
{
    if (n_cc % CC_BLOCK == 0) {
        if (n_cc / CC_BLOCK == CC_BLOCKS)
            return -1;
        if (!blocks[n_cc / CC_BLOCK] && !(blocks[n_cc / CC_BLOCK] = malloc(CC_BLOCK * sizeof(pcc))))
            return -1;
    }
    if (slots && (n_cc + 1) * 2 <= mask + 1)
        return 0;
    uint32_t cap = slots ? (mask + 1) * 2 : 4096;
    uint32_t *s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    free(slots);
    slots = s;
    mask = cap - 1;
    for (uint32_t i = 0; i < n_cc; i++) {
        const pcc *c = cc_at(i);
        uint32_t j = key_slot(c->parent, c->region, c->addr);
        while (slots[j])
            j = (j + 1) & mask;
        slots[j] = i + 1;
    }
    return 0;
}

/* ------------------------------------------------------------ per location */
typedef struct {
    /* the thread working on this state (0: none), taken (acquire) and given back (release)
     * by whoever works on it: its own thread at its events, or the master of its team
     * writing an idle OpenMP worker's deactivation (omp_parallel.c end_workers) while the
     * worker may be woken for its next team; the handoff is then ordered by this, not only
     * by the OpenMP runtime's fork and join. nest: the owner's calls inside its own (an
     * event of a plugin's callback on this thread), which must not wait for themselves */
    uintptr_t owner;
    uint32_t nest;
    uint32_t *stack; /* contexts of the open instrumented calls, as the trace's cursor */
    uint32_t depth, cap;
    uint32_t prev;     /* context of the previous calling-context event */
    uint32_t next;     /* the next sample to deliver */
    uint32_t *node_cc; /* sample node -> its context from the root (the trace's map_nodes) */
    uint32_t n_mapped;
    uint32_t *path;
    uint64_t *apath;
    uint32_t path_cap;
    uint32_t held;       /* 1 + the sample held back once until the next event (the trace's) */
    uint32_t left_cc;    /* context of the call left last, at depth left_depth + 1 */
    uint32_t left_depth; /* (CC_NONE after an enter) */
    struct {
        uint64_t addr;
        uint32_t parent, region, id;
    } cache[CC_CACHE]; /* the location's recent contexts: no lock on a hit */
    uint32_t frames[SMP_MAX_FRAMES];
    uint64_t addrs[SMP_MAX_FRAMES + 1];
} cc_loc;

/* The context of region at addr below parent, made when new (announced to the plugins
 * before its first event, as Score-P's definitions); CC_NONE without memory. */
static uint32_t child(cc_loc *s, uint32_t parent, uint32_t region, uint64_t addr)
{
    uint64_t h = (((uint64_t)parent << 32 | region) ^ addr) * 0x9e3779b97f4a7c15ull;
    uint32_t k = (uint32_t)(h >> 56) % CC_CACHE;
    if (s->cache[k].id != CC_NONE && s->cache[k].parent == parent && s->cache[k].region == region &&
        s->cache[k].addr == addr)
        return s->cache[k].id;
    pthread_mutex_lock(&cc_lock);
    uint32_t id = CC_NONE;
    bool made = false;
    if (room() == 0) {
        uint32_t j = key_slot(parent, region, addr);
        for (; slots[j]; j = (j + 1) & mask) {
            const pcc *c = cc_at(slots[j] - 1);
            if (c->parent == parent && c->region == region && c->addr == addr) {
                id = slots[j] - 1;
                break;
            }
        }
        if (id == CC_NONE) {
            id = n_cc;
            uint32_t depth = parent == CC_NONE ? 1 : cc_at(parent)->depth + 1;
            *cc_at(id) = (pcc){parent, region, depth, addr};
            slots[j] = id + 1;
            __atomic_store_n(&n_cc, id + 1, __ATOMIC_RELEASE);
            made = true;
        }
    }
    pthread_mutex_unlock(&cc_lock);
    if (id == CC_NONE)
        return CC_NONE;
    s->cache[k].addr = addr;
    s->cache[k].parent = parent;
    s->cache[k].region = region;
    s->cache[k].id = id;
    if (made)
        scorep_substrates_new_cc(id);
    return id;
}

static uint32_t depth_of(uint32_t c)
{
    return c == CC_NONE ? 0 : cc_at(c)->depth;
}

static uint32_t parent_of(uint32_t c)
{
    return c == CC_NONE ? c : cc_at(c)->parent;
}

static uint32_t common(uint32_t a, uint32_t b)
{
    while (depth_of(a) > depth_of(b))
        a = parent_of(a);
    while (depth_of(b) > depth_of(a))
        b = parent_of(b);
    while (a != b) {
        a = parent_of(a);
        b = parent_of(b);
    }
    return a;
}

/* OTF2's and Score-P's unwind distance: 1 + the contexts newly entered since prev. */
static uint32_t distance(uint32_t prev, uint32_t c)
{
    return depth_of(c) - depth_of(common(prev, c)) + 1;
}

/* a per-thread address: the thread's mark as a state's owner */
static __thread char cc_self __attribute__((tls_model("initial-exec")));

/* l's state, made at its first use (by its thread or by its master, whichever comes first),
 * taken for this caller until release(): NULL without memory. */
static cc_loc *state(struct scorep_location *l)
{
    scorep_substrate_loc *d = scorep_substrates_location_data(l);
    if (!d)
        return NULL;
    cc_loc *s = __atomic_load_n((cc_loc **)&d->cc, __ATOMIC_ACQUIRE);
    if (!s) {
        cc_loc *n = calloc(1, sizeof *n);
        if (!n)
            return NULL;
        n->prev = CC_NONE;
        n->left_cc = CC_NONE;
        for (uint32_t i = 0; i < CC_CACHE; i++)
            n->cache[i].id = CC_NONE;
        void *none = NULL;
        if (__atomic_compare_exchange_n(&d->cc, &none, n, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            s = n;
        } else {
            free(n);
            s = none;
        }
    }
    /* only this thread stores its own mark: reading it means this thread holds the state */
    uintptr_t me = (uintptr_t)&cc_self, none = 0;
    if (__atomic_load_n(&s->owner, __ATOMIC_RELAXED) == me) {
        s->nest++;
        return s;
    }
    /* uncontended but for a master ending an idle worker's team at this moment: a yield */
    while (!__atomic_compare_exchange_n(&s->owner, &none, me, false, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
        none = 0;
        sched_yield();
    }
    return s;
}

static void release(cc_loc *s)
{
    if (s->nest)
        s->nest--;
    else
        __atomic_store_n(&s->owner, 0, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------- samples */
static uint64_t node_addr(uint64_t key)
{
    return key & SMP_LEAF_KEY ? key & ~SMP_LEAF_KEY : key - 1;
}

/* The contexts of nodes [s->n_mapped, n) from the root (the trace's map_nodes). */
static int map_upto(cc_loc *s, const struct scorep_sampling_thread *t, const uint32_t *reg,
                    uint32_t n)
{
    if (!s->node_cc && !(s->node_cc = malloc(SMP_NODE_CAP * sizeof *s->node_cc)))
        return -1;
    for (uint32_t i = s->n_mapped; i < n; i++) {
        uint32_t par = t->nodes[i].parent;
        uint32_t parent = par == SMP_NONE ? CC_NONE : s->node_cc[par];
        uint32_t r = reg[i];
        s->node_cc[i] = r == SMP_SKIP ? parent : child(s, parent, r, node_addr(t->nodes[i].key));
    }
    s->n_mapped = n;
    return 0;
}

/* A sample's context, as the trace's sample_cc: its frames below its innermost instrumented
 * region hang below that call's context on the stack; else its context from the root. */
/* Whether the sample at node j's region path (d regions) read the region stack of the call
 * left last, before its pop (the trace's in_left_call) */
static bool in_left_call(const cc_loc *s, const struct scorep_sampling_thread *t, uint32_t j,
                         uint32_t d)
{
    return d > 0 && d == s->depth + 1 && s->left_depth == s->depth && s->left_cc != CC_NONE &&
           cc_at(s->left_cc)->region == (uint32_t)(t->nodes[j].key & 0xffffffffu);
}

/* A region stack deeper than s's, not that of the call left last (the trace's enter_ahead) */
static bool enter_ahead(const cc_loc *s, const struct scorep_sampling_thread *t, uint32_t node)
{
    uint32_t j, d = smp_region_depth(t, node, NULL, &j, NULL);
    return d > s->depth && !in_left_call(s, t, j, d);
}

static uint32_t sample_context(cc_loc *s, const struct scorep_sampling_thread *t,
                               const uint32_t *reg, uint32_t node)
{
    if (!scorep_unwind_at_enter())
        return s->node_cc[node];
    uint32_t j, nf, d = smp_region_depth(t, node, reg, &j, &nf);
    bool left = in_left_call(s, t, j, d);
    if (!left && (d == 0 || d > s->depth))
        return s->node_cc[node];
    if (nf > s->path_cap) {
        uint32_t *p = realloc(s->path, nf * sizeof *p);
        if (p)
            s->path = p;
        uint64_t *a = p ? realloc(s->apath, nf * sizeof *a) : NULL;
        if (!a)
            return s->node_cc[node];
        s->apath = a;
        s->path_cap = nf;
    }
    uint32_t n = 0;
    for (uint32_t k = node; k != j; k = t->nodes[k].parent)
        if (reg[k] != SMP_SKIP) {
            s->apath[n] = node_addr(t->nodes[k].key);
            s->path[n++] = reg[k];
        }
    uint32_t cc = left ? s->left_cc : s->stack[d - 1];
    while (n > 0 && cc != CC_NONE) {
        n--;
        cc = child(s, cc, s->path[n], s->apath[n]);
    }
    return cc;
}

/* The samples of l taken before ts, in order; the time of the last one delivered (0: none).
 * On another thread than l's (an OpenMP master writing an idle worker's events at the end
 * of its barrier, finalize) l's thread may be inside its signal handler with a sample taken
 * before ts and not yet stored: that one is waited for, else it came after the event at the
 * location's next one (before session 27: a worker's sample in the implicit barrier after
 * the barrier's exit, at its next team's first enter). */
static uint64_t samples_until(struct scorep_location *l, cc_loc *s, uint64_t ts)
{
    struct scorep_sampling_thread *t = l->sampling;
    if (!t || !t->samples)
        return 0;
    if (l != scorep_tls_location)
        scorep_sampling_settle(t);
    uint32_t n = __atomic_load_n(&t->n_samples, __ATOMIC_ACQUIRE);
    if (s->next >= n || t->samples[s->next].ts >= ts)
        return 0;
    uint32_t nodes = __atomic_load_n(&t->n_nodes, __ATOMIC_ACQUIRE);
    const uint32_t *reg = scorep_smp_live_regions(t, nodes);
    if (!reg || map_upto(s, t, reg, nodes) != 0)
        return 0;
    if (!__atomic_exchange_n(&generators_announced, 1, __ATOMIC_ACQ_REL))
        for (int g = 0; g < scorep_sampling_generator_count(); g++)
            scorep_substrates_new_generator((uint32_t)g);
    uint64_t last = 0;
    for (; s->next < n && t->samples[s->next].ts < ts; s->next++) {
        const smp_sample *x = &t->samples[s->next];
        if (x->node >= nodes)
            break; /* its node came after the snapshot: the next event takes it */
        if ((x->gen & SMP_IN_EVENT) && ts != UINT64_MAX && s->held != s->next + 1 &&
            scorep_unwind_at_enter() && enter_ahead(s, t, x->node)) {
            s->held = s->next + 1; /* an enter's push before its event: after it */
            break;
        }
        uint32_t cc = sample_context(s, t, reg, x->node);
        if (cc == CC_NONE)
            continue; /* start-up code only, before main: no sample in the trace either */
        /* no metric values: they are not read in the signal handler */
        scorep_substrates_cc_deliver(SCOREP_SUBSTRATES_CC_SAMPLE, l, x->ts, cc, s->prev,
                                     distance(s->prev, cc), x->gen & SMP_GEN_MASK, NULL);
        s->prev = cc;
        last = x->ts;
    }
    return last;
}

/* ------------------------------------------------------------------- events */
bool scorep_substrates_cc_mode(void)
{
    return scorep_sampling_unwinding();
}

/* The context of the call of region that l entered last (the trace's: below the caller's
 * context through the frames unwound at the enter), pushed on s's stack; CC_NONE (pushed
 * too, so that its leave pops it) without memory, -1 when the stack cannot grow. */
/* Room on s's stack for n more contexts; -1 without memory. */
static int stack_room(cc_loc *s, uint32_t n)
{
    if (s->depth + n <= s->cap)
        return 0;
    uint32_t cap = s->cap ? 2 * s->cap : 64;
    while (cap < s->depth + n)
        cap *= 2;
    uint32_t *p = realloc(s->stack, cap * sizeof *p);
    if (!p)
        return -1;
    s->stack = p;
    s->cap = cap;
    return 0;
}

static int push_call(struct scorep_location *l, cc_loc *s, uint32_t region, uint32_t *cc)
{
    if (stack_room(s, 1) != 0)
        return -1;
    uint32_t parent = s->depth ? s->stack[s->depth - 1] : CC_NONE;
    uint32_t nf = scorep_unwind_plugin_frames(l, region, s->frames, s->addrs);
    for (uint32_t i = 0; i < nf; i++) {
        uint32_t f = child(s, parent, s->frames[i], s->addrs[i]);
        if (f == CC_NONE)
            break;
        parent = f;
    }
    *cc = child(s, parent, region, s->addrs[nf]);
    s->stack[s->depth++] = *cc;
    s->left_cc = CC_NONE;
    return 0;
}

void scorep_substrates_cc_enter(struct scorep_location *l, uint64_t t, uint32_t region,
                                uint64_t *metrics)
{
    cc_loc *s = state(l);
    if (!s)
        return;
    samples_until(l, s, t);
    /* samples since the caller's last event may have entered some of the frames already:
     * they are entered again with the call (sampling_trace.c) */
    uint32_t from = common(s->prev, s->depth ? s->stack[s->depth - 1] : CC_NONE), cc;
    if (push_call(l, s, region, &cc) == 0 && cc != CC_NONE) {
        scorep_substrates_cc_deliver(SCOREP_SUBSTRATES_CC_ENTER, l, t, cc, s->prev,
                                     distance(from, cc), 0, metrics);
        s->prev = cc;
    }
    release(s);
}

void scorep_substrates_cc_exit(struct scorep_location *l, uint64_t t, uint64_t *metrics)
{
    cc_loc *s = state(l);
    if (!s)
        return;
    samples_until(l, s, t);
    uint32_t cc = s->depth ? s->stack[--s->depth] : CC_NONE;
    s->left_cc = cc;
    s->left_depth = s->depth;
    if (cc != CC_NONE) {
        /* Score-P: the exited call's context, the previous event's, distance 1; the caller's
         * context is the current one again */
        scorep_substrates_cc_deliver(SCOREP_SUBSTRATES_CC_EXIT, l, t, cc, s->prev, 1, 0, metrics);
        s->prev = s->depth ? s->stack[s->depth - 1] : CC_NONE;
    }
    release(s);
}

void scorep_substrates_cc_task(struct scorep_location *l, uint64_t t, uint32_t region, bool begin)
{
    cc_loc *s = state(l);
    if (!s)
        return;
    samples_until(l, s, t);
    uint32_t cc;
    if (begin)
        push_call(l, s, region, &cc); /* no event: Score-P's unwinding sees no task region */
    else if (s->depth > 0) {
        s->left_cc = s->stack[--s->depth]; /* as the trace's leave of the task region */
        s->left_depth = s->depth;
    }
    release(s);
}

/* ----------------------------------------------------------- untied tasks */
/* The contexts of suspended untied tasks, by task, from their suspension to their
 * resumption (a few at a time: a list under its own lock, on the tasks' cold paths). */
typedef struct parked_cc {
    struct parked_cc *next;
    const void *task;
    uint32_t n;
    uint32_t cc[];
} parked_cc;
static parked_cc *parked;
static pthread_mutex_t parked_lock = PTHREAD_MUTEX_INITIALIZER;

void scorep_substrates_cc_park(struct scorep_location *l, uint64_t t, const void *task, uint32_t n)
{
    cc_loc *s = state(l);
    if (!s)
        return;
    samples_until(l, s, t); /* those before the suspension: below the task's contexts */
    if (n > s->depth)
        n = s->depth;
    s->depth -= n;
    /* no event: the previous context stays (Score-P's view: the task is only switched away
     * from); the stack is l's own again */
    parked_cc *p = malloc(sizeof *p + n * sizeof *p->cc);
    if (p)
        memcpy(p->cc, s->stack + s->depth, n * sizeof *p->cc);
    release(s);
    if (!p)
        return; /* the resumed part's events then lie below the resuming thread's calls */
    p->task = task;
    p->n = n;
    pthread_mutex_lock(&parked_lock);
    p->next = parked;
    parked = p;
    pthread_mutex_unlock(&parked_lock);
}

void scorep_substrates_cc_resume(struct scorep_location *l, uint64_t t, const void *task)
{
    parked_cc *p = NULL;
    pthread_mutex_lock(&parked_lock);
    for (parked_cc **pp = &parked; *pp; pp = &(*pp)->next)
        if ((*pp)->task == task) {
            p = *pp;
            *pp = p->next;
            break;
        }
    pthread_mutex_unlock(&parked_lock);
    cc_loc *s = state(l);
    if (s && p) {
        samples_until(l, s, t); /* those before the resumption: below l's own calls */
        if (stack_room(s, p->n) == 0) {
            memcpy(s->stack + s->depth, p->cc, p->n * sizeof *p->cc);
            s->depth += p->n;
        }
    }
    if (s)
        release(s);
    free(p);
}

void scorep_substrates_cc_deactivate(struct scorep_location *l, uint64_t t, bool team_end)
{
    /* Score-P reads the metrics for this sample; here the values of l's last event, its last
     * leave just before (a worker's parallel region at its team's end, a thread's last call):
     * what the trace records there. Reading them anew is not possible on the master that
     * writes an idle worker's end (per-thread counters are the reading thread's). */
    uint64_t *metrics = scorep_event_metric_values(l);
    cc_loc *s = state(l);
    if (!s)
        return;
    if (team_end) {
        /* an OpenMP worker's team end, dated at the end of the team's closing barrier (also
         * where the master writes it for an idle worker, later), and t just after it: the
         * samples before t, then the final one; the worker's samples after t (taken in the
         * barrier until it was woken, or while the master wrote its end) follow it at the
         * location's next event, as the trace has them after its ThreadTeamEnd */
        samples_until(l, s, t);
    } else {
        /* a thread's end (on its thread, or at finalize): all samples so far, the ones taken
         * in the deactivation's own work included, and the final one not before them */
        uint64_t last = samples_until(l, s, UINT64_MAX);
        if (last >= t)
            t = last + 1;
    }
    /* Score-P's SCOREP_Location_DeactivateCpuSample: no context, the previous one,
     * distance 1, no generator; its unwinding forgets the previous context */
    scorep_substrates_cc_deliver(SCOREP_SUBSTRATES_CC_SAMPLE, l, t, CC_NONE, s->prev, 1, UINT32_MAX,
                                 metrics);
    s->prev = CC_NONE;
    release(s);
}

void scorep_substrates_cc_end(struct scorep_location *l)
{
    scorep_substrate_loc *d = scorep_substrates_location_data(l);
    if (!d || !__atomic_load_n(&d->cc, __ATOMIC_ACQUIRE))
        return;
    cc_loc *s = state(l);
    samples_until(l, s, UINT64_MAX);
    __atomic_store_n(&d->cc, NULL, __ATOMIC_RELEASE);
    free(s->stack);
    free(s->node_cc);
    free(s->path);
    free(s->apath);
    free(s);
}

bool scorep_substrates_cc_get(uint32_t id, uint32_t *region, uint32_t *parent)
{
    if (id >= __atomic_load_n(&n_cc, __ATOMIC_ACQUIRE))
        return false;
    *region = cc_at(id)->region;
    *parent = cc_at(id)->parent;
    return true;
}
