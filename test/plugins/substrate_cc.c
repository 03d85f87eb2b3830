/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_cc.c: a substrate plugin built from Score-P's public headers only that records
 * the calling-context events (SAMPLE, CALLING_CONTEXT_ENTER, _EXIT) and writes them at
 * write_data to $SUBSTRATE_CC_OUT.<rank>, one line per event in order per location:
 * "LOC KIND PATH PREVPATH DISTANCE GEN", a path being the region names from the root that
 * SCOREP_CallingContextHandle_GetRegion/_GetParent give ("-": no context); then counts of
 * ENTER_REGION/EXIT_REGION and of handles used before new_definition_handle announced them,
 * and the events whose timestamp lies before the previous event's of their location ("order
 * N", then up to 8 "order_at" lines naming them): Score-P hands a location's events over in
 * timestamp order, a sample from the signal handler as it is taken.
 * test_substrate_cc.sh compares the lines with the OTF2 trace of the same run. Built with
 * PLUGIN_PLAIN as "ccplain": ENTER_REGION and EXIT_REGION only. */
#include <scorep/SCOREP_SubstratePlugins.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const SCOREP_SubstratePluginCallbacks *cb;

typedef struct {
    uint32_t loc;
    char kind;
    SCOREP_CallingContextHandle cc, prev;
    uint32_t dist;
    SCOREP_InterruptGeneratorHandle gen;
    uint64_t ts;
} rec;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static rec *recs;
static size_t n_recs, cap_recs;
static unsigned char *announced; /* per calling-context handle */
static size_t n_announced;
static unsigned gens_announced; /* bit per interrupt generator handle */
static unsigned long unannounced, plain_enters, plain_exits, with_metrics;
/* location 0's first metric value at its last exit and at its deactivation's final sample */
static unsigned long long last_exit_value, final_value;
static int final_seen;

static int init(void)
{
    return 0;
}

static void set_callbacks(const SCOREP_SubstratePluginCallbacks *c, size_t size)
{
    (void)size;
    cb = c;
}

static void new_handle(SCOREP_AnyHandle h, SCOREP_HandleType type)
{
    pthread_mutex_lock(&lock);
    if (type == SCOREP_HANDLE_TYPE_CALLING_CONTEXT) {
        if (h >= n_announced) {
            size_t n = n_announced ? n_announced : 1024;
            while (n <= h)
                n *= 2;
            unsigned char *a = realloc(announced, n);
            if (a) {
                memset(a + n_announced, 0, n - n_announced);
                announced = a;
                n_announced = n;
            }
        }
        if (h < n_announced)
            announced[h] = 1;
    } else if (type == SCOREP_HANDLE_TYPE_INTERRUPT_GENERATOR && h < 32) {
        gens_announced |= 1u << h;
    }
    pthread_mutex_unlock(&lock);
}

/* under the lock */
static void check(SCOREP_CallingContextHandle h)
{
    if (h != SCOREP_MOVABLE_NULL && (h >= n_announced || !announced[h]))
        unannounced++;
}

static void add(struct SCOREP_Location *l, uint64_t t, char kind, SCOREP_CallingContextHandle cc,
                SCOREP_CallingContextHandle prev, uint32_t dist,
                SCOREP_InterruptGeneratorHandle gen, uint64_t *metrics)
{
    uint32_t loc = cb->SCOREP_Location_GetId(l);
    pthread_mutex_lock(&lock);
    check(cc);
    check(prev);
    /* the final sample of a deactivation has no context and no generator */
    if (kind == 'S' && cc != SCOREP_MOVABLE_NULL && (gen >= 32 || !(gens_announced & 1u << gen)))
        unannounced++;
    with_metrics += metrics != NULL;
    if (loc == 0 && metrics && kind == 'X')
        last_exit_value = metrics[0];
    if (loc == 0 && metrics && kind == 'S' && cc == SCOREP_MOVABLE_NULL && !final_seen) {
        final_value = metrics[0];
        final_seen = 1;
    }
    if (n_recs == cap_recs) {
        size_t cap = cap_recs ? 2 * cap_recs : 4096;
        rec *r = realloc(recs, cap * sizeof *r);
        if (!r) {
            pthread_mutex_unlock(&lock);
            return;
        }
        recs = r;
        cap_recs = cap;
    }
    recs[n_recs++] = (rec){loc, kind, cc, prev, dist, gen, t};
    pthread_mutex_unlock(&lock);
}

