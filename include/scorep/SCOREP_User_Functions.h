/* SCOREP_User_Functions.h: the functions behind the SCOREP_USER_* macros (stable ABI of
 * libscorep-rt). Call them through the macros of SCOREP_User.h. */
#ifndef SCOREP_USER_FUNCTIONS_H
#define SCOREP_USER_FUNCTIONS_H

#include "scorep/SCOREP_User_Types.h"

#ifdef __cplusplus
extern "C" {
#endif

void SCOREP_User_RegionInit(SCOREP_User_RegionHandle *handle, const char **last_file_name,
                            void *last_file, const char *name, SCOREP_User_RegionType type,
                            const char *file, int line);
void SCOREP_User_RegionEnter(SCOREP_User_RegionHandle handle);
void SCOREP_User_RegionBegin(SCOREP_User_RegionHandle *handle, const char **last_file_name,
                             void *last_file, const char *name, SCOREP_User_RegionType type,
                             const char *file, int line);
void SCOREP_User_RegionEnd(SCOREP_User_RegionHandle handle);
void SCOREP_User_RegionByNameBegin(const char *name, SCOREP_User_RegionType type, const char *file,
                                   int line);
void SCOREP_User_RegionByNameEnd(const char *name);

void SCOREP_User_ParameterInt64(SCOREP_User_ParameterHandle *handle, const char *name,
                                int64_t value);
void SCOREP_User_ParameterUint64(SCOREP_User_ParameterHandle *handle, const char *name,
                                 uint64_t value);
void SCOREP_User_ParameterString(SCOREP_User_ParameterHandle *handle, const char *name,
                                 const char *value);

void SCOREP_User_InitMetric(SCOREP_SamplingSetHandle *handle, const char *name, const char *unit,
                            SCOREP_User_MetricType type, int context);
void SCOREP_User_TriggerMetricInt64(SCOREP_SamplingSetHandle handle, int64_t value);
void SCOREP_User_TriggerMetricUint64(SCOREP_SamplingSetHandle handle, uint64_t value);
void SCOREP_User_TriggerMetricDouble(SCOREP_SamplingSetHandle handle, double value);

void SCOREP_User_EnableRecording(void);
void SCOREP_User_DisableRecording(void);
int SCOREP_User_RecordingEnabled(void);

#ifdef __cplusplus
}
#endif
#endif
