/* SPDX-License-Identifier: BSD-3-Clause */
/* SCOREP_MetricTypes.h: the metric enums and the time/value pair of Score-P's metric plugin
 * ABI; names, values and layout match Score-P 9's header so plugins build unchanged. */
#ifndef SCOREP_METRIC_TYPES_H_
#define SCOREP_METRIC_TYPES_H_

#include <stdint.h>

typedef enum SCOREP_MetricSourceType {
    SCOREP_METRIC_SOURCE_TYPE_PAPI = 0,
    SCOREP_METRIC_SOURCE_TYPE_RUSAGE = 1,
    SCOREP_METRIC_SOURCE_TYPE_USER = 2,
    SCOREP_METRIC_SOURCE_TYPE_OTHER = 3,
    SCOREP_METRIC_SOURCE_TYPE_TASK = 4,
    SCOREP_METRIC_SOURCE_TYPE_PLUGIN = 5,
    SCOREP_METRIC_SOURCE_TYPE_PERF = 6,
    SCOREP_INVALID_METRIC_SOURCE_TYPE
} SCOREP_MetricSourceType;

typedef enum SCOREP_MetricProfilingType {
    SCOREP_METRIC_PROFILING_TYPE_EXCLUSIVE = 0,
    SCOREP_METRIC_PROFILING_TYPE_INCLUSIVE = 1,
    SCOREP_METRIC_PROFILING_TYPE_SIMPLE = 2,
    SCOREP_METRIC_PROFILING_TYPE_MAX = 3,
    SCOREP_METRIC_PROFILING_TYPE_MIN = 4,
    SCOREP_INVALID_METRIC_PROFILING_TYPE
} SCOREP_MetricProfilingType;

/* Values always travel as a uint64_t bit pattern; this says how to read them. */
typedef enum SCOREP_MetricValueType {
    SCOREP_METRIC_VALUE_INT64,
    SCOREP_METRIC_VALUE_UINT64,
    SCOREP_METRIC_VALUE_DOUBLE,
    SCOREP_INVALID_METRIC_VALUE_TYPE
} SCOREP_MetricValueType;

/* ACCUMULATED: a counter since a start; ABSOLUTE: a level; RELATIVE: a level relative to a
 * reference. POINT/START/LAST/NEXT: which interval the value belongs to (OTF2's modes). */
typedef enum SCOREP_MetricMode {
    SCOREP_METRIC_MODE_ACCUMULATED_START = 0,
    SCOREP_METRIC_MODE_ACCUMULATED_POINT = 1,
    SCOREP_METRIC_MODE_ACCUMULATED_LAST = 2,
    SCOREP_METRIC_MODE_ACCUMULATED_NEXT = 3,
    SCOREP_METRIC_MODE_ABSOLUTE_POINT = 4,
    SCOREP_METRIC_MODE_ABSOLUTE_LAST = 5,
    SCOREP_METRIC_MODE_ABSOLUTE_NEXT = 6,
    SCOREP_METRIC_MODE_RELATIVE_POINT = 7,
    SCOREP_METRIC_MODE_RELATIVE_LAST = 8,
    SCOREP_METRIC_MODE_RELATIVE_NEXT = 9,
    SCOREP_INVALID_METRIC_MODE
} SCOREP_MetricMode;

typedef enum SCOREP_MetricBase {
    SCOREP_METRIC_BASE_BINARY = 0,
    SCOREP_METRIC_BASE_DECIMAL = 1,
    SCOREP_INVALID_METRIC_BASE
} SCOREP_MetricBase;

typedef struct SCOREP_Metric_Properties {
    const char *name;
    const char *description;
    SCOREP_MetricSourceType source_type;
    SCOREP_MetricMode mode;
    SCOREP_MetricValueType value_type;
    SCOREP_MetricBase base;
    int64_t exponent; /* value = recorded * base^exponent */
    const char *unit;
    SCOREP_MetricProfilingType profiling_type;
} SCOREP_Metric_Properties;

typedef enum SCOREP_MetricPer {
    SCOREP_METRIC_PER_THREAD = 0,
    SCOREP_METRIC_PER_PROCESS,
    SCOREP_METRIC_PER_HOST,
    SCOREP_METRIC_ONCE,
    SCOREP_METRIC_PER_MAX /* not part of the ABI */
} SCOREP_MetricPer;

typedef enum SCOREP_MetricSynchronicity {
    SCOREP_METRIC_STRICTLY_SYNC = 0, /* read at every enter and leave */
    SCOREP_METRIC_SYNC,              /* read at enter/leave, a value may be missing */
    SCOREP_METRIC_ASYNC_EVENT,       /* own timestamps, collected at enter/leave */
    SCOREP_METRIC_ASYNC,             /* own timestamps, collected at the end */
    SCOREP_METRIC_SYNC_TYPE_MAX      /* not part of the ABI */
} SCOREP_MetricSynchronicity;

typedef enum SCOREP_MetricSynchronizationMode {
    SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN = 0,
    SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN_MPP = 1,
    SCOREP_METRIC_SYNCHRONIZATION_MODE_END = 2,
    SCOREP_METRIC_SYNCHRONIZATION_MODE_MAX
} SCOREP_MetricSynchronizationMode;

/* timestamp: in the ticks of the clock given to set_clock_function */
typedef struct SCOREP_MetricTimeValuePair {
    uint64_t timestamp;
    uint64_t value;
} SCOREP_MetricTimeValuePair;

#endif
