/* sampling_profile.c: at finalize, turns each thread's sample tree into regions (the
 * unwound functions, resolved through libdw) and merges it into the call-path profile:
 * sampled functions become call paths below the instrumented regions they ran in. */
#include "sampling/sampling_internal.h"
#include "adapters/compiler/symbols.h"
#include "core/location.h"
#include "core/runtime.h"
#include "core/timer.h"
#include "defs/defs.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- regions */
typedef struct {
    uint64_t addr;
    uint32_t region;
} addr_region;

static addr_region *cache;
static uint32_t cache_mask;

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

static uint32_t define_region(uint64_t addr)
{
    scorep_symbol sym;
    memset(&sym, 0, sizeof sym);
    scorep_symbols_resolve((uintptr_t)addr, &sym);
    uint32_t r = SMP_SKIP;
    char *at = sym.name ? strchr(sym.name, '@') : NULL;
    if (at)
        *at = 0; /* the ELF symbol version (memcpy@@GLIBC_2.14) is not part of the name */
    if (sym.name && !is_skipped((uintptr_t)addr, sym.name))
        r = scorep_defs_region(sym.name, sym.mangled ? sym.mangled : sym.name, sym.file, sym.line,
                               sym.line, SCOREP_PARADIGM_SAMPLING, SCOREP_ROLE_FUNCTION);
    scorep_symbol_clear(&sym);
    return r == SCOREP_INVALID_ID ? SMP_SKIP : r;
}

static int cache_grow(void)
{
    uint32_t cap = cache ? (cache_mask + 1) * 2 : 1024;
    addr_region *c = calloc(cap, sizeof *c);
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

static uint32_t region_of_addr(uint64_t addr)
{
    static uint32_t used;
    if ((!cache || (used + 1) * 2 > cache_mask) && cache_grow() != 0)
        return define_region(addr);
    uint32_t j = (uint32_t)(addr * 0x9e3779b97f4a7c15ull >> 40) & cache_mask;
    for (; cache[j].addr; j = (j + 1) & cache_mask)
        if (cache[j].addr == addr)
            return cache[j].region;
    cache[j].addr = addr;
    cache[j].region = define_region(addr);
    used++;
    return cache[j].region;
}

static const char *region_name(uint32_t r)
{
    const scorep_region_def *d = r < SMP_SKIP ? scorep_defs_region_get(r) : NULL;
    return d ? d->name : NULL;
}

/* The region each node stands for. A frame of the function an instrumented region already
 * shows (its prologue, or the stack pointer moved while it called) is that region. */
static int resolve_nodes(struct scorep_sampling_thread *t)
{
    t->node_region = malloc((t->n_nodes + 1) * sizeof *t->node_region);
    if (!t->node_region)
        return -1;
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        const smp_node *n = &t->nodes[i];
        uint32_t r =
            n->key & SMP_REGION_KEY ? (uint32_t)(n->key & 0xffffffffu) : region_of_addr(n->key);
        uint32_t p = n->parent;
        while (p != SMP_NONE && t->node_region[p] == SMP_SKIP)
            p = t->nodes[p].parent;
        const char *mine = region_name(r),
                   *parents = p != SMP_NONE ? region_name(t->node_region[p]) : NULL;
        if (!(n->key & SMP_REGION_KEY) && mine && parents && strcmp(mine, parents) == 0)
            r = SMP_SKIP;
        t->node_region[i] = r;
    }
    return 0;
}

/* ------------------------------------------------------------- profile */
/* Sampled time below an instrumented call can exceed the call's own measured time by a
 * period or so; scale it down so that no exclusive time becomes negative. */
static void scale_subtree(pnode *n, double f)
{
    n->sum = (uint64_t)((double)n->sum * f);
    for (pnode *c = n->first_child; c; c = c->next_sibling)
        scale_subtree(c, f);
}

static void make_consistent(pnode *n)
{
    if (n->kind != PNODE_ROOT && n->visits > 0) {
        uint64_t measured = 0, sampled = 0;
        for (pnode *c = n->first_child; c; c = c->next_sibling)
            *(c->visits ? &measured : &sampled) += c->sum;
        uint64_t avail = n->sum > measured ? n->sum - measured : 0;
        if (sampled > avail)
            for (pnode *c = n->first_child; c; c = c->next_sibling)
                if (!c->visits)
                    scale_subtree(c, (double)avail / (double)sampled);
    }
    for (pnode *c = n->first_child; c; c = c->next_sibling)
        make_consistent(c);
}

static void add_samples(scorep_profile *p, pnode *n, uint32_t metric, uint32_t count)
{
    pnode *saved = p->cur;
    p->cur = n;
    scorep_profile_metric(p, metric, (double)count);
    p->cur = saved;
}

static int merge_into_profile(scorep_location *l, struct scorep_sampling_thread *t, uint32_t metric,
                              double ticks_per_ns)
{
    scorep_profile *p = &l->profile;
    pnode **pn = malloc((t->n_nodes + 1) * sizeof *pn);
    uint64_t *incl = malloc((t->n_nodes + 1) * sizeof *incl);
    if (!pn || !incl) {
        free(pn);
        free(incl);
        return -1;
    }
    for (uint32_t i = 0; i < t->n_nodes; i++)
        incl[i] = t->nodes[i].ticks + (uint64_t)((double)t->nodes[i].time_ns * ticks_per_ns);
    for (uint32_t i = t->n_nodes; i-- > 0;) /* children come after their parents */
        if (t->nodes[i].parent != SMP_NONE)
            incl[t->nodes[i].parent] += incl[i];
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        uint32_t par = t->nodes[i].parent;
        pnode *parent = par == SMP_NONE ? &p->root : pn[par];
        uint32_t r = t->node_region[i];
        pn[i] = parent;
        if (r != SMP_SKIP && parent)
            pn[i] = scorep_profile_child_slow(p, parent, r, PNODE_REGION, r, 0);
        if (!pn[i])
            continue;
        if (pn[i] != parent && pn[i]->visits == 0)
            pn[i]->sum += incl[i];
        if (t->nodes[i].count && pn[i]->kind != PNODE_ROOT)
            add_samples(p, pn[i], metric, t->nodes[i].count);
    }
    make_consistent(&p->root);
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
        scorep_warn("location %u: the trace holds the first %u samples only (%llu more are in the "
                    "profile)",
                    l->id, t->cap_samples, (unsigned long long)t->lost_samples);
    scorep_verbose("location %u: %llu samples, %u calling contexts, %llu failed unwinds", l->id,
                   (unsigned long long)t->taken, t->n_nodes, (unsigned long long)t->failed_unwinds);
}

void scorep_sampling_finish(void)
{
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
