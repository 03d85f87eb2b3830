/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_profile.c: at finalize, turns each thread's sample tree into regions (the
 * unwound functions, resolved through libdw) and merges it into the call-path profile:
 * sampled functions become call paths below the instrumented regions they ran in. */
#include "sampling/sampling_internal.h"
#include "symbols/symbols.h"
#include "core/location.h"
#include "base/log.h"
#include "base/timer.h"
#include "defs/defs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

/* ------------------------------------------------------------- regions */
/* One resolved code address: its function's name, and the region made from it on demand
 * (frames that instrumented regions already show need no region of their own). */
typedef struct {
    uint64_t addr;
    char *name, *mangled, *file;
    int line;
    bool skip;
    bool omp_runtime; /* code of the OpenMP runtime (libomp, libgomp) */
    bool adapter;     /* code of the runtime's libraries (libscorep-rt*: adapters' wrappers) */
    uint32_t region;  /* SCOREP_INVALID_ID until defined */
} addr_info;

static addr_info *cache;
static uint32_t cache_mask, cache_used;

/* libc's and the thread library's start-up frames above main and a thread's start routine,
 * and frames of the runtime itself (its thread wrapper, an interrupted hook): shown as part
 * of their caller, as Score-P's unwinding does. */
static bool is_skipped(uintptr_t addr, const char *name)
{
    static const char *const outer[] = {
        "_start",  "__libc_start_main", "__libc_start_call_main", "start_thread", "clone", "clone3",
        "__clone", "__clone3"};
    for (size_t i = 0; i < sizeof outer / sizeof outer[0]; i++)
        if (strcmp(name, outer[i]) == 0)
            return true;
    return scorep_symbols_in_runtime(addr);
}

/* A name for code without a symbol: its object, so that one region collects it. */
static void name_unknown(uint64_t addr, scorep_symbol *sym)
{
    uint64_t vdso = getauxval(AT_SYSINFO_EHDR);
    const char *mod = sym->module ? strrchr(sym->module, '/') : NULL;
    char buf[300];
    if (vdso && addr >= vdso && addr - vdso < 65536) /* the vDSO is a few pages */
        snprintf(buf, sizeof buf, "[vdso]");
    else
        snprintf(buf, sizeof buf, "[%s]", mod ? mod + 1 : sym->module ? sym->module : "unknown");
    free(sym->name);
    free(sym->mangled);
    sym->name = strdup(buf);
    sym->mangled = NULL;
}

static void resolve_addr(addr_info *a)
{
    scorep_symbol sym;
    memset(&sym, 0, sizeof sym);
    if (scorep_symbols_resolve((uintptr_t)a->addr, &sym) != 0)
        name_unknown(a->addr, &sym);
    char *at = sym.name ? strchr(sym.name, '@') : NULL;
    if (at)
        *at = 0; /* the ELF symbol version (memcpy@@GLIBC_2.14) is not part of the name */
    a->name = sym.name ? sym.name : strdup("unknown");
    a->mangled = sym.mangled;
    a->file = sym.file;
    a->line = sym.line;
    const char *mod = sym.module ? strrchr(sym.module, '/') : NULL;
    mod = mod ? mod + 1 : sym.module ? sym.module : "";
    /* libscorep-rt-gomp's wrappers run the outlined bodies on libgomp (gomp_wrap.c) */
    a->omp_runtime = strncmp(mod, "libomp", 6) == 0 || strncmp(mod, "libgomp", 7) == 0 ||
                     strncmp(mod, "libiomp", 7) == 0 || strncmp(mod, "libscorep-rt-gomp", 17) == 0;
    /* the OpenMP runtime's frames between a parallel region and its outlined body */
    a->skip = !a->name || a->omp_runtime || is_skipped((uintptr_t)a->addr, a->name);
    a->adapter = strncmp(mod, "libscorep-rt", 12) == 0;
    /* the adapters' wrappers too: the wrapper of MPI_Send is shown by the region MPI_Send */
    a->skip = a->skip || a->adapter;
    a->region = SCOREP_INVALID_ID;
    free(sym.module);
}

