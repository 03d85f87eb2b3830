/* SPDX-License-Identifier: BSD-3-Clause */
/* SCOREP_User_Functions.h: the functions behind the SCOREP_USER_* macros, with Score-P's names
 * and parameter lists (stable ABI of libscorep-rt). Call them through SCOREP_User.h. */
#ifndef SCOREP_USER_FUNCTIONS_H
#define SCOREP_USER_FUNCTIONS_H

#include "scorep/SCOREP_User_Types.h"
#include "scorep/SCOREP_User_Variables.h"
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* lastFileName and lastFile: Score-P's per-file caches (SCOREP_User_Variables.h), may be NULL;
 * this runtime ignores them. */
void SCOREP_User_RegionInit(SCOREP_User_RegionHandle *handle, const char **lastFileName,
                            SCOREP_SourceFileHandle *lastFile, const char *name,
                            const SCOREP_User_RegionType regionType, const char *fileName,
                            const uint32_t lineNo);
void SCOREP_User_RegionEnter(const SCOREP_User_RegionHandle handle);
void SCOREP_User_RegionBegin(SCOREP_User_RegionHandle *handle, const char **lastFileName,
                             SCOREP_SourceFileHandle *lastFile, const char *name,
                             const SCOREP_User_RegionType regionType, const char *fileName,
                             const uint32_t lineNo);
/* SCOREP_User_RegionBegin with no stack arguments (the macros' call): the begin's caller is
 * then known to the byte (docs/design.md, "Jumps out of calls") */
void scorep_rt_user_region_begin(SCOREP_User_RegionHandle *handle, const char *name,
                                 const SCOREP_User_RegionType regionType, const char *fileName,
                                 const uint32_t lineNo);
void SCOREP_User_RegionEnd(const SCOREP_User_RegionHandle handle);
void SCOREP_User_RegionByNameBegin(const char *name, const SCOREP_User_RegionType regionType,
                                   const char *fileName, const uint32_t lineNo);
void SCOREP_User_RegionByNameEnd(const char *name);
/* Score-P: the region's group (Score-P's Python bindings set the module name). scorep-rt
 * keeps no region groups: accepted and not recorded (docs/python.md). */
void SCOREP_User_RegionSetGroup(const SCOREP_User_RegionHandle handle, const char *groupName);

/* Rewind regions: the point enters the region and remembers the trace position, the check
 * leaves it and, when value is true, drops the events recorded since (see the user guide
 * for what this runtime implements of that today). */
void SCOREP_User_RewindRegionBegin(SCOREP_User_RegionHandle *handle, const char **lastFileName,
                                   SCOREP_SourceFileHandle *lastFile, const char *name,
                                   const SCOREP_User_RegionType regionType, const char *fileName,
                                   const uint32_t lineNo);
void SCOREP_User_RewindRegionEnter(const SCOREP_User_RegionHandle handle);
void SCOREP_User_RewindRegionEnd(const SCOREP_User_RegionHandle handle, const bool value);

/* Online-access phases: Score-P's online access interface is not part of this runtime, so a
 * phase is recorded as the user region it encloses. */
void SCOREP_User_OaPhaseBegin(SCOREP_User_RegionHandle *handle, const char **lastFileName,
                              SCOREP_SourceFileHandle *lastFile, const char *name,
                              const SCOREP_User_RegionType regionType, const char *fileName,
                              const uint32_t lineNo);
void SCOREP_User_OaPhaseEnd(const SCOREP_User_RegionHandle handle);

void SCOREP_User_ParameterInt64(SCOREP_User_ParameterHandle *handle, const char *name,
                                int64_t value);
void SCOREP_User_ParameterUint64(SCOREP_User_ParameterHandle *handle, const char *name,
                                 uint64_t value);
void SCOREP_User_ParameterString(SCOREP_User_ParameterHandle *handle, const char *name,
                                 const char *value);

void SCOREP_User_InitMetric(SCOREP_SamplingSetHandle *metricHandle, const char *name,
                            const char *unit, const SCOREP_User_MetricType metricType,
                            const int8_t context);
void SCOREP_User_TriggerMetricInt64(SCOREP_SamplingSetHandle metricHandle, int64_t value);
void SCOREP_User_TriggerMetricUint64(SCOREP_SamplingSetHandle metricHandle, uint64_t value);
void SCOREP_User_TriggerMetricDouble(SCOREP_SamplingSetHandle metricHandle, double value);

void SCOREP_User_EnableRecording(void);
void SCOREP_User_DisableRecording(void);
bool SCOREP_User_RecordingEnabled(void);

#ifdef __cplusplus
}

/* SCOREP_USER_REGION: a region that ends with the enclosing scope. Inline here (Score-P
 * compiles it into its library) because libscorep-rt is plain C. */
class SCOREP_User_RegionClass
{
  public:
    /* always inlined (also at -O0): the begin then records the stack pointer of the
     * function the region is in, so that a handler in that function (a catch) does not take
     * the region for one begun in a frame it unwound (docs/design.md, "Jumps out of calls") */
    __attribute__((always_inline)) SCOREP_User_RegionClass(SCOREP_User_RegionHandle *regionHandle, const char *regionName,
                            const SCOREP_User_RegionType regionType, const char **lastFileName,
                            SCOREP_SourceFileHandle *lastFileHandle, const char *fileName,
                            const uint32_t lineNo)
    {
        (void)lastFileName;
        (void)lastFileHandle;
        scorep_rt_user_region_begin(regionHandle, regionName, regionType, fileName, lineNo);
        region_handle = *regionHandle;
    }
    ~SCOREP_User_RegionClass()
    {
        SCOREP_User_RegionEnd(region_handle);
    }

  private:
    SCOREP_User_RegionHandle region_handle;
};
#endif /* __cplusplus */

#endif
