/* SPDX-License-Identifier: BSD-3-Clause */
/* unwind_enter.c: SCOREP_ENABLE_UNWINDING at instrumented events, as Score-P's unwinding
 * (services/unwinding): at every enter of an instrumented region the stack is unwound with
 * libunwind, and the uninstrumented frames between the innermost open instrumented call and
 * the new one become call paths of the profile (regions of paradigm sampling, the same
 * regions samples make) and calling contexts of the trace. So an unmodified MPI program
 * under scorep-run shows main/solve/exchange/MPI_Sendrecv instead of MPI_Sendrecv below the
 * root. */
#define UNW_LOCAL_ONLY
#include "sampling/sampling_internal.h"
#include "core/location.h"
#include "base/log.h"
#include "base/settings.h"
#include "base/timer.h"
#include "defs/defs.h"
#include "metrics/metrics.h"
#include "substrates/substrates_bridge.h"

#include <libunwind.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A frame's code address as the enter path sees it: its region (SMP_SKIP for frames shown
 * by their caller: the runtime, its adapters, libc's start-up) and its function's name. */
typedef struct {
    uint64_t ip;
    uint32_t region;
    bool omp; /* the OpenMP runtime's or an outlined body's (where a parallel region begins) */
    const char *name;
} uw_frame;

enum { UW_CACHE = 4096, UW_SITES = 64 }; /* per location, direct-mapped: no lock on a hit */

/* A distinct sequence of frames inserted at enters, interned per location (a program's
 * enters repeat few of them): their regions pool[first .. first + n), and the code
 * addresses apool[afirst .. afirst + n + 1): each frame's call in its function (the return
 * address minus one, as Score-P's unwinding keys its calling contexts), then the
 * instrumented region's call site in its caller (0: unknown), so that two calls of one
 * region from two lines are two calling contexts of the trace. */
typedef struct {
    uint64_t hash;
    size_t first, afirst; /* the pools grow past 2^32 entries (long sequences) */
    uint32_t n;
} uw_seq;

/* Calls deeper than this keep no frame count of their own (their frames are not inserted):
 * the counts are arrays of the location, so that the enter path never allocates for them;
 * deeper calls are still recorded and traced, only without the unwound frames above them.
 * The records, sequences and pools below have no such limit: they grow (64-bit counts)
 * until memory runs out. A sequence's id is 32 bits (the records' 12 bytes each): 2^32 - 1
 * distinct sequences would need well over 100 GiB per thread before that bound. */
enum { UW_MAX_DEPTH = 4096 };
#define UW_NO_SEQ UINT32_MAX