static void sample(struct SCOREP_Location *l, uint64_t t, SCOREP_CallingContextHandle cc,
                   SCOREP_CallingContextHandle prev, uint32_t dist,
                   SCOREP_InterruptGeneratorHandle gen, uint64_t *metrics)
{
    add(l, t, 'S', cc, prev, dist, gen, metrics);
}

static void cc_enter(struct SCOREP_Location *l, uint64_t t, SCOREP_CallingContextHandle cc,
                     SCOREP_CallingContextHandle prev, uint32_t dist, uint64_t *metrics)
{
    add(l, t, 'E', cc, prev, dist, 0, metrics);
}

/* SUBSTRATE_CC_HOLD_MS=n: the first exit of an implicit barrier on a location other than 0
 * (an OpenMP worker's, in substrate_cc_hold.c written by its master) takes n ms in this
 * callback: a slow plugin, while the worker's thread goes on and is sampled */
static void hold(struct SCOREP_Location *l, SCOREP_CallingContextHandle cc)
{
    static int held;
    const char *ms = getenv("SUBSTRATE_CC_HOLD_MS");
    if (!ms || held || cb->SCOREP_Location_GetId(l) == 0)
        return;
    const char *name =
        cb->SCOREP_RegionHandle_GetName(cb->SCOREP_CallingContextHandle_GetRegion(cc));
    if (!name || !strstr(name, "implicit barrier"))
        return;
    held = 1;
    long n = atol(ms);
    struct timespec d = {n / 1000, (n % 1000) * 1000000};
    while (nanosleep(&d, &d) != 0)
        ;
}

static void cc_exit(struct SCOREP_Location *l, uint64_t t, SCOREP_CallingContextHandle cc,
                    SCOREP_CallingContextHandle prev, uint32_t dist, uint64_t *metrics)
{
    add(l, t, 'X', cc, prev, dist, 0, metrics);
    hold(l, cc);
}

static void enter(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m)
{
    (void)l, (void)t, (void)r, (void)m;
    __atomic_fetch_add(&plain_enters, 1, __ATOMIC_RELAXED);
}

static void exit_(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m)
{
    (void)l, (void)t, (void)r, (void)m;
    __atomic_fetch_add(&plain_exits, 1, __ATOMIC_RELAXED);
}

static void print_path(FILE *f, SCOREP_CallingContextHandle h)
{
    if (h == SCOREP_MOVABLE_NULL) {
        fputc('-', f);
        return;
    }
    SCOREP_CallingContextHandle p = cb->SCOREP_CallingContextHandle_GetParent(h);
    if (p != SCOREP_MOVABLE_NULL) {
        print_path(f, p);
        fputc('/', f);
    }
    const char *name =
        cb->SCOREP_RegionHandle_GetName(cb->SCOREP_CallingContextHandle_GetRegion(h));
    fputs(name ? name : "?", f);
}

/* The events whose timestamp lies before that of an event delivered earlier for their
 * location (each against the latest one of its location so far). */
