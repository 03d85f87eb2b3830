/* SPDX-License-Identifier: BSD-3-Clause */
/* SCOREP_MetricPlugins.h: the metric plugin interface (version 1), binary compatible with
 * Score-P's: a plugin built against either header loads into either runtime. */
#ifndef SCOREP_METRIC_PLUGINS_H
#define SCOREP_METRIC_PLUGINS_H

#include <stdbool.h>
#include <stdint.h>

#include <scorep/SCOREP_MetricTypes.h>

#define SCOREP_METRIC_PLUGIN_VERSION 1

#ifdef __cplusplus
#define EXTERN extern "C"
#else
#define EXTERN extern
#endif

/* A plugin in lib<name>.so defines its entry point with SCOREP_METRIC_PLUGIN_ENTRY(<name>). */
#define SCOREP_METRIC_PLUGIN_ENTRY(_name)                                                          \
    EXTERN SCOREP_Metric_Plugin_Info SCOREP_MetricPlugin_##_name##_get_info(void)

/* One metric of a token; get_event_info returns an array ended by name == NULL. The runtime
 * takes ownership and releases name, description, unit and the array with free(). */
typedef struct SCOREP_Metric_Plugin_MetricProperties {
    char *name;
    char *description;
    SCOREP_MetricMode mode;
    SCOREP_MetricValueType value_type;
    SCOREP_MetricBase base;
    int64_t exponent;
    char *unit; /* may be NULL */
} SCOREP_Metric_Plugin_MetricProperties;

/* Returned by value by the entry point; fields a plugin does not use must be zero. */
typedef struct SCOREP_Metric_Plugin_Info {
    uint32_t plugin_version; /* SCOREP_METRIC_PLUGIN_VERSION */
    SCOREP_MetricPer run_per;
    SCOREP_MetricSynchronicity sync;
    /* least number of ticks between two reads (SYNC, ASYNC_EVENT, ASYNC) */
    uint64_t delta_t;

    /* once per process; 0 = ready */
    int32_t (*initialize)(void);
    void (*finalize)(void);
    /* once per process and token of SCOREP_METRIC_<NAME> */
    SCOREP_Metric_Plugin_MetricProperties *(*get_event_info)(char *token);
    /* per responsible thread and metric; a non-negative id, negative on failure */
    int32_t (*add_counter)(char *metric_name);

    /* STRICTLY_SYNC: the current value */
    uint64_t (*get_current_value)(int32_t id);
    /* SYNC: true when *value was written */
    bool (*get_optional_value)(int32_t id, uint64_t *value);
    /* called before initialize with the runtime's clock (the ticks of the timestamps) */
    void (*set_clock_function)(uint64_t (*clock_time)(void));
    /* ASYNC_EVENT, ASYNC: the values since the last call; the runtime free()s the list */
    uint64_t (*get_all_values)(int32_t id, SCOREP_MetricTimeValuePair **time_value_list);

    /* since version 1: begin and end of the measurement, on every thread */
    void (*synchronize)(bool is_responsible, SCOREP_MetricSynchronizationMode sync_mode);

    uint64_t reserved[92]; /* zero */
} SCOREP_Metric_Plugin_Info;

#endif