struct scorep_unwind_loc {
    /* frames inserted into the profile, innermost last: their node and the call depth of the
     * instrumented call they were inserted for */
    struct {
        pnode *node;
        uint32_t depth;
    } *fr;
    uint32_t n_fr, cap_fr;
    /* per call depth: how many frames of the unwound stack (outermost first, skipped ones
     * left out) the call's path covers, and its region (a call entered on another path,
     * without unwinding, has another one there) */
    uint32_t consumed[UW_MAX_DEPTH], consumed_region[UW_MAX_DEPTH];
    uw_frame cache[UW_CACHE];
    void *ips[SMP_MAX_FRAMES];
    /* the kept frames of one unwind, copied: a later lookup of the same unwind may evict
     * a frame's entry from the direct-mapped cache (two of its addresses in one slot) */
    uw_frame kept[SMP_MAX_FRAMES];
    /* the trace's records (only when tracing), one per enter that inserts frames: its
     * timestamp and its sequence of frames, 12 bytes, kept until the trace is written */
    uint64_t *rec_ts;
    uint32_t *rec_seq;
    size_t n_recs, cap_recs;
    uw_seq *seqs;
    size_t n_seqs, cap_seqs;
    uint32_t *seq_slots; /* hash -> sequence + 1, open addressing */
    size_t seq_mask;
    uint32_t *pool;
    size_t n_pool, cap_pool;
    uint64_t *apool;
    size_t n_apool, cap_apool;
    /* the sequences without frames (an instrumented caller's call: its call site only), by
     * site, direct-mapped: most enters of a program with instrumented callers, whose
     * interning would hash and probe again at every call */
    uint64_t site_key[UW_SITES];
    uint32_t site_seq[UW_SITES];
    uint64_t unwinds, inserted, ticks, lost_recs, nested, truncated;
    /* an enter of this location is being unwound: an event inside it (an adapter's wrapper
     * called by libdw or libunwind) is not unwound again (the resolution lock is held) */
    bool active;
    /* an OpenMP fork's frames, inserted before the parallel region's enter (scorep_unwind_fork)
     * so that the workers' trees hang below them: kept for the enter of region `fork_region`
     * at call depth `fork_depth`, which takes them (its trace sequence fork_seq, or
     * UW_NO_SEQ: none) instead of unwinding again */
    bool fork_pending;
    uint32_t fork_depth, fork_region, fork_consumed, fork_seq;
    /* substrate plugins' calling contexts (sampling_plugins.c), set only when the location
     * has plugins (l->substrates_data: l->substrates_on is off during a task's enter, whose
     * context the plugins' stack takes too): the frames of the latest unwind
     * (kept[pl_first .. pl_first + pl_n)) and the call site that the trace's record of the
     * enter of region pl_region at call depth pl_depth has (also for a fork's parallel
     * region, which takes the fork's unwind) */
    bool pl_valid;
    uint32_t pl_depth, pl_region, pl_first, pl_n;
    uint64_t pl_site;
};

static pthread_mutex_t resolve_lock = PTHREAD_MUTEX_INITIALIZER;
static bool enter_unwinding;
/* the slots of the frame cache used, minus one: UW_CACHE - 1, or fewer with the test-only
 * SCOREP_TEST_UNWIND_CACHE=N (test_unwind_enter.sh: with 1 slot every lookup evicts the
 * previous frame, which the enter path must not depend on) */
static uint32_t cache_mask = UW_CACHE - 1;
/* the first capacity of the records and pools: 1024 (64 sequences), or N of the test-only
 * SCOREP_TEST_UNWIND_FIRST_CAP=N (test_unwind_enter.sh: from 1, every record, sequence and
 * pool entry at a power of two grows the storage, which must lose nothing) */
static size_t first_cap = 1024, first_seqs = 64;

bool scorep_unwind_at_enter(void)
{
    return enter_unwinding;
}

/* The frame of return address ip: from the location's cache, else resolved (through the
 * samples' resolver, which defines the region) under the process's lock. */
static const uw_frame *frame_of(struct scorep_unwind_loc *u, uint64_t ip)
{
    uw_frame *f = &u->cache[(ip * 0x9e3779b97f4a7c15ull >> 40) & cache_mask];
    if (f->ip == ip)
        return f;
    pthread_mutex_lock(&resolve_lock);
    const char *name = NULL;
    bool omp = false;
    uint32_t region = scorep_smp_frame_region(ip, &name, &omp);
    pthread_mutex_unlock(&resolve_lock);
    f->ip = ip;
    f->region = region;
    f->omp = omp;
    f->name = name;
    return f;
}

/* Leaves the frames inserted for calls at depth >= depth (closed calls): their nodes are on
 * the profile's current path until the next event of the location (the leave of the call
 * they were inserted for makes its parent, the innermost frame, current). Their visits and
 * times are their children's (scorep_unwind_finish), so when they are left does not matter. */
static void pop_stale(scorep_location *l, struct scorep_unwind_loc *u, uint32_t depth)
{
    scorep_profile *p = &l->profile;
    /* a fork's frames stay for the parallel region's enter at their depth (the fork's and
     * the team's events come between); any event further out drops them */
    if (u->fork_pending && depth == u->fork_depth)
        depth++;
    else
        u->fork_pending = false;
    while (u->n_fr && u->fr[u->n_fr - 1].depth >= depth) {
        pnode *n = u->fr[--u->n_fr].node;
        if (p->cur == n) {
            p->cur = n->parent;
            p->depth--;
        }
    }
}

