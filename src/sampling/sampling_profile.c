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

#define UNW_LOCAL_ONLY
#include <libunwind.h>
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
    bool ld_so;       /* code of the dynamic linker (the lazy binding of a call through a PLT) */
    bool startup;     /* libc's or the dynamic linker's start-up code (is_startup) */
    bool libc;        /* code of libc itself */
    uint32_t region;  /* SCOREP_INVALID_ID until defined */
} addr_info;

static addr_info *cache;
static uint32_t cache_mask, cache_used;

/* libc's and the thread library's start-up frames above main and a thread's start routine */
static bool is_startup(const char *name)
{
    static const char *const outer[] = {
        "_start",  "__libc_start_main", "__libc_start_call_main", "start_thread", "clone", "clone3",
        "__clone", "__clone3"};
    for (size_t i = 0; i < sizeof outer / sizeof outer[0]; i++)
        if (strcmp(name, outer[i]) == 0)
            return true;
    return false;
}

/* Start-up frames and frames of the runtime itself (its thread wrapper, an interrupted
 * hook): shown as part of their caller, as Score-P's unwinding does. */
static bool is_skipped(uintptr_t addr, const char *name)
{
    return is_startup(name) || scorep_symbols_in_runtime(addr);
}

/* The start of the function that holds addr, from the object's unwind table (its FDE):
 * what libunwind gives Score-P's unwinding. */
static bool function_start(uint64_t addr, uint64_t *start)
{
    unw_proc_info_t pi;
    if (unw_get_proc_info_by_ip(unw_local_addr_space, (unw_word_t)addr, &pi, NULL) != 0 ||
        pi.start_ip == 0 || addr < pi.start_ip || (pi.end_ip && addr >= pi.end_ip))
        return false;
    *start = pi.start_ip;
    return true;
}

/* A name for code without a symbol (a stripped program such as Debian's pw.x or
 * cp2k.psmp): its function's start from the object's unwind tables, relative to the object,
 * "[pw.x+0x5a3f0]", so that each function is a region of its own, named alike in every rank
 * (Score-P's unwinding names it by libunwind's range of the function, "UNKNOWN@[start,end)",
 * absolute addresses); without an unwind table its object, "[pw.x]", one region for all of
 * it. */
static void name_unknown(uint64_t addr, scorep_symbol *sym)
{
    uint64_t vdso = getauxval(AT_SYSINFO_EHDR);
    const char *mod = sym->module ? strrchr(sym->module, '/') : NULL;
    char buf[300], at[280];
    uint64_t start;
    if (vdso && addr >= vdso && addr - vdso < 65536) /* the vDSO is a few pages */
        snprintf(buf, sizeof buf, "[vdso]");
    else if (sym->module && function_start(addr, &start) && start == getauxval(AT_ENTRY))
        snprintf(buf, sizeof buf, "_start"); /* the program's entry: folded as is_skipped says */
    else if (sym->module && function_start(addr, &start) &&
             scorep_symbols_object_offset(start, at, sizeof at) == 0)
        snprintf(buf, sizeof buf, "[%s]", at);
    else
        snprintf(buf, sizeof buf, "[%s]", mod ? mod + 1 : sym->module ? sym->module : "unknown");
    free(sym->name);
    free(sym->mangled);
    sym->name = strdup(buf);
    sym->mangled = NULL;
}

/* The dynamic linker by its file name: ld-linux-x86-64.so.2, ld-linux-aarch64.so.1,
 * ld64.so.2 (ppc64), ld-musl-x86_64.so.1 */
static bool is_dynamic_linker(const char *mod)
{
    return strncmp(mod, "ld-linux", 8) == 0 || strncmp(mod, "ld64.so", 7) == 0 ||
           strncmp(mod, "ld-musl", 7) == 0 || strncmp(mod, "ld.so", 5) == 0;
}

