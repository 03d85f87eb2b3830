/* SPDX-License-Identifier: BSD-3-Clause */
/* cputime.c: metric plugin "cputime": the CPU time of the calling thread (and of the whole
 * process), strictly synchronous, per thread. Uses only <scorep/SCOREP_MetricPlugins.h>. */
#include <scorep/SCOREP_MetricPlugins.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { THREAD_CPU, PROCESS_CPU, N_METRICS };
static const char *const names[N_METRICS] = {"thread_cpu", "process_cpu"};
static const char *const descr[N_METRICS] = {"CPU time of the thread (CLOCK_THREAD_CPUTIME_ID)",
                                             "CPU time of the process (CLOCK_PROCESS_CPUTIME_ID)"};

static int32_t init(void)
{
    struct timespec t;
    return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 ? 0 : -1;
}

static void fini(void) {}

static int add_property(SCOREP_Metric_Plugin_MetricProperties *p, int m)
{
    memset(p, 0, sizeof *p);
    p->name = strdup(names[m]);
    p->description = strdup(descr[m]);
    p->unit = strdup("ns");
    p->mode = SCOREP_METRIC_MODE_ACCUMULATED_START;
    p->value_type = SCOREP_METRIC_VALUE_UINT64;
    p->base = SCOREP_METRIC_BASE_DECIMAL;
    p->exponent = 0;
    return p->name && p->description && p->unit ? 0 : -1;
}

/* "thread_cpu", "process_cpu" or "*" (both). The runtime frees what this returns. */
static SCOREP_Metric_Plugin_MetricProperties *event_info(char *token)
{
    SCOREP_Metric_Plugin_MetricProperties *list = calloc(N_METRICS + 1, sizeof *list);
    if (!list)
        return NULL;
    int n = 0;
    for (int m = 0; m < N_METRICS; m++)
        if ((strcmp(token, "*") == 0 || strcmp(token, names[m]) == 0) &&
            add_property(&list[n], m) == 0)
            n++;
    list[n].name = NULL;
    return list;
}

static int32_t add_counter(char *name)
{
    for (int m = 0; m < N_METRICS; m++)
        if (strcmp(name, names[m]) == 0)
            return m;
    return -1;
}

/* Called on the thread whose value is wanted: the thread clock is that thread's. */
static uint64_t current_value(int32_t id)
{
    struct timespec t;
    clock_gettime(id == THREAD_CPU ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

SCOREP_METRIC_PLUGIN_ENTRY(cputime)
{
    SCOREP_Metric_Plugin_Info info;
    memset(&info, 0, sizeof info);
    info.plugin_version = SCOREP_METRIC_PLUGIN_VERSION;
    info.run_per = SCOREP_METRIC_PER_THREAD;
    info.sync = SCOREP_METRIC_STRICTLY_SYNC;
    info.initialize = init;
    info.finalize = fini;
    info.get_event_info = event_info;
    info.add_counter = add_counter;
    info.get_current_value = current_value;
    return info;
}
