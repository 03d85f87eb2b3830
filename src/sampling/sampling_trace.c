/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_trace.c: the trace side of sampling: one process-wide table of OTF2 calling
 * contexts (region + parent), CallingContextSample events merged by time into each
 * location's events, and CallingContextEnter/Leave in place of Enter/Leave; or, with
 * SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS, all of them as plain Enter/Leave records. */
#include "sampling/sampling_internal.h"
#include "core/location.h"
#include "base/log.h"
#include "base/settings.h"
#include "ipc/ipc.h"

#include <otf2/otf2.h>
#include <stdlib.h>

/* ------------------------------------------------------- calling contexts */
typedef struct {
    uint32_t parent, region, depth;
} cctx;

/* A table of contexts, deduplicated by (parent, region): this process's (events refer to
 * it; regions are local ids) and, at rank 0, the job's (regions are global ids). */
typedef struct {
    cctx *v;
    uint32_t n, cap;
    uint32_t *slots, mask; /* (parent, region) -> id + 1 */
    bool failed;
} cc_table;

static cc_table local, global;
static uint32_t *to_global; /* this process's id -> the job's (MPI runs) */

static uint32_t cc_slot(const cc_table *t, uint32_t parent, uint32_t region)
{
    uint64_t h = ((uint64_t)parent << 32 | region) * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32) & t->mask;
}

static int cc_grow(cc_table *t)
{
    uint32_t cap = t->cap ? t->cap * 2 : 1024;
    cctx *n = realloc(t->v, cap * sizeof *n);
    uint32_t *s = calloc(2 * (size_t)cap, sizeof *s);
    if (!n || !s) {
        if (n)
            t->v = n;
        free(s);
        return -1;
    }
    t->v = n;
    t->cap = cap;
    free(t->slots);
    t->slots = s;
    t->mask = 2 * cap - 1;
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t j = cc_slot(t, t->v[i].parent, t->v[i].region);
        while (t->slots[j])
            j = (j + 1) & t->mask;
        t->slots[j] = i + 1;
    }
    return 0;
}

/* The context of region called from parent; OTF2_UNDEFINED_CALLING_CONTEXT when out of
 * memory (the event is then left out). */
static uint32_t cc_child_in(cc_table *t, uint32_t parent, uint32_t region)
{
    if (t->n == t->cap && cc_grow(t) != 0) {
        t->failed = true;
        return OTF2_UNDEFINED_CALLING_CONTEXT;
    }
    uint32_t j = cc_slot(t, parent, region);
    for (; t->slots[j]; j = (j + 1) & t->mask) {
        const cctx *c = &t->v[t->slots[j] - 1];
        if (c->parent == parent && c->region == region)
            return t->slots[j] - 1;
    }
    uint32_t depth = parent == OTF2_UNDEFINED_CALLING_CONTEXT ? 1 : t->v[parent].depth + 1;
    t->v[t->n] = (cctx){parent, region, depth};
    t->slots[j] = t->n + 1;
    return t->n++;
}

static uint32_t cc_child(uint32_t parent, uint32_t region)
{
    return cc_child_in(&local, parent, region);
}

static uint32_t cc_depth(uint32_t c)
{
    return c == OTF2_UNDEFINED_CALLING_CONTEXT ? 0 : local.v[c].depth;
}

static uint32_t cc_parent(uint32_t c)
{
    return c == OTF2_UNDEFINED_CALLING_CONTEXT ? c : local.v[c].parent;
}

/* OTF2's unwindDistance: 1 + the number of contexts newly entered since the previous
 * calling-context event, i.e. from c up to its deepest common ancestor with prev. */
static uint32_t unwind_distance(uint32_t prev, uint32_t c)
{
    uint32_t a = prev, b = c;
    while (cc_depth(a) > cc_depth(b))
        a = cc_parent(a);
    while (cc_depth(b) > cc_depth(a))
        b = cc_parent(b);
    while (a != b) {
        a = cc_parent(a);
        b = cc_parent(b);
    }
    return cc_depth(c) - cc_depth(a) + 1;
}

/* ------------------------------------------------------------------ cursor */
struct scorep_sampling_cursor {
    OTF2_EvtWriter *w;
    const struct scorep_sampling_thread *t;
    uint32_t *node_cc; /* sample node -> calling context */
    uint32_t next;     /* next sample to write */
    uint32_t *stack;   /* contexts of the open instrumented calls */
    uint32_t depth, cap;
    uint32_t prev; /* context of the previous calling-context event */
    bool convert;  /* Enter/Leave records instead of calling-context events */
    const scorep_location *l; /* its frames unwound at enters (unwind_enter.c) */
    uint32_t rec;             /* the next of them */
    uint32_t *path, path_cap; /* convert: scratch for the contexts entered by one move */
};

