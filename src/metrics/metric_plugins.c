/* SPDX-License-Identifier: BSD-3-Clause */
/* metric_plugins.c: SCOREP_METRIC_PLUGINS: Score-P metric plugins (lib<name>.so) loaded
 * through the dynamic loader and driven through the ABI of scorep/SCOREP_MetricPlugins.h. */
#include "core/location.h"
#include "base/log.h"
#include "base/timer.h"
#include "defs/defs.h"
#include "metrics/metrics.h"

#include <scorep/SCOREP_MetricPlugins.h>

#include <ctype.h>
#include <dlfcn.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The binary layout of Score-P's interface version 1 on LP64 (plugins built against either
 * header must work with either runtime). */
#define ABI(cond) _Static_assert(cond, "metric plugin ABI: " #cond)
ABI(sizeof(SCOREP_Metric_Plugin_Info) == 832);
ABI(offsetof(SCOREP_Metric_Plugin_Info, run_per) == 4);
ABI(offsetof(SCOREP_Metric_Plugin_Info, sync) == 8);
ABI(offsetof(SCOREP_Metric_Plugin_Info, delta_t) == 16);
ABI(offsetof(SCOREP_Metric_Plugin_Info, initialize) == 24);
ABI(offsetof(SCOREP_Metric_Plugin_Info, finalize) == 32);
ABI(offsetof(SCOREP_Metric_Plugin_Info, get_event_info) == 40);
ABI(offsetof(SCOREP_Metric_Plugin_Info, add_counter) == 48);
ABI(offsetof(SCOREP_Metric_Plugin_Info, get_current_value) == 56);
ABI(offsetof(SCOREP_Metric_Plugin_Info, get_optional_value) == 64);
ABI(offsetof(SCOREP_Metric_Plugin_Info, set_clock_function) == 72);
ABI(offsetof(SCOREP_Metric_Plugin_Info, get_all_values) == 80);
ABI(offsetof(SCOREP_Metric_Plugin_Info, synchronize) == 88);
ABI(offsetof(SCOREP_Metric_Plugin_Info, reserved) == 96);
ABI(sizeof(SCOREP_Metric_Plugin_MetricProperties) == 48);
ABI(offsetof(SCOREP_Metric_Plugin_MetricProperties, mode) == 16);
ABI(offsetof(SCOREP_Metric_Plugin_MetricProperties, value_type) == 20);
ABI(offsetof(SCOREP_Metric_Plugin_MetricProperties, base) == 24);
ABI(offsetof(SCOREP_Metric_Plugin_MetricProperties, exponent) == 32);
ABI(offsetof(SCOREP_Metric_Plugin_MetricProperties, unit) == 40);
ABI(sizeof(SCOREP_MetricTimeValuePair) == 16);
ABI(SCOREP_METRIC_MODE_RELATIVE_NEXT == 9 && SCOREP_METRIC_ASYNC == 3 && SCOREP_METRIC_ONCE == 3);
ABI(SCOREP_METRIC_VALUE_DOUBLE == 2 && SCOREP_METRIC_BASE_DECIMAL == 1);
ABI(SCOREP_METRIC_SYNCHRONIZATION_MODE_END == 2);

enum { MAX_PLUGINS = 16, MAX_PLUGIN_METRICS = 256 };

/* The counters one location added to an asynchronous plugin (collected at the end). */
typedef struct async_loc {
    struct async_loc *next;
    scorep_location *l;
    int32_t ids[];
} async_loc;

typedef struct {
    char name[64];
    SCOREP_Metric_Plugin_Info info;
    const void *base; /* load address of the library */
    bool responsible; /* this process records it (PER_HOST, ONCE) */
    uint32_t n;
    /* Copies of the plugin's properties. Score-P may free() what get_event_info returns,
     * but published plugins also return string literals (a unit of "Joules"): the few
     * bytes are left to the plugin rather than risk freeing what malloc did not give. */
    SCOREP_Metric_Plugin_MetricProperties *props[MAX_PLUGIN_METRICS];
    uint32_t ids[MAX_PLUGIN_METRICS];
    scorep_metric_group g;
    pthread_mutex_t lock; /* async_locs: threads attach concurrently */
    async_loc *async_locs;
} plugin;

/* Per location state of a synchronous plugin. */
typedef struct {
    plugin *p;
    uint64_t last_read;
    int32_t ids[];
} sync_state;

static plugin plugins[MAX_PLUGINS];
static uint32_t n_plugins;

static uint64_t plugin_clock(void)
{
    return scorep_timer_ticks();
}

static bool env_rank_zero(const char *const *vars)
{
    for (; *vars; vars++) {
        const char *v = getenv(*vars);
        if (v && *v)
            return atoi(v) == 0;
    }
    return true; /* not started by a launcher: a single process */
}

