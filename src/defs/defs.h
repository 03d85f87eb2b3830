/* SPDX-License-Identifier: BSD-3-Clause */
/* defs.h: process-local definitions (regions, strings, parameters, user metrics).
 * Created rarely under a lock and deduplicated by key; read lock-free by handle. */
#ifndef SCOREP_DEFS_H
#define SCOREP_DEFS_H

#include <stdbool.h>
#include <stdint.h>

#define SCOREP_INVALID_ID UINT32_MAX

typedef enum {
    SCOREP_PARADIGM_MEASUREMENT,
    SCOREP_PARADIGM_USER,
    SCOREP_PARADIGM_COMPILER,
    SCOREP_PARADIGM_PTHREAD,
    SCOREP_PARADIGM_MPI,
    SCOREP_PARADIGM_OPENMP,
    SCOREP_PARADIGM_SHMEM,
    SCOREP_PARADIGM_CUDA,
    SCOREP_PARADIGM_SAMPLING, /* functions found by unwinding samples (src/sampling) */
    SCOREP_PARADIGM_MEMORY,   /* malloc, free, new, delete (src/adapters/memory) */
    SCOREP_PARADIGM_IO,       /* POSIX and ISO C I/O calls (src/adapters/io) */
    SCOREP_PARADIGM_LIBWRAP /* user library wrappers (scorep-libwrap-init, src/adapters/libwrap) */
} scorep_paradigm;

typedef enum {
    SCOREP_ROLE_FUNCTION,
    SCOREP_ROLE_CODE, /* user region of type COMMON */
    SCOREP_ROLE_LOOP,
    SCOREP_ROLE_PHASE,
    SCOREP_ROLE_DYNAMIC,
    SCOREP_ROLE_ARTIFICIAL,
    SCOREP_ROLE_WRAPPER,
    SCOREP_ROLE_POINT2POINT,
    SCOREP_ROLE_COLL_ONE2ALL,
    SCOREP_ROLE_COLL_ALL2ONE,
    SCOREP_ROLE_COLL_ALL2ALL,
    SCOREP_ROLE_COLL_OTHER,
    SCOREP_ROLE_BARRIER,
    SCOREP_ROLE_FILE_IO,
    SCOREP_ROLE_RMA,
    SCOREP_ROLE_THREAD_CREATE,
    SCOREP_ROLE_THREAD_WAIT,
    SCOREP_ROLE_ALLOCATE, /* memory adapter, as Score-P's SCOREP_REGION_ALLOCATE ... */
    SCOREP_ROLE_DEALLOCATE,
    SCOREP_ROLE_REALLOCATE,
    SCOREP_ROLE_ATOMIC,          /* Score-P's SCOREP_REGION_ATOMIC: MPI's atomic RMA calls */
    SCOREP_ROLE_FILE_IO_METADATA, /* SCOREP_REGION_FILE_IO_METADATA: MPI_File_open, _seek, ... */
    /* OpenMP constructs, as Score-P's OMPT adapter types them (SCOREP_REGION_PARALLEL ...):
     * Scalasca's scout tells critical sections from lock API calls by these roles */
    SCOREP_ROLE_PARALLEL,
    SCOREP_ROLE_SECTIONS,
    SCOREP_ROLE_SECTION,
    SCOREP_ROLE_WORKSHARE,
    SCOREP_ROLE_SINGLE,
    SCOREP_ROLE_SINGLE_SBLOCK,
    SCOREP_ROLE_MASTER, /* "!$omp masked" */
    SCOREP_ROLE_CRITICAL,
    SCOREP_ROLE_CRITICAL_SBLOCK,
    SCOREP_ROLE_IMPLICIT_BARRIER,
    SCOREP_ROLE_FLUSH,
    SCOREP_ROLE_ORDERED,
    SCOREP_ROLE_ORDERED_SBLOCK,
    SCOREP_ROLE_TASK,
    SCOREP_ROLE_TASK_UNTIED,
    SCOREP_ROLE_TASK_CREATE,
    SCOREP_ROLE_COUNT /* not a role: the number of them */
} scorep_role;

typedef struct {
    const char *name;
    const char *mangled; /* == name when there is no separate mangled name */
    const char *file;    /* may be NULL */
    int begin_line, end_line;
    scorep_paradigm paradigm;
    scorep_role role;
    bool filtered; /* excluded by the filter: never recorded */
    /* a user library wrapper's display name (paradigm libwrap: Score-P's Cube paradigm is
     * "libwrap:GROUP"); NULL otherwise */
    const char *group;
} scorep_region_def;