static int push_frame(struct scorep_unwind_loc *u, pnode *n, uint32_t depth)
{
    if (u->n_fr == u->cap_fr) {
        uint32_t cap = u->cap_fr ? 2 * u->cap_fr : 64;
        void *v = realloc(u->fr, cap * sizeof *u->fr);
        if (!v)
            return -1;
        u->fr = v;
        u->cap_fr = cap;
    }
    u->fr[u->n_fr].node = n;
    u->fr[u->n_fr++].depth = depth;
    return 0;
}

/* *v's capacity *cap at least need elements of size bytes (doubled, from first): -1 when
 * memory is out (or the size would not fit in size_t), *v unchanged. */
__attribute__((noinline, cold)) static int grow(void **v, size_t *cap, size_t need, size_t first,
                                                size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : first;
    while (c < need && c <= SIZE_MAX / 2)
        c *= 2;
    void *p = c >= need && c <= SIZE_MAX / size ? realloc(*v, c * size) : NULL;
    if (!p)
        return -1;
    *v = p;
    *cap = c;
    return 0;
}

/* A frame's call in its function: its return address minus one (the call instruction). */
static inline uint64_t call_of(const uw_frame *f)
{
    return f->ip ? f->ip - 1 : 0;
}

/* The id of the sequence of n frames f and the call site `site` of the instrumented region
 * below them, added when new; UW_NO_SEQ without memory. */
static uint32_t intern(struct scorep_unwind_loc *u, const uw_frame *f, uint32_t n, uint64_t site)
{
    uint64_t h = (n ^ site) * 0x100000001b3ull;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ call_of(&f[i]) ^ (uint64_t)f[i].region << 48) * 0x100000001b3ull;
    if (u->n_seqs >= UW_NO_SEQ - 1) /* the ids' bound (past 100 GiB of sequences) */
        return UW_NO_SEQ;
    if (2 * (u->n_seqs + 1) > u->seq_mask) { /* rehash into twice the slots */
        size_t cap = u->seq_mask ? 2 * (u->seq_mask + 1) : 256;
        uint32_t *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return UW_NO_SEQ;
        for (size_t k = 0; k < u->n_seqs; k++) {
            size_t j = (size_t)(u->seqs[k].hash >> 20) & (cap - 1);
            while (slots[j])
                j = (j + 1) & (cap - 1);
            slots[j] = (uint32_t)k + 1;
        }
        free(u->seq_slots);
        u->seq_slots = slots;
        u->seq_mask = cap - 1;
    }
    size_t j = (size_t)(h >> 20) & u->seq_mask;
    for (; u->seq_slots[j]; j = (j + 1) & u->seq_mask) {
        const uw_seq *s = &u->seqs[u->seq_slots[j] - 1];
        uint32_t i = 0;
        if (s->hash != h || s->n != n || u->apool[s->afirst + n] != site)
            continue;
        while (i < n && u->pool[s->first + i] == f[i].region &&
               u->apool[s->afirst + i] == call_of(&f[i]))
            i++;
        if (i == n)
            return u->seq_slots[j] - 1;
    }
    if (grow((void **)&u->seqs, &u->cap_seqs, u->n_seqs + 1, first_seqs, sizeof *u->seqs) != 0 ||
        grow((void **)&u->pool, &u->cap_pool, u->n_pool + n, first_cap, sizeof *u->pool) != 0 ||
        grow((void **)&u->apool, &u->cap_apool, u->n_apool + n + 1, first_cap,
             sizeof *u->apool) != 0)
        return UW_NO_SEQ;
    u->seqs[u->n_seqs] = (uw_seq){.hash = h, .first = u->n_pool, .afirst = u->n_apool, .n = n};
    for (uint32_t i = 0; i < n; i++) {
        u->pool[u->n_pool++] = f[i].region;
        u->apool[u->n_apool++] = call_of(&f[i]);
    }
    u->apool[u->n_apool++] = site;
    u->seq_slots[j] = (uint32_t)u->n_seqs + 1;
    return (uint32_t)u->n_seqs++;
}

