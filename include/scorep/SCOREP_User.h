/* SCOREP_User.h: the Score-P user instrumentation API (regions, parameters, metrics,
 * recording control). Every macro expands to nothing unless SCOREP_USER_ENABLE is defined
 * (scorep-cc --user defines it). Rewind macros are not provided yet. */
#ifndef SCOREP_USER_H
#define SCOREP_USER_H

#include "scorep/SCOREP_User_Types.h"

#ifdef SCOREP_USER_ENABLE

#include "scorep/SCOREP_User_Functions.h"

#define SCOREP_USER_REGION_DEFINE(handle)                                                          \
    static SCOREP_User_RegionHandle handle = SCOREP_USER_INVALID_REGION;
#define SCOREP_USER_REGION_INIT(handle, name, type)                                                \
    SCOREP_User_RegionInit(&(handle), NULL, NULL, name, type, __FILE__, __LINE__);
#define SCOREP_USER_REGION_ENTER(handle) SCOREP_User_RegionEnter(handle);
#define SCOREP_USER_REGION_BEGIN(handle, name, type)                                               \
    SCOREP_User_RegionBegin(&(handle), NULL, NULL, name, type, __FILE__, __LINE__);
#define SCOREP_USER_REGION_END(handle) SCOREP_User_RegionEnd(handle);
#define SCOREP_USER_REGION_BY_NAME_BEGIN(name, type)                                               \
    SCOREP_User_RegionByNameBegin(name, type, __FILE__, __LINE__);
#define SCOREP_USER_REGION_BY_NAME_END(name) SCOREP_User_RegionByNameEnd(name);

#define SCOREP_USER_FUNC_BEGIN()                                                                   \
    static SCOREP_User_RegionHandle scorep_user_func_handle = SCOREP_USER_INVALID_REGION;          \
    SCOREP_User_RegionBegin(&scorep_user_func_handle, NULL, NULL, __func__,                        \
                            SCOREP_USER_REGION_TYPE_FUNCTION, __FILE__, __LINE__);
#define SCOREP_USER_FUNC_END() SCOREP_User_RegionEnd(scorep_user_func_handle);

#define SCOREP_USER_PARAMETER_INT64(name, value)                                                   \
    {                                                                                              \
        static SCOREP_User_ParameterHandle scorep_param = SCOREP_USER_INVALID_PARAMETER;           \
        SCOREP_User_ParameterInt64(&scorep_param, name, (int64_t)(value));                         \
    }
#define SCOREP_USER_PARAMETER_UINT64(name, value)                                                  \
    {                                                                                              \
        static SCOREP_User_ParameterHandle scorep_param = SCOREP_USER_INVALID_PARAMETER;           \
        SCOREP_User_ParameterUint64(&scorep_param, name, (uint64_t)(value));                       \
    }
#define SCOREP_USER_PARAMETER_STRING(name, value)                                                  \
    {                                                                                              \
        static SCOREP_User_ParameterHandle scorep_param = SCOREP_USER_INVALID_PARAMETER;           \
        SCOREP_User_ParameterString(&scorep_param, name, value);                                   \
    }

#define SCOREP_USER_METRIC_LOCAL(handle)                                                           \
    static SCOREP_SamplingSetHandle handle = SCOREP_INVALID_SAMPLING_SET;
#define SCOREP_USER_METRIC_GLOBAL(handle)                                                          \
    SCOREP_SamplingSetHandle handle = SCOREP_INVALID_SAMPLING_SET;
#define SCOREP_USER_METRIC_EXTERNAL(handle) extern SCOREP_SamplingSetHandle handle;
#define SCOREP_USER_METRIC_INIT(handle, name, unit, type, context)                                 \
    SCOREP_User_InitMetric(&(handle), name, unit, type, context);
#define SCOREP_USER_METRIC_INT64(handle, value)                                                    \
    SCOREP_User_TriggerMetricInt64(handle, (int64_t)(value));
#define SCOREP_USER_METRIC_UINT64(handle, value)                                                   \
    SCOREP_User_TriggerMetricUint64(handle, (uint64_t)(value));
#define SCOREP_USER_METRIC_DOUBLE(handle, value)                                                   \
    SCOREP_User_TriggerMetricDouble(handle, (double)(value));

#define SCOREP_USER_RECORDING_ON() SCOREP_User_EnableRecording();
#define SCOREP_USER_RECORDING_OFF() SCOREP_User_DisableRecording();
#define SCOREP_USER_RECORDING_IS_ON() SCOREP_User_RecordingEnabled()

#ifdef __cplusplus
/* C++: a region that ends with the enclosing scope. */
class SCOREP_User_RegionClass
{
  public:
    SCOREP_User_RegionClass(SCOREP_User_RegionHandle *h, const char *name,
                            SCOREP_User_RegionType type, const char *file, int line)
    {
        SCOREP_User_RegionBegin(h, NULL, NULL, name, type, file, line);
        handle = *h;
    }
    ~SCOREP_User_RegionClass()
    {
        SCOREP_User_RegionEnd(handle);
    }

  private:
    SCOREP_User_RegionHandle handle;
};
#define SCOREP_USER_REGION(name, type)                                                             \
    static SCOREP_User_RegionHandle scorep_user_region_handle = SCOREP_USER_INVALID_REGION;        \
    SCOREP_User_RegionClass scorep_user_region_inst(&scorep_user_region_handle, name, type,        \
                                                    __FILE__, __LINE__);
#endif

#else /* !SCOREP_USER_ENABLE */

#define SCOREP_USER_REGION_DEFINE(handle)
#define SCOREP_USER_REGION_INIT(handle, name, type)
#define SCOREP_USER_REGION_ENTER(handle)
#define SCOREP_USER_REGION_BEGIN(handle, name, type)
#define SCOREP_USER_REGION_END(handle)
#define SCOREP_USER_REGION_BY_NAME_BEGIN(name, type)
#define SCOREP_USER_REGION_BY_NAME_END(name)
#define SCOREP_USER_REGION(name, type)
#define SCOREP_USER_FUNC_BEGIN()
#define SCOREP_USER_FUNC_END()
#define SCOREP_USER_PARAMETER_INT64(name, value)
#define SCOREP_USER_PARAMETER_UINT64(name, value)
#define SCOREP_USER_PARAMETER_STRING(name, value)
#define SCOREP_USER_METRIC_LOCAL(handle)
#define SCOREP_USER_METRIC_GLOBAL(handle)
#define SCOREP_USER_METRIC_EXTERNAL(handle)
#define SCOREP_USER_METRIC_INIT(handle, name, unit, type, context)
#define SCOREP_USER_METRIC_INT64(handle, value)
#define SCOREP_USER_METRIC_UINT64(handle, value)
#define SCOREP_USER_METRIC_DOUBLE(handle, value)
#define SCOREP_USER_RECORDING_ON()
#define SCOREP_USER_RECORDING_OFF()
#define SCOREP_USER_RECORDING_IS_ON() 0

#endif
#endif