typedef enum { SCOREP_PARAM_INT64, SCOREP_PARAM_UINT64, SCOREP_PARAM_STRING } scorep_param_type;
typedef struct {
    const char *name;
    scorep_param_type type;
} scorep_parameter_def;

typedef enum { SCOREP_METRIC_INT64, SCOREP_METRIC_UINT64, SCOREP_METRIC_DOUBLE } scorep_metric_type;
/* How a metric was measured (values of SCOREP_MetricSourceType) and how it is recorded. */
typedef enum {
    SCOREP_MSRC_PAPI,
    SCOREP_MSRC_RUSAGE,
    SCOREP_MSRC_USER,
    SCOREP_MSRC_OTHER,
    SCOREP_MSRC_PLUGIN = 5,
    SCOREP_MSRC_PERF
} scorep_metric_source_type;
typedef enum {
    SCOREP_MREC_USER,   /* user metric: sparse, sum and count per call path */
    SCOREP_MREC_STRICT, /* read at every enter/leave: inclusive delta per call path */
    SCOREP_MREC_SYNC,   /* like STRICT, a read may repeat the last value */
    SCOREP_MREC_ASYNC,  /* own timestamps: trace only */
    SCOREP_MREC_MAX     /* sparse like USER, the maximum per call path (a DOUBLE metric) */
} scorep_metric_recorder;
typedef struct {
    const char *name, *unit;
    scorep_metric_type type;
    bool per_callpath; /* SCOREP_USER_METRIC_CONTEXT_CALLPATH */
    /* metric sources (src/metrics); zero for user metrics */
    const char *description;
    uint32_t source;   /* scorep_metric_source_type */
    uint32_t mode;     /* SCOREP_MetricMode (0 = accumulated start) */
    uint32_t base;     /* SCOREP_MetricBase: 0 binary, 1 decimal */
    int64_t exponent;  /* value = recorded * base^exponent */
    uint32_t recorder; /* scorep_metric_recorder */
    /* SCOREP_MetricPer of a metric source: 0 every thread, 1 the process's first thread,
     * 2 per host, 3 once; the trace gives the last three (and asynchronous metrics) a
     * MetricInstance with this scope, as Score-P does. Not part of a metric's identity: the
     * first definition's stands (a per-thread PAPI event also listed per process is one
     * per-thread metric). */
    uint32_t per;
} scorep_metric_def;

/* Each returns the existing id for an equal key, or a new one. SCOREP_INVALID_ID when
 * memory is exhausted. Strings are copied. */
uint32_t scorep_defs_region(const char *name, const char *mangled, const char *file, int begin_line,
                            int end_line, scorep_paradigm paradigm, scorep_role role);
/* the same with the group of a library wrapper's region (scorep_region_def.group) */
uint32_t scorep_defs_region_grouped(const char *name, const char *mangled, const char *file,
                                    int begin_line, int end_line, scorep_paradigm paradigm,
                                    scorep_role role, const char *group);
uint32_t scorep_defs_string(const char *s);
uint32_t scorep_defs_parameter(const char *name, scorep_param_type type);
uint32_t scorep_defs_metric(const char *name, const char *unit, scorep_metric_type type,
                            bool per_callpath);

/* A metric of a metric source with all its properties; same rules as above. */
uint32_t scorep_defs_metric_full(const scorep_metric_def *key);

/* Hook called (outside the table's lock, on the defining thread) with the id of every region
 * defined from now on; the events layer's substrate plugins register it (NULL: none). */
void scorep_defs_on_new_region(void (*hook)(uint32_t id));
/* The same for strings, parameters and metrics: kind says which */
typedef enum { SCOREP_DEFS_NEW_STRING, SCOREP_DEFS_NEW_PARAMETER, SCOREP_DEFS_NEW_METRIC } scorep_defs_new_kind;
void scorep_defs_on_new_other(void (*hook)(scorep_defs_new_kind kind, uint32_t id));

const scorep_region_def *scorep_defs_region_get(uint32_t id);
const char *scorep_defs_string_get(uint32_t id);
const scorep_parameter_def *scorep_defs_parameter_get(uint32_t id);
const scorep_metric_def *scorep_defs_metric_get(uint32_t id);
void scorep_defs_region_set_filtered(uint32_t id, bool filtered);

uint32_t scorep_defs_region_count(void);
uint32_t scorep_defs_string_count(void);
uint32_t scorep_defs_parameter_count(void);
uint32_t scorep_defs_metric_count(void);

const char *scorep_paradigm_name(scorep_paradigm p); /* Cube spelling: compiler, user, ... */
const char *scorep_role_name(scorep_role r);         /* Cube spelling: function, loop, ... */

#endif