static int cache_grow(void)
{
    uint32_t cap = cache ? (cache_mask + 1) * 2 : 1024;
    addr_info *c = calloc(cap, sizeof *c);
    if (!c)
        return -1;
    for (uint32_t i = 0; cache && i <= cache_mask; i++) {
        if (!cache[i].addr)
            continue;
        uint32_t j = (uint32_t)(cache[i].addr * 0x9e3779b97f4a7c15ull >> 40) & (cap - 1);
        while (c[j].addr)
            j = (j + 1) & (cap - 1);
        c[j] = cache[i];
    }
    free(cache);
    cache = c;
    cache_mask = cap - 1;
    return 0;
}

/* The resolved address (a return address is resolved one byte earlier: the call). */
static addr_info *info_of(uint64_t key)
{
    uint64_t addr = key & SMP_LEAF_KEY ? key & ~SMP_LEAF_KEY : key - 1;
    if ((!cache || (cache_used + 1) * 2 > cache_mask) && cache_grow() != 0)
        return NULL;
    uint32_t j = (uint32_t)(addr * 0x9e3779b97f4a7c15ull >> 40) & cache_mask;
    for (; cache[j].addr; j = (j + 1) & cache_mask)
        if (cache[j].addr == addr)
            return &cache[j];
    cache[j].addr = addr;
    resolve_addr(&cache[j]);
    cache_used++;
    return &cache[j];
}

static uint32_t region_of(addr_info *a)
{
    if (!a || a->skip)
        return SMP_SKIP;
    if (a->region == SCOREP_INVALID_ID)
        a->region = scorep_defs_region(a->name, a->mangled ? a->mangled : a->name, a->file, a->line,
                                       a->line, SCOREP_PARADIGM_SAMPLING, SCOREP_ROLE_FUNCTION);
    return a->region == SCOREP_INVALID_ID ? SMP_SKIP : a->region;
}

uint32_t scorep_smp_frame_region(uint64_t ip, const char **name, bool *omp)
{
    addr_info *a = info_of(ip);
    if (!a || a->adapter)
        return SMP_SKIP;
    *name = a->name;
    /* GCC's outlined bodies (main._omp_fn.0) and clang's (.omp_outlined., main.omp_outlined),
     * as Score-P's unwinding skips them */
    *omp = a->omp_runtime ||
           (a->name && (strstr(a->name, "._omp_fn.") || strstr(a->name, "._omp_cpyfn.") ||
                        strstr(a->name, "omp_outlined") || strstr(a->name, ".omp_task_entry.")));
    return *omp ? SMP_SKIP : region_of(a);
}

/* Where a node stands in its path: the instrumented function that the unwound frames must
 * pass (fn, its need-th occurrence, as often as it is on the region stack) before they show
 * what instrumentation does not see. */
typedef struct {
    const char *fn;
    uint32_t need, seen;
    bool omp; /* below an OpenMP region: frames show after the OpenMP runtime's */
    bool shown;
} path_state;

/* Regions that have a frame of the same name on the stack: compiler-instrumented functions
 * and the MPI adapter's wrappers (MPI_Send is a function of libscorep-rt-mpi). */
static const char *compiler_fn(uint32_t region)
{
    const scorep_region_def *d = scorep_defs_region_get(region);
    return d && (d->paradigm == SCOREP_PARADIGM_COMPILER || d->paradigm == SCOREP_PARADIGM_MPI)
               ? d->name
               : NULL;
}

static path_state region_state(const struct scorep_sampling_thread *t, uint32_t i,
                               const path_state *parent)
{
    uint32_t r = (uint32_t)(t->nodes[i].key & 0xffffffffu);
    const char *fn = compiler_fn(r);
    const scorep_region_def *d = scorep_defs_region_get(r);
    path_state s = {parent->fn, parent->need, 0, parent->omp, false};
    if (d && d->paradigm == SCOREP_PARADIGM_OPENMP) {
        /* the stack above the OpenMP runtime (main and the fork call, or a worker's start)
         * is not part of the construct; its outlined body below the runtime is */
        s.fn = NULL;
        s.omp = true;
    }
    if (fn) {
        s.fn = fn;
        s.need = 1;
        for (uint32_t p = t->nodes[i].parent; p != SMP_NONE; p = t->nodes[p].parent) {
            const char *other = compiler_fn((uint32_t)(t->nodes[p].key & 0xffffffffu));
            s.need += other && strcmp(other, fn) == 0;
        }
    }
    if (fn)
        s.omp = false;
    /* only user regions: the whole stack lies below them */
    s.shown = s.fn == NULL && !s.omp;
    return s;
}