/* The trace's record of this enter; without memory the enter keeps its region's context
 * (counted and reported at finalize). */
static void record_seq(struct scorep_unwind_loc *u, uint64_t t, uint32_t seq)
{
    size_t cap = u->cap_recs;
    /* grow (not inlined) only when full: the call costs an enter more than the store */
    if (seq == UW_NO_SEQ ||
        (u->n_recs == u->cap_recs &&
         (grow((void **)&u->rec_ts, &cap, u->n_recs + 1, first_cap, sizeof *u->rec_ts) != 0 ||
          grow((void **)&u->rec_seq, &u->cap_recs, u->n_recs + 1, first_cap,
               sizeof *u->rec_seq) != 0))) {
        u->lost_recs++;
        return;
    }
    u->rec_ts[u->n_recs] = t;
    u->rec_seq[u->n_recs++] = seq;
}

static void record(struct scorep_unwind_loc *u, uint64_t t, const uw_frame *f, uint32_t n,
                   uint64_t site)
{
    if (n == 0 && site) {
        uint32_t j = (uint32_t)(site * 0x9e3779b97f4a7c15ull >> 58);
        if (u->site_key[j] != site) {
            uint32_t seq = intern(u, f, 0, site);
            if (seq == UW_NO_SEQ) {
                record_seq(u, t, seq);
                return;
            }
            u->site_key[j] = site;
            u->site_seq[j] = seq;
        }
        record_seq(u, t, u->site_seq[j]);
        return;
    }
    record_seq(u, t, intern(u, f, n, site));
}

/* The frames of an enter of region at l's next call depth: inserted into the profile
 * below the current node and recorded for the trace at t; for a fork (scorep_unwind_fork)
 * kept for the parallel region's enter to come, which records them. */
