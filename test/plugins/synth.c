/* SPDX-License-Identifier: BSD-3-Clause */
/* synth.c: test metric plugins with known values, built like third-party plugins (only
 * <scorep/SCOREP_MetricPlugins.h>). One source, eight libraries selected by SYNTH_KIND:
 * synth_sync (per-thread read counter), synth_async (values from its own thread, logged),
 * synth_newer (plugin_version 2), synth_noinfo (get_event_info returns NULL), synth_opt
 * (SYNC: a value at every other read), synth_host (SYNC per host: the read counter of the
 * host's first process), synth_once (ASYNC_EVENT once per job: synth_async's values),
 * synth_tasync (ASYNC per thread: synth_async's values, all to the first counter added). */
#include <scorep/SCOREP_MetricPlugins.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SYNC 1
#define ASYNC 2
#define NEWER 3
#define NOINFO 4
#define OPT 5
#define HOST 6
#define ONCE 7
#define TASYNC 8
/* values from its own thread */
#define PRODUCER (SYNTH_KIND == ASYNC || SYNTH_KIND == ONCE || SYNTH_KIND == TASYNC)

static __thread uint64_t reads; /* synth_sync: reads of this thread so far */
static uint64_t (*now)(void);
static SCOREP_MetricTimeValuePair *values;
static uint64_t n_values;
static pthread_t producer;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int started, stop;

static int32_t init(void)
{
    return 0;
}

static void fini(void) {}

static void set_clock(uint64_t (*clock_time)(void))
{
    now = clock_time;
}

/* token "events" (synth_sync), "wave" (synth_async), "host_reads" (synth_host),
 * "once_wave" (synth_once) or "thread_wave" (synth_tasync); anything else: no metric */
static SCOREP_Metric_Plugin_MetricProperties *event_info(char *token)
{
#if SYNTH_KIND == NOINFO
    (void)token;
    return NULL;
#else
    const char *want = SYNTH_KIND == ASYNC    ? "wave"
                       : SYNTH_KIND == HOST   ? "host_reads"
                       : SYNTH_KIND == ONCE   ? "once_wave"
                       : SYNTH_KIND == TASYNC ? "thread_wave"
                                              : "events";
    SCOREP_Metric_Plugin_MetricProperties *l = calloc(2, sizeof *l);
    if (!l || strcmp(token, want) != 0)
        return l;
    l[0].name = strdup(want);
    l[0].description = strdup("synthetic test values");
    l[0].unit = strdup("#");
    l[0].mode = PRODUCER ? SCOREP_METRIC_MODE_ABSOLUTE_POINT : SCOREP_METRIC_MODE_ACCUMULATED_START;
    l[0].value_type = SCOREP_METRIC_VALUE_UINT64;
    l[0].base = SCOREP_METRIC_BASE_DECIMAL;
    return l;
#endif
}

static int32_t add_counter(char *name)
{
    (void)name;
    return 0;
}

/* synth_sync: 1, 2, 3, ... per thread, so every value in the trace is known */
static uint64_t current_value(int32_t id)
{
    (void)id;
    return ++reads;
}

/* synth_opt: reads 1, 3, 5, ... deliver 10 x the read number, the others nothing */
static bool optional_value(int32_t id, uint64_t *value)
{
    (void)id;
    if (SYNTH_KIND == HOST) { /* synth_host: every read delivers its number */
        *value = ++reads;
        return true;
    }
    if (++reads % 2 == 0)
        return false;
    *value = reads * 10;
    return true;
}

/* synth_async: SYNTH_COUNT values k*k + 7 about 1 ms apart, each logged as "ts value" to
 * SYNTH_LOG (synth_once: SYNTH_ONCE_LOG, synth_tasync: SYNTH_THREAD_LOG) before it is
 * published; with SYNTH_EXTRA=end one
 * more value 999 when it is told to stop (after the program's end, as a sampling thread's
 * last value can be), with SYNTH_EXTRA=early one at tick 1 (before the measurement: a
 * plugin's wrong clock) */
