/* SPDX-License-Identifier: BSD-3-Clause */
/* SCOREP_SubstratePlugins.h: Score-P's substrate plugin interface (version 3), for plugins
 * loaded with SCOREP_SUBSTRATE_PLUGINS=name: a library libscorep_substrate_<name>.so whose
 * SCOREP_SUBSTRATE_PLUGIN_ENTRY(name) returns a SCOREP_SubstratePluginInfo. Member order,
 * types and the version number are those of Score-P 9's header, so that a plugin built
 * against either header runs under either runtime. What scorep-rt calls and which events
 * it delivers: docs/substrate-plugins.md. */
#ifndef SCOREP_SUBSTRATE_PLUGINS_H
#define SCOREP_SUBSTRATE_PLUGINS_H

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>

#include <scorep/SCOREP_PublicTypes.h>
#include <scorep/SCOREP_PublicHandles.h>
#include <scorep/SCOREP_SubstrateEvents.h>

#define SCOREP_SUBSTRATE_PLUGIN_VERSION 3

/* the reserved slots at the end of SCOREP_SubstratePluginInfo */
#define SCOREP_SUBSTRATE_PLUGIN_UNDEFINED_MANAGEMENT_FUNCTIONS 99

#ifdef __cplusplus
#define EXTERN extern "C"
#else
#define EXTERN extern
#endif

/* SCOREP_SUBSTRATE_PLUGIN_ENTRY(foo) defines SCOREP_SubstratePlugin_foo_get_info, the one
 * symbol the runtime looks up in libscorep_substrate_foo.so. */
#define SCOREP_SUBSTRATE_PLUGIN_ENTRY(_name)                                                     \
    EXTERN SCOREP_SubstratePluginInfo SCOREP_SubstratePlugin_##_name##_get_info(void)

/* What the runtime offers the plugin (set_callbacks); Score-P appends new members, so a
 * plugin checks that the size it is given is at least the size it was built with. */