/* PER_HOST: the first process of the node; ONCE: the first process of the job. The
 * launchers' environment tells both before MPI is initialised. */
static bool is_responsible(SCOREP_MetricPer per)
{
    static const char *const local[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                        "SLURM_LOCALID", "PMI_LOCAL_RANK", NULL};
    static const char *const global[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                         "SLURM_PROCID", NULL};
    return per == SCOREP_METRIC_PER_HOST ? env_rank_zero(local)
           : per == SCOREP_METRIC_ONCE   ? env_rank_zero(global)
                                         : true;
}

static const char *check_info(const SCOREP_Metric_Plugin_Info *i)
{
    if (i->plugin_version > SCOREP_METRIC_PLUGIN_VERSION)
        return "it was built for a newer plugin interface version than this runtime's (1)";
    if (!i->initialize || !i->finalize || !i->get_event_info || !i->add_counter)
        return "initialize, finalize, get_event_info or add_counter is missing";
    if (i->run_per >= SCOREP_METRIC_PER_MAX || i->sync >= SCOREP_METRIC_SYNC_TYPE_MAX)
        return "run_per or sync has an unknown value";
    if (i->sync == SCOREP_METRIC_STRICTLY_SYNC &&
        (i->run_per != SCOREP_METRIC_PER_THREAD || !i->get_current_value))
        return "a strictly synchronous plugin must run per thread and have get_current_value";
    if (i->sync == SCOREP_METRIC_SYNC && !i->get_optional_value)
        return "a synchronous plugin must have get_optional_value";
    if (i->sync >= SCOREP_METRIC_ASYNC_EVENT && (!i->get_all_values || !i->set_clock_function))
        return "an asynchronous plugin must have get_all_values and set_clock_function";
    return NULL;
}

static int load(plugin *p, const char *name)
{
    char lib[128], sym[192];
    snprintf(lib, sizeof lib, "lib%s.so", name);
    snprintf(sym, sizeof sym, "SCOREP_MetricPlugin_%s_get_info", name);
    void *dl = dlopen(lib, RTLD_NOW);
    if (!dl) {
        scorep_warn("SCOREP_METRIC_PLUGINS: metric plugin '%s' not found: %s; it is not used "
                    "(the dynamic loader searches LD_LIBRARY_PATH for %s)",
                    name, dlerror(), lib);
        return -1;
    }
    SCOREP_Metric_Plugin_Info (*get_info)(void);
    *(void **)&get_info = dlsym(dl, sym);
    if (!get_info) {
        scorep_warn("SCOREP_METRIC_PLUGINS: %s has no function %s; it is not a metric plugin "
                    "and is not used",
                    lib, sym);
        return -1;
    }
    Dl_info where;
    if (dladdr(*(void **)&get_info, &where))
        p->base = where.dli_fbase;
    p->info = get_info();
    const char *why = check_info(&p->info);
    if (why) {
        scorep_warn("SCOREP_METRIC_PLUGINS: metric plugin '%s' (plugin_version %u) is not used: "
                    "%s",
                    name, p->info.plugin_version, why);
        return -1;
    }
    snprintf(p->name, sizeof p->name, "%s", name);
    return 0;
}

static void free_props(plugin *p)
{
    for (uint32_t i = 0; i < p->n; i++)
        free(p->props[i]);
    p->n = 0;
}

static void define_metric(plugin *p, SCOREP_Metric_Plugin_MetricProperties *m)
{
    if (p->n == MAX_PLUGIN_METRICS) {
        scorep_warn("metric plugin '%s': more than %d metrics; '%s' is not recorded", p->name,
                    MAX_PLUGIN_METRICS, m->name);
        return;
    }
    SCOREP_Metric_Plugin_MetricProperties *copy = malloc(sizeof *copy);
    if (!copy)
        return;
    *copy = *m;
    scorep_metric_def d = {
        .name = m->name,
        .unit = m->unit ? m->unit : "#",
        .type = m->value_type <= SCOREP_METRIC_VALUE_DOUBLE ? (scorep_metric_type)m->value_type
                                                            : SCOREP_METRIC_UINT64,
        .description = m->description ? m->description : m->name,
        .source = SCOREP_MSRC_PLUGIN,
        .mode = m->mode < SCOREP_INVALID_METRIC_MODE ? m->mode : 0,
        .base = m->base == SCOREP_METRIC_BASE_BINARY ? 0 : 1,
        .exponent = m->exponent,
        .recorder = p->info.sync == SCOREP_METRIC_STRICTLY_SYNC ? SCOREP_MREC_STRICT
                    : p->info.sync == SCOREP_METRIC_SYNC        ? SCOREP_MREC_SYNC
                                                                : SCOREP_MREC_ASYNC,
        .per = p->info.run_per};
    p->ids[p->n] = scorep_defs_metric_full(&d);
    p->props[p->n++] = copy;
}