static void write_order(FILE *f)
{
    uint32_t n_loc = 0;
    for (size_t i = 0; i < n_recs; i++)
        if (recs[i].loc >= n_loc)
            n_loc = recs[i].loc + 1;
    size_t *last = malloc((n_loc ? n_loc : 1) * sizeof *last); /* index of the latest + 1 */
    if (!last) {
        fprintf(f, "order unknown\n");
        return;
    }
    memset(last, 0, (n_loc ? n_loc : 1) * sizeof *last);
    unsigned long bad = 0;
    char at[8][160];
    for (size_t i = 0; i < n_recs; i++) {
        const rec *r = &recs[i];
        const rec *p = last[r->loc] ? &recs[last[r->loc] - 1] : NULL;
        if (p && r->ts < p->ts) {
            if (bad < 8)
                snprintf(at[bad], sizeof at[bad], "order_at %u %c %llu after %c %llu (%llu ticks)",
                         r->loc, r->kind, (unsigned long long)r->ts, p->kind,
                         (unsigned long long)p->ts, (unsigned long long)(p->ts - r->ts));
            bad++;
            continue;
        }
        last[r->loc] = i + 1;
    }
    free(last);
    fprintf(f, "order %lu\n", bad);
    for (unsigned long i = 0; i < bad && i < 8; i++)
        fprintf(f, "%s\n", at[i]);
}

static void write_data(void)
{
    const char *out = getenv("SUBSTRATE_CC_OUT");
    char name[4096];
    snprintf(name, sizeof name, "%s.%d", out ? out : "", cb->SCOREP_Ipc_GetRank());
    FILE *f = out ? fopen(name, "w") : NULL;
    if (!f)
        return;
    for (size_t i = 0; i < n_recs; i++) {
        const rec *r = &recs[i];
        fprintf(f, "%u %c ", r->loc, r->kind);
        print_path(f, r->cc);
        fputc(' ', f);
        print_path(f, r->prev);
        fprintf(f, " %u %llu\n", r->dist, (unsigned long long)r->gen);
    }
    write_order(f);
    fprintf(f, "plain %lu %lu\nunannounced %lu\nwith_metrics %lu\n", plain_enters, plain_exits,
            unannounced, with_metrics);
    if (final_seen)
        fprintf(f, "final_metric %llu last_exit_metric %llu\n", final_value, last_exit_value);
    fclose(f);
}

static SCOREP_Substrates_Callback enabled[SCOREP_SUBSTRATES_NUM_EVENTS];

static uint32_t get_event_functions(SCOREP_Substrates_Mode mode, SCOREP_Substrates_Callback **fn)
{
    static SCOREP_Substrates_Callback none[SCOREP_SUBSTRATES_NUM_EVENTS];
#ifndef PLUGIN_PLAIN /* ccplain: ENTER_REGION and EXIT_REGION only */
    enabled[SCOREP_EVENT_SAMPLE] = (SCOREP_Substrates_Callback)sample;
    enabled[SCOREP_EVENT_CALLING_CONTEXT_EXIT] = (SCOREP_Substrates_Callback)cc_exit;
    enabled[SCOREP_EVENT_CALLING_CONTEXT_ENTER] = (SCOREP_Substrates_Callback)cc_enter;
#else
    (void)sample, (void)cc_exit, (void)cc_enter;
#endif
    enabled[SCOREP_EVENT_ENTER_REGION] = (SCOREP_Substrates_Callback)enter;
    enabled[SCOREP_EVENT_EXIT_REGION] = (SCOREP_Substrates_Callback)exit_;
    *fn = mode == SCOREP_SUBSTRATES_RECORDING_ENABLED ? enabled : none;
    return SCOREP_SUBSTRATES_NUM_EVENTS;
}

#ifdef PLUGIN_PLAIN
SCOREP_SUBSTRATE_PLUGIN_ENTRY(ccplain)
#else
SCOREP_SUBSTRATE_PLUGIN_ENTRY(cc)
#endif
{
    SCOREP_SubstratePluginInfo info;
    memset(&info, 0, sizeof info);
    info.plugin_version = SCOREP_SUBSTRATE_PLUGIN_VERSION;
    info.init = init;
    info.write_data = write_data;
    info.new_definition_handle = new_handle;
    info.get_event_functions = get_event_functions;
    info.set_callbacks = set_callbacks;
    return info;
}