static bool trace_used;

static uint32_t *map_nodes(const struct scorep_sampling_thread *t)
{
    uint32_t *m = malloc((t->n_nodes + 1) * sizeof *m);
    for (uint32_t i = 0; m && i < t->n_nodes; i++) {
        uint32_t par = t->nodes[i].parent;
        uint32_t parent = par == SMP_NONE ? OTF2_UNDEFINED_CALLING_CONTEXT : m[par];
        uint32_t r = t->node_region[i];
        m[i] = r == SMP_SKIP ? parent : cc_child(parent, r);
    }
    return m;
}

scorep_sampling_cursor *scorep_sampling_cursor_new(const scorep_location *l, void *evt_writer)
{
    if (!scorep_cfg.enable_unwinding)
        return NULL;
    scorep_sampling_cursor *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->w = evt_writer;
    c->l = l;
    c->prev = OTF2_UNDEFINED_CALLING_CONTEXT;
    c->convert = scorep_cfg.tracing_convert_calling_context;
    const struct scorep_sampling_thread *t = l->sampling;
    if (t && t->node_region && t->samples) {
        c->t = t;
        c->node_cc = map_nodes(t);
        if (!c->node_cc)
            c->t = NULL;
    }
    trace_used = true;
    return c;
}

static uint64_t later(uint64_t *last, uint64_t want)
{
    *last = want > *last ? want : *last + 1;
    return *last;
}

/* ------------------------------------------------------ Enter/Leave records */
/* The conversion keeps the call stack the trace shows equal to the path of the latest
 * calling context: an event at context cc leaves the contexts of the previous one below
 * their deepest common ancestor and enters those from there down to cc, all at time t.
 * attrs go with the instrumented region's own Enter or Leave, the record of context own. */
static int path_room(scorep_sampling_cursor *c, uint32_t n)
{
    if (n <= c->path_cap)
        return 0;
    uint32_t cap = c->path_cap ? c->path_cap : 64;
    while (cap < n)
        cap *= 2;
    uint32_t *p = realloc(c->path, cap * sizeof *p);
    if (!p)
        return -1;
    c->path = p;
    c->path_cap = cap;
    return 0;
}

static void move_to(scorep_sampling_cursor *c, void *attrs, uint64_t t, uint32_t cc, uint32_t own)
{
    uint32_t a = c->prev, b = cc, n = 0;
    if (path_room(c, cc_depth(cc)) != 0)
        return; /* out of memory: the stack stays where it was (the event is left out) */
    while (cc_depth(a) > cc_depth(b)) {
        a = cc_parent(a);
    }
    while (cc_depth(b) > cc_depth(a)) {
        c->path[n++] = b;
        b = cc_parent(b);
    }
    while (a != b) {
        a = cc_parent(a);
        c->path[n++] = b;
        b = cc_parent(b);
    }
    /* a is the common ancestor: leave prev's contexts below it, deepest first */
    for (uint32_t x = c->prev; x != a; x = cc_parent(x))
        OTF2_EvtWriter_Leave(c->w, x == own ? attrs : NULL, t, local.v[x].region);
    while (n > 0) {
        n--;
        OTF2_EvtWriter_Enter(c->w, c->path[n] == own ? attrs : NULL, t, local.v[c->path[n]].region);
    }
    c->prev = cc;
}

void scorep_sampling_cursor_close(scorep_sampling_cursor *c, uint64_t t)
{
    if (c && c->convert)
        move_to(c, NULL, t, OTF2_UNDEFINED_CALLING_CONTEXT, OTF2_UNDEFINED_CALLING_CONTEXT);
}

/* A sample's context when instrumented enters were unwound too (unwind_enter.c): the open
 * calls' contexts include the frames between them, so the sample's frames below its
 * innermost region go below that call's actual context, the cursor's stack entry; else (no
 * region open, or the trace lost the call's enter) its context from the table. */
static uint32_t sample_cc(scorep_sampling_cursor *c, uint32_t node)
{
    const struct scorep_sampling_thread *t = c->t;
    if (!scorep_unwind_at_enter())
        return c->node_cc[node];
    uint32_t j = node, nf = 0;
    while (j != SMP_NONE && !(t->nodes[j].key & SMP_REGION_KEY)) {
        nf += t->node_region[j] != SMP_SKIP;
        j = t->nodes[j].parent;
    }
    uint32_t d = 0;
    for (uint32_t k = j; k != SMP_NONE; k = t->nodes[k].parent)
        d++;
    if (d == 0 || d > c->depth || path_room(c, nf) != 0)
        return c->node_cc[node];
    uint32_t n = 0;
    for (uint32_t k = node; k != j; k = t->nodes[k].parent)
        if (t->node_region[k] != SMP_SKIP)
            c->path[n++] = t->node_region[k];
    uint32_t cc = c->stack[d - 1];
    while (n > 0 && cc != OTF2_UNDEFINED_CALLING_CONTEXT)
        cc = cc_child(cc, c->path[--n]);
    return cc;
}

