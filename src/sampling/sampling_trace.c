/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_trace.c: the trace side of sampling: one process-wide table of OTF2 calling
 * contexts (parent, region and code address, as Score-P's), CallingContextSample events merged by
 * time into each location's events, and CallingContextEnter/Leave in place of Enter/Leave; or, with
 * SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS, all of them as plain Enter/Leave records. */
#include "sampling/sampling_internal.h"
#include "core/location.h"
#include "base/log.h"
#include "base/settings.h"
#include "ipc/ipc.h"
#include "symbols/symbols.h"

#include <limits.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- calling contexts */
/* A calling context, as Score-P's: a region at a code address below its parent. A frame's
 * address is its call of the next one (the return address minus one), an instrumented
 * region's its call site in its caller, a sample's leaf the interrupted instruction; so two
 * calls of MPI_Send from two lines of one function are two contexts. */
#define CC_NONE UINT32_MAX
typedef struct {
    uint32_t parent, region, depth;
    uint32_t module;     /* the job's table: the object's string (cc_strs), CC_NONE: unknown */
    uint64_t addr;       /* this process's: the address (0: unknown); the job's: the offset in
                            module, or the address where module is unknown */
    uint32_t file, line; /* the job's: the call's source file (string, CC_NONE) and line */
} cctx;

/* A table of contexts, deduplicated by (parent, region, module, address): this process's
 * (events refer to it; regions are local ids) and, at rank 0, the job's (regions are global
 * ids). */
typedef struct {
    cctx *v;
    uint32_t n, cap;
    uint32_t *slots, mask; /* key -> id + 1 */
    bool failed;
} cc_table;

static cc_table local, global;
static uint32_t *to_global; /* this process's id -> the job's (MPI runs) */

/* A set of strings (objects' paths and source files), deduplicated: this process's, sent
 * with its contexts, and at rank 0 the job's (cc_strs, written as OTF2 strings). */
typedef struct {
    char **s;
    uint32_t n, cap;
    uint32_t *slots, mask;
    bool failed;
} str_set;

static str_set cc_strs;

static uint64_t str_hash(const char *s)
{
    uint64_t h = 14695981039346656037ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The index of s in the set, added when new; CC_NONE without memory. */
static uint32_t str_add(str_set *t, const char *s)
{
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 64;
        char **v = realloc(t->s, cap * sizeof *v);
        uint32_t *slots = calloc(2 * (size_t)cap, sizeof *slots);
        if (v)
            t->s = v;
        if (!v || !slots) {
            free(slots);
            t->failed = true;
            return CC_NONE;
        }
        free(t->slots);
        t->slots = slots;
        t->mask = 2 * cap - 1;
        t->cap = cap;
        for (uint32_t i = 0; i < t->n; i++) {
            uint32_t j = (uint32_t)str_hash(t->s[i]) & t->mask;
            while (t->slots[j])
                j = (j + 1) & t->mask;
            t->slots[j] = i + 1;
        }
    }
    uint32_t j = (uint32_t)str_hash(s) & t->mask;
    for (; t->slots[j]; j = (j + 1) & t->mask)
        if (strcmp(t->s[t->slots[j] - 1], s) == 0)
            return t->slots[j] - 1;
    if (!(t->s[t->n] = strdup(s))) {
        t->failed = true;
        return CC_NONE;
    }
    t->slots[j] = t->n + 1;
    return t->n++;
}

static void str_free(str_set *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        free(t->s[i]);
    free(t->s);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static uint32_t cc_slot(const cc_table *t, uint32_t parent, uint32_t region, uint32_t module,
                        uint64_t addr)
{
    uint64_t h = ((uint64_t)parent << 32 | region) * 0x9e3779b97f4a7c15ull;
    h = (h ^ addr ^ (uint64_t)module << 40) * 0x9e3779b97f4a7c15ull;
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
        uint32_t j = cc_slot(t, t->v[i].parent, t->v[i].region, t->v[i].module, t->v[i].addr);
        while (t->slots[j])
            j = (j + 1) & t->mask;
        t->slots[j] = i + 1;
    }
    return 0;
}

/* The context of region called at (module, addr) from parent; OTF2_UNDEFINED_CALLING_CONTEXT
 * when out of memory (the event is then left out). */
static uint32_t cc_child_in(cc_table *t, uint32_t parent, uint32_t region, uint32_t module,
                            uint64_t addr)
{
    if (t->n == t->cap && cc_grow(t) != 0) {
        t->failed = true;
        return OTF2_UNDEFINED_CALLING_CONTEXT;
    }
    uint32_t j = cc_slot(t, parent, region, module, addr);
    for (; t->slots[j]; j = (j + 1) & t->mask) {
        const cctx *c = &t->v[t->slots[j] - 1];
        if (c->parent == parent && c->region == region && c->module == module && c->addr == addr)
            return t->slots[j] - 1;
    }
    uint32_t depth = parent == OTF2_UNDEFINED_CALLING_CONTEXT ? 1 : t->v[parent].depth + 1;
    t->v[t->n] = (cctx){parent, region, depth, module, addr, CC_NONE, 0};
    t->slots[j] = t->n + 1;
    return t->n++;
}

/* With SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS the contexts become Enter/Leave records
 * of their regions: keyed by region only, so that the call stack the records show moves
 * only where the region path does (a sample at another instruction of the same function
 * leaves and enters nothing; the Enter records stay the profile's visits). */
static uint32_t cc_child(uint32_t parent, uint32_t region, uint64_t addr)
{
    return cc_child_in(&local, parent, region, CC_NONE,
                       scorep_cfg.tracing_convert_calling_context ? 0 : addr);
}

/* A sample node's code address: the interrupted instruction for the leaf, else the call
 * (the return address minus one). */
static uint64_t node_addr(uint64_t key)
{
    return key & SMP_LEAF_KEY ? key & ~SMP_LEAF_KEY : key - 1;
}

static uint32_t cc_depth(uint32_t c)
{
    return c == OTF2_UNDEFINED_CALLING_CONTEXT ? 0 : local.v[c].depth;
}

static uint32_t cc_parent(uint32_t c)
{
    return c == OTF2_UNDEFINED_CALLING_CONTEXT ? c : local.v[c].parent;
}

/* The deepest common ancestor of contexts a and b (or a itself, or b). */
static uint32_t cc_common(uint32_t a, uint32_t b)
{
    while (cc_depth(a) > cc_depth(b))
        a = cc_parent(a);
    while (cc_depth(b) > cc_depth(a))
        b = cc_parent(b);
    while (a != b) {
        a = cc_parent(a);
        b = cc_parent(b);
    }
    return a;
}

/* OTF2's unwindDistance: 1 + the number of contexts newly entered since the previous
 * calling-context event, i.e. from c up to its deepest common ancestor with prev. */
static uint32_t unwind_distance(uint32_t prev, uint32_t c)
{
    return cc_depth(c) - cc_depth(cc_common(prev, c)) + 1;
}

/* ------------------------------------------------------------------ cursor */
struct scorep_sampling_cursor {
    OTF2_EvtWriter *w;
    const struct scorep_sampling_thread *t;
    uint32_t *node_cc; /* sample node -> calling context */
    uint32_t next;     /* next sample to write */
    uint32_t *stack;   /* contexts of the open instrumented calls */
    uint32_t depth, cap;
    uint32_t prev;            /* context of the previous calling-context event */
    bool convert;             /* Enter/Leave records instead of calling-context events */
    const scorep_location *l; /* its frames unwound at enters (unwind_enter.c) */
    size_t rec;               /* the next of them */
    uint32_t *path, path_cap; /* convert: scratch for the contexts entered by one move */
    uint32_t held;            /* 1 + the sample held back once until the next record */
    uint32_t left_cc;         /* context of the call left last (none after an enter) */
    uint32_t left_depth;      /* the depth after that leave */
    uint64_t *apath;          /* the addresses of a sample's frames (sample_cc) */
};

static bool trace_used;

static uint32_t *map_nodes(const struct scorep_sampling_thread *t)
{
    uint32_t *m = malloc((t->n_nodes + 1) * sizeof *m);
    for (uint32_t i = 0; m && i < t->n_nodes; i++) {
        uint32_t par = t->nodes[i].parent;
        uint32_t parent = par == SMP_NONE ? OTF2_UNDEFINED_CALLING_CONTEXT : m[par];
        uint32_t r = t->node_region[i];
        m[i] = r == SMP_SKIP ? parent : cc_child(parent, r, node_addr(t->nodes[i].key));
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
    c->left_cc = OTF2_UNDEFINED_CALLING_CONTEXT;
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
    uint64_t *a = realloc(c->apath, cap * sizeof *a);
    if (!a)
        return -1;
    c->apath = a;
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

/* Whether the sample at node (d regions on its path, its innermost at node j) read the
 * region stack of the call that the cursor left last, before its pop */
static bool in_left_call(const scorep_sampling_cursor *c, const struct scorep_sampling_thread *t,
                         uint32_t j, uint32_t d)
{
    return d > 0 && d == c->depth + 1 && c->left_depth == c->depth &&
           c->left_cc != OTF2_UNDEFINED_CALLING_CONTEXT &&
           local.v[c->left_cc].region == (uint32_t)(t->nodes[j].key & 0xffffffffu);
}

static uint32_t sample_cc(scorep_sampling_cursor *c, uint32_t node)
{
    const struct scorep_sampling_thread *t = c->t;
    if (!scorep_unwind_at_enter())
        return c->node_cc[node];
    uint32_t j, nf, d = smp_region_depth(t, node, t->node_region, &j, &nf);
    /* a sample inside a leave that read the region stack before its pop, timed after the
     * leave's record: the call just left (as the profile places it, below its frames) */
    if (in_left_call(c, t, j, d) && path_room(c, nf) == 0) {
        uint32_t n = 0;
        for (uint32_t k = node; k != j; k = t->nodes[k].parent)
            if (t->node_region[k] != SMP_SKIP) {
                c->apath[n] = node_addr(t->nodes[k].key);
                c->path[n++] = t->node_region[k];
            }
        uint32_t cc = c->left_cc;
        while (n > 0 && cc != OTF2_UNDEFINED_CALLING_CONTEXT) {
            n--;
            cc = cc_child(cc, c->path[n], c->apath[n]);
        }
        return cc;
    }
    if (d == 0 || d > c->depth || path_room(c, nf) != 0)
        return c->node_cc[node];
    uint32_t n = 0;
    for (uint32_t k = node; k != j; k = t->nodes[k].parent)
        if (t->node_region[k] != SMP_SKIP) {
            c->apath[n] = node_addr(t->nodes[k].key);
            c->path[n++] = t->node_region[k];
        }
    uint32_t cc = c->stack[d - 1];
    while (n > 0 && cc != OTF2_UNDEFINED_CALLING_CONTEXT) {
        n--;
        cc = cc_child(cc, c->path[n], c->apath[n]);
    }
    return cc;
}

/* Whether the sample at node read a region stack deeper than the cursor's, not that of the
 * call it left last: an enter's push that its record has not made yet */
static bool enter_ahead(const scorep_sampling_cursor *c, const struct scorep_sampling_thread *t,
                        uint32_t node)
{
    uint32_t j, d = smp_region_depth(t, node, NULL, &j, NULL);
    return d > c->depth && !in_left_call(c, t, j, d);
}

void scorep_sampling_cursor_until(scorep_sampling_cursor *c, uint64_t ts, uint64_t *last)
{
    const struct scorep_sampling_thread *t = c->t;
    for (; t && c->next < t->n_samples && t->samples[c->next].ts < ts; c->next++) {
        const smp_sample *s = &t->samples[c->next];
        /* a sample inside an enter that read the region stack after its push, timed before
         * the enter's record: held back once, so that it lies at the call's context (below
         * the frames unwound at its enter, as the profile places it; until session 27 it
         * was the region without its frames, REGION below the root, and the trace's samples
         * per context differed from the profile's: 1 of 2 MPI runs at a 50 us perf clock) */
        if ((s->gen & SMP_IN_EVENT) && ts != UINT64_MAX && c->held != c->next + 1 &&
            scorep_unwind_at_enter() && enter_ahead(c, t, s->node)) {
            c->held = c->next + 1;
            break;
        }
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
        /* the frames unwound at an enter are new at every enter (the profile counts one
         * visit of each per call): samples since the caller's last event may have entered
         * some of them already (a sample in an uninstrumented function before it calls an
         * instrumented one); they are left and entered again with the call, so that their
         * entries by samples and by calls are apart, as the profile counts them
         * (sampling_profile.c, count_visits) */
        uint32_t from = cc_common(c->prev, parent);
        /* the frames unwound at this enter lie between the caller's context and the call's */
        const uint32_t *frames = NULL;
        const uint64_t *addrs = NULL;
        uint32_t nf = scorep_unwind_frames_at(c->l, &c->rec, t, &frames, &addrs);
        for (uint32_t i = 0; i < nf; i++) {
            uint32_t f = cc_child(parent, frames[i], addrs[i]);
            if (f == OTF2_UNDEFINED_CALLING_CONTEXT)
                break;
            parent = f;
        }
        uint32_t cc = cc_child(parent, region, addrs ? addrs[nf] : 0);
        c->stack[c->depth++] = cc;
        c->left_cc = OTF2_UNDEFINED_CALLING_CONTEXT;
        if (cc == OTF2_UNDEFINED_CALLING_CONTEXT)
            return;
        if (c->convert) {
            if (from != c->prev)
                move_to(c, NULL, t, from, OTF2_UNDEFINED_CALLING_CONTEXT);
            move_to(c, attrs, t, cc, cc);
            return;
        }
        OTF2_EvtWriter_CallingContextEnter(c->w, attrs, t, cc, unwind_distance(from, cc));
        c->prev = cc;
        return;
    }
    if (c->depth == 0)
        return;
    uint32_t cc = c->stack[--c->depth];
    c->left_cc = cc;
    c->left_depth = c->depth;
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
    free(c->apath);
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
                                scorep_sampling_string_fn str, void *str_ctx)
{
    OTF2_GlobalDefWriter *g = global_def_writer;
    /* Score-P's names of the calling-context properties (its SCOREP_Tracing.c) */
    uint32_t p_object = str(str_ctx, "EXECUTABLE/SHARED OBJECT");
    uint32_t p_offset = str(str_ctx, "INSTRUCTION OFFSET");
    uint32_t p_address = str(str_ctx, "INSTRUCTION ADDRESS");
    uint32_t *module_ids = NULL; /* cc_strs -> the writer's string ids (objects, files) */
    if (cc_strs.n) {
        module_ids = malloc(cc_strs.n * sizeof *module_ids);
        for (uint32_t i = 0; module_ids && i < cc_strs.n; i++)
            module_ids[i] = str(str_ctx, cc_strs.s[i]);
    }
    if (!g) {
        free(module_ids);
        return;
    }
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
    /* as Score-P: the call's file:line as the context's source code location, and its object
     * and offset there as two properties (the address itself where no object holds it) */
    /* one source code location per file:line (a frame's context and its callee's share
     * the call's), found through an open-addressing table: (file, line) -> location + 1 */
    uint32_t scl = 0, mask = 1;
    while (mask < 2 * global.n)
        mask *= 2;
    uint32_t *scl_slots = calloc(mask, sizeof *scl_slots);
    uint32_t *scl_key = malloc(2 * (size_t)(global.n + 1) * sizeof *scl_key);
    mask--;
    for (uint32_t i = 0; i < global.n; i++) {
        const cctx *c = &global.v[i];
        OTF2_SourceCodeLocationRef loc = OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
        if (c->file != CC_NONE && module_ids && scl_slots && scl_key) {
            uint32_t j =
                (uint32_t)((((uint64_t)c->file << 32 | c->line) * 0x9e3779b97f4a7c15ull) >> 32) &
                mask;
            for (; scl_slots[j]; j = (j + 1) & mask) {
                uint32_t k = scl_slots[j] - 1;
                if (scl_key[2 * k] == c->file && scl_key[2 * k + 1] == c->line)
                    break;
            }
            if (scl_slots[j]) {
                loc = scl_slots[j] - 1;
            } else {
                loc = scl++;
                scl_key[2 * loc] = c->file;
                scl_key[2 * loc + 1] = c->line;
                scl_slots[j] = loc + 1;
                OTF2_GlobalDefWriter_WriteSourceCodeLocation(g, loc, module_ids[c->file], c->line);
            }
        }
        OTF2_GlobalDefWriter_WriteCallingContext(g, i, c->region, loc, c->parent);
        if (!c->addr)
            continue;
        OTF2_AttributeValue v;
        if (c->module != CC_NONE && module_ids) {
            v.stringRef = module_ids[c->module];
            OTF2_GlobalDefWriter_WriteCallingContextProperty(g, i, p_object, OTF2_TYPE_STRING, v);
            v.uint64 = c->addr;
            OTF2_GlobalDefWriter_WriteCallingContextProperty(g, i, p_offset, OTF2_TYPE_UINT64, v);
        } else {
            v.uint64 = c->addr;
            OTF2_GlobalDefWriter_WriteCallingContextProperty(g, i, p_address, OTF2_TYPE_UINT64, v);
        }
    }
    free(module_ids);
    free(scl_slots);
    free(scl_key);
    if (cc_strs.failed)
        scorep_warn("out of memory for the calling contexts' objects and source files: some "
                    "calling contexts are written without them");
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
/* One context as a rank sends it: its parent (a local id), global region, and its address
 * resolved in the rank's own address space (strings are indices into the strings that
 * follow the rank's records, CC_NONE: unknown). */
typedef struct {
    uint32_t parent, region, module, file, line, pad;
    uint64_t addr; /* offset in module, or the address where module is CC_NONE */
} cc_wire;

/* This process's contexts with their addresses resolved: object and offset (Score-P's
 * SCOREP_Addr2line_LookupAddr at unification), file:line of the call through libdw; the
 * records, then the strings they name, NUL-terminated. NULL without memory. */
static unsigned char *pack_local(const uint32_t *region_map, size_t *len)
{
    str_set strs = {0};
    cc_wire *w = malloc((local.n + 1) * sizeof *w);
    char path[PATH_MAX];
    for (uint32_t i = 0; w && i < local.n; i++) {
        const cctx *c = &local.v[i];
        w[i] = (cc_wire){c->parent, region_map[c->region], CC_NONE, CC_NONE, 0, 0, c->addr};
        uint64_t off;
        if (!c->addr ||
            scorep_symbols_object_path((uintptr_t)c->addr, path, sizeof path, &off) != 0)
            continue;
        w[i].module = str_add(&strs, path);
        if (w[i].module == CC_NONE)
            continue; /* out of memory: the address stays as it is */
        w[i].addr = off;
        char *file = NULL;
        int line = 0;
        if (scorep_symbols_resolve_line((uintptr_t)c->addr, &file, &line) == 0 && file &&
            line > 0) {
            w[i].file = str_add(&strs, file);
            w[i].line = (uint32_t)line;
        }
        free(file);
    }
    size_t bytes = local.n * sizeof *w;
    for (uint32_t i = 0; i < strs.n; i++)
        bytes += strlen(strs.s[i]) + 1;
    unsigned char *b = w && !strs.failed ? malloc(bytes + 1) : NULL;
    if (b) {
        memcpy(b, w, local.n * sizeof *w);
        size_t at = local.n * sizeof *w;
        for (uint32_t i = 0; i < strs.n; i++) {
            size_t k = strlen(strs.s[i]) + 1;
            memcpy(b + at, strs.s[i], k);
            at += k;
        }
        *len = bytes;
    }
    free(w);
    str_free(&strs);
    return b;
}

/* Rank 0: adds rank r's contexts (n records, then their strings; parents first) to the
 * job's table; map receives their global ids. The job's key is (parent, region, object,
 * offset): the ranks' calls at one site are one context whatever their addresses. */
static int merge_rank(const unsigned char *blob, size_t len, uint32_t n, uint32_t *map)
{
    const char *strs = (const char *)blob + n * sizeof(cc_wire);
    size_t slen = len - n * sizeof(cc_wire);
    /* this rank's string indices -> the job's */
    uint32_t ns = 0;
    for (size_t k = 0; k < slen; k++)
        ns += strs[k] == '\0';
    uint32_t *smap = malloc((ns + 1) * sizeof *smap);
    if (!smap)
        return -1;
    for (uint32_t k = 0, at = 0; k < ns; k++) {
        smap[k] = str_add(&cc_strs, strs + at);
        at += (uint32_t)strlen(strs + at) + 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        cc_wire w;
        memcpy(&w, blob + i * sizeof w, sizeof w);
        uint32_t gp = w.parent == OTF2_UNDEFINED_CALLING_CONTEXT || w.parent >= i
                          ? OTF2_UNDEFINED_CALLING_CONTEXT
                          : map[w.parent];
        uint32_t module = w.module < ns ? smap[w.module] : CC_NONE;
        uint32_t before = global.n;
        map[i] = cc_child_in(&global, gp, w.region, module, w.addr);
        if (global.n > before && w.file < ns && smap[w.file] != CC_NONE) {
            global.v[map[i]].file = smap[w.file];
            global.v[map[i]].line = w.line;
        }
    }
    free(smap);
    return 0;
}

/* Rank 0: the job's table from every rank's blob; maps (rank by rank, back to back) and
 * their byte counts and displacements for the scatter. ns: each rank's number of contexts. */
static int merge_all(const unsigned char *all, const size_t *offs, const size_t *lens,
                     const uint64_t *ns, int size, uint32_t **maps, size_t *counts, size_t *displs)
{
    size_t total = 0;
    for (int r = 0; r < size; r++)
        total += ns[r];
    *maps = malloc((total + 1) * sizeof **maps);
    if (!*maps)
        return -1;
    size_t at = 0;
    for (int r = 0; r < size; r++) {
        uint32_t n = (uint32_t)ns[r];
        if (lens[r] < n * sizeof(cc_wire) || merge_rank(all + offs[r], lens[r], n, *maps + at) != 0)
            return -1;
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
    size_t len = 0;
    unsigned char *mine = pack_local(region_map, &len);
    to_global = malloc((local.n + 1) * sizeof *to_global);
    uint64_t failed = !mine || !to_global;
    ipc->allreduce_max_u64(&failed);
    /* the number of contexts leads each rank's blob: its records, then its strings */
    unsigned char *blob = failed ? NULL : malloc(sizeof(uint64_t) + len);
    if (blob) {
        uint64_t n = local.n;
        memcpy(blob, &n, sizeof n);
        memcpy(blob + sizeof n, mine, len);
    }
    failed = failed || !blob;
    ipc->allreduce_max_u64(&failed);
    unsigned char *all = NULL;
    size_t *offs = NULL, *lens = NULL;
    if (!failed && scorep_ipc_gather_blobs(blob, sizeof(uint64_t) + len, &all, &offs, &lens) != 0)
        failed = 1;
    int size = ipc->size();
    size_t *counts = calloc((size_t)size, sizeof *counts),
           *displs = calloc((size_t)size, sizeof *displs);
    uint64_t *ns = calloc((size_t)size + 1, sizeof *ns);
    uint32_t *maps = NULL;
    if (ipc->rank() == 0 && !failed && counts && displs && ns) {
        for (int r = 0; r < size; r++) { /* past each blob's count */
            if (lens[r] < sizeof(uint64_t)) {
                failed = 1;
                break;
            }
            memcpy(&ns[r], all + offs[r], sizeof ns[r]);
            offs[r] += sizeof(uint64_t);
            lens[r] -= sizeof(uint64_t);
        }
        if (!failed && merge_all(all, offs, lens, ns, size, &maps, counts, displs) != 0)
            failed = 1;
    } else if (ipc->rank() == 0 && !failed) {
        failed = 1;
    }
    ipc->allreduce_max_u64(&failed);
    if (!failed &&
        ipc->scatterv(maps, counts, displs, to_global, local.n * sizeof *to_global, 0) != 0)
        failed = 1;
    free(mine);
    free(blob);
    free(ns);
    free(all);
    free(offs);
    free(lens);
    free(counts);
    free(displs);
    free(maps);
    return failed ? -1 : 0;
}