static void unwind_at(scorep_location *l, uint32_t region, uint64_t t, bool fork)
{
    struct scorep_unwind_loc *u = l->unwind;
    uint32_t depth = l->depth; /* the new call's index on the call stack */
    pop_stale(l, u, depth);
    if (depth >= UW_MAX_DEPTH) {
        u->pl_valid = false;
        return;
    }
    if (u->active) {
        u->nested++;
        u->consumed_region[depth] = SCOREP_INVALID_ID; /* its calls insert no frames */
        if (__builtin_expect(l->substrates_data != NULL, 0))
            u->pl_valid = false; /* no record: no frames, no call site */
        return;
    }
    u->active = true;
    uint64_t begin = scorep_timer_ticks();
    /* samples taken from here on are the runtime's work (sampling.c) */
    int mark = scorep_sampling_runtime_begin(l);
    /* the frames from the outermost, without the runtime's (this function, the event path,
     * an adapter's wrapper) and libc's start-up */
    int n = unw_backtrace(u->ips, SMP_MAX_FRAMES);
    uint32_t m = 0, after_omp = 0;
    for (int i = n; i-- > 1;) { /* ips[0] is in this function */
        const uw_frame *f = frame_of(u, (uint64_t)(uintptr_t)u->ips[i]);
        if (f->omp)
            after_omp = m;
        if (f->region != SMP_SKIP)
            u->kept[m++] = *f;
    }
    u->unwinds++;
    /* the new region's own frame: a compiler-instrumented function, or a wrapper of its
     * name in the program itself; shown by the region */
    const scorep_region_def *d = scorep_defs_region_get(region);
    uint32_t upto = m;
    if (m && d && d->name && u->kept[m - 1].name && strcmp(u->kept[m - 1].name, d->name) == 0)
        upto--;
    /* the frames the innermost open call's path covers (all of them at the thread's first
     * call); for a call entered without unwinding, an OpenMP construct's (omp_enter), those
     * down to the OpenMP runtime's innermost frame or outlined body, where the construct's
     * code runs (Score-P's unwinding stops there: gomp_thread_start, ._omp_fn.); for
     * others all (none are inserted) */
    uint32_t base = 0;
    if (depth > 0 && u->consumed_region[depth - 1] == l->stack_region[depth - 1]) {
        base = u->consumed[depth - 1];
    } else if (depth > 0) {
        const scorep_region_def *pd = scorep_defs_region_get(l->stack_region[depth - 1]);
        base = pd && pd->paradigm == SCOREP_PARADIGM_OPENMP ? after_omp : m;
    }
    /* the call site of the new region: the call in its innermost caller on the stack, the
     * innermost frame that is not the region's own (Score-P's surrogate takes that frame's
     * address) */
    uint64_t site = upto ? call_of(&u->kept[upto - 1]) : 0;
    u->consumed[depth] = m > base ? m : base;
    u->consumed_region[depth] = region;
    uint32_t k = upto > base ? upto - base : 0;
    if (n == SMP_MAX_FRAMES) { /* truncated at the outermost end: the counts do not hold */
        k = 0;
        u->consumed_region[depth] = SCOREP_INVALID_ID;
        u->truncated++;
    }
    scorep_profile *p = &l->profile;
    if (l->profiling && k && !p->overflow && p->depth + k < p->max_depth) {
        for (uint32_t i = base; i < upto; i++) {
            uint32_t r = u->kept[i].region;
            pnode *c = scorep_profile_child_slow(p, p->cur, r, PNODE_REGION, r, 0);
            if (!c || push_frame(u, c, depth) != 0)
                break;
            /* for close_all at finalize; never 0: it marks the node as a frame (frame_values:
             * the values are their children's) */
            c->enter_ts = t ? t : 1;
            p->cur = c;
            p->depth++;
        }
    }
    if (fork) {
        u->fork_pending = true;
        u->fork_depth = depth;
        u->fork_region = region;
        u->fork_consumed = u->consumed[depth];
        u->fork_seq = l->tracing && (k || site) ? intern(u, u->kept + base, k, site) : UW_NO_SEQ;
        if (l->tracing && (k || site) && u->fork_seq == UW_NO_SEQ)
            u->lost_recs++;
    } else if (l->tracing && (k || site)) { /* an enter without a record has no frames and
                                               no call site (scorep_unwind_frames_at) */
        record(u, t, u->kept + base, k, site);
    }
    u->inserted += k;
    if (__builtin_expect(l->substrates_data != NULL, 0)) {
        /* what the trace's record (or the fork's sequence) holds, also without tracing */
        u->pl_valid = true;
        u->pl_depth = depth;
        u->pl_region = region;
        u->pl_first = base;
        u->pl_n = k;
        u->pl_site = site;
    }
    scorep_sampling_runtime_end(l, mark);
    u->active = false;
    u->ticks += scorep_timer_ticks() - begin;
}

void scorep_unwind_enter(scorep_location *l, uint32_t region, uint64_t t)
{
    struct scorep_unwind_loc *u = l->unwind;
    if (!u)
        return;
    if (u->fork_pending && l->depth == u->fork_depth && region == u->fork_region) {
        /* the parallel region of the fork: its frames are in place */
        u->fork_pending = false;
        u->consumed[l->depth] = u->fork_consumed;
        u->consumed_region[l->depth] = region;
        if (l->tracing && u->fork_seq != UW_NO_SEQ)
            record_seq(u, t, u->fork_seq);
        return;
    }
    u->fork_pending = false;
    unwind_at(l, region, t, false);
}

pnode *scorep_unwind_fork(scorep_location *l, uint32_t region)
{
    struct scorep_unwind_loc *u = l->unwind;
    if (u && l->depth < UW_MAX_DEPTH) {
        u->fork_pending = false;
        unwind_at(l, region, l->last_ts, true);
    } else if (u) {
        pop_stale(l, u, l->depth);
    }
    return l->profiling ? l->profile.cur : NULL;
}

