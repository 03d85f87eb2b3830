/* SPDX-License-Identifier: BSD-3-Clause */
/* SCOREP_User_Types.h: handle types and constants of the user instrumentation API, with
 * Score-P's names and values. */
#ifndef SCOREP_USER_TYPES_H
#define SCOREP_USER_TYPES_H

#include <stdint.h>

typedef struct SCOREP_User_Region *SCOREP_User_RegionHandle;
typedef uint32_t SCOREP_User_RegionType;
typedef uint64_t SCOREP_User_ParameterHandle;
typedef uint32_t SCOREP_SamplingSetHandle;
typedef uint32_t SCOREP_User_MetricType;
/* Score-P's public source file handle; the macros pass a per-file cache of it, which this
 * runtime accepts and does not need (it interns file names itself). */
typedef uint32_t SCOREP_SourceFileHandle;

#define SCOREP_USER_INVALID_REGION ((SCOREP_User_RegionHandle)0)
/* -1 as in Score-P: the Fortran macros initialise their INTEGER*8 handles to -1 too, and
 * both languages share the C functions. */
#define SCOREP_USER_INVALID_PARAMETER -1
#define SCOREP_INVALID_SAMPLING_SET ((SCOREP_SamplingSetHandle)0)
#define SCOREP_INVALID_SOURCE_FILE ((SCOREP_SourceFileHandle)0)

/* region types, OR-able */
#define SCOREP_USER_REGION_TYPE_COMMON 0
#define SCOREP_USER_REGION_TYPE_FUNCTION 1
#define SCOREP_USER_REGION_TYPE_LOOP 2
#define SCOREP_USER_REGION_TYPE_DYNAMIC 4
#define SCOREP_USER_REGION_TYPE_PHASE 8

#define SCOREP_USER_METRIC_TYPE_INT64 0
#define SCOREP_USER_METRIC_TYPE_UINT64 1
#define SCOREP_USER_METRIC_TYPE_DOUBLE 2

#define SCOREP_USER_METRIC_CONTEXT_GLOBAL 0
#define SCOREP_USER_METRIC_CONTEXT_CALLPATH 1

#endif