void scorep_sampling_cursor_until(scorep_sampling_cursor *c, uint64_t ts, uint64_t *last)
{
    const struct scorep_sampling_thread *t = c->t;
    for (; t && c->next < t->n_samples && t->samples[c->next].ts < ts; c->next++) {
        const smp_sample *s = &t->samples[c->next];
        uint32_t cc = sample_cc(c, s->node);
        if (cc == OTF2_UNDEFINED_CALLING_CONTEXT)
            continue; /* a sample in start-up code only, before main */
        if (c->convert) {
            /* a sample inside an event of the location (SMP_IN_EVENT) moves no call stack:
             * its region stack may be the one before or after the event, its time on the
             * other side of the event's, and a move would leave and enter again a call that
             * the profile counts once (its visits skip the sample; the sample's count and
             * time are the profile's, at the context it read, as the calling-context
             * sample's below) */
            if (cc != c->prev && !(s->gen & SMP_IN_EVENT))
                move_to(c, NULL, later(last, s->ts), cc, OTF2_UNDEFINED_CALLING_CONTEXT);
            continue;
        }
        OTF2_EvtWriter_CallingContextSample(c->w, NULL, later(last, s->ts), cc,
                                            unwind_distance(c->prev, cc), s->gen & SMP_GEN_MASK);
        c->prev = cc;
    }
}

void scorep_sampling_cursor_region(scorep_sampling_cursor *c, void *attrs, uint64_t t,
                                   uint32_t region, bool enter)
{
    if (enter) {
        if (c->depth == c->cap) {
            uint32_t cap = c->cap ? c->cap * 2 : 64;
            uint32_t *s = realloc(c->stack, cap * sizeof *s);
            if (!s)
                return;
            c->stack = s;
            c->cap = cap;
        }
        uint32_t parent = c->depth ? c->stack[c->depth - 1] : OTF2_UNDEFINED_CALLING_CONTEXT;
        /* the frames unwound at this enter lie between the caller's context and the call's */
        const uint32_t *frames = NULL;
        uint32_t nf = scorep_unwind_frames_at(c->l, &c->rec, t, &frames);
        for (uint32_t i = 0; i < nf; i++) {
            uint32_t f = cc_child(parent, frames[i]);
            if (f == OTF2_UNDEFINED_CALLING_CONTEXT)
                break;
            parent = f;
        }
        uint32_t cc = cc_child(parent, region);
        c->stack[c->depth++] = cc;
        if (cc == OTF2_UNDEFINED_CALLING_CONTEXT)
            return;
        if (c->convert) {
            move_to(c, attrs, t, cc, cc);
            return;
        }
        OTF2_EvtWriter_CallingContextEnter(c->w, attrs, t, cc, unwind_distance(c->prev, cc));
        c->prev = cc;
        return;
    }
    if (c->depth == 0)
        return;
    uint32_t cc = c->stack[--c->depth];
    if (cc == OTF2_UNDEFINED_CALLING_CONTEXT)
        return;
    /* the frames unwound at the call's enter are left with it (as Score-P's augmented
     * stack): the caller's context is the current one again */
    uint32_t back = c->depth ? c->stack[c->depth - 1] : OTF2_UNDEFINED_CALLING_CONTEXT;
    if (c->convert) {
        move_to(c, attrs, t, back, cc);
        return;
    }
    OTF2_EvtWriter_CallingContextLeave(c->w, attrs, t, cc);
    c->prev = back;
}

void scorep_sampling_cursor_free(scorep_sampling_cursor *c)
{
    if (!c)
        return;
    free(c->node_cc);
    free(c->stack);
    free(c->path);
    free(c);
}

/* ------------------------------------------------------------- definitions */
bool scorep_sampling_trace_used(void)
{
    return trace_used;
}

int scorep_sampling_generator_count(void)
{
    return scorep_sampling_enabled() ? scorep_smp_n_sources : 0;
}

const char *scorep_sampling_generator_name(int i)
{
    return scorep_smp_sources[i].spec;
}

