/* SPDX-License-Identifier: BSD-3-Clause */
/* meminfo.c: metric plugin "meminfo": fields of /proc/meminfo (MemFree, MemAvailable, ...)
 * sampled by the plugin's own thread, asynchronous, one process per host. Uses only
 * <scorep/SCOREP_MetricPlugins.h>. */
#include <scorep/SCOREP_MetricPlugins.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_FIELDS = 16 };

typedef struct {
    char name[64];
    SCOREP_MetricTimeValuePair *v; /* samples since the last get_all_values */
    uint64_t n, cap;
} field;

static field fields[MAX_FIELDS];
static int n_fields;
static uint64_t (*now)(void);
static pthread_t sampler;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static int running, stop;
static long interval_us = 10000;

static void set_clock(uint64_t (*clock_time)(void))
{
    now = clock_time;
}

static int32_t init(void)
{
    const char *s = getenv("SCOREP_METRIC_MEMINFO_INTERVAL_US");
    if (s && atol(s) > 0)
        interval_us = atol(s);
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return -1;
    fclose(f);
    return 0;
}

/* The value in kB of every field in /proc/meminfo that we sample, read in one pass. */
static void read_meminfo(uint64_t *kb)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        *colon = 0;
        for (int i = 0; i < n_fields; i++)
            if (strcmp(line, fields[i].name) == 0)
                kb[i] = strtoull(colon + 1, NULL, 10);
    }
    if (f)
        fclose(f);
}

static void append(field *fl, uint64_t t, uint64_t value)
{
    if (fl->n == fl->cap) {
        uint64_t cap = fl->cap ? fl->cap * 2 : 1024;
        SCOREP_MetricTimeValuePair *v = realloc(fl->v, cap * sizeof *v);
        if (!v)
            return; /* the sample is lost */
        fl->v = v;
        fl->cap = cap;
    }
    fl->v[fl->n++] = (SCOREP_MetricTimeValuePair){t, value};
}

static void *sample(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!stop) {
        uint64_t kb[MAX_FIELDS] = {0};
        pthread_mutex_unlock(&lock);
        read_meminfo(kb);
        uint64_t t = now();
        pthread_mutex_lock(&lock);
        for (int i = 0; i < n_fields; i++)
            append(&fields[i], t, kb[i]);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += interval_us % 1000000 * 1000;
        until.tv_sec += interval_us / 1000000 + until.tv_nsec / 1000000000;
        until.tv_nsec %= 1000000000;
        while (!stop && pthread_cond_timedwait(&wake, &lock, &until) == 0)
            ;
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void stop_sampler(void)
{
    pthread_mutex_lock(&lock);
    int was = running;
    stop = 1;
    running = 0;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
    if (was)
        pthread_join(sampler, NULL);
}

static void fini(void)
{
    stop_sampler();
    for (int i = 0; i < n_fields; i++)
        free(fields[i].v);
    n_fields = 0;
}

/* A token is a field name of /proc/meminfo, e.g. MemFree. */
static SCOREP_Metric_Plugin_MetricProperties *event_info(char *token)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        found = colon && (size_t)(colon - line) == strlen(token) &&
                strncmp(line, token, (size_t)(colon - line)) == 0;
    }
    if (f)
        fclose(f);
    SCOREP_Metric_Plugin_MetricProperties *list = calloc(2, sizeof *list);
    if (!list || !found)
        return list; /* an empty list: no such field */
    char descr[128];
    snprintf(descr, sizeof descr, "%s of /proc/meminfo", token);
    list[0].name = strdup(token);
    list[0].description = strdup(descr);
    list[0].unit = strdup("B");
    list[0].mode = SCOREP_METRIC_MODE_ABSOLUTE_POINT;
    list[0].value_type = SCOREP_METRIC_VALUE_UINT64;
    list[0].base = SCOREP_METRIC_BASE_BINARY;
    list[0].exponent = 10; /* the values are KiB */
    return list;
}

static int32_t add_counter(char *name)
{
    pthread_mutex_lock(&lock);
    int id = -1;
    for (int i = 0; i < n_fields && id < 0; i++)
        if (strcmp(fields[i].name, name) == 0)
            id = i;
    if (id < 0 && n_fields < MAX_FIELDS) {
        snprintf(fields[n_fields].name, sizeof fields[n_fields].name, "%s", name);
        id = n_fields++;
    }
    pthread_mutex_unlock(&lock);
    return id;
}

/* The runtime frees the list with free(). */
static uint64_t all_values(int32_t id, SCOREP_MetricTimeValuePair **list)
{
    pthread_mutex_lock(&lock);
    field *fl = &fields[id];
    uint64_t n = fl->n;
    *list = fl->v;
    fl->v = NULL;
    fl->n = fl->cap = 0;
    pthread_mutex_unlock(&lock);
    return n;
}

static void synchronize(bool responsible, SCOREP_MetricSynchronizationMode mode)
{
    if (mode == SCOREP_METRIC_SYNCHRONIZATION_MODE_END) {
        stop_sampler();
        return;
    }
    pthread_mutex_lock(&lock);
    int start = responsible && !running && n_fields > 0;
    stop = 0;
    if (start)
        running = pthread_create(&sampler, NULL, sample, NULL) == 0;
    pthread_mutex_unlock(&lock);
}

SCOREP_METRIC_PLUGIN_ENTRY(meminfo)
{
    SCOREP_Metric_Plugin_Info info;
    memset(&info, 0, sizeof info);
    info.plugin_version = SCOREP_METRIC_PLUGIN_VERSION;
    info.run_per = SCOREP_METRIC_PER_HOST;
    info.sync = SCOREP_METRIC_ASYNC;
    info.initialize = init;
    info.finalize = fini;
    info.get_event_info = event_info;
    info.add_counter = add_counter;
    info.set_clock_function = set_clock;
    info.get_all_values = all_values;
    info.synchronize = synchronize;
    return info;
}