static void resolve_addr(addr_info *a)
{
    scorep_symbol sym;
    memset(&sym, 0, sizeof sym);
    /* the name first: whether the frame is folded away depends on it alone */
    if (scorep_symbols_resolve_name((uintptr_t)a->addr, &sym) != 0)
        name_unknown(a->addr, &sym);
    char *at = sym.name ? strchr(sym.name, '@') : NULL;
    if (at)
        *at = 0; /* the ELF symbol version (memcpy@@GLIBC_2.14) is not part of the name */
    a->name = sym.name ? sym.name : strdup("unknown");
    a->mangled = sym.mangled;
    const char *mod = sym.module ? strrchr(sym.module, '/') : NULL;
    mod = mod ? mod + 1 : sym.module ? sym.module : "";
    /* libscorep-rt-gomp's wrappers run the outlined bodies on libgomp (gomp_wrap.c) */
    a->omp_runtime = strncmp(mod, "libomp", 6) == 0 || strncmp(mod, "libgomp", 7) == 0 ||
                     strncmp(mod, "libiomp", 7) == 0 || strncmp(mod, "libscorep-rt-gomp", 17) == 0;
    /* the OpenMP runtime's frames between a parallel region and its outlined body */
    a->skip = !a->name || a->omp_runtime || is_skipped((uintptr_t)a->addr, a->name);
    a->adapter = strncmp(mod, "libscorep-rt", 12) == 0;
    a->ld_so = is_dynamic_linker(mod);
    /* the dynamic linker's start-up, which runs the libraries' constructors before main, is
     * start-up code as libc's is */
    a->libc = strncmp(mod, "libc.so", 7) == 0 || strncmp(mod, "libc-", 5) == 0;
    /* (call_init: the dynamic linker's, which runs the libraries' constructors, and libc's,
     * which runs the program's) */
    a->startup = a->name && (is_startup(a->name) || strcmp(a->name, "call_init") == 0 ||
                             (a->ld_so && (strcmp(a->name, "_dl_start_user") == 0 ||
                                           strcmp(a->name, "_dl_init") == 0)));
    a->skip = a->skip || a->startup;
    /* the adapters' wrappers too: the wrapper of MPI_Send is shown by the region MPI_Send */
    a->skip = a->skip || a->adapter;
    /* file and line only for a frame that can become a region (region_of): a folded frame
     * would read its object's DWARF for nothing (libc's start-up frames, 80 ms and 20 MB
     * with libc's detached debug file; the runtime's wrappers, its own) */
    if (!a->skip)
        scorep_symbols_resolve_source((uintptr_t)a->addr, &sym);
    a->file = sym.file;
    a->line = sym.line;
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
    bool folded; /* below the runtime's own call into the dynamic linker: the caller's time */
} path_state;

/* Regions that have a frame of the same name on the stack: compiler-instrumented functions
 * and the MPI and I/O adapters' wrappers (MPI_Send is a function of libscorep-rt-mpi, write
 * one of libscorep-rt-io-posix). Without the I/O adapter's, a sample inside an I/O call had
 * the whole stack below the I/O region (write/exit/__run_exit_handlers/bye/__write for a
 * write in an exit handler); a wrapper of another name (__printf_chk for printf) is not
 * found, and such a sample counts for the I/O region itself. */
static const char *compiler_fn(uint32_t region)
{
    const scorep_region_def *d = scorep_defs_region_get(region);
    return d && (d->paradigm == SCOREP_PARADIGM_COMPILER || d->paradigm == SCOREP_PARADIGM_MPI ||
                 d->paradigm == SCOREP_PARADIGM_IO)
               ? d->name
               : NULL;
}