void scorep_sampling_write_defs(void *global_def_writer, const uint32_t *name_ids)
{
    OTF2_GlobalDefWriter *g = global_def_writer;
    for (int i = 0; i < scorep_sampling_generator_count(); i++) {
        const smp_source *s = &scorep_smp_sources[i];
        /* timer periods are microseconds, the perf clocks' nanoseconds, the rest counts */
        int64_t exponent = !s->time_based ? 0 : s->kind == SMP_SRC_TIMER ? -6 : -9;
        OTF2_GlobalDefWriter_WriteInterruptGenerator(g, (OTF2_InterruptGeneratorRef)i, name_ids[i],
                                                     s->time_based
                                                         ? OTF2_INTERRUPT_GENERATOR_MODE_TIME
                                                         : OTF2_INTERRUPT_GENERATOR_MODE_COUNT,
                                                     OTF2_BASE_DECIMAL, exponent, s->period);
    }
    for (uint32_t i = 0; i < global.n; i++)
        OTF2_GlobalDefWriter_WriteCallingContext(
            g, i, global.v[i].region, OTF2_UNDEFINED_SOURCE_CODE_LOCATION, global.v[i].parent);
    if (global.failed)
        scorep_warn("out of memory for calling contexts: some calling-context events are missing "
                    "from the trace");
}

void scorep_sampling_write_mapping(void *def_writer)
{
    if (!to_global || local.n == 0)
        return;
    uint64_t *m = malloc(local.n * sizeof *m);
    if (!m)
        return;
    for (uint32_t i = 0; i < local.n; i++)
        m[i] = to_global[i];
    OTF2_IdMap *idmap = OTF2_IdMap_CreateFromUint64Array(local.n, m, true);
    if (idmap) {
        OTF2_DefWriter_WriteMappingTable(def_writer, OTF2_MAPPING_CALLING_CONTEXT, idmap);
        OTF2_IdMap_Free(idmap);
    }
    free(m);
}

/* ------------------------------------------------------------- unification */
/* Rank 0: adds rank r's contexts (pairs of local parent and global region, parents first)
 * to the job's table; map receives their global ids. */
static void merge_rank(const uint32_t *pairs, uint32_t n, uint32_t *map)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = pairs[2 * i];
        uint32_t gp =
            p == OTF2_UNDEFINED_CALLING_CONTEXT || p >= i ? OTF2_UNDEFINED_CALLING_CONTEXT : map[p];
        map[i] = cc_child_in(&global, gp, pairs[2 * i + 1]);
    }
}

/* Rank 0: the job's table from every rank's blob; maps (rank by rank, back to back) and
 * their byte counts and displacements for the scatter. */
static int merge_all(const unsigned char *all, const size_t *offs, const size_t *lens, int size,
                     uint32_t **maps, size_t *counts, size_t *displs)
{
    size_t total = 0;
    for (int r = 0; r < size; r++)
        total += lens[r] / (2 * sizeof(uint32_t));
    *maps = malloc((total + 1) * sizeof **maps);
    if (!*maps)
        return -1;
    size_t at = 0;
    for (int r = 0; r < size; r++) {
        uint32_t n = (uint32_t)(lens[r] / (2 * sizeof(uint32_t)));
        merge_rank((const uint32_t *)(all + offs[r]), n, *maps + at);
        counts[r] = n * sizeof(uint32_t);
        displs[r] = at * sizeof(uint32_t);
        at += n;
    }
    return 0;
}

int scorep_sampling_trace_unify(const uint32_t *region_map)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    uint64_t used = trace_used;
    ipc->allreduce_max_u64(&used);
    if (!used)
        return 0;
    uint32_t *pairs = malloc((2 * (size_t)local.n + 1) * sizeof *pairs);
    to_global = malloc((local.n + 1) * sizeof *to_global);
    uint64_t failed = !pairs || !to_global;
    for (uint32_t i = 0; !failed && i < local.n; i++) {
        pairs[2 * i] = local.v[i].parent;
        pairs[2 * i + 1] = region_map[local.v[i].region];
    }
    ipc->allreduce_max_u64(&failed);
    unsigned char *all = NULL;
    size_t *offs = NULL, *lens = NULL;
    if (!failed && scorep_ipc_gather_blobs(pairs, 2 * (size_t)local.n * sizeof *pairs, &all, &offs,
                                           &lens) != 0)
        failed = 1;
    int size = ipc->size();
    size_t *counts = calloc((size_t)size, sizeof *counts),
           *displs = calloc((size_t)size, sizeof *displs);
    uint32_t *maps = NULL;
    if (ipc->rank() == 0 && !failed &&
        (!counts || !displs || merge_all(all, offs, lens, size, &maps, counts, displs) != 0))
        failed = 1;
    ipc->allreduce_max_u64(&failed);
    if (!failed &&
        ipc->scatterv(maps, counts, displs, to_global, local.n * sizeof *to_global, 0) != 0)
        failed = 1;
    free(pairs);
    free(all);
    free(offs);
    free(lens);
    free(counts);
    free(displs);
    free(maps);
    return failed ? -1 : 0;
}