void scorep_unwind_leave(scorep_location *l)
{
    struct scorep_unwind_loc *u = l->unwind;
    if (u && u->n_fr)
        pop_stale(l, u, l->depth); /* the frames of the leaving call's children */
}

/* ------------------------------------------------------------------ life cycle */
void scorep_unwind_thread_start(scorep_location *l)
{
    /* also for substrate plugins' calling contexts alone (neither profile nor trace) */
    if (!enter_unwinding || l->gpu ||
        !(l->profiling || l->tracing || scorep_substrates_cc_wanted()))
        return;
    struct scorep_unwind_loc *u = calloc(1, sizeof *u);
    /* an empty metric set routes the location's enters and leaves through the event path's
     * metric hook (core/events.h), which calls this file: nothing new when unwinding is off */
    scorep_metric_set *s = l->metrics ? NULL : calloc(1, sizeof *s);
    if (!u || (!l->metrics && !s)) {
        free(u);
        free(s);
        scorep_warn("location %u: no memory for unwinding at events; its calls are not placed "
                    "below their unwound callers",
                    l->id);
        return;
    }
    unw_backtrace(u->ips, SMP_MAX_FRAMES); /* libunwind's per-thread cache, outside events */
    l->unwind = u;
    if (s) {
        l->metrics = s;
        scorep_location_modes_changed(l);
    }
}

void scorep_unwind_init(void)
{
    const char *v = getenv("SCOREP_TEST_UNWIND_CACHE");
    if (v && *v) {
        char *end;
        long n = strtol(v, &end, 10);
        if (*end || n < 1 || n > UW_CACHE || (n & (n - 1)))
            scorep_fatal("SCOREP_TEST_UNWIND_CACHE='%s': expected a power of two from 1 to %d", v,
                         UW_CACHE);
        cache_mask = (uint32_t)n - 1;
    }
    v = getenv("SCOREP_TEST_UNWIND_FIRST_CAP");
    if (v && *v) {
        char *end;
        long n = strtol(v, &end, 10);
        if (*end || n < 1 || n > 1024)
            scorep_fatal("SCOREP_TEST_UNWIND_FIRST_CAP='%s': expected 1 to 1024", v);
        first_cap = first_seqs = (size_t)n;
    }
    enter_unwinding = scorep_cfg.enable_unwinding;
    if (enter_unwinding)
        unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
}

void scorep_unwind_close(scorep_location *l)
{
    struct scorep_unwind_loc *u = l->unwind;
    if (u) {
        u->fork_pending = false;
        pop_stale(l, u, l->depth);
    }
}

/* A frame node's values are its children's: each of its visits is one call below it. */
static void frame_values(const scorep_profile *p, pnode *n)
{
    for (pnode *c = n->first_child; c; c = c->next_sibling)
        frame_values(p, c);
    const scorep_region_def *d = n->kind == PNODE_REGION ? scorep_defs_region_get(n->id) : NULL;
    if (!d || d->paradigm != SCOREP_PARADIGM_SAMPLING)
        return;
    /* a node never entered as a frame here is a worker's copy of the fork's call path
     * (profile_threads.c): no visits on this thread, the time of its team (as Score-P's
     * fork path on a worker, and as for instrumented callers); min 0, not "never closed",
     * so that the samples' merge takes it for a frame, not for a sampled function */
    if (n->enter_ts == 0) {
        if (!n->visits)
            n->min = 0;
        return;
    }
    uint64_t visits = 0, sum = 0, min = UINT64_MAX, max = 0;
    for (pnode *c = n->first_child; c; c = c->next_sibling) {
        if (c->kind != PNODE_REGION || c->min == UINT64_MAX)
            continue;
        visits += c->visits;
        sum += c->sum;
        min = c->min < min ? c->min : min;
        max = c->max > max ? c->max : max;
        /* the metric sources' inclusive values too (they were 0: a frame is never left, and
         * its inclusive value lay below its children's sum) */
        for (uint32_t k = 0; n->dense && c->dense && k < p->n_dense; k++)
            n->dense[p->n_dense + k] += c->dense[p->n_dense + k];
    }
    n->visits = visits;
    n->sum = sum;
    n->enter_ts = 0; /* the samples' merge keeps the frame's own sampled time there */
    n->min = visits ? min : 0;
    n->max = max;
}

