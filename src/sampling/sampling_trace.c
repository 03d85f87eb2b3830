/* sampling_trace.c: the trace side of sampling: one process-wide table of OTF2 calling
 * contexts (region + parent), CallingContextSample events merged by time into each
 * location's events, and CallingContextEnter/Leave in place of Enter/Leave. */
#include "sampling/sampling_internal.h"
#include "core/location.h"
#include "core/runtime.h"
#include "ipc/ipc.h"

#include <otf2/otf2.h>
#include <stdlib.h>

/* ------------------------------------------------------- calling contexts */
typedef struct {
    uint32_t parent, region, depth;
} cctx;

static cctx *ccs;
static uint32_t n_ccs, cap_ccs;
static uint32_t *cc_slots, cc_mask; /* (parent, region) -> id + 1 */
static bool cc_failed;

static uint32_t cc_slot(uint32_t parent, uint32_t region)
{
    uint64_t h = ((uint64_t)parent << 32 | region) * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32) & cc_mask;
}

static int cc_grow(void)
{
    uint32_t cap = cap_ccs ? cap_ccs * 2 : 1024;
    cctx *n = realloc(ccs, cap * sizeof *n);
    uint32_t *s = calloc(2 * (size_t)cap, sizeof *s);
    if (!n || !s) {
        if (n)
            ccs = n;
        free(s);
        return -1;
    }
    ccs = n;
    cap_ccs = cap;
    free(cc_slots);
    cc_slots = s;
    cc_mask = 2 * cap - 1;
    for (uint32_t i = 0; i < n_ccs; i++) {
        uint32_t j = cc_slot(ccs[i].parent, ccs[i].region);
        while (cc_slots[j])
            j = (j + 1) & cc_mask;
        cc_slots[j] = i + 1;
    }
    return 0;
}

/* The context of region called from parent; OTF2_UNDEFINED_CALLING_CONTEXT when out of
 * memory (the event is then left out). */
static uint32_t cc_child(uint32_t parent, uint32_t region)
{
    if (n_ccs == cap_ccs && cc_grow() != 0) {
        cc_failed = true;
        return OTF2_UNDEFINED_CALLING_CONTEXT;
    }
    uint32_t j = cc_slot(parent, region);
    for (; cc_slots[j]; j = (j + 1) & cc_mask) {
        const cctx *c = &ccs[cc_slots[j] - 1];
        if (c->parent == parent && c->region == region)
            return cc_slots[j] - 1;
    }
    uint32_t depth = parent == OTF2_UNDEFINED_CALLING_CONTEXT ? 1 : ccs[parent].depth + 1;
    ccs[n_ccs] = (cctx){parent, region, depth};
    cc_slots[j] = n_ccs + 1;
    return n_ccs++;
}

static uint32_t cc_depth(uint32_t c)
{
    return c == OTF2_UNDEFINED_CALLING_CONTEXT ? 0 : ccs[c].depth;
}

static uint32_t cc_parent(uint32_t c)
{
    return c == OTF2_UNDEFINED_CALLING_CONTEXT ? c : ccs[c].parent;
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
    if (scorep_ipc_get() != &scorep_ipc_single) {
        if (scorep_ipc_get()->rank() == 0 && l->id == 0)
            scorep_warn("calling contexts and samples are not written to the traces of MPI runs "
                        "yet (the profile has them); the trace keeps Enter/Leave events");
        return NULL;
    }
    scorep_sampling_cursor *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->w = evt_writer;
    c->prev = OTF2_UNDEFINED_CALLING_CONTEXT;
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

void scorep_sampling_cursor_until(scorep_sampling_cursor *c, uint64_t ts, uint64_t *last)
{
    const struct scorep_sampling_thread *t = c->t;
    for (; t && c->next < t->n_samples && t->samples[c->next].ts < ts; c->next++) {
        const smp_sample *s = &t->samples[c->next];
        uint32_t cc = c->node_cc[s->node];
        if (cc == OTF2_UNDEFINED_CALLING_CONTEXT)
            continue; /* a sample in start-up code only, before main */
        OTF2_EvtWriter_CallingContextSample(c->w, NULL, later(last, s->ts), cc,
                                            unwind_distance(c->prev, cc), s->gen);
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
        uint32_t cc = cc_child(parent, region);
        c->stack[c->depth++] = cc;
        if (cc == OTF2_UNDEFINED_CALLING_CONTEXT)
            return;
        OTF2_EvtWriter_CallingContextEnter(c->w, attrs, t, cc, unwind_distance(c->prev, cc));
        c->prev = cc;
        return;
    }
    if (c->depth == 0)
        return;
    uint32_t cc = c->stack[--c->depth];
    if (cc == OTF2_UNDEFINED_CALLING_CONTEXT)
        return;
    OTF2_EvtWriter_CallingContextLeave(c->w, attrs, t, cc);
    c->prev = cc_parent(cc);
}

void scorep_sampling_cursor_free(scorep_sampling_cursor *c)
{
    if (!c)
        return;
    free(c->node_cc);
    free(c->stack);
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

void scorep_sampling_write_defs(void *global_def_writer, const uint32_t *name_ids,
                                const uint32_t *region_map)
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
    for (uint32_t i = 0; i < n_ccs; i++)
        OTF2_GlobalDefWriter_WriteCallingContext(
            g, i, region_map[ccs[i].region], OTF2_UNDEFINED_SOURCE_CODE_LOCATION, ccs[i].parent);
    if (cc_failed)
        scorep_warn("out of memory for calling contexts: some calling-context events are missing "
                    "from the trace");
}