static void *produce(void *arg)
{
    (void)arg;
    const char *c = getenv("SYNTH_COUNT"),
               *path = getenv(SYNTH_KIND == ONCE     ? "SYNTH_ONCE_LOG"
                              : SYNTH_KIND == TASYNC ? "SYNTH_THREAD_LOG"
                                                     : "SYNTH_LOG");
    int count = c ? atoi(c) : 20;
    FILE *log = path ? fopen(path, "w") : NULL;
    for (int k = 0; k < count; k++) {
        pthread_mutex_lock(&lock);
        int done = stop;
        if (!done) {
            SCOREP_MetricTimeValuePair p = {now(), (uint64_t)k * (uint64_t)k + 7};
            SCOREP_MetricTimeValuePair *v = realloc(values, (n_values + 1) * sizeof *v);
            if (v) {
                values = v;
                values[n_values++] = p;
                if (log)
                    fprintf(log, "%llu %llu\n", (unsigned long long)p.timestamp,
                            (unsigned long long)p.value);
            }
        }
        pthread_mutex_unlock(&lock);
        if (done)
            break;
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    if (log)
        fclose(log);
    return NULL;
}

static void extra_value(void)
{
    const char *extra = getenv("SYNTH_EXTRA");
    SCOREP_MetricTimeValuePair *v = realloc(values, (n_values + 1) * sizeof *v);
    if (!extra || !v)
        return;
    values = v;
    values[n_values++] = (SCOREP_MetricTimeValuePair){strcmp(extra, "early") ? now() : 1, 999};
}

static void synchronize(bool responsible, SCOREP_MetricSynchronizationMode mode)
{
    if (mode != SCOREP_METRIC_SYNCHRONIZATION_MODE_END) {
        if (responsible && PRODUCER)
            started = pthread_create(&producer, NULL, produce, NULL) == 0;
        return;
    }
    pthread_mutex_lock(&lock);
    stop = 1;
    if (responsible && PRODUCER && getenv("SYNTH_EXTRA"))
        extra_value();
    pthread_mutex_unlock(&lock);
    if (started)
        pthread_join(producer, NULL);
    started = 0;
}

static uint64_t all_values(int32_t id, SCOREP_MetricTimeValuePair **list)
{
    (void)id;
    pthread_mutex_lock(&lock);
    uint64_t n = n_values;
    *list = values;
    values = NULL;
    n_values = 0;
    pthread_mutex_unlock(&lock);
    return n;
}

static SCOREP_Metric_Plugin_Info info(void)
{
    SCOREP_Metric_Plugin_Info i;
    memset(&i, 0, sizeof i);
    i.plugin_version =
        SYNTH_KIND == NEWER ? SCOREP_METRIC_PLUGIN_VERSION + 1 : SCOREP_METRIC_PLUGIN_VERSION;
    i.run_per = SYNTH_KIND == ASYNC  ? SCOREP_METRIC_PER_PROCESS
                : SYNTH_KIND == HOST ? SCOREP_METRIC_PER_HOST
                : SYNTH_KIND == ONCE ? SCOREP_METRIC_ONCE
                                     : SCOREP_METRIC_PER_THREAD;
    i.sync = SYNTH_KIND == ASYNC || SYNTH_KIND == TASYNC ? SCOREP_METRIC_ASYNC
             : SYNTH_KIND == ONCE                        ? SCOREP_METRIC_ASYNC_EVENT
             : SYNTH_KIND == OPT || SYNTH_KIND == HOST   ? SCOREP_METRIC_SYNC
                                                         : SCOREP_METRIC_STRICTLY_SYNC;
    i.get_optional_value = optional_value;
    i.initialize = init;
    i.finalize = fini;
    i.get_event_info = event_info;
    i.add_counter = add_counter;
    i.get_current_value = current_value;
    i.set_clock_function = set_clock;
    i.get_all_values = all_values;
    i.synchronize = synchronize;
    return i;
}

#if SYNTH_KIND == SYNC
SCOREP_METRIC_PLUGIN_ENTRY(synth_sync)
#elif SYNTH_KIND == ASYNC
SCOREP_METRIC_PLUGIN_ENTRY(synth_async)
#elif SYNTH_KIND == NEWER
SCOREP_METRIC_PLUGIN_ENTRY(synth_newer)
#elif SYNTH_KIND == OPT
SCOREP_METRIC_PLUGIN_ENTRY(synth_opt)
#elif SYNTH_KIND == HOST
SCOREP_METRIC_PLUGIN_ENTRY(synth_host)
#elif SYNTH_KIND == ONCE
SCOREP_METRIC_PLUGIN_ENTRY(synth_once)
#elif SYNTH_KIND == TASYNC
SCOREP_METRIC_PLUGIN_ENTRY(synth_tasync)
#else
SCOREP_METRIC_PLUGIN_ENTRY(synth_noinfo)
#endif
{
    return info();
}