/* The region each node stands for, or SMP_SKIP when its frame is shown by an instrumented
 * region or folded into its caller. */
static int resolve_nodes(struct scorep_sampling_thread *t)
{
    path_state *st = malloc((t->n_nodes + 1) * sizeof *st);
    t->node_region = malloc((t->n_nodes + 1) * sizeof *t->node_region);
    if (!st || !t->node_region) {
        free(st);
        return -1;
    }
    const path_state top = {NULL, 0, 0, false, true};
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        const smp_node *n = &t->nodes[i];
        const path_state *parent = n->parent == SMP_NONE ? &top : &st[n->parent];
        if (n->key & SMP_REGION_KEY) {
            st[i] = region_state(t, i, parent);
            t->node_region[i] = (uint32_t)(n->key & 0xffffffffu);
            continue;
        }
        st[i] = *parent;
        addr_info *a = info_of(n->key);
        if (st[i].shown) {
            t->node_region[i] = region_of(a);
            continue;
        }
        t->node_region[i] = SMP_SKIP;
        if (st[i].fn ? a && strcmp(a->name, st[i].fn) == 0 && ++st[i].seen == st[i].need
                     : a && a->omp_runtime)
            st[i].shown = true;
    }
    free(st);
    return 0;
}

/* ------------------------------------------------------------- profile */
/* A call path that only samples made: never entered through an event, so never closed. */
static bool is_sampled(const pnode *n)
{
    /* (the program root of an OpenMP worker, from the fork's call path, is never closed there
     * either: it keeps no visit, as in Score-P) */
    return n->kind == PNODE_REGION && n->min == UINT64_MAX && n->id != scorep_program_region();
}

/* The frames unwound at instrumented enters (unwind_enter.c) lie between a call's node and
 * its caller's: a sample's instrumented region r below parent is r's node there, also when
 * frames are between them (the most visited one, when r was called through several chains
 * of frames); a new node when no enter made one. */
static bool is_enter_frame(const pnode *n)
{
    const scorep_region_def *d = n->kind == PNODE_REGION ? scorep_defs_region_get(n->id) : NULL;
    return d && d->paradigm == SCOREP_PARADIGM_SAMPLING && !is_sampled(n);
}

static void find_below_frames(pnode *parent, uint32_t r, pnode **best)
{
    for (pnode *c = parent->first_child; c; c = c->next_sibling) {
        if (c->kind != PNODE_REGION)
            continue;
        if (is_enter_frame(c))
            find_below_frames(c, r, best);
        else if (c->id == r && (!*best || c->visits > (*best)->visits))
            *best = c;
    }
}

/* Sampled time below an instrumented call can exceed the call's own measured time by a
 * period or so; scale it down so that no exclusive time becomes negative. */
static void scale_subtree(pnode *n, double f)
{
    n->sum = (uint64_t)((double)n->sum * f);
    for (pnode *c = n->first_child; c; c = c->next_sibling)
        scale_subtree(c, f);
}

/* The measured and the sampled time of the calls below n, through the frames unwound at
 * enters (their time is their calls'); with f >= 0 the sampled subtrees scaled by f. */
static void below(pnode *n, uint64_t *measured, uint64_t *sampled, double f)
{
    for (pnode *c = n->first_child; c; c = c->next_sibling) {
        if (is_sampled(c)) {
            if (f >= 0)
                scale_subtree(c, f);
            else
                *sampled += c->sum;
        } else if (is_enter_frame(c)) {
            below(c, measured, sampled, f);
            if (f < 0)
                *sampled += c->enter_ts; /* the frame's own samples (merge_into_profile) */
            else
                c->enter_ts = (uint64_t)((double)c->enter_ts * f);
        } else if (f < 0) {
            *measured += c->sum;
        }
    }
}

static void make_consistent(pnode *n)
{
    if (n->kind != PNODE_ROOT && !is_sampled(n) && !is_enter_frame(n)) {
        uint64_t measured = 0, sampled = 0;
        below(n, &measured, &sampled, -1);
        uint64_t avail = n->sum > measured ? n->sum - measured : 0;
        if (sampled > avail)
            below(n, NULL, NULL, (double)avail / (double)sampled);
    }
    for (pnode *c = n->first_child; c; c = c->next_sibling)
        make_consistent(c);
}

