/* SPDX-License-Identifier: BSD-3-Clause */
/* metric_perf.c: SCOREP_METRIC_PERF(_PER_PROCESS): kernel perf events opened with
 * perf_event_open, one counter group per thread read with one read(); it also counts PAPI's
 * perf:: software events when PAPI's own perf_event component is disabled (metric_papi.c). */
#include "base/log.h"
#include "defs/defs.h"
#include "metrics/metrics.h"
#include "metrics/metric_perf.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { MAX_EVENTS = SCOREP_PERF_MAX_EVENTS };

/* Software events: perf's names (Score-P's SCOREP_METRIC_PERF), libpfm4's names of the same
 * event (PAPI's perf::NAME) and libpfm4's canonical name, which PAPI gives as description. */
typedef struct {
    uint64_t config;
    const char *perf, *perf_alias, *pfm, *pfm_alias, *canon;
} sw_event;

static const sw_event sw_events[] = {
    {PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", NULL, "CPU-CLOCK", NULL, "PERF_COUNT_SW_CPU_CLOCK"},
    {PERF_COUNT_SW_TASK_CLOCK, "task-clock", NULL, "TASK-CLOCK", NULL, "PERF_COUNT_SW_TASK_CLOCK"},
    {PERF_COUNT_SW_PAGE_FAULTS, "page-faults", "faults", "PAGE-FAULTS", "FAULTS",
     "PERF_COUNT_SW_PAGE_FAULTS"},
    {PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches", "cs", "CONTEXT-SWITCHES", "CS",
     "PERF_COUNT_SW_CONTEXT_SWITCHES"},
    {PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations", "migrations", "CPU-MIGRATIONS", "MIGRATIONS",
     "PERF_COUNT_SW_CPU_MIGRATIONS"},
    {PERF_COUNT_SW_PAGE_FAULTS_MIN, "minor-faults", NULL, "MINOR-FAULTS", NULL,
     "PERF_COUNT_SW_PAGE_FAULTS_MIN"},
    {PERF_COUNT_SW_PAGE_FAULTS_MAJ, "major-faults", NULL, "MAJOR-FAULTS", NULL,
     "PERF_COUNT_SW_PAGE_FAULTS_MAJ"},
    /* libpfm4 has no perf:: names for these two */
    {PERF_COUNT_SW_ALIGNMENT_FAULTS, "alignment-faults", NULL, NULL, NULL,
     "PERF_COUNT_SW_ALIGNMENT_FAULTS"},
    {PERF_COUNT_SW_EMULATION_FAULTS, "emulation-faults", NULL, NULL, NULL,
     "PERF_COUNT_SW_EMULATION_FAULTS"},
};
enum { N_SW = sizeof sw_events / sizeof sw_events[0] };

/* Generic hardware events with perf's names (and Score-P's aliases). */
static const struct {
    const char *name;
    uint64_t config;
} hw_events[] = {
    {"cycles", PERF_COUNT_HW_CPU_CYCLES},
    {"cpu-cycles", PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_COUNT_HW_INSTRUCTIONS},
    {"cache-references", PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache-misses", PERF_COUNT_HW_CACHE_MISSES},
    {"branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-misses", PERF_COUNT_HW_BRANCH_MISSES},
    {"bus-cycles", PERF_COUNT_HW_BUS_CYCLES},
    {"stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
    {"idle-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
    {"stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
    {"idle-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
    {"ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES},
};

/* Hardware cache events, perf's <cache>-<op>s / <cache>-<op>-misses: the kernel's config is
 * cache | op << 8 | result << 16. */
static const char *const caches[] = {"L1-dcache", "L1-icache", "LLC", "dTLB",
                                     "iTLB",      "branch",    "node"};
static const char *const cache_ops[][2] = {
    {"loads", "load-misses"}, {"stores", "store-misses"}, {"prefetches", "prefetch-misses"}};

#define PERF_NAMES                                                                                 \
    "task-clock, cpu-clock, page-faults, minor-faults, major-faults, context-switches, "           \
    "cpu-migrations, alignment-faults, emulation-faults, cycles, instructions, "                   \
    "cache-references, cache-misses, branch-instructions, branch-misses, bus-cycles, "             \
    "stalled-cycles-frontend, stalled-cycles-backend, ref-cycles, "                                \
    "<cache>-<loads|stores|prefetches>[-misses] (cache: L1-dcache, L1-icache, LLC, dTLB, iTLB, "   \
    "branch, node; e.g. L1-dcache-load-misses), r<hex> (raw), each with an optional :u or :k"

/* The events of one group (SCOREP_METRIC_PERF or the PAPI fallback, per thread or per
 * process), set up at init; every thread opens its own copy. */
typedef struct {
    scorep_metric_group g;
    const char *var; /* the variable the events came from, for messages */
    struct perf_event_attr attr[MAX_EVENTS];
    uint32_t ids[MAX_EVENTS];
    char names[MAX_EVENTS][64];
    int probe[MAX_EVENTS]; /* the init-time probe's descriptors, closed when set up */
    char user_only[512];   /* events the kernel let count only in user mode */
} perf_group;

/* [0] SCOREP_METRIC_PERF, [1] _PER_PROCESS, [2] PAPI fallback, [3] PAPI per process */
static perf_group groups[4];

static int perf_open(struct perf_event_attr *a, int group_fd)
{
    return (int)syscall(SYS_perf_event_open, a, 0 /* this thread */, -1 /* any CPU */, group_fd,
                        PERF_FLAG_FD_CLOEXEC);
}

static void close_all(int *fds, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* Opens the events of g as one group of the calling thread; 0 or an errno. */
static int open_group(const perf_group *g, int *fds)
{
    for (uint32_t i = 0; i < g->g.n; i++) {
        struct perf_event_attr a = g->attr[i];
        a.disabled = i == 0; /* all start together when the leader is enabled */
        fds[i] = perf_open(&a, i == 0 ? -1 : fds[0]);
        if (fds[i] < 0) {
            int err = errno;
            close_all(fds, i);
            return err;
        }
    }
    if (ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0) {
        int err = errno;
        close_all(fds, g->g.n);
        return err;
    }
    return 0;
}

static int perf_attach(scorep_metric_group *grp, struct scorep_location *l, void **state)
{
    (void)l;
    perf_group *g = grp->ctx;
    scorep_perf_thread *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    int err = open_group(g, t->fds);
    if (err) {
        scorep_warn("%s: the perf counters of a new thread cannot be opened (perf_event_open: "
                    "%s); this thread records none of them",
                    g->var, strerror(err));
        free(t);
        return -1;
    }
    t->n = g->g.n;
    *state = t;
    return 0;
}

/* The thread ends: its descriptors are given back. */
static void perf_release(void *state)
{
    scorep_perf_thread *t = state;
    close_all(t->fds, t->n);
    free(t);
}

/* The reason the kernel gives, in words a user can act on. */
static const char *open_hint(int err, const struct perf_event_attr *a)
{
    if (err == EACCES || err == EPERM)
        return "not permitted: see /proc/sys/kernel/perf_event_paranoid";
    if (a->type != PERF_TYPE_SOFTWARE &&
        (err == ENOENT || err == EOPNOTSUPP || err == ENODEV || err == EINVAL))
        return "this machine exposes no hardware counter for it, e.g. a VM without a PMU";
    if (err == EMFILE)
        return "too many open files";
    return "the kernel refuses it";
}

/* Probes event i of g by adding it to the probe group built so far (so that events that
 * cannot be counted together are found at init, once). A default domain that the kernel
 * does not allow (perf_event_paranoid >= 2 without CAP_PERFMON) falls back to user mode. */
static int probe_event(perf_group *g, uint32_t i, bool default_domain)
{
    int leader = i == 0 ? -1 : g->probe[0];
    g->probe[i] = perf_open(&g->attr[i], leader);
    if (g->probe[i] < 0 && (errno == EACCES || errno == EPERM) && default_domain &&
        !g->attr[i].exclude_kernel) {
        g->attr[i].exclude_kernel = 1;
        g->probe[i] = perf_open(&g->attr[i], leader);
        if (g->probe[i] >= 0) {
            size_t len = strlen(g->user_only);
            snprintf(g->user_only + len, sizeof g->user_only - len, "%s%s", len ? ", " : "",
                     g->names[i]);
        }
    }
    return g->probe[i] < 0 ? errno : 0;
}

/* Adds an event to g: probed, then defined. */
static void add_event(perf_group *g, const char *name, struct perf_event_attr *a,
                      const scorep_metric_def *d, bool default_domain)
{
    uint32_t i = g->g.n;
    for (uint32_t k = 0; k < i; k++)
        if (strcmp(g->names[k], name) == 0)
            return; /* listed twice: one counter, one metric */
    if (i == MAX_EVENTS) {
        scorep_warn("%s: more than %d events; '%s' is not recorded", g->var, MAX_EVENTS, name);
        return;
    }
    a->size = sizeof *a;
    a->read_format = PERF_FORMAT_GROUP;
    g->attr[i] = *a;
    snprintf(g->names[i], sizeof g->names[i], "%s", name);
    int err = probe_event(g, i, default_domain);
    if (err) {
        scorep_warn("%s: perf event '%s' cannot be counted here (perf_event_open: %s; %s); it is "
                    "not recorded. `perf list` shows the events of this machine",
                    g->var, name, strerror(err), open_hint(err, &g->attr[i]));
        return;
    }
    scorep_metric_def def = *d;
    def.per = g == &groups[1] || g == &groups[3]; /* the _PER_PROCESS lists */
    uint32_t id = scorep_defs_metric_full(&def);
    if (id == SCOREP_INVALID_ID) {
        close(g->probe[i]);
        return;
    }
    g->ids[g->g.n++] = id;
}

static bool lookup_sw(const char *name, struct perf_event_attr *a)
{
    for (int i = 0; i < N_SW; i++) {
        const sw_event *e = &sw_events[i];
        if (strcasecmp(name, e->perf) == 0 ||
            (e->perf_alias && strcasecmp(name, e->perf_alias) == 0)) {
            a->type = PERF_TYPE_SOFTWARE;
            a->config = e->config;
            return true;
        }
    }
    return false;
}

static bool lookup_cache(const char *name, struct perf_event_attr *a)
{
    for (uint64_t c = 0; c < sizeof caches / sizeof caches[0]; c++) {
        size_t len = strlen(caches[c]);
        if (strncasecmp(name, caches[c], len) != 0 || name[len] != '-')
            continue;
        for (uint64_t op = 0; op < 3; op++)
            for (uint64_t miss = 0; miss < 2; miss++)
                if (strcasecmp(name + len + 1, cache_ops[op][miss]) == 0) {
                    a->type = PERF_TYPE_HW_CACHE;
                    a->config = c | op << 8 | miss << 16;
                    return true;
                }
    }
    return false;
}

static bool lookup_raw(const char *name, struct perf_event_attr *a)
{
    if ((name[0] != 'r' && name[0] != 'R') || !name[1] ||
        strspn(name + 1, "0123456789abcdefABCDEF") != strlen(name + 1))
        return false;
    a->type = PERF_TYPE_RAW;
    a->config = strtoull(name + 1, NULL, 16);
    return true;
}

/* perf's event names (Score-P's SCOREP_METRIC_PERF accepts the same ones). */
static bool lookup_perf(const char *name, struct perf_event_attr *a)
{
    if (lookup_sw(name, a))
        return true;
    for (size_t i = 0; i < sizeof hw_events / sizeof hw_events[0]; i++)
        if (strcasecmp(name, hw_events[i].name) == 0) {
            a->type = PERF_TYPE_HARDWARE;
            a->config = hw_events[i].config;
            return true;
        }
    return lookup_cache(name, a) || lookup_raw(name, a);
}

/* perf's modifiers :u (user mode only), :k (kernel only), :uk; false for others. */
static bool perf_modifiers(const char *m, struct perf_event_attr *a, bool *default_domain)
{
    if (!*m)
        return true;
    bool u = false, k = false;
    for (; *m; m++) {
        if (*m == 'u')
            u = true;
        else if (*m == 'k')
            k = true;
        else
            return false;
    }
    a->exclude_user = !u;
    a->exclude_kernel = !k;
    *default_domain = false;
    return true;
}

static void add_perf_token(const char *tok, void *arg)
{
    perf_group *g = arg;
    char name[128];
    snprintf(name, sizeof name, "%s", tok);
    char *colon = strchr(name, ':');
    const char *mods = "";
    if (colon) {
        *colon = 0;
        mods = colon + 1;
    }
    /* user and kernel mode by default, where the kernel allows it: context switches and
     * migrations happen in the kernel, and page faults of system calls too */
    struct perf_event_attr a = {.exclude_hv = 1};
    bool default_domain = true;
    if (!lookup_perf(name, &a) || !perf_modifiers(mods, &a, &default_domain)) {
        scorep_warn("%s: unknown perf event '%s' is not recorded; the names are perf's: %s", g->var,
                    tok, PERF_NAMES);
        return;
    }
    scorep_metric_def d = {.name = tok,
                           .unit = "#", /* Score-P's unit for all perf metrics */
                           .type = SCOREP_METRIC_UINT64,
                           .description =
                               a.type == PERF_TYPE_SOFTWARE && a.config == PERF_COUNT_SW_TASK_CLOCK
                                   ? "perf_event_open: CPU time of the thread in ns"
                                   : "perf_event_open counter",
                           .source = SCOREP_MSRC_PERF,
                           .mode = 0, /* accumulated start */
                           .base = 1,
                           .recorder = SCOREP_MREC_STRICT};
    add_event(g, tok, &a, &d, default_domain);
}

static void close_probes(perf_group *g)
{
    close_all(g->probe, g->g.n);
}

static void register_group(perf_group *g, bool per_process)
{
    close_probes(g);
    if (g->g.n == 0)
        return;
    g->g.ids = g->ids;
    g->g.master_only = per_process;
    g->g.attach = perf_attach;
    g->g.read = NULL; /* read inline by the event path: scorep_perf_read */
    g->g.release = perf_release;
    g->g.ctx = g;
    scorep_metrics_add_group(&g->g);
}

static void report_user_only(const perf_group *g)
{
    if (!g->user_only[0])
        return;
    scorep_warn("%s: the kernel lets this process count only user-mode events "
                "(/proc/sys/kernel/perf_event_paranoid >= 2 without CAP_PERFMON), so %s count "
                "user mode only (context switches and CPU migrations happen in the kernel: 0)",
                g->var, g->user_only);
}

void scorep_metric_perf_init(const char *names, bool per_process, const char *sep)
{
    perf_group *g = &groups[per_process];
    if (!names || !*names)
        return;
    g->var = per_process ? "SCOREP_METRIC_PERF_PER_PROCESS" : "SCOREP_METRIC_PERF";
    scorep_metrics_tokens(names, sep, add_perf_token, g);
    report_user_only(g);
    register_group(g, per_process);
}

/* ----------------------------------------------------------------- PAPI fallback */

static const sw_event *lookup_pfm(const char *name)
{
    for (int i = 0; i < N_SW; i++) {
        const sw_event *e = &sw_events[i];
        if ((e->pfm && strcasecmp(name, e->pfm) == 0) ||
            (e->pfm_alias && strcasecmp(name, e->pfm_alias) == 0) ||
            (e->pfm && strcasecmp(name, e->canon) == 0))
            return e;
    }
    return NULL;
}

/* libpfm4's privilege-level qualifiers u, k, h (optionally =0 or =1); false for others,
 * which only PAPI itself could apply. */
static bool papi_qualifier(const char *q, struct perf_event_attr *a)
{
    char c = q[0];
    if ((c != 'u' && c != 'k' && c != 'h') ||
        (q[1] && strcmp(q + 1, "=0") != 0 && strcmp(q + 1, "=1") != 0))
        return false;
    unsigned exclude = q[1] && q[2] == '0';
    if (c == 'u')
        a->exclude_user = exclude;
    else if (c == 'k')
        a->exclude_kernel = exclude;
    else
        a->exclude_hv = exclude;
    return true;
}

/* Splits "perf::NAME[:q...]"; NULL when it is not a perf:: software event we know. */
static const sw_event *parse_papi_name(const char *name, struct perf_event_attr *a, char *bad,
                                       size_t bad_size)
{
    if (strncasecmp(name, "perf::", 6) != 0)
        return NULL;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", name + 6);
    char *q = strchr(buf, ':');
    if (q)
        *q++ = 0;
    const sw_event *e = lookup_pfm(buf);
    if (!e)
        return NULL;
    /* PAPI's default domain is PAPI_DOM_USER: exclude_kernel unless :k= says otherwise */
    *a = (struct perf_event_attr){
        .type = PERF_TYPE_SOFTWARE, .config = e->config, .exclude_kernel = 1, .exclude_hv = 1};
    bad[0] = 0;
    for (char *s = q; s && *s;) {
        char *next = strchr(s, ':');
        if (next)
            *next++ = 0;
        if (!papi_qualifier(s, a) && !bad[0])
            snprintf(bad, bad_size, "%s", s);
        s = next;
    }
    return e;
}

int scorep_metric_perf_papi_add(const char *name, bool absolute, bool per_process)
{
    perf_group *g = &groups[2 + per_process];
    g->var = per_process ? "SCOREP_METRIC_PAPI_PER_PROCESS" : "SCOREP_METRIC_PAPI";
    struct perf_event_attr a;
    char bad[64];
    const sw_event *e = parse_papi_name(name, &a, bad, sizeof bad);
    if (!e)
        return 1;
    if (bad[0]) {
        scorep_warn("%s: PAPI event '%s': the qualifier '%s' is not supported when perf:: "
                    "events are counted without PAPI (PAPI's perf_event component is disabled "
                    "here); it is not recorded. Only u, k and h (=0 or =1) are",
                    g->var, name, bad);
        return -1;
    }
    /* the metric PAPI would define: its name, PAPI's source type, unit and description */
    scorep_metric_def d = {.name = name,
                           .unit = "#",
                           .type = SCOREP_METRIC_UINT64,
                           .description = e->canon,
                           .source = SCOREP_MSRC_PAPI,
                           .mode = absolute ? 4 /* absolute point */ : 0,
                           .base = 1,
                           .recorder = SCOREP_MREC_STRICT};
    uint32_t n = g->g.n;
    add_event(g, name, &a, &d, false);
    return g->g.n > n ? 0 : -1;
}

/* After SCOREP_METRIC_PAPI and _PER_PROCESS: the fallback groups, and one line saying so. */
void scorep_metric_perf_papi_end(const char *reason)
{
    char list[1024] = "";
    for (int pp = 0; pp < 2; pp++) {
        perf_group *g = &groups[2 + pp];
        for (uint32_t i = 0; i < g->g.n; i++) {
            size_t len = strlen(list);
            snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", g->names[i]);
        }
        register_group(g, pp);
    }
    if (list[0])
        scorep_warn("SCOREP_METRIC_PAPI: PAPI's perf_event component is disabled here (%s), so "
                    "%s %s counted with perf_event_open directly, under the same name%s and with "
                    "PAPI's semantics (user mode unless :k=1)",
                    reason, list, strchr(list, ',') ? "are" : "is", strchr(list, ',') ? "s" : "");
}