typedef struct SCOREP_SubstratePluginCallbacks {
    const char *(*SCOREP_GetExperimentDirName)(void);
    int (*SCOREP_Ipc_GetSize)(void);
    int (*SCOREP_Ipc_GetRank)(void);
    int (*SCOREP_Ipc_Send)(const void *buf, int count, SCOREP_Ipc_Datatype datatype, int dest);
    int (*SCOREP_Ipc_Recv)(void *buf, int count, SCOREP_Ipc_Datatype datatype, int source);
    int (*SCOREP_Ipc_Barrier)(void);
    int (*SCOREP_Ipc_Bcast)(void *buf, int count, SCOREP_Ipc_Datatype datatype, int root);
    int (*SCOREP_Ipc_Gather)(const void *sendbuf, void *recvbuf, int count,
                             SCOREP_Ipc_Datatype datatype, int root);
    int (*SCOREP_Ipc_Gatherv)(const void *sendbuf, int sendcount, void *recvbuf,
                              const int *recvcnts, SCOREP_Ipc_Datatype datatype, int root);
    int (*SCOREP_Ipc_Allgather)(const void *sendbuf, void *recvbuf, int count,
                                SCOREP_Ipc_Datatype datatype);
    int (*SCOREP_Ipc_Reduce)(const void *sendbuf, void *recvbuf, int count,
                             SCOREP_Ipc_Datatype datatype, SCOREP_Ipc_Operation operation,
                             int root);
    int (*SCOREP_Ipc_Allreduce)(const void *sendbuf, void *recvbuf, int count,
                                SCOREP_Ipc_Datatype datatype, SCOREP_Ipc_Operation operation);
    int (*SCOREP_Ipc_Scatter)(const void *sendbuf, void *recvbuf, int count,
                              SCOREP_Ipc_Datatype datatype, int root);
    int (*SCOREP_Ipc_Scatterv)(const void *sendbuf, const int *sendcounts, void *recvbuf,
                               int recvcount, SCOREP_Ipc_Datatype datatype, int root);
    SCOREP_LocationType (*SCOREP_Location_GetType)(const struct SCOREP_Location *locationData);
    const char *(*SCOREP_Location_GetName)(const struct SCOREP_Location *locationData);
    uint32_t (*SCOREP_Location_GetId)(const struct SCOREP_Location *locationData);
    uint64_t (*SCOREP_Location_GetGlobalId)(const struct SCOREP_Location *locationData);
    void (*SCOREP_Location_SetData)(const struct SCOREP_Location *locationData, size_t plugin_id,
                                    void *data);
    void *(*SCOREP_Location_GetData)(const struct SCOREP_Location *locationData,
                                     size_t plugin_id);
    SCOREP_RegionHandle (*SCOREP_CallingContextHandle_GetRegion)(SCOREP_CallingContextHandle handle);
    SCOREP_CallingContextHandle (*SCOREP_CallingContextHandle_GetParent)(
        SCOREP_CallingContextHandle handle);
    SCOREP_MetricValueType (*SCOREP_MetricHandle_GetValueType)(SCOREP_MetricHandle handle);
    const char *(*SCOREP_MetricHandle_GetName)(SCOREP_MetricHandle handle);
    SCOREP_MetricProfilingType (*SCOREP_MetricHandle_GetProfilingType)(SCOREP_MetricHandle handle);
    SCOREP_MetricMode (*SCOREP_MetricHandle_GetMode)(SCOREP_MetricHandle handle);
    SCOREP_MetricSourceType (*SCOREP_MetricHandle_GetSourceType)(SCOREP_MetricHandle handle);
    SCOREP_ParadigmClass (*SCOREP_ParadigmHandle_GetClass)(SCOREP_ParadigmHandle handle);
    const char *(*SCOREP_ParadigmHandle_GetName)(SCOREP_ParadigmHandle handle);
    SCOREP_ParadigmType (*SCOREP_ParadigmHandle_GetType)(SCOREP_ParadigmHandle handle);
    const char *(*SCOREP_ParameterHandle_GetName)(SCOREP_ParameterHandle handle);
    SCOREP_ParameterType (*SCOREP_ParameterHandle_GetType)(SCOREP_ParameterHandle handle);
    uint32_t (*SCOREP_RegionHandle_GetId)(SCOREP_RegionHandle handle);
    const char *(*SCOREP_RegionHandle_GetName)(SCOREP_RegionHandle handle);
    const char *(*SCOREP_RegionHandle_GetCanonicalName)(SCOREP_RegionHandle handle);
    const char *(*SCOREP_RegionHandle_GetFileName)(SCOREP_RegionHandle handle);
    SCOREP_LineNo (*SCOREP_RegionHandle_GetBeginLine)(SCOREP_RegionHandle handle);
    SCOREP_LineNo (*SCOREP_RegionHandle_GetEndLine)(SCOREP_RegionHandle handle);
    SCOREP_RegionType (*SCOREP_RegionHandle_GetType)(SCOREP_RegionHandle handle);
    SCOREP_ParadigmType (*SCOREP_RegionHandle_GetParadigmType)(SCOREP_RegionHandle handle);
    uint8_t (*SCOREP_SamplingSetHandle_GetNumberOfMetrics)(SCOREP_SamplingSetHandle handle);
    const SCOREP_MetricHandle *(*SCOREP_SamplingSetHandle_GetMetricHandles)(
        SCOREP_SamplingSetHandle handle);
    SCOREP_MetricOccurrence (*SCOREP_SamplingSetHandle_GetMetricOccurrence)(
        SCOREP_SamplingSetHandle handle);
    bool (*SCOREP_SamplingSetHandle_IsScoped)(SCOREP_SamplingSetHandle handle);
    SCOREP_MetricScope (*SCOREP_SamplingSetHandle_GetScope)(SCOREP_SamplingSetHandle handle);
    SCOREP_SamplingSetClass (*SCOREP_SamplingSetHandle_GetSamplingSetClass)(
        SCOREP_SamplingSetHandle handle);
    const char *(*SCOREP_SourceFileHandle_GetName)(SCOREP_SourceFileHandle handle);
    const char *(*SCOREP_StringHandle_Get)(SCOREP_StringHandle handle);
    void (*SCOREP_Metric_WriteStrictlySynchronousMetrics)(struct SCOREP_Location *location,
                                                          uint64_t timestamp,
                                                          SCOREP_Substrates_WriteMetricsCb cb);
    void (*SCOREP_Metric_WriteSynchronousMetrics)(struct SCOREP_Location *location,
                                                  uint64_t timestamp,
                                                  SCOREP_Substrates_WriteMetricsCb cb);
    void (*SCOREP_Metric_WriteAsynchronousMetrics)(struct SCOREP_Location *location,
                                                   SCOREP_Substrates_WriteMetricsCb cb);
    void (*SCOREP_ConfigManifestSectionHeader)(FILE *out, const char *section);
    void (*SCOREP_ConfigManifestSectionEntry)(FILE *out, const char *fileName,
                                              const char *descriptionFormatString, ...);
} SCOREP_SubstratePluginCallbacks;