static path_state region_state(const struct scorep_sampling_thread *t, uint32_t i,
                               const path_state *parent)
{
    uint32_t r = (uint32_t)(t->nodes[i].key & 0xffffffffu);
    const char *fn = compiler_fn(r);
    const scorep_region_def *d = scorep_defs_region_get(r);
    path_state s = {parent->fn, parent->need, 0, parent->omp, false, false};
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

/* Whether node p is a frame of the runtime's libraries. The dynamic linker below one binds
 * the wrapper's call lazily (its first PMPI_Init, its first call into libscorep-rt): the
 * runtime's work, the wrapper region's own time as a sample in the wrapper's code is. A
 * program's own lazy binding stays shown (main/_dl_runtime_resolve_xsavec/_dl_fixup). */
static bool is_runtime_frame(const struct scorep_sampling_thread *t, uint32_t p)
{
    if (p == SMP_NONE || t->nodes[p].key & SMP_REGION_KEY)
        return false;
    const addr_info *a = info_of(t->nodes[p].key);
    return a && a->adapter;
}

/* Node p's start-up code: 0 none, 1 libc's or the thread library's, 2 the dynamic linker's
 * (its call_init runs the libraries' constructors), 3 __libc_start_main. The dynamic linker
 * below any is start-up code too (libc's lazy binding of its own calls before main,
 * _dl_audit_preinit), so is libc below __libc_start_main (its __cxa_atexit; main and exit
 * come through __libc_start_call_main), and a frame of the runtime below the dynamic
 * linker's is the runtime's constructor: its start-up work after the main thread's sampling
 * began (the adapters' dlsym lookups and lazy bindings). They, with everything below them,
 * are start-up code only, as a sample in _start is (the profile's root; the trace leaves it
 * out). Until session 27 they were call paths outside main (_dl_start_user/_dl_init/
 * call_init/dlsym/..., _dl_runtime_resolve_xsavec and __internal_atexit below the root): 0.2
 * to 1.2 ms of CPU time per MPI rank here, after the first sample could come. */
static int startup_kind(const struct scorep_sampling_thread *t, uint32_t p)
{
    if (p == SMP_NONE || t->nodes[p].key & SMP_REGION_KEY)
        return 0;
    const addr_info *a = info_of(t->nodes[p].key);
    if (!a || !a->startup)
        return 0;
    return a->ld_so ? 2 : strcmp(a->name, "__libc_start_main") == 0 ? 3 : 1;
}

/* Node i's region (into regions[i]) and path state (st[i]) from its parent's: nodes are
 * appended below existing ones, so resolving them in index order sees every parent first. */
static void resolve_node(const struct scorep_sampling_thread *t, path_state *st, uint32_t *regions,
                         uint32_t i)
{
    const path_state top = {NULL, 0, 0, false, true, false};
    const smp_node *n = &t->nodes[i];
    const path_state *parent = n->parent == SMP_NONE ? &top : &st[n->parent];
    if (n->key & SMP_REGION_KEY) {
        st[i] = region_state(t, i, parent);
        regions[i] = (uint32_t)(n->key & 0xffffffffu);
        return;
    }
    st[i] = *parent;
    bool runtime_caller = !st[i].folded && is_runtime_frame(t, n->parent);
    int startup_caller = st[i].folded ? 0 : startup_kind(t, n->parent);
    addr_info *a = info_of(n->key); /* (after the parent's lookups: info_of may move the cache) */
    if (st[i].folded || (a && a->ld_so && (runtime_caller || startup_caller)) ||
        (a && a->adapter && startup_caller == 2) ||
        (a && a->libc && !a->startup && startup_caller == 3)) {
        st[i].folded = true;
        regions[i] = SMP_SKIP;
        return;
    }
    if (st[i].shown) {
        regions[i] = region_of(a);
        return;
    }
    regions[i] = SMP_SKIP;
    if (st[i].fn ? a && strcmp(a->name, st[i].fn) == 0 && ++st[i].seen == st[i].need
                 : a && a->omp_runtime)
        st[i].shown = true;
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
    for (uint32_t i = 0; i < t->n_nodes; i++)
        resolve_node(t, st, t->node_region, i);
    free(st);
    return 0;
}

const uint32_t *scorep_smp_live_regions(struct scorep_sampling_thread *t, uint32_t n)
{
    if (n <= t->n_live)
        return t->live_region;
    if (!t->live_region) {
        /* the tree's capacity at once: nodes only ever append (sampling.c) */
        t->live_state = malloc(SMP_NODE_CAP * sizeof(path_state));
        t->live_region = malloc(SMP_NODE_CAP * sizeof *t->live_region);
        if (!t->live_state || !t->live_region) {
            free(t->live_state);
            free(t->live_region);
            t->live_state = NULL;
            t->live_region = NULL;
            return NULL;
        }
    }
    scorep_unwind_resolve_lock(true); /* info_of's cache is shared with the enters' lookups */
    for (uint32_t i = t->n_live; i < n; i++)
        resolve_node(t, t->live_state, t->live_region, i);
    scorep_unwind_resolve_lock(false);
    t->n_live = n;
    return t->live_region;
}

/* ------------------------------------------------------------- profile */
/* A call path that only samples made: never entered through an event, so never closed. */
static bool is_sampled(const pnode *n)
{
    /* (the program root of an OpenMP worker, from the fork's call path, is never closed there
     * either: it keeps no visit, as in Score-P) */
    /* nor are the nodes of a fork's call path mapped into a worker's tree: they hold the
     * team's time, measured (until session 26 their subtrees, the worker's instrumented
     * calls included, were scaled down as sampled time) */
    return n->kind == PNODE_REGION && n->min == UINT64_MAX && n->id != scorep_program_region() &&
           !n->mapped;
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
 * inside an event (SMP_IN_EVENT) is no step: the trace moves no call stack for it either.
 * After an enter or leave (SMP_AFTER_EVENT) the trace's call stack is the event's path: the
 * innermost open call's, with the frames unwound at its enter and at its callers' (their
 * visits are their calls, frame_values), so the sample enters anew every frame below its
 * innermost region, sampled or unwound at enters. Frames unwound at enters count these
 * entries too, as the trace's Enter records (an enter enters its frames anew: one visit per
 * call; a sample that sees such a frame while no call below it is open enters it once
 * more, sampling_trace.c). */
static void entered(pnode *n)
{
    if (is_sampled(n)) {
        n->visits++;
    } else if (is_enter_frame(n)) {
        n->visits++;
        n->min = 0; /* a sampled visit's length is unknown (min_time a bound, as sampled paths') */
    }
}

static void count_visits(const struct scorep_sampling_thread *t, pnode *const *pn,
                         const pnode *base)
{
    const pnode *prev = NULL;
    uint32_t prev_depth = 0;
    for (uint32_t k = 0; k < t->n_samples; k++) {
        uint32_t node = t->samples[k].node;
        pnode *cur = pn[node];
        /* at the thread's base: a sample in start-up code only, which the trace leaves out
         * (no step there either) */
        if (!cur || cur == base || (t->samples[k].gen & SMP_IN_EVENT))
            continue;
        if (t->samples[k].gen & SMP_AFTER_EVENT) { /* at the innermost open call's path */
            uint32_t j = node;
            while (j != SMP_NONE && !(t->nodes[j].key & SMP_REGION_KEY))
                j = t->nodes[j].parent;
            prev = j == SMP_NONE ? NULL : pn[j];
            prev_depth = prev ? pdepth(prev) : 0;
        }
        uint32_t d = pdepth(cur), cd = d;
        const pnode *a = prev;
        for (uint32_t ad = prev_depth; ad > cd; ad--)
            a = a->parent;
        pnode *b = cur;
        for (; cd > prev_depth; cd--, b = b->parent)
            entered(b);
        while (b && a != b) {
            entered(b);
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

/* The most visited node of region r that this location closed (its own calls), anywhere
 * below n. */
static void find_own_calls(pnode *n, uint32_t r, pnode **best)
{
    for (pnode *c = n->first_child; c; c = c->next_sibling) {
        if (c->kind == PNODE_REGION && c->id == r && c->min != UINT64_MAX &&
            (!*best || c->visits > (*best)->visits))
            *best = c;
        find_own_calls(c, r, best);
    }
}

static pnode *region_node(scorep_profile *p, pnode *parent, uint32_t r, const pnode *base)
{
    pnode *best = NULL;
    if (scorep_unwind_at_enter())
        find_below_frames(parent, r, &best);
    for (pnode *c = parent->first_child; !best && c; c = c->next_sibling)
        if (c->kind == PNODE_REGION && c->id == r)
            best = c;
    /* the outermost region of a worker's sample (its implicit task's parallel region) hangs
     * below the fork's call path, not at the thread's base: the node of its own calls
     * (until session 26 such samples made a second tree at the program root) */
    if (!best && parent == base)
        find_own_calls(parent, r, &best);
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
                        ? region_node(p, parent, r, base)
                        : scorep_profile_child_slow(p, parent, r, PNODE_REGION, r, 0);
        if (!pn[i])
            continue;
        if (pn[i] != parent && is_sampled(pn[i]))
            pn[i]->sum += incl[i];
        else if (is_enter_frame(pn[i])) /* its own samples' time: frame_sums */
            pn[i]->enter_ts +=
                t->nodes[i].ticks + (uint64_t)((double)t->nodes[i].time_ns * ticks_per_ns);
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
    char cpu[48] = "";
    if (t->cpu_ns)
        snprintf(cpu, sizeof cpu, " in %llu ms of its CPU time",
                 (unsigned long long)(t->cpu_ns / 1000000));
    scorep_verbose("location %u: %llu signals%s, %llu samples, %u calling contexts, %llu failed "
                   "and %llu slow "
                   "unwinds, %.0f ns in the handler per sample, %llu samples inside the "
                   "runtime's events (for the open call), %llu left out there outside "
                   "instrumented calls, %llu left out outside them while the dynamic linker "
                   "changed its objects",
                   l->id, (unsigned long long)t->signals, cpu, (unsigned long long)t->taken,
                   t->n_nodes, (unsigned long long)t->failed_unwinds,
                   (unsigned long long)t->slow_unwinds, ns, (unsigned long long)t->in_event,
                   (unsigned long long)t->in_runtime_drops, (unsigned long long)t->dl_drops);
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
