/* SPDX-License-Identifier: BSD-3-Clause */
/* scorep-otf2-to-chrome.c: converts an OTF2 trace into Chrome's Trace Event Format (JSON)
 * for Perfetto UI and chrome://tracing: one process per rank, one thread per location,
 * regions as complete ("X") events, MPI messages as flow arrows, OpenMP tasks on task
 * lanes of their own, metrics as counter tracks.
 *
 *   scorep-otf2-to-chrome [-o FILE] traces.otf2|EXPERIMENT_DIR
 *
 * Without -o the JSON goes to stdout; with -o it is written to a temporary file next to
 * FILE and renamed into place only when complete. Exit status: 0, 1 (unreadable trace or
 * write error, one message on stderr), 2 (usage).
 *
 * Layout of the output (what test/tools/chrome_check.py relies on):
 *   pid: the rank (a location group without a rank: 1000000 + its index)
 *   tid: the location's index in the trace's definitions; task lane L of a process:
 *        n_locations + the process's first lane + L
 *   X events: cat "region", args.loc = the location index (also on task lanes), and on
 *        task lanes args.task = "CREATOR.GENERATION"
 *   s/f flow events: cat "mpi", name "message", id = the message's index; f has bp "e"
 *   s/f flow events: cat "task", name "dependence" or "create", id = 2^41 + the edge's number:
 *        the dependences and parent -> child edges of the analysis's taskgraph.dot beside
 *        the trace (docs/openmp.md "Task graph"), from the end of the predecessor's last run
 *        (1 us before its end) to the start of the successor's first (1 us after it, bp "e"),
 *        each inside the task's slice
 *   s/f flow events: cat "cuda", name "launch", id = 2^40 + CUPTI's correlation id, from the
 *        launch on a CPU thread (s) to its kernel on a GPU stream (f, bp "e"), when the
 *        trace has the parameter "CUDA correlation id" (SCOREP_CUDA_ENABLE references)
 *   C events: cat "metric", name "METRIC" or "METRIC [LOCATION NAME]" for locations other
 *        than a process's first CPU thread, args.value = the value as recorded
 *   X events of cat "callpath" (with SCOREP_ENABLE_UNWINDING): the calling-context path
 *   i events (instant): cat "sample", calling-context samples named by their region
 *   ts/dur: microseconds with three decimals, from exact integer nanoseconds since the
 *        trace's global offset, so nesting in ticks stays nesting in the output. */
#include "base/atomic_file.h"
#include "tools/trace_model.h"

#include <otf2/otf2.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "scorep-otf2-to-chrome"

typedef struct {
    FILE *fp;
    int first; /* no event written yet: no comma before the next */
} out;

/* One run of an explicit task on one location: from the switch to it until it completes. */
typedef struct {
    uint32_t loc;
    size_t first, last; /* event indices: the first switch to the task, its completion */
    uint64_t start, end;
    uint32_t creator, generation, lane;
} task_run;

typedef struct {
    uint32_t pid;
    uint32_t *locs; /* indices in locations[] */
    size_t n_locs;
    task_run *runs;
    size_t n_runs;
    uint32_t lanes, lane_base;
} process;

static void put_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(fp, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(fp, "\\u%04x", *p);
        else
            fputc(*p, fp);
    }
    fputc('"', fp);
}