void scorep_unwind_finish(void)
{
    if (!enter_unwinding)
        return;
    uint64_t unwinds = 0, inserted = 0, ticks = 0;
    for (scorep_location *l = scorep_location_first(); l; l = l->next) {
        struct scorep_unwind_loc *u = l->unwind;
        if (!u)
            continue;
        /* before the samples are merged: the only sampling-paradigm nodes are frames */
        if (l->profiling)
            frame_values(&l->profile, &l->profile.root);
        if (u->lost_recs)
            scorep_warn("location %u: out of memory for the unwound contexts and call sites "
                        "of %llu enters; the trace shows them below their instrumented "
                        "callers, without a call site",
                        l->id, (unsigned long long)u->lost_recs);
        if (u->truncated)
            scorep_verbose("location %u: %llu enters below more than %d frames, not placed "
                           "below their callers",
                           l->id, (unsigned long long)u->truncated, SMP_MAX_FRAMES);
        if (u->nested)
            scorep_verbose("location %u: %llu events inside the unwinding at enters, not "
                           "unwound",
                           l->id, (unsigned long long)u->nested);
        unwinds += u->unwinds;
        inserted += u->inserted;
        ticks += u->ticks;
    }
    scorep_verbose("unwinding at events: %llu enters, %llu frames inserted, %.0f ns per enter",
                   (unsigned long long)unwinds, (unsigned long long)inserted,
                   unwinds ? (double)ticks * 1e9 / (double)scorep_timer_resolution() /
                                 (double)unwinds
                           : 0.0);
}

/* ------------------------------------------------------------------ trace */
/* The frames recorded for the enter at ts (the cursor's position *i moves past older
 * records: enters the reduction or a rewind removed) and their addresses (n + 1: the
 * region's call site last); 0 and *addrs NULL when none. */
uint32_t scorep_unwind_plugin_frames(const scorep_location *l, uint32_t region,
                                     uint32_t *regions, uint64_t *addrs)
{
    struct scorep_unwind_loc *u = l->unwind;
    if (!u || !u->pl_valid || l->depth == 0 || u->pl_depth != l->depth - 1 ||
        u->pl_region != region) {
        addrs[0] = 0;
        return 0;
    }
    u->pl_valid = false; /* the next enter of this depth unwinds again */
    for (uint32_t i = 0; i < u->pl_n; i++) {
        regions[i] = u->kept[u->pl_first + i].region;
        addrs[i] = call_of(&u->kept[u->pl_first + i]);
    }
    addrs[u->pl_n] = u->pl_site;
    return u->pl_n;
}

void scorep_unwind_resolve_lock(bool lock)
{
    if (lock)
        pthread_mutex_lock(&resolve_lock);
    else
        pthread_mutex_unlock(&resolve_lock);
}

uint32_t scorep_unwind_frames_at(const scorep_location *l, size_t *i, uint64_t ts,
                                 const uint32_t **regions, const uint64_t **addrs)
{
    const struct scorep_unwind_loc *u = l ? l->unwind : NULL;
    *addrs = NULL;
    if (!u)
        return 0;
    while (*i < u->n_recs && u->rec_ts[*i] < ts)
        (*i)++;
    if (*i == u->n_recs || u->rec_ts[*i] != ts)
        return 0;
    const uw_seq *s = &u->seqs[u->rec_seq[(*i)++]];
    *regions = u->pool + s->first;
    *addrs = u->apool + s->afirst;
    return s->n;
}
