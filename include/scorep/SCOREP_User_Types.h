/* SCOREP_User_Types.h: handle types and constants of the user instrumentation API. */
#ifndef SCOREP_USER_TYPES_H
#define SCOREP_USER_TYPES_H

#include <stdint.h>

typedef struct SCOREP_User_Region *SCOREP_User_RegionHandle;
typedef uint32_t SCOREP_User_RegionType;
typedef uint64_t SCOREP_User_ParameterHandle;
typedef uint32_t SCOREP_SamplingSetHandle;
typedef uint32_t SCOREP_User_MetricType;

#define SCOREP_USER_INVALID_REGION ((SCOREP_User_RegionHandle)0)
#define SCOREP_USER_INVALID_PARAMETER ((SCOREP_User_ParameterHandle)0)
#define SCOREP_INVALID_SAMPLING_SET ((SCOREP_SamplingSetHandle)0)

/* region types, OR-able */
#define SCOREP_USER_REGION_TYPE_COMMON 0u
#define SCOREP_USER_REGION_TYPE_FUNCTION 1u
#define SCOREP_USER_REGION_TYPE_LOOP 2u
#define SCOREP_USER_REGION_TYPE_DYNAMIC 4u
#define SCOREP_USER_REGION_TYPE_PHASE 8u

#define SCOREP_USER_METRIC_TYPE_INT64 0u
#define SCOREP_USER_METRIC_TYPE_UINT64 1u
#define SCOREP_USER_METRIC_TYPE_DOUBLE 2u

#define SCOREP_USER_METRIC_CONTEXT_GLOBAL 0u
#define SCOREP_USER_METRIC_CONTEXT_CALLPATH 1u

#endif