/* A frame unwound at enters: its calls' time plus the samples below it (its own ones kept
 * in enter_ts during the merge, closed nodes' scratch), max_time at least the mean. */
static uint64_t frame_sums(pnode *n)
{
    uint64_t children = 0;
    for (pnode *c = n->first_child; c; c = c->next_sibling)
        children += frame_sums(c);
    if (!is_enter_frame(n))
        return n->sum;
    n->sum = children + n->enter_ts;
    n->enter_ts = 0;
    if (n->visits && n->max < n->sum / n->visits)
        n->max = n->sum;
    return n->sum;
}

static uint32_t pdepth(const pnode *n)
{
    uint32_t d = 0;
    for (; n; n = n->parent)
        d++;
    return d;
}

/* Visits of sampled call paths: how often consecutive samples of the thread entered them
 * (a lower bound of the calls; sampling cannot see calls between two samples). A sample
 * inside an event (SMP_IN_EVENT) is no step: the trace moves no call stack for it either;
 * after an enter or leave (SMP_AFTER_EVENT) every sampled path of the sample is entered
 * anew, as the trace's call stack was the event's path, which has none of them. */
static void count_visits(const struct scorep_sampling_thread *t, pnode *const *pn,
                         const pnode *base)
{
    const pnode *prev = NULL;
    uint32_t prev_depth = 0;
    for (uint32_t k = 0; k < t->n_samples; k++) {
        pnode *cur = pn[t->samples[k].node];
        /* at the thread's base: a sample in start-up code only, which the trace leaves out
         * (no step there either) */
        if (!cur || cur == base || (t->samples[k].gen & SMP_IN_EVENT))
            continue;
        if (t->samples[k].gen & SMP_AFTER_EVENT) { /* the sampled paths were left */
            prev = NULL;
            prev_depth = 0;
        }
        uint32_t d = pdepth(cur), cd = d;
        const pnode *a = prev;
        for (uint32_t ad = prev_depth; ad > cd; ad--)
            a = a->parent;
        pnode *b = cur;
        for (; cd > prev_depth; cd--, b = b->parent)
            b->visits += is_sampled(b);
        while (b && a != b) {
            b->visits += is_sampled(b);
            b = b->parent;
            a = a->parent;
        }
        prev = cur;
        prev_depth = d;
    }
}

/* Sampled paths: at least one visit where samples found them (the sample records may have
 * run out), min_time 0 and max_time the inclusive time: bounds, not measurements. */
static void finish_sampled(pnode *n)
{
    if (is_sampled(n)) {
        if (n->visits == 0)
            n->visits = 1;
        n->min = 0;
        n->max = n->sum;
    }
    for (pnode *c = n->first_child; c; c = c->next_sibling)
        finish_sampled(c);
}

static void add_samples(scorep_profile *p, pnode *n, uint32_t metric, uint32_t count)
{
    pnode *saved = p->cur;
    p->cur = n;
    scorep_profile_metric(p, metric, (double)count);
    p->cur = saved;
}

/* Where a thread's call paths start: the artificial THREADS node of a thread started by
 * pthread_create (profile.h), else the program region's node (the first location's call,
 * an OpenMP worker's from the fork's call path; base/state.h), else the root. */
static pnode *thread_base(scorep_profile *p)
{
    uint32_t threads = scorep_profile_threads_region(), program = scorep_program_region();
    pnode *base = &p->root;
    for (pnode *c = p->root.first_child; c; c = c->next_sibling) {
        if (c->kind == PNODE_REGION && c->id == threads && threads != SCOREP_INVALID_ID)
            return c;
        if (c->kind == PNODE_REGION && c->id == program)
            base = c;
    }
    return base;
}

/* Inclusive time of each sample node, in ticks. */
static uint64_t *inclusive_ticks(const struct scorep_sampling_thread *t, double ticks_per_ns)
{
    uint64_t *incl = malloc((t->n_nodes + 1) * sizeof *incl);
    for (uint32_t i = 0; incl && i < t->n_nodes; i++)
        incl[i] = t->nodes[i].ticks + (uint64_t)((double)t->nodes[i].time_ns * ticks_per_ns);
    for (uint32_t i = t->n_nodes; incl && i-- > 0;) /* children come after their parents */
        if (t->nodes[i].parent != SMP_NONE)
            incl[t->nodes[i].parent] += incl[i];
    return incl;
}