/* One token of SCOREP_METRIC_<NAME>: the plugin says which metrics it stands for. */
static void add_token(const char *tok, void *arg)
{
    plugin *p = arg;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", tok);
    SCOREP_Metric_Plugin_MetricProperties *list = p->info.get_event_info(buf);
    if (!list || !list[0].name) {
        scorep_warn("metric plugin '%s': get_event_info returned no metrics for '%s'; nothing "
                    "is recorded for it (see the plugin's README for its metric names)",
                    p->name, tok);
        return;
    }
    for (SCOREP_Metric_Plugin_MetricProperties *m = list; m->name; m++)
        define_metric(p, m);
}

static int32_t add_counter(plugin *p, uint32_t i)
{
    int32_t id = p->info.add_counter(p->props[i]->name);
    if (id < 0)
        scorep_warn("metric plugin '%s': add_counter('%s') failed; its values stay 0", p->name,
                    p->props[i]->name);
    return id;
}

static void sync_read(void *state, uint64_t *out)
{
    sync_state *s = state;
    const SCOREP_Metric_Plugin_Info *i = &s->p->info;
    uint32_t n = s->p->n;
    if (i->sync == SCOREP_METRIC_STRICTLY_SYNC) {
        for (uint32_t k = 0; k < n; k++)
            if (s->ids[k] >= 0)
                out[k] = i->get_current_value(s->ids[k]);
        return;
    }
    uint64_t now = scorep_timer_ticks();
    if (now - s->last_read < i->delta_t)
        return; /* the values of the last read stand */
    s->last_read = now;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t v;
        if (s->ids[k] >= 0 && i->get_optional_value(s->ids[k], &v))
            out[k] = v;
    }
}

static int plugin_attach(scorep_metric_group *g, scorep_location *l, void **state)
{
    plugin *p = g->ctx;
    if (p->info.sync <= SCOREP_METRIC_SYNC) {
        sync_state *s = calloc(1, sizeof *s + p->n * sizeof s->ids[0]);
        if (!s)
            return -1;
        s->p = p;
        for (uint32_t k = 0; k < p->n; k++)
            s->ids[k] = add_counter(p, k);
        *state = s;
        return 0;
    }
    async_loc *a = calloc(1, sizeof *a + p->n * sizeof a->ids[0]);
    if (!a)
        return -1;
    a->l = l;
    for (uint32_t k = 0; k < p->n; k++)
        a->ids[k] = add_counter(p, k);
    pthread_mutex_lock(&p->lock);
    a->next = p->async_locs;
    p->async_locs = a;
    pthread_mutex_unlock(&p->lock);
    return -1; /* nothing to read at events: the values come at the end */
}

static void env_name(char *out, size_t size, const char *name)
{
    snprintf(out, size, "SCOREP_METRIC_%s", name);
    for (char *c = out; *c; c++)
        *c = (char)toupper((unsigned char)*c);
}

static void init_plugin(const char *name, void *arg)
{
    const char *sep = arg;
    if (n_plugins == MAX_PLUGINS) {
        scorep_warn("SCOREP_METRIC_PLUGINS: more than %d plugins; '%s' is not used", MAX_PLUGINS,
                    name);
        return;
    }
    for (uint32_t i = 0; i < n_plugins; i++)
        if (strcmp(plugins[i].name, name) == 0) {
            scorep_warn("SCOREP_METRIC_PLUGINS: metric plugin '%s' is listed twice; it is "
                        "loaded once",
                        name);
            return;
        }
    plugin *p = &plugins[n_plugins];
    memset(p, 0, sizeof *p);
    if (load(p, name) != 0)
        return;
    if (p->info.set_clock_function)
        p->info.set_clock_function(plugin_clock);
    int32_t rc = p->info.initialize();
    if (rc != 0) {
        scorep_warn("metric plugin '%s': initialize() failed (%d); it is not used", name, rc);
        return;
    }
    char var[128];
    env_name(var, sizeof var, name);
    const char *tokens = getenv(var);
    if (!tokens || !*tokens)
        scorep_warn("metric plugin '%s' is loaded but %s names no metrics; it records nothing",
                    name, var);
    scorep_metrics_tokens(tokens, sep, add_token, p);
    if (p->n == 0) {
        p->info.finalize();
        return;
    }
    pthread_mutex_init(&p->lock, NULL);
    p->responsible = is_responsible(p->info.run_per);
    p->g = (scorep_metric_group){.n = p->info.sync <= SCOREP_METRIC_SYNC ? p->n : 0,
                                 .ids = p->ids,
                                 .master_only = p->info.run_per != SCOREP_METRIC_PER_THREAD,
                                 .attach = plugin_attach,
                                 .read = sync_read,
                                 .release = free, /* the sync_state of a thread */
                                 .ctx = p};
    n_plugins++;
    if (p->responsible)
        scorep_metrics_add_group(&p->g);
    scorep_verbose("metric plugin '%s': %u metrics", name, p->n);
}