static void put_us(FILE *fp, uint64_t ns)
{
    fprintf(fp, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static FILE *next(out *o)
{
    fputs(o->first ? "\n" : ",\n", o->fp);
    o->first = 0;
    return o->fp;
}

/* ---- processes and task lanes ---- */

static uint32_t pid_of(const tm_location *l)
{
    if (l->rank != TM_NONE)
        return l->rank;
    return 1000000u + (l->group == TM_NONE ? 999999u : l->group);
}

typedef struct {
    uint32_t ref, creator, generation;
    size_t index;
} task_mark;

static int cmp_mark(const void *a, const void *b)
{
    const task_mark *x = a, *y = b;
#define CMP(f)                                                                                     \
    if (x->f != y->f)                                                                              \
        return x->f < y->f ? -1 : 1;
    CMP(ref)
    CMP(creator)
    CMP(generation)
    CMP(index)
#undef CMP
    return 0;
}

static int add_run(process *p, size_t *cap, task_run run)
{
    if (p->n_runs == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        task_run *r = realloc(p->runs, *cap * sizeof *r);
        if (!r)
            return -1;
        p->runs = r;
    }
    p->runs[p->n_runs++] = run;
    return 0;
}

/* Runs of explicit tasks on location LI: the first switch to a task that later completes on
 * this location opens a run; switches to tasks that never complete here (implicit tasks)
 * open none. Sorted by task, then position, the switches and completions of each task are
 * read in order. */
static int find_runs(const tm_trace *t, uint32_t li, process *p, size_t *cap)
{
    const tm_location *l = &t->locations[li];
    size_t n = 0;
    for (size_t i = 0; i < l->n_events; i++)
        n += l->events[i].kind == TM_EV_TASK_SWITCH || l->events[i].kind == TM_EV_TASK_COMPLETE;
    task_mark *m = malloc((n ? n : 1) * sizeof *m);
    if (!m)
        return -1;
    n = 0;
    for (size_t i = 0; i < l->n_events; i++) {
        const tm_event *e = &l->events[i];
        if (e->kind == TM_EV_TASK_SWITCH || e->kind == TM_EV_TASK_COMPLETE)
            m[n++] = (task_mark){e->ref, e->peer, e->tag, i};
    }
    qsort(m, n, sizeof *m, cmp_mark);
    size_t open = SIZE_MAX; /* index of the first switch to the task, SIZE_MAX: none */
    for (size_t k = 0; k < n; k++) {
        if (k > 0 && (m[k].ref != m[k - 1].ref || m[k].creator != m[k - 1].creator ||
                      m[k].generation != m[k - 1].generation))
            open = SIZE_MAX;
        const tm_event *e = &l->events[m[k].index];
        if (e->kind == TM_EV_TASK_SWITCH && open == SIZE_MAX)
            open = m[k].index;
        else if (e->kind == TM_EV_TASK_COMPLETE && open != SIZE_MAX) {
            task_run r = {li, open, m[k].index, l->events[open].time, e->time, e->peer, e->tag, 0};
            if (add_run(p, cap, r)) {
                free(m);
                return -1;
            }
            open = SIZE_MAX;
        }
    }
    free(m);
    return 0;
}

static int cmp_run_start(const void *a, const void *b)
{
    const task_run *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->loc < y->loc ? -1 : x->loc > y->loc;
}

static int cmp_run_pos(const void *a, const void *b)
{
    const task_run *x = a, *y = b;
    if (x->loc != y->loc)
        return x->loc < y->loc ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Interval colouring: each run takes the lowest lane free at its start, so runs that overlap
 * in time (a task suspended while others run) never share a lane. */
static int assign_lanes(process *p)
{
    if (p->n_runs > 1) /* none: runs is NULL, which qsort must not get */
        qsort(p->runs, p->n_runs, sizeof *p->runs, cmp_run_start);
    uint64_t *busy_until = NULL;
    for (size_t i = 0; i < p->n_runs; i++) {
        uint32_t lane = 0;
        while (lane < p->lanes && busy_until[lane] > p->runs[i].start)
            lane++;
        if (lane == p->lanes) {
            uint64_t *b = realloc(busy_until, (p->lanes + 1) * sizeof *b);
            if (!b) {
                free(busy_until);
                return -1;
            }
            busy_until = b;
            p->lanes++;
        }
        busy_until[lane] = p->runs[i].end;
        p->runs[i].lane = lane;
    }
    free(busy_until);
    if (p->n_runs > 1)
        qsort(p->runs, p->n_runs, sizeof *p->runs, cmp_run_pos);
    return 0;
}

static void free_processes(process *ps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(ps[i].locs);
        free(ps[i].runs);
    }
    free(ps);
}

/* Groups the locations by pid (in order of first appearance) and finds their task lanes. */
static process *make_processes(const tm_trace *t, size_t *n_out)
{
    process *ps = calloc(t->n_locations, sizeof *ps);
    size_t n = 0;
    if (!ps)
        return NULL;
    uint32_t lane_base = (uint32_t)t->n_locations;
    for (uint32_t li = 0; li < t->n_locations; li++) {
        uint32_t pid = pid_of(&t->locations[li]);
        size_t k = 0;
        while (k < n && ps[k].pid != pid)
            k++;
        if (k == n)
            ps[n++].pid = pid;
        uint32_t *l = realloc(ps[k].locs, (ps[k].n_locs + 1) * sizeof *l);
        if (!l)
            goto oom;
        ps[k].locs = l;
        ps[k].locs[ps[k].n_locs++] = li;
    }
    for (size_t k = 0; k < n; k++) {
        size_t cap = 0;
        for (size_t i = 0; i < ps[k].n_locs; i++)
            if (find_runs(t, ps[k].locs[i], &ps[k], &cap))
                goto oom;
        if (assign_lanes(&ps[k]))
            goto oom;
        ps[k].lane_base = lane_base;
        lane_base += ps[k].lanes;
    }
    *n_out = n;
    return ps;
oom:
    free_processes(ps, n);
    return NULL;
}

/* ---- metadata ---- */

static void write_metadata(out *o, const tm_trace *t, const process *ps, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const process *p = &ps[k];
        const tm_location *l0 = &t->locations[p->locs[0]];
        const tm_group *g = l0->group == TM_NONE ? NULL : &t->groups[l0->group];
        FILE *fp = next(o);
        fprintf(fp,
                "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"args\":{\"name\":", p->pid);
        char name[512];
        if (l0->rank != TM_NONE)
            snprintf(name, sizeof name, "Rank %u%s%s", l0->rank, g && g->hostname ? " on " : "",
                     g && g->hostname ? g->hostname : "");
        else
            snprintf(name, sizeof name, "%s", g && g->name ? g->name : "Location group");
        put_str(fp, name);
        fputs("}}", fp);
        fprintf(next(o),
                "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,\"args\":{"
                "\"sort_index\":%u}}",
                p->pid, p->pid);
        for (size_t i = 0; i < p->n_locs; i++) {
            const tm_location *l = &t->locations[p->locs[i]];
            fp = next(o);
            fprintf(fp,
                    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{"
                    "\"name\":",
                    p->pid, p->locs[i]);
            put_str(fp, l->name ? l->name : "location");
            fputs("}}", fp);
            fprintf(next(o),
                    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%u,\"tid\":%u,"
                    "\"args\":{\"sort_index\":%u}}",
                    p->pid, p->locs[i], p->locs[i]);
        }
        for (uint32_t lane = 0; lane < p->lanes; lane++) {
            uint32_t tid = p->lane_base + lane;
            fprintf(next(o),
                    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,"
                    "\"args\":{\"name\":\"OpenMP tasks %u\"}}",
                    p->pid, tid, lane + 1);
            fprintf(next(o),
                    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%u,\"tid\":%u,"
                    "\"args\":{\"sort_index\":%u}}",
                    p->pid, tid, tid);
        }
    }
}

/* ---- events of one location ---- */

typedef struct {
    const tm_trace *t;
    const process *p;
    uint32_t li;
    const task_run *runs; /* this location's runs, by first event */
    size_t n_runs;
    uint32_t *ctx;  /* per event: the run it belongs to, TM_NONE: the thread itself */
    uint64_t *ends; /* per ENTER: the time of its LEAVE */
    size_t open_at_end, unmatched_leaves, skipped_values;
} loc_pass;

/* Which run each event belongs to: from a switch to a run's task until the next switch. */
static int route(loc_pass *lp)
{
    const tm_location *l = &lp->t->locations[lp->li];
    uint32_t *active = malloc((lp->n_runs ? lp->n_runs : 1) * sizeof *active);
    if (!active)
        return -1;
    size_t n_active = 0, next_run = 0;
    uint32_t cur = TM_NONE;
    for (size_t i = 0; i < l->n_events; i++) {
        const tm_event *e = &l->events[i];
        if (e->kind == TM_EV_TASK_SWITCH) {
            cur = TM_NONE;
            if (next_run < lp->n_runs && lp->runs[next_run].first == i) {
                cur = (uint32_t)next_run++;
                active[n_active++] = cur;
            } else {
                for (size_t k = 0; k < n_active; k++)
                    if (lp->runs[active[k]].creator == e->peer &&
                        lp->runs[active[k]].generation == e->tag)
                        cur = active[k];
            }
        }
        lp->ctx[i] = cur;
        if (e->kind == TM_EV_TASK_COMPLETE && cur != TM_NONE && lp->runs[cur].last == i) {
            for (size_t k = 0; k < n_active; k++)
                if (active[k] == cur)
                    active[k] = active[--n_active];
            cur = TM_NONE;
        }
    }
    free(active);
    return 0;
}

/* The LEAVE of every ENTER, with one stack per run and one for the thread (a suspended
 * task's regions stay open while others run). An ENTER never left ends at the location's
 * last event. */
static int match_regions(loc_pass *lp)
{
    const tm_location *l = &lp->t->locations[lp->li];
    size_t n = l->n_events, nctx = lp->n_runs + 1;
    size_t *prev = malloc((n ? n : 1) * sizeof *prev);
    size_t *top = malloc(nctx * sizeof *top);
    if (!prev || !top) {
        free(prev);
        free(top);
        return -1;
    }
    for (size_t k = 0; k < nctx; k++)
        top[k] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const tm_event *e = &l->events[i];
        size_t c = lp->ctx[i] == TM_NONE ? lp->n_runs : lp->ctx[i];
        if (e->kind == TM_EV_ENTER) {
            prev[i] = top[c];
            top[c] = i;
            lp->ends[i] = UINT64_MAX;
        } else if (e->kind == TM_EV_LEAVE) {
            if (top[c] == SIZE_MAX) {
                lp->unmatched_leaves++;
                continue;
            }
            lp->ends[top[c]] = e->time;
            top[c] = prev[top[c]];
        }
    }
    uint64_t last = n ? l->events[n - 1].time : 0;
    for (size_t k = 0; k < nctx; k++)
        for (size_t i = top[k]; i != SIZE_MAX; i = prev[i]) {
            lp->ends[i] = last;
            lp->open_at_end++;
        }
    free(prev);
    free(top);
    return 0;
}

static uint32_t tid_of(const loc_pass *lp, size_t i)
{
    uint32_t c = lp->ctx[i];
    return c == TM_NONE ? lp->li : lp->p->lane_base + lp->runs[c].lane;
}

static void write_region(out *o, const loc_pass *lp, size_t i)
{
    const tm_trace *t = lp->t;
    const tm_event *e = &t->locations[lp->li].events[i];
    uint64_t b = tm_ns(t, e->time), d = tm_ns(t, lp->ends[i]) - b;
    FILE *fp = next(o);
    fputs("{\"ph\":\"X\",\"cat\":\"region\",\"name\":", fp);
    put_str(fp, tm_region_name(t, e->ref));
    fprintf(fp, ",\"pid\":%u,\"tid\":%u,\"ts\":", lp->p->pid, tid_of(lp, i));
    put_us(fp, b);
    fputs(",\"dur\":", fp);
    put_us(fp, d);
    fprintf(fp, ",\"args\":{\"loc\":%u", lp->li);
    if (lp->ctx[i] != TM_NONE)
        fprintf(fp, ",\"task\":\"%u.%u\"", lp->runs[lp->ctx[i]].creator,
                lp->runs[lp->ctx[i]].generation);
    fputs("}}", fp);
}

static void write_flow(out *o, const loc_pass *lp, size_t i, int end)
{
    const tm_event *e = &lp->t->locations[lp->li].events[i];
    FILE *fp = next(o);
    fprintf(fp,
            "{\"ph\":\"%s\",\"cat\":\"mpi\",\"name\":\"message\",\"id\":%u,\"pid\":%u,"
            "\"tid\":%u,\"ts\":",
            end ? "f" : "s", e->message, lp->p->pid, tid_of(lp, i));
    put_us(fp, tm_ns(lp->t, e->time));
    fprintf(fp, "%s,\"args\":{\"bytes\":%" PRIu64 ",\"tag\":%u}}", end ? ",\"bp\":\"e\"" : "", e->u,
            e->tag);
}

/* CUDA references: the launch (a CPU thread) starts the arrow, the kernel (a GPU stream)
 * ends it */
static void write_cuda_flow(out *o, const loc_pass *lp, size_t i)
{
    const tm_location *l = &lp->t->locations[lp->li];
    const tm_event *e = &l->events[i];
    int end = l->kind == TM_LOC_GPU;
    FILE *fp = next(o);
    fprintf(fp,
            "{\"ph\":\"%s\",\"cat\":\"cuda\",\"name\":\"launch\",\"id\":%" PRIu64
            ",\"pid\":%u,\"tid\":%u,\"ts\":",
            end ? "f" : "s", ((uint64_t)1 << 40) + e->u, lp->p->pid, tid_of(lp, i));
    put_us(fp, tm_ns(lp->t, e->time));
    fprintf(fp, "%s,\"args\":{\"correlation\":%" PRIu64 "}}", end ? ",\"bp\":\"e\"" : "", e->u);
}

static void write_metric(out *o, loc_pass *lp, size_t i)
{
    const tm_trace *t = lp->t;
    const tm_location *l = &t->locations[lp->li];
    const tm_event *e = &l->events[i];
    if (e->ref >= t->n_metric_classes)
        return;
    const tm_metric_class *mc = &t->metric_classes[e->ref];
    for (uint32_t k = 0; k < mc->n && k < e->tag; k++) {
        if (mc->members[k] >= t->n_metric_members)
            continue;
        const tm_metric_member *m = &t->metric_members[mc->members[k]];
        const tm_value *v = &t->values[e->u + k];
        if (m->value_type == OTF2_TYPE_DOUBLE && !isfinite(v->d)) {
            lp->skipped_values++; /* JSON has no NaN or infinity */
            continue;
        }
        FILE *fp = next(o);
        fprintf(fp, "{\"ph\":\"C\",\"cat\":\"metric\",\"pid\":%u,\"name\":", lp->p->pid);
        char name[512];
        if (l->kind == TM_LOC_CPU && l->thread == 0)
            snprintf(name, sizeof name, "%s", m->name ? m->name : "metric");
        else
            snprintf(name, sizeof name, "%s [%s]", m->name ? m->name : "metric",
                     l->name ? l->name : "?");
        put_str(fp, name);
        fputs(",\"ts\":", fp);
        put_us(fp, tm_ns(t, e->time));
        fputs(",\"args\":{\"value\":", fp);
        if (m->value_type == OTF2_TYPE_DOUBLE)
            fprintf(fp, "%.17g", v->d);
        else if (m->value_type == OTF2_TYPE_INT64)
            fprintf(fp, "%" PRId64, v->i);
        else
            fprintf(fp, "%" PRIu64, v->u);
        fputs("}}", fp);
    }
}

static void write_sample(out *o, const loc_pass *lp, size_t i)
{
    const tm_trace *t = lp->t;
    const tm_event *e = &t->locations[lp->li].events[i];
    uint32_t region = e->ref < t->n_calling_contexts ? t->calling_contexts[e->ref].region : TM_NONE;
    FILE *fp = next(o);
    fputs("{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"sample\",\"name\":", fp);
    put_str(fp, tm_region_name(t, region));
    fprintf(fp, ",\"pid\":%u,\"tid\":%u,\"ts\":", lp->p->pid, tid_of(lp, i));
    put_us(fp, tm_ns(t, e->time));
    fprintf(fp, ",\"args\":{\"loc\":%u}}", lp->li);
}

/* ---- calling contexts (SCOREP_ENABLE_UNWINDING): the path of the current context ---- */

enum { MAX_DEPTH = 1024 };

typedef struct {
    uint32_t cc[MAX_DEPTH];
    uint64_t since[MAX_DEPTH];
    size_t depth;
} cc_path;

static void write_frame(out *o, const loc_pass *lp, uint32_t cc, uint64_t from, uint64_t to)
{
    const tm_trace *t = lp->t;
    uint32_t region = cc < t->n_calling_contexts ? t->calling_contexts[cc].region : TM_NONE;
    uint64_t b = tm_ns(t, from);
    FILE *fp = next(o);
    fputs("{\"ph\":\"X\",\"cat\":\"callpath\",\"name\":", fp);
    put_str(fp, tm_region_name(t, region));
    fprintf(fp, ",\"pid\":%u,\"tid\":%u,\"ts\":", lp->p->pid, lp->li);
    put_us(fp, b);
    fputs(",\"dur\":", fp);
    put_us(fp, tm_ns(t, to) - b);
    fprintf(fp, ",\"args\":{\"loc\":%u}}", lp->li);
}

/* Makes the path the chain from the root down to CC (TM_NONE: empty) at TIME: frames no
 * longer on it are written as complete events, new ones start at TIME. */
static void move_to(out *o, const loc_pass *lp, cc_path *p, uint32_t cc, uint64_t time)
{
    const tm_trace *t = lp->t;
    uint32_t chain[MAX_DEPTH];
    size_t n = 0;
    for (uint32_t c = cc; c < t->n_calling_contexts && n < MAX_DEPTH;
         c = t->calling_contexts[c].parent)
        chain[n++] = c;
    size_t common = 0;
    while (common < p->depth && common < n && p->cc[common] == chain[n - 1 - common])
        common++;
    while (p->depth > common) {
        p->depth--;
        write_frame(o, lp, p->cc[p->depth], p->since[p->depth], time);
    }
    for (; p->depth < n; p->depth++) {
        p->cc[p->depth] = chain[n - 1 - p->depth];
        p->since[p->depth] = time;
    }
}

/* Calling-context enter and leave events as complete events of the calling-context tree
 * (category "callpath"); frames still open at the end close at the last event. */
static int write_calling_contexts(out *o, const loc_pass *lp)
{
    const tm_location *l = &lp->t->locations[lp->li];
    cc_path *path = calloc(1, sizeof *path);
    if (!path)
        return -1;
    for (size_t i = 0; i < l->n_events; i++) {
        const tm_event *e = &l->events[i];
        if (e->kind == TM_EV_CC_ENTER)
            move_to(o, lp, path, e->ref, e->time);
        else if (e->kind == TM_EV_CC_LEAVE)
            move_to(o, lp, path,
                    e->ref < lp->t->n_calling_contexts ? lp->t->calling_contexts[e->ref].parent
                                                       : TM_NONE,
                    e->time);
    }
    move_to(o, lp, path, TM_NONE, l->n_events ? l->events[l->n_events - 1].time : 0);
    free(path);
    return 0;
}

static int write_events(out *o, loc_pass *lp)
{
    const tm_location *l = &lp->t->locations[lp->li];
    for (size_t i = 0; i < l->n_events; i++) {
        const tm_event *e = &l->events[i];
        switch (e->kind) {
        case TM_EV_ENTER:
            write_region(o, lp, i);
            break;
        case TM_EV_SEND:
        case TM_EV_ISEND:
        case TM_EV_RECV:
        case TM_EV_IRECV:
            if (e->message != TM_NONE)
                write_flow(o, lp, i, e->kind == TM_EV_RECV || e->kind == TM_EV_IRECV);
            break;
        case TM_EV_METRIC:
            write_metric(o, lp, i);
            break;
        case TM_EV_CUDA_REF:
            write_cuda_flow(o, lp, i);
            break;
        case TM_EV_SAMPLE:
            write_sample(o, lp, i);
            break;
        default:
            break;
        }
    }
    return lp->t->events_by_kind[TM_EV_CC_ENTER] ? write_calling_contexts(o, lp) : 0;
}

typedef struct {
    size_t open_at_end, unmatched_leaves, skipped_values;
} totals;

static int write_location(out *o, const tm_trace *t, const process *p, uint32_t li, totals *sum)
{
    loc_pass lp = {t, p, li, NULL, 0, NULL, NULL, 0, 0, 0};
    size_t r0 = 0;
    while (r0 < p->n_runs && p->runs[r0].loc != li)
        r0++;
    lp.runs = p->runs + r0;
    while (r0 + lp.n_runs < p->n_runs && p->runs[r0 + lp.n_runs].loc == li)
        lp.n_runs++;
    size_t n = t->locations[li].n_events ? t->locations[li].n_events : 1;
    lp.ctx = malloc(n * sizeof *lp.ctx);
    lp.ends = malloc(n * sizeof *lp.ends);
    int rc = !lp.ctx || !lp.ends || route(&lp) || match_regions(&lp) ? -1 : 0;
    if (!rc)
        rc = write_events(o, &lp);
    sum->open_at_end += lp.open_at_end;
    sum->unmatched_leaves += lp.unmatched_leaves;
    sum->skipped_values += lp.skipped_values;
    free(lp.ctx);
    free(lp.ends);
    return rc;
}

/* ---- task dependences as flow arrows, from the analysis's taskgraph.dot ---- */

/* A task node of taskgraph.dot (docs/openmp.md "Task graph"): its id, rank and task
 * attribute "CREATOR.GENERATION" (the identity the trace's ThreadTask records give). */
typedef struct {
    char id[48];
    uint32_t rank, creator, generation;
    int known;
} dot_task;

/* the value of attribute KEY (bare or quoted) in the statement S, into V; 0 when found */
static int dot_attr(const char *s, const char *key, char *v, size_t len)
{
    size_t kl = strlen(key);
    for (const char *p = strstr(s, key); p; p = strstr(p + kl, key)) {
        if ((p[-1] != ' ' && p[-1] != '[') || p[kl] != '=')
            continue;
        p += kl + 1;
        size_t n = *p == '"' ? strcspn(++p, "\"") : strcspn(p, " ];");
        snprintf(v, len, "%.*s", (int)n, p);
        return 0;
    }
    return -1;
}

/* the quoted id at the start of S (after blanks) into ID; the rest of S, NULL when none */
static const char *dot_id(const char *s, char *id, size_t len)
{
    s += strspn(s, " \t");
    if (*s != '"')
        return NULL;
    size_t n = strcspn(s + 1, "\"");
    if (s[1 + n] != '"')
        return NULL;
    snprintf(id, len, "%.*s", (int)n, s + 1);
    return s + n + 2;
}

static const dot_task *dot_find(const dot_task *v, size_t n, const char *id)
{
    for (size_t i = n; i-- > 0;) /* an edge follows its nodes: the latest first */
        if (!strcmp(v[i].id, id))
            return &v[i];
    return NULL;
}

/* the run of task (creator, generation) in process RANK: its first (or last) piece */
static const task_run *dot_run(const process *ps, size_t n, const dot_task *d, int last)
{
    const task_run *best = NULL;
    for (size_t k = 0; k < n; k++) {
        if (ps[k].pid != d->rank)
            continue;
        for (size_t i = 0; i < ps[k].n_runs; i++) {
            const task_run *r = &ps[k].runs[i];
            if (r->creator == d->creator && r->generation == d->generation &&
                (!best || (last ? r->end > best->end : r->start < best->start)))
                best = r;
        }
    }
    return best;
}

static uint32_t run_tid(const process *ps, size_t n, const task_run *r, uint32_t rank)
{
    for (size_t k = 0; k < n; k++)
        if (ps[k].pid == rank)
            return ps[k].lane_base + r->lane;
    return 0;
}

/* One s/f flow per dependence and parent -> child edge of taskgraph.dot beside the trace
 * (cat "task", name "dependence" or "create", id 2^41 + the edge's number): from the
 * predecessor's last piece (1 us before its end) to the successor's first piece (1 us after
 * its start, bp "e"), inside the task regions' slices (a tick inside the task's switch and
 * completion; the middle of a piece shorter than 2 us). Nothing when the file is absent or
 * merged (no task attribute). */
static int write_task_flows(out *o, const tm_trace *t, const process *ps, size_t n,
                            const char *source)
{
    char path[4200];
    size_t sl = strlen(source);
    if (sl > 5 && !strcmp(source + sl - 5, ".otf2")) {
        const char *slash = strrchr(source, '/');
        snprintf(path, sizeof path, "%.*s/taskgraph.dot", slash ? (int)(slash - source) : 1,
                 slash ? source : ".");
    } else {
        snprintf(path, sizeof path, "%s/taskgraph.dot", source);
    }
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    dot_task *v = NULL;
    size_t nv = 0, cap = 0, edges = 0;
    char *line = NULL;
    size_t lcap = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &lcap, f) >= 0) {
        char a[48], b[48], val[64];
        const char *rest = dot_id(line, a, sizeof a);
        if (!rest)
            continue;
        rest += strspn(rest, " ");
        if (strncmp(rest, "->", 2) != 0) { /* a node */
            if (nv == cap) {
                cap = cap ? 2 * cap : 256;
                dot_task *nn = realloc(v, cap * sizeof *nn);
                if (!nn) {
                    rc = -1;
                    break;
                }
                v = nn;
            }
            dot_task *d = &v[nv++];
            memset(d, 0, sizeof *d);
            snprintf(d->id, sizeof d->id, "%s", a);
            d->known = dot_attr(rest, "task", val, sizeof val) == 0 &&
                       sscanf(val, "%u.%u", &d->creator, &d->generation) == 2 &&
                       dot_attr(rest, "rank", val, sizeof val) == 0 &&
                       sscanf(val, "%u", &d->rank) == 1;
            continue;
        }
        if (!dot_id(rest + 2, b, sizeof b))
            continue;
        const char *kind = dot_attr(rest, "kind", val, sizeof val) == 0 ? val : "dependence";
        if (strcmp(kind, "dependence") && strcmp(kind, "create"))
            continue; /* joins: no task at the far end */
        const dot_task *x = dot_find(v, nv, a), *y = dot_find(v, nv, b);
        const task_run *rx = x && x->known ? dot_run(ps, n, x, 1) : NULL;
        const task_run *ry = y && y->known ? dot_run(ps, n, y, 0) : NULL;
        if (!rx || !ry)
            continue;
        uint64_t id = (1ull << 41) + edges++;
        uint64_t at = tm_ns(t, rx->end), from = tm_ns(t, rx->start);
        FILE *fp = next(o);
        fprintf(fp,
                "{\"ph\":\"s\",\"cat\":\"task\",\"name\":\"%s\",\"id\":%" PRIu64
                ",\"pid\":%u,\"tid\":%u,\"ts\":",
                kind, id, x->rank, run_tid(ps, n, rx, x->rank));
        put_us(fp, at > from + 2000 ? at - 1000 : from + (at - from) / 2);
        fputs("}", fp);
        fp = next(o);
        fprintf(fp,
                "{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"task\",\"name\":\"%s\",\"id\":%" PRIu64
                ",\"pid\":%u,\"tid\":%u,\"ts\":",
                kind, id, y->rank, run_tid(ps, n, ry, y->rank));
        uint64_t b0 = tm_ns(t, ry->start), b1 = tm_ns(t, ry->end);
        put_us(fp, b1 > b0 + 2000 ? b0 + 1000 : b0 + (b1 - b0) / 2);
        fputs("}", fp);
    }
    free(line);
    free(v);
    fclose(f);
    return rc;
}

