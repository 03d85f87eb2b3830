/* SPDX-License-Identifier: BSD-3-Clause */
/* defs.c: the kinds of process-local definitions and their dedup keys. */
#include "defs/defs.h"
#include "defs/defs_table.h"

#include <stdlib.h>
#include <string.h>

static defs_table regions = DEFS_TABLE_INIT(scorep_region_def);
static defs_table strings = DEFS_TABLE_INIT(const char *);
static defs_table parameters = DEFS_TABLE_INIT(scorep_parameter_def);
static defs_table metrics = DEFS_TABLE_INIT(scorep_metric_def);

static int streq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

static char *dup_or_null(const char *s, int *fail)
{
    if (!s)
        return NULL;
    char *d = strdup(s);
    if (!d)
        *fail = 1;
    return d;
}

/* ------------------------------------------------------------------ regions */
static int region_equal(const void *e, const void *k)
{
    const scorep_region_def *a = e, *b = k;
    return a->paradigm == b->paradigm && a->role == b->role && a->begin_line == b->begin_line &&
           streq(a->name, b->name) && streq(a->file, b->file) && streq(a->mangled, b->mangled);
}

static int region_init(void *e, const void *k)
{
    scorep_region_def *d = e;
    const scorep_region_def *s = k;
    int fail = 0;
    *d = *s;
    d->name = dup_or_null(s->name, &fail);
    d->mangled =
        s->mangled && strcmp(s->mangled, s->name) != 0 ? dup_or_null(s->mangled, &fail) : d->name;
    d->file = dup_or_null(s->file, &fail);
    d->group = dup_or_null(s->group, &fail);
    return fail ? -1 : 0;
}

/* substrate plugins' new_definition_handle (scorep_defs_on_new_region, _on_new_other) */
static void (*region_hook)(uint32_t id);
static void (*other_hook)(scorep_defs_new_kind kind, uint32_t id);

void scorep_defs_on_new_other(void (*hook)(scorep_defs_new_kind kind, uint32_t id))
{
    __atomic_store_n(&other_hook, hook, __ATOMIC_RELEASE);
}

static uint32_t announce_other(scorep_defs_new_kind kind, bool created, uint32_t id)
{
    void (*hook)(scorep_defs_new_kind, uint32_t) = __atomic_load_n(&other_hook, __ATOMIC_ACQUIRE);
    if (created && hook && id != SCOREP_INVALID_ID)
        hook(kind, id);
    return id;
}

uint32_t scorep_defs_region(const char *name, const char *mangled, const char *file, int begin_line,
                            int end_line, scorep_paradigm paradigm, scorep_role role)
{
    return scorep_defs_region_grouped(name, mangled, file, begin_line, end_line, paradigm, role,
                                      NULL);
}

uint32_t scorep_defs_region_grouped(const char *name, const char *mangled, const char *file,
                                    int begin_line, int end_line, scorep_paradigm paradigm,
                                    scorep_role role, const char *group)
{
    scorep_region_def key = {name,     mangled ? mangled : name, file, begin_line, end_line,
                             paradigm, role,                     false, group};
    uint64_t h = defs_hash_str(defs_hash_str(14695981039346656037ull, name), file);
    h = h * 31 + (uint64_t)begin_line * 7 + paradigm;
    bool created = false;
    uint32_t id = defs_table_intern_new(&regions, h, &key, region_equal, region_init, &created);
    void (*hook)(uint32_t) = __atomic_load_n(&region_hook, __ATOMIC_ACQUIRE);
    if (created && hook)
        hook(id);
    return id;
}

void scorep_defs_on_new_region(void (*hook)(uint32_t id))
{
    __atomic_store_n(&region_hook, hook, __ATOMIC_RELEASE);
}

const scorep_region_def *scorep_defs_region_get(uint32_t id)
{
    return defs_table_get(&regions, id);
}

void scorep_defs_region_set_filtered(uint32_t id, bool filtered)
{
    ((scorep_region_def *)defs_table_get(&regions, id))->filtered = filtered;
}

uint32_t scorep_defs_region_count(void)
{
    return defs_table_count(&regions);
}

/* ------------------------------------------------------------------ strings */
static int string_equal(const void *e, const void *k)
{
    return strcmp(*(const char *const *)e, (const char *)k) == 0;
}

static int string_init(void *e, const void *k)
{
    return (*(char **)e = strdup(k)) ? 0 : -1;
}

