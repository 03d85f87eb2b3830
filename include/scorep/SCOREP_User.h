/* SPDX-License-Identifier: BSD-3-Clause */
/* SCOREP_User.h: the Score-P user instrumentation API for C and C++ (regions, online-access
 * phases, rewind, parameters, metrics, recording control), with Score-P's macro names and
 * argument lists. Every macro expands to nothing (SCOREP_RECORDING_IS_ON() to 0) unless
 * SCOREP_USER_ENABLE is defined; scorep-cc --user defines it. Fortran: SCOREP_User.inc. */
#ifndef SCOREP_USER_H
#define SCOREP_USER_H

#include "scorep/SCOREP_User_Types.h"

/* Only with the API enabled: SCOREP_User_Variables.h defines variables in every file. */
#ifdef SCOREP_USER_ENABLE
#include "scorep/SCOREP_User_Variables.h"
#include "scorep/SCOREP_User_Functions.h"
#endif

#ifndef SCOREP_USER_FUNCTION_NAME
#define SCOREP_USER_FUNCTION_NAME __func__
#endif

/* Fortran only (declares the function handle there); nothing in C and C++. */
#define SCOREP_USER_FUNC_DEFINE()

#ifdef SCOREP_USER_ENABLE

/* ---- regions */
#define SCOREP_USER_REGION_DEFINE(handle)                                                          \
    static SCOREP_User_RegionHandle handle = SCOREP_USER_INVALID_REGION;
/* A handle shared by several files: defined in one, declared EXTERNAL in the others. The
 * first BEGIN (or INIT) names the region; later ones keep that name and type. */
#define SCOREP_USER_GLOBAL_REGION_DEFINE(handle)                                                   \
    SCOREP_User_RegionHandle handle = SCOREP_USER_INVALID_REGION;
#define SCOREP_USER_GLOBAL_REGION_EXTERNAL(handle) extern SCOREP_User_RegionHandle handle;
#define SCOREP_USER_REGION_INIT(handle, name, type)                                                \
    SCOREP_User_RegionInit(&handle, &SCOREP_User_LastFileName, &SCOREP_User_LastFileHandle, name,  \
                           type, __FILE__, __LINE__);
#define SCOREP_USER_REGION_ENTER(handle) SCOREP_User_RegionEnter(handle);
/* scorep-rt's begin (Score-P's SCOREP_User_RegionBegin less its two unused caches): five
 * arguments, all in registers, so that the runtime knows the frame the region is begun in
 * (a longjmp out of it leaves the region: docs/design.md, "Jumps out of calls") */
#define SCOREP_USER_REGION_BEGIN(handle, name, type)                                               \
    scorep_rt_user_region_begin(&handle, name, type, __FILE__, __LINE__);
#define SCOREP_USER_REGION_END(handle) SCOREP_User_RegionEnd(handle);
/* As in Score-P, regions by name carry no source location (file "" and line 0). */
#define SCOREP_USER_REGION_BY_NAME_BEGIN(name, type)                                               \
    SCOREP_User_RegionByNameBegin(name, type, "", 0);
#define SCOREP_USER_REGION_BY_NAME_END(name) SCOREP_User_RegionByNameEnd(name);
#define SCOREP_USER_FUNC_BEGIN()                                                                   \
    static SCOREP_User_RegionHandle scorep_user_func_handle = SCOREP_USER_INVALID_REGION;          \
    scorep_rt_user_region_begin(&scorep_user_func_handle, SCOREP_USER_FUNCTION_NAME,               \
                                SCOREP_USER_REGION_TYPE_FUNCTION, __FILE__, __LINE__);
#define SCOREP_USER_FUNC_END() SCOREP_User_RegionEnd(scorep_user_func_handle);

/* ---- online-access phases (recorded as plain user regions: no online access here) */
#define SCOREP_USER_OA_PHASE_BEGIN(handle, name, type)                                             \
    SCOREP_User_OaPhaseBegin(&handle, &SCOREP_User_LastFileName, &SCOREP_User_LastFileHandle,      \
                             name, type, __FILE__, __LINE__);
#define SCOREP_USER_OA_PHASE_END(handle) SCOREP_User_OaPhaseEnd(handle);

/* ---- rewind */
#define SCOREP_USER_REWIND_DEFINE(handle)                                                          \
    static SCOREP_User_RegionHandle handle = SCOREP_USER_INVALID_REGION;
#define SCOREP_USER_REWIND_POINT(handle, name)                                                     \
    SCOREP_User_RewindRegionBegin(&handle, &SCOREP_User_LastFileName, &SCOREP_User_LastFileHandle, \
                                  name, SCOREP_USER_REGION_TYPE_COMMON, __FILE__, __LINE__);
#define SCOREP_USER_REWIND_CHECK(handle, value) SCOREP_User_RewindRegionEnd(handle, value);

/* ---- parameters: each use site keeps its own handle */
#define SCOREP_USER_PARAMETER_INT64(name, value)                                                   \
    {                                                                                              \
        static SCOREP_User_ParameterHandle scorep_param = SCOREP_USER_INVALID_PARAMETER;           \
        SCOREP_User_ParameterInt64(&scorep_param, name, value);                                    \
    }