/* ---- the document ---- */

static int write_trace(FILE *fp, const tm_trace *t, const char *source, totals *sum)
{
    size_t n = 0;
    process *ps = make_processes(t, &n);
    if (!ps)
        return -1;
    out o = {fp, 1};
    fputs("{\"traceEvents\":[", fp);
    write_metadata(&o, t, ps, n);
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++)
        for (size_t i = 0; i < ps[k].n_locs && !rc; i++)
            rc = write_location(&o, t, &ps[k], ps[k].locs[i], sum);
    if (!rc)
        rc = write_task_flows(&o, t, ps, n, source);
    fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"converter\":\"" PROG "\",\"trace\":",
          fp);
    put_str(fp, source);
    fprintf(fp,
            ",\"timer_resolution\":%" PRIu64 ",\"messages\":%zu,\"unmatched_sends\":%zu,"
            "\"unmatched_receives\":%zu}}\n",
            t->clock.resolution, t->n_messages, t->unmatched_sends, t->unmatched_recvs);
    free_processes(ps, n);
    return rc;
}

static void usage(FILE *fp)
{
    fprintf(fp, "usage: " PROG " [-o FILE] traces.otf2|EXPERIMENT_DIRECTORY\n"
                "  writes the trace in Chrome's Trace Event Format (JSON) for Perfetto UI\n"
                "  (https://ui.perfetto.dev) and chrome://tracing\n"
                "  -o FILE  write to FILE (complete or not at all) instead of stdout\n");
}