bool scorep_metric_plugin_owns(const void *base)
{
    for (uint32_t i = 0; i <= n_plugins && i < MAX_PLUGINS; i++)
        if (plugins[i].base && plugins[i].base == base)
            return true;
    return false;
}

void scorep_metric_plugins_init(const char *names, const char *sep)
{
    scorep_metrics_tokens(names, sep, init_plugin, (void *)sep);
}

void scorep_metric_plugins_begin(bool mpi)
{
    for (uint32_t i = 0; i < n_plugins; i++)
        if (plugins[i].info.synchronize)
            plugins[i].info.synchronize(plugins[i].responsible,
                                        mpi ? SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN_MPP
                                            : SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN);
}

/* Appends the values of every asynchronous counter of l; the list is the plugin's. */
static int collect(scorep_async_value **v, size_t *n, size_t *cap, const plugin *p,
                   const async_loc *a)
{
    for (uint32_t k = 0; k < p->n; k++) {
        if (a->ids[k] < 0)
            continue;
        SCOREP_MetricTimeValuePair *list = NULL;
        uint64_t m = p->info.get_all_values(a->ids[k], &list);
        if (*n + m > *cap) {
            size_t c = (*n + m) * 2;
            scorep_async_value *g = realloc(*v, c * sizeof *g);
            if (!g) {
                free(list);
                return -1;
            }
            *v = g;
            *cap = c;
        }
        for (uint64_t j = 0; j < m; j++)
            (*v)[(*n)++] = (scorep_async_value){list[j].timestamp, list[j].value, p->ids[k],
                                                p->info.sync == SCOREP_METRIC_ASYNC};
        free(list);
    }
    return 0;
}

/* when the plugins had been told to stop (scorep_metric_plugins_stop): raw ticks */
static uint64_t stopped_ts;

/* Every location's asynchronous values, collected once (get_all_values hands them over
 * once): by scorep_metric_plugins_post_mortem when substrate plugins want them, else at the
 * recording. */
typedef struct {
    scorep_location *l;
    scorep_async_value *v;
    size_t n;
} loc_values;
static loc_values *collected;
static size_t n_collected;
static bool was_collected;

static void collect_all(void)
{
    if (was_collected)
        return;
    was_collected = true;
    size_t n_locs = 0;
    for (scorep_location *l = scorep_location_first(); l; l = l->next)
        n_locs++;
    if (!n_plugins || !n_locs || !(collected = calloc(n_locs, sizeof *collected)))
        return;
    for (scorep_location *l = scorep_location_first(); l && n_collected < n_locs; l = l->next) {
        loc_values *c = &collected[n_collected++];
        size_t cap = 0;
        c->l = l;
        for (uint32_t i = 0; i < n_plugins; i++)
            for (const async_loc *a = plugins[i].async_locs; a; a = a->next)
                if (a->l == l && collect(&c->v, &c->n, &cap, &plugins[i], a) != 0)
                    scorep_warn("out of memory: asynchronous values of metric plugin '%s' are "
                                "lost",
                                plugins[i].name);
    }
}

void scorep_metric_plugins_post_mortem(void (*fn)(struct scorep_location *l,
                                                  const scorep_async_value *v, size_t n))
{
    collect_all();
    for (size_t i = 0; i < n_collected; i++)
        if (collected[i].n)
            fn(collected[i].l, collected[i].v, collected[i].n);
}

static void record_async_values(void)
{
    collect_all();
    for (size_t i = 0; i < n_collected; i++) {
        scorep_metrics_record_async(collected[i].l, collected[i].v, collected[i].n, stopped_ts);
        free(collected[i].v);
    }
    free(collected);
    collected = NULL;
    n_collected = 0;
}

void scorep_metric_plugins_stop(void)
{
    for (uint32_t i = 0; i < n_plugins; i++)
        if (plugins[i].info.synchronize)
            plugins[i].info.synchronize(plugins[i].responsible,
                                        SCOREP_METRIC_SYNCHRONIZATION_MODE_END);
    stopped_ts = scorep_timer_ticks();
}

void scorep_metric_plugins_end(void)
{
    record_async_values();
    for (uint32_t i = 0; i < n_plugins; i++) {
        plugin *p = &plugins[i];
        p->info.finalize();
        while (p->async_locs) {
            async_loc *a = p->async_locs;
            p->async_locs = a->next;
            free(a);
        }
        free_props(p);
        /* no dlclose: a plugin's threads or atexit handlers may still refer to its code */
    }
    n_plugins = 0;
}
