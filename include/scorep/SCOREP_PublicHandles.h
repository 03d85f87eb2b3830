/* SPDX-License-Identifier: BSD-3-Clause */
/* SCOREP_PublicHandles.h: the kinds of definition handle a substrate plugin is told about
 * (new_definition_handle) and the remaining handle types; as Score-P 9's header. */
#ifndef SCOREP_PUBLIC_HANDLES_H
#define SCOREP_PUBLIC_HANDLES_H

#include <scorep/SCOREP_PublicTypes.h>

typedef enum SCOREP_HandleType {
    SCOREP_HANDLE_TYPE_ANY = 0,
    SCOREP_HANDLE_TYPE_CALLING_CONTEXT,
    SCOREP_HANDLE_TYPE_GROUP,
    SCOREP_HANDLE_TYPE_INTERIM_COMMUNICATOR,
    SCOREP_HANDLE_TYPE_INTERRUPT_GENERATOR,
    SCOREP_HANDLE_TYPE_LOCATION,
    SCOREP_HANDLE_TYPE_LOCATION_GROUP,
    SCOREP_HANDLE_TYPE_LOCATION_PROPERTY,
    SCOREP_HANDLE_TYPE_METRIC,
    SCOREP_HANDLE_TYPE_PARADIGM,
    SCOREP_HANDLE_TYPE_PARAMETER,
    SCOREP_HANDLE_TYPE_REGION,
    SCOREP_HANDLE_TYPE_RMA_WINDOW,
    SCOREP_HANDLE_TYPE_SAMPLING_SET,
    SCOREP_HANDLE_TYPE_SAMPLING_SET_RECORDER,
    SCOREP_HANDLE_TYPE_SOURCE_CODE_LOCATION,
    SCOREP_HANDLE_TYPE_SOURCE_FILE,
    SCOREP_HANDLE_TYPE_STRING,
    SCOREP_HANDLE_TYPE_SYSTEM_TREE_NODE,
    SCOREP_HANDLE_TYPE_SYSTEM_TREE_NODE_PROPERTY,
    SCOREP_HANDLE_TYPE_CARTESIAN_TOPOLOGY,
    SCOREP_HANDLE_TYPE_CARTESIAN_COORDS,
    SCOREP_HANDLE_TYPE_IO_FILE,
    SCOREP_HANDLE_TYPE_IO_FILE_PROPERTY,
    SCOREP_HANDLE_TYPE_IO_HANDLE,
    SCOREP_HANDLE_TYPE_IO_PARADIGM,
    SCOREP_HANDLE_TYPE_NUM_HANDLES
} SCOREP_HandleType;

typedef SCOREP_AnyHandle SCOREP_CallingContextHandle;
typedef SCOREP_AnyHandle SCOREP_CartesianTopologyHandle;
typedef SCOREP_AnyHandle SCOREP_CartesianCoordsHandle;
typedef SCOREP_AnyHandle SCOREP_GroupHandle;
typedef SCOREP_AnyHandle SCOREP_InterimCommunicatorHandle;
typedef SCOREP_AnyHandle SCOREP_InterruptGeneratorHandle;
typedef SCOREP_AnyHandle SCOREP_IoFileHandle;
typedef SCOREP_AnyHandle SCOREP_IoFilePropertyHandle;
typedef SCOREP_AnyHandle SCOREP_IoHandleHandle;
typedef SCOREP_AnyHandle SCOREP_LocationHandle;
typedef SCOREP_AnyHandle SCOREP_LocationGroupHandle;
typedef SCOREP_AnyHandle SCOREP_LocationPropertyHandle;
typedef SCOREP_AnyHandle SCOREP_ParameterHandle;
typedef SCOREP_AnyHandle SCOREP_RmaWindowHandle;
typedef SCOREP_AnyHandle SCOREP_SamplingSetRecorderHandle;
typedef SCOREP_AnyHandle SCOREP_SourceCodeLocationHandle;
typedef SCOREP_AnyHandle SCOREP_StringHandle;
typedef SCOREP_AnyHandle SCOREP_SystemTreeNodeHandle;
typedef SCOREP_AnyHandle SCOREP_SystemTreeNodePropertyHandle;

#endif
