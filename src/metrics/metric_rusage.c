/* SPDX-License-Identifier: BSD-3-Clause */
/* metric_rusage.c: SCOREP_METRIC_RUSAGE(_PER_PROCESS): getrusage(2) fields, per thread
 * (RUSAGE_THREAD) or for the process on its first thread (RUSAGE_SELF). */
#include "base/log.h"
#include "defs/defs.h"
#include "metrics/metrics.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>

#define FIELD(f) offsetof(struct rusage, f)
enum { N_RUSAGE = 16 };
/* Times in microseconds, sizes in KiB (as getrusage reports them), the rest are counts;
 * ru_maxrss and the integral sizes are levels (absolute), the others counters. */
static const struct {
    const char *name, *unit, *descr;
    bool absolute;
} fields[N_RUSAGE] = {
    {"ru_utime", "usec", "user CPU time used", false},
    {"ru_stime", "usec", "system CPU time used", false},
    {"ru_maxrss", "KiB", "maximum resident set size", true},
    {"ru_ixrss", "KiB", "integral shared memory size", true},
    {"ru_idrss", "KiB", "integral unshared data size", true},
    {"ru_isrss", "KiB", "integral unshared stack size", true},
    {"ru_minflt", "#", "page reclaims (soft page faults)", false},
    {"ru_majflt", "#", "page faults (hard page faults)", false},
    {"ru_nswap", "#", "swaps", false},
    {"ru_inblock", "#", "block input operations", false},
    {"ru_oublock", "#", "block output operations", false},
    {"ru_msgsnd", "#", "IPC messages sent", false},
    {"ru_msgrcv", "#", "IPC messages received", false},
    {"ru_nsignals", "#", "signals received", false},
    {"ru_nvcsw", "#", "voluntary context switches", false},
    {"ru_nivcsw", "#", "involuntary context switches", false},
};

typedef struct {
    scorep_metric_group g;
    int who; /* RUSAGE_THREAD or RUSAGE_SELF */
    uint8_t field[N_RUSAGE];
    uint32_t ids[N_RUSAGE];
} rusage_group;

static rusage_group groups[2];

static uint64_t field_value(const struct rusage *r, int f)
{
    switch (f) {
    case 0:
        return (uint64_t)r->ru_utime.tv_sec * 1000000u + (uint64_t)r->ru_utime.tv_usec;
    case 1:
        return (uint64_t)r->ru_stime.tv_sec * 1000000u + (uint64_t)r->ru_stime.tv_usec;
    default: /* the remaining fields are consecutive longs, ru_maxrss first */
        return (uint64_t)(&r->ru_maxrss)[f - 2];
    }
}

static void rusage_read(void *state, uint64_t *out)
{
    rusage_group *g = state;
    struct rusage r;
    if (getrusage(g->who, &r) != 0)
        return; /* keeps the last values */
    for (uint32_t i = 0; i < g->g.n; i++)
        out[i] = field_value(&r, g->field[i]);
}

static int rusage_attach(scorep_metric_group *g, struct scorep_location *l, void **state)
{
    (void)l;
    *state = g->ctx;
    return 0;
}

static void add_field(rusage_group *g, int f)
{
    for (uint32_t i = 0; i < g->g.n; i++)
        if (g->field[i] == f)
            return;
    scorep_metric_def d = {.name = fields[f].name,
                           .unit = fields[f].unit,
                           .type = SCOREP_METRIC_UINT64,
                           .description = fields[f].descr,
                           .source = SCOREP_MSRC_RUSAGE,
                           .mode = fields[f].absolute ? 4 /* absolute point */ : 0,
                           .base = 1,
                           .recorder = SCOREP_MREC_STRICT,
                           .per = g == &groups[1]}; /* SCOREP_METRIC_RUSAGE_PER_PROCESS */
    uint32_t id = scorep_defs_metric_full(&d);
    if (id == SCOREP_INVALID_ID)
        return;
    g->field[g->g.n] = (uint8_t)f;
    g->ids[g->g.n++] = id;
}

static void add_token(const char *tok, void *arg)
{
    rusage_group *g = arg;
    if (strcasecmp(tok, "all") == 0) {
        for (int f = 0; f < N_RUSAGE; f++)
            add_field(g, f);
        return;
    }
    for (int f = 0; f < N_RUSAGE; f++)
        if (strcasecmp(tok, fields[f].name) == 0) {
            add_field(g, f);
            return;
        }
    scorep_warn("SCOREP_METRIC_RUSAGE: unknown resource usage metric '%s' is not recorded; "
                "use 'all' or names of getrusage(2) fields: ru_utime, ru_stime, ru_maxrss, "
                "ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ru_majflt, ru_nswap, ru_inblock, "
                "ru_oublock, ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw",
                tok);
}

void scorep_metric_rusage_init(const char *names, bool per_process, const char *sep)
{
    rusage_group *g = &groups[per_process];
    if (!names || !*names)
        return;
    g->who = per_process ? RUSAGE_SELF : RUSAGE_THREAD;
    scorep_metrics_tokens(names, sep, add_token, g);
    if (g->g.n == 0)
        return;
    g->g.ids = g->ids;
    g->g.master_only = per_process;
    g->g.attach = rusage_attach;
    g->g.read = rusage_read;
    g->g.ctx = g;
    scorep_metrics_add_group(&g->g);
}