uint32_t scorep_defs_string(const char *s)
{
    bool created = false;
    uint32_t id = defs_table_intern_new(&strings, defs_hash_str(14695981039346656037ull, s), s,
                                        string_equal, string_init, &created);
    return announce_other(SCOREP_DEFS_NEW_STRING, created, id);
}

const char *scorep_defs_string_get(uint32_t id)
{
    return *(const char **)defs_table_get(&strings, id);
}

uint32_t scorep_defs_string_count(void)
{
    return defs_table_count(&strings);
}

/* --------------------------------------------------------------- parameters */
static int param_equal(const void *e, const void *k)
{
    const scorep_parameter_def *a = e, *b = k;
    return a->type == b->type && strcmp(a->name, b->name) == 0;
}

static int param_init(void *e, const void *k)
{
    scorep_parameter_def *d = e;
    *d = *(const scorep_parameter_def *)k;
    return (d->name = strdup(d->name)) ? 0 : -1;
}

uint32_t scorep_defs_parameter(const char *name, scorep_param_type type)
{
    scorep_parameter_def key = {name, type};
    bool created = false;
    uint32_t id = defs_table_intern_new(&parameters, defs_hash_str(type + 1, name), &key,
                                        param_equal, param_init, &created);
    return announce_other(SCOREP_DEFS_NEW_PARAMETER, created, id);
}

const scorep_parameter_def *scorep_defs_parameter_get(uint32_t id)
{
    return defs_table_get(&parameters, id);
}

uint32_t scorep_defs_parameter_count(void)
{
    return defs_table_count(&parameters);
}

/* ------------------------------------------------------------------ metrics */
static int metric_equal(const void *e, const void *k)
{
    const scorep_metric_def *a = e, *b = k;
    return a->type == b->type && a->per_callpath == b->per_callpath &&
           strcmp(a->name, b->name) == 0 && streq(a->unit, b->unit) &&
           streq(a->description, b->description) && a->source == b->source && a->mode == b->mode &&
           a->base == b->base && a->exponent == b->exponent && a->recorder == b->recorder;
}

static int metric_init(void *e, const void *k)
{
    scorep_metric_def *d = e;
    int fail = 0;
    *d = *(const scorep_metric_def *)k;
    d->name = dup_or_null(d->name, &fail);
    d->unit = dup_or_null(d->unit ? d->unit : "#", &fail);
    d->description = dup_or_null(d->description ? d->description : "", &fail);
    return fail ? -1 : 0;
}

uint32_t scorep_defs_metric(const char *name, const char *unit, scorep_metric_type type,
                            bool per_callpath)
{
    scorep_metric_def key = {name,
                             unit,
                             type,
                             per_callpath,
                             .description = "user metric",
                             .mode = 4 /* absolute point */,
                             .base = 1};
    return scorep_defs_metric_full(&key);
}

uint32_t scorep_defs_metric_full(const scorep_metric_def *key)
{
    bool created = false;
    uint32_t id = defs_table_intern_new(&metrics, defs_hash_str(key->type + 17, key->name), key,
                                        metric_equal, metric_init, &created);
    return announce_other(SCOREP_DEFS_NEW_METRIC, created, id);
}

const scorep_metric_def *scorep_defs_metric_get(uint32_t id)
{
    return defs_table_get(&metrics, id);
}

uint32_t scorep_defs_metric_count(void)
{
    return defs_table_count(&metrics);
}

/* -------------------------------------------------------------------- names */
const char *scorep_paradigm_name(scorep_paradigm p)
{
    static const char *const names[] = {"measurement", "user",  "compiler", "pthread", "mpi",
                                        "openmp",      "shmem", "cuda",     "sampling",
                                        "memory",      "io",    "libwrap"};
    return names[p];
}

const char *scorep_role_name(scorep_role r)
{
    static const char *const names[] = {
        "function", "code",        "loop",    "phase",         "dynamic",    "artificial",
        "wrapper",  "point2point", "one2all", "all2one",       "all2all",    "other collective",
        "barrier",  "file io",     "rma",     "thread create", "thread wait",
        "allocate", "deallocate",  "reallocate", "atomic", "file io metadata",
        /* Score-P's scorep_region_type_to_string for its OpenMP types */
        "parallel", "sections", "section", "workshare", "single", "single sblock", "master",
        "critical", "critical sblock", "implicit barrier", "flush", "ordered", "ordered sblock",
        "task", "untied task", "task create"};
    _Static_assert(sizeof names / sizeof names[0] == SCOREP_ROLE_COUNT, "one name per role");
    return (unsigned)r < SCOREP_ROLE_COUNT ? names[r] : "unknown";
}