/* Writes the trace to OUTPUT (complete or not at all, see atomic_file.h) or to stdout. */
static int convert(const tm_trace *t, const char *source, const char *output)
{
    scorep_atomic_file af = {0};
    char why[1024];
    if (output &&
        scorep_atomic_open(&af, output, SCOREP_ATOMIC_REMOVE_ON_SIGNAL, why, sizeof why)) {
        fprintf(stderr, PROG ": %s\n", why);
        return 1;
    }
    FILE *fp = output ? af.fp : stdout;
    static char buf[1 << 20];
    setvbuf(fp, buf, _IOFBF, sizeof buf);
    totals sum = {0, 0, 0};
    errno = 0;
    int failed = write_trace(fp, t, source, &sum);
    int err = errno;
    if (!output && (fflush(fp) != 0 || ferror(fp)))
        failed = 1, err = errno;
    if (failed) {
        fprintf(stderr, PROG ": %s: %s\n", output ? output : "stdout",
                err ? strerror(err) : "out of memory");
        if (output)
            scorep_atomic_abort(&af);
        return 1;
    }
    if (output && scorep_atomic_commit(&af, why, sizeof why)) {
        fprintf(stderr, PROG ": %s\n", why);
        return 1;
    }
    if (sum.open_at_end || sum.unmatched_leaves)
        fprintf(stderr,
                PROG ": warning: %zu regions never left (closed at their location's last event), "
                     "%zu leaves without an enter (dropped)\n",
                sum.open_at_end, sum.unmatched_leaves);
    if (sum.skipped_values)
        fprintf(stderr, PROG ": warning: %zu metric values that are not finite left out\n",
                sum.skipped_values);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *output = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        if (c == 'o')
            output = optarg;
        else if (c == 'h') {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (optind + 1 != argc) {
        usage(stderr);
        return 2;
    }
    const char *source = argv[optind];
    tm_trace *t;
    char err[512];
    if (tm_load(source, &t, err, sizeof err)) {
        fprintf(stderr, PROG ": %s: %s\n", source, err);
        return 1;
    }
    if (t->damage[0]) /* the intact part is converted */
        fprintf(stderr, PROG ": warning: %s: damaged trace, converting what is intact: %s\n",
                source, t->damage);
    int rc = convert(t, source, output);
    tm_free(t);
    return rc;
}