#define SCOREP_USER_PARAMETER_UINT64(name, value)                                                  \
    {                                                                                              \
        static SCOREP_User_ParameterHandle scorep_param = SCOREP_USER_INVALID_PARAMETER;           \
        SCOREP_User_ParameterUint64(&scorep_param, name, value);                                   \
    }
#define SCOREP_USER_PARAMETER_STRING(name, value)                                                  \
    {                                                                                              \
        static SCOREP_User_ParameterHandle scorep_param = SCOREP_USER_INVALID_PARAMETER;           \
        SCOREP_User_ParameterString(&scorep_param, name, value);                                   \
    }

/* ---- metrics */
#define SCOREP_USER_METRIC_LOCAL(metricHandle)                                                     \
    static SCOREP_SamplingSetHandle metricHandle = SCOREP_INVALID_SAMPLING_SET;
#define SCOREP_USER_METRIC_GLOBAL(metricHandle)                                                    \
    SCOREP_SamplingSetHandle metricHandle = SCOREP_INVALID_SAMPLING_SET;
#define SCOREP_USER_METRIC_EXTERNAL(metricHandle) extern SCOREP_SamplingSetHandle metricHandle;
#define SCOREP_USER_METRIC_INIT(metricHandle, name, unit, type, context)                           \
    SCOREP_User_InitMetric(&metricHandle, name, unit, type, context);
#define SCOREP_USER_METRIC_INT64(metricHandle, value)                                              \
    SCOREP_User_TriggerMetricInt64(metricHandle, value);
#define SCOREP_USER_METRIC_UINT64(metricHandle, value)                                             \
    SCOREP_User_TriggerMetricUint64(metricHandle, value);
#define SCOREP_USER_METRIC_DOUBLE(metricHandle, value)                                             \
    SCOREP_User_TriggerMetricDouble(metricHandle, value);

/* ---- recording control (all events, not only the user adapter's) */
#define SCOREP_RECORDING_ON() SCOREP_User_EnableRecording();
#define SCOREP_RECORDING_OFF() SCOREP_User_DisableRecording();
#define SCOREP_RECORDING_IS_ON() SCOREP_User_RecordingEnabled()

/* ---- C++: a region from here to the end of the enclosing scope */
#ifdef __cplusplus
#define SCOREP_USER_REGION(name, type)                                                             \
    static SCOREP_User_RegionHandle scorep_user_region_handle = SCOREP_USER_INVALID_REGION;        \
    SCOREP_User_RegionClass scorep_user_region_inst(                                               \
        &scorep_user_region_handle, name, type, &SCOREP_User_LastFileName,                         \
        &SCOREP_User_LastFileHandle, __FILE__, __LINE__);
#else
#define SCOREP_USER_REGION(name, type)
#endif

#else /* !SCOREP_USER_ENABLE */

#define SCOREP_USER_REGION(name, type)
#define SCOREP_USER_REGION_DEFINE(handle)
#define SCOREP_USER_GLOBAL_REGION_DEFINE(handle)
#define SCOREP_USER_GLOBAL_REGION_EXTERNAL(handle)
#define SCOREP_USER_REGION_INIT(handle, name, type)
#define SCOREP_USER_REGION_ENTER(handle)
#define SCOREP_USER_REGION_BEGIN(handle, name, type)
#define SCOREP_USER_REGION_END(handle)
#define SCOREP_USER_REGION_BY_NAME_BEGIN(name, type)
#define SCOREP_USER_REGION_BY_NAME_END(name)
#define SCOREP_USER_FUNC_BEGIN()
#define SCOREP_USER_FUNC_END()
#define SCOREP_USER_OA_PHASE_BEGIN(handle, name, type)
#define SCOREP_USER_OA_PHASE_END(handle)
#define SCOREP_USER_REWIND_DEFINE(handle)
#define SCOREP_USER_REWIND_POINT(handle, name)
#define SCOREP_USER_REWIND_CHECK(handle, value)
#define SCOREP_USER_PARAMETER_INT64(name, value)
#define SCOREP_USER_PARAMETER_UINT64(name, value)
#define SCOREP_USER_PARAMETER_STRING(name, value)
#define SCOREP_USER_METRIC_LOCAL(metricHandle)
#define SCOREP_USER_METRIC_GLOBAL(metricHandle)
#define SCOREP_USER_METRIC_EXTERNAL(metricHandle)
#define SCOREP_USER_METRIC_INIT(metricHandle, name, unit, type, context)
#define SCOREP_USER_METRIC_INT64(metricHandle, value)
#define SCOREP_USER_METRIC_UINT64(metricHandle, value)
#define SCOREP_USER_METRIC_DOUBLE(metricHandle, value)
#define SCOREP_RECORDING_ON()
#define SCOREP_RECORDING_OFF()
#define SCOREP_RECORDING_IS_ON() 0

#endif /* SCOREP_USER_ENABLE */

/* Deprecated: this runtime's earlier spellings, not Score-P's; kept so that code written for
 * it still compiles. Use SCOREP_RECORDING_ON/OFF/IS_ON. */
#define SCOREP_USER_RECORDING_ON() SCOREP_RECORDING_ON()
#define SCOREP_USER_RECORDING_OFF() SCOREP_RECORDING_OFF()
#define SCOREP_USER_RECORDING_IS_ON() SCOREP_RECORDING_IS_ON()

#endif