static pnode *region_node(scorep_profile *p, pnode *parent, uint32_t r)
{
    pnode *best = NULL;
    if (scorep_unwind_at_enter())
        find_below_frames(parent, r, &best);
    return best ? best : scorep_profile_child_slow(p, parent, r, PNODE_REGION, r, 0);
}

static int merge_into_profile(scorep_location *l, struct scorep_sampling_thread *t, uint32_t metric,
                              double ticks_per_ns)
{
    scorep_profile *p = &l->profile;
    pnode *base = thread_base(p);
    pnode **pn = malloc((t->n_nodes + 1) * sizeof *pn);
    uint64_t *incl = inclusive_ticks(t, ticks_per_ns);
    if (!pn || !incl) {
        free(pn);
        free(incl);
        return -1;
    }
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        uint32_t par = t->nodes[i].parent;
        pnode *parent = par == SMP_NONE ? base : pn[par];
        uint32_t r = t->node_region[i];
        pn[i] = parent;
        if (r != SMP_SKIP && parent)
            pn[i] = t->nodes[i].key & SMP_REGION_KEY
                        ? region_node(p, parent, r)
                        : scorep_profile_child_slow(p, parent, r, PNODE_REGION, r, 0);
        if (!pn[i])
            continue;
        if (pn[i] != parent && is_sampled(pn[i]))
            pn[i]->sum += incl[i];
        else if (is_enter_frame(pn[i])) /* its own samples' time: frame_sums */
            pn[i]->enter_ts += t->nodes[i].ticks +
                               (uint64_t)((double)t->nodes[i].time_ns * ticks_per_ns);
        if (t->nodes[i].count && pn[i]->kind != PNODE_ROOT)
            add_samples(p, pn[i], metric, t->nodes[i].count);
    }
    make_consistent(&p->root);
    frame_sums(&p->root);
    count_visits(t, pn, base);
    finish_sampled(&p->root);
    free(pn);
    free(incl);
    return 0;
}

static void report(const scorep_location *l, const struct scorep_sampling_thread *t)
{
    if (t->lost_nodes)
        scorep_warn("location %u: %llu samples lost: more than %d distinct calling contexts", l->id,
                    (unsigned long long)t->lost_nodes, SMP_NODE_CAP);
    if (t->lost_samples)
        scorep_warn("location %u: only the first %u samples are kept in order (%llu more count "
                    "in the profile's samples and time, not in its visits%s)",
                    l->id, t->cap_samples, (unsigned long long)t->lost_samples,
                    l->tracing ? " nor in the trace" : "");
    double ns = t->taken ? (double)t->handler_ticks * 1e9 / (double)scorep_timer_resolution() /
                               (double)t->taken
                         : 0;
    scorep_verbose("location %u: %llu samples, %u calling contexts, %llu failed and %llu slow "
                   "unwinds, %.0f ns in the handler per sample, %llu samples inside the "
                   "runtime's events (for the open call), %llu left out there outside "
                   "instrumented calls",
                   l->id, (unsigned long long)t->taken, t->n_nodes,
                   (unsigned long long)t->failed_unwinds, (unsigned long long)t->slow_unwinds, ns,
                   (unsigned long long)t->in_event, (unsigned long long)t->in_runtime_drops);
}

void scorep_sampling_finish(void)
{
    scorep_unwind_finish();
    if (!scorep_sampling_enabled())
        return;
    uint32_t metric = scorep_defs_metric("samples", "occ", SCOREP_METRIC_UINT64, true);
    double ticks_per_ns = (double)scorep_timer_resolution() / 1e9;
    for (scorep_location *l = scorep_location_first(); l; l = l->next) {
        struct scorep_sampling_thread *t = l->sampling;
        if (!t)
            continue;
        report(l, t);
        if (resolve_nodes(t) != 0 || (l->profiling && metric != SCOREP_INVALID_ID &&
                                      merge_into_profile(l, t, metric, ticks_per_ns) != 0))
            scorep_warn("location %u: out of memory while merging samples into the profile", l->id);
    }
}