/* What the plugin gives the runtime. Call order, per process: init, set_callbacks,
 * get_event_functions(ENABLED), get_event_functions(DISABLED), (new_definition_handle and
 * get_requirement at any time from now on), assign_id, create_location and
 * activate_cpu_location of the first thread, init_mpp; per further location
 * create_location, activate_cpu_location, its events, deactivate_cpu_location,
 * delete_location; then pre_unify, write_data, finalize. Members a plugin does not
 * implement are NULL; undeclared must be all zero. */
typedef struct SCOREP_SubstratePluginInfo {
    uint32_t plugin_version; /* SCOREP_SUBSTRATE_PLUGIN_VERSION */
    int (*init)(void);       /* 0: success; otherwise the plugin is not used */
    void (*assign_id)(size_t pluginId);
    void (*init_mpp)(void);
    void (*finalize)(void);
    void (*create_location)(const struct SCOREP_Location *location,
                            const struct SCOREP_Location *parentLocation);
    void (*activate_cpu_location)(const struct SCOREP_Location *location,
                                  const struct SCOREP_Location *parentLocation,
                                  uint32_t forkSequenceCount);
    void (*deactivate_cpu_location)(const struct SCOREP_Location *location,
                                    const struct SCOREP_Location *parentLocation);
    void (*delete_location)(const struct SCOREP_Location *location);
    void (*pre_unify)(void);
    void (*write_data)(void);
    void (*core_task_create)(const struct SCOREP_Location *location, SCOREP_TaskHandle taskHandle);
    void (*core_task_complete)(const struct SCOREP_Location *location,
                               SCOREP_TaskHandle taskHandle);
    void (*new_definition_handle)(SCOREP_AnyHandle handle, SCOREP_HandleType type);
    /* returns SCOREP_SUBSTRATES_NUM_EVENTS and an array of that many entries (NULL: not
     * wanted), indexed by SCOREP_Substrates_EventType; the plugin keeps the array */
    uint32_t (*get_event_functions)(SCOREP_Substrates_Mode mode,
                                    SCOREP_Substrates_Callback **functions);
    void (*set_callbacks)(const SCOREP_SubstratePluginCallbacks *callbacks, size_t size);
    bool (*get_requirement)(SCOREP_Substrates_RequirementFlag flag);
    void (*dump_manifest)(FILE *manifestFile, const char *relativeSourceDir,
                          const char *targetDir);
    void (*undeclared[SCOREP_SUBSTRATE_PLUGIN_UNDEFINED_MANAGEMENT_FUNCTIONS])(void);
} SCOREP_SubstratePluginInfo;

#endif
