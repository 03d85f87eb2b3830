/* SPDX-License-Identifier: BSD-3-Clause */
/* SCOREP_SubstrateEvents.h: the events a substrate plugin may receive, as indices of the
 * array get_event_functions returns, and the signature of each; the names, order and
 * signatures of Score-P 9's header. Which of them scorep-rt produces: docs/substrate-plugins.md.
 * Include SCOREP_SubstratePlugins.h rather than this file. */
#ifndef SCOREP_SUBSTRATE_EVENTS_H
#define SCOREP_SUBSTRATE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

#include <scorep/SCOREP_MetricTypes.h>
#include <scorep/SCOREP_PublicTypes.h>
#include <scorep/SCOREP_PublicHandles.h>

/* The type of every entry of the event array; cast to the event's own type to call. */
typedef void (*SCOREP_Substrates_Callback)(void);

struct SCOREP_Location;

/* Which array get_event_functions is asked for. */
typedef enum SCOREP_Substrates_Mode {
    SCOREP_SUBSTRATES_RECORDING_ENABLED = 0,
    SCOREP_SUBSTRATES_RECORDING_DISABLED,
    SCOREP_SUBSTRATES_NUM_MODES
} SCOREP_Substrates_Mode;

/* New events are appended by Score-P; the values are part of the ABI. */
typedef enum SCOREP_Substrates_EventType {
    SCOREP_EVENT_ENABLE_RECORDING = 0,
    SCOREP_EVENT_DISABLE_RECORDING,
    SCOREP_EVENT_ON_TRACING_BUFFER_FLUSH_BEGIN,
    SCOREP_EVENT_ON_TRACING_BUFFER_FLUSH_END,
    SCOREP_EVENT_ENTER_REGION,
    SCOREP_EVENT_EXIT_REGION,
    SCOREP_EVENT_SAMPLE,
    SCOREP_EVENT_CALLING_CONTEXT_ENTER,
    SCOREP_EVENT_CALLING_CONTEXT_EXIT,
    SCOREP_EVENT_ENTER_REWIND_REGION,
    SCOREP_EVENT_EXIT_REWIND_REGION,
    SCOREP_EVENT_MPI_SEND,
    SCOREP_EVENT_MPI_RECV,
    SCOREP_EVENT_MPI_COLLECTIVE_BEGIN,
    SCOREP_EVENT_MPI_COLLECTIVE_END,
    SCOREP_EVENT_MPI_ISEND_COMPLETE,
    SCOREP_EVENT_MPI_IRECV_REQUEST,
    SCOREP_EVENT_MPI_REQUEST_TESTED,
    SCOREP_EVENT_MPI_REQUEST_CANCELLED,
    SCOREP_EVENT_MPI_ISEND,
    SCOREP_EVENT_MPI_IRECV,
    SCOREP_EVENT_RMA_WIN_CREATE,
    SCOREP_EVENT_RMA_WIN_DESTROY,
    SCOREP_EVENT_RMA_COLLECTIVE_BEGIN,
    SCOREP_EVENT_RMA_COLLECTIVE_END,
    SCOREP_EVENT_RMA_TRY_LOCK,
    SCOREP_EVENT_RMA_ACQUIRE_LOCK,
    SCOREP_EVENT_RMA_REQUEST_LOCK,
    SCOREP_EVENT_RMA_RELEASE_LOCK,
    SCOREP_EVENT_RMA_SYNC,
    SCOREP_EVENT_RMA_GROUP_SYNC,
    SCOREP_EVENT_RMA_PUT,
    SCOREP_EVENT_RMA_GET,
    SCOREP_EVENT_RMA_ATOMIC,
    SCOREP_EVENT_RMA_WAIT_CHANGE,
    SCOREP_EVENT_RMA_OP_COMPLETE_BLOCKING,
    SCOREP_EVENT_RMA_OP_COMPLETE_NON_BLOCKING,
    SCOREP_EVENT_RMA_OP_TEST,
    SCOREP_EVENT_RMA_OP_COMPLETE_REMOTE,
    SCOREP_EVENT_THREAD_ACQUIRE_LOCK,
    SCOREP_EVENT_THREAD_RELEASE_LOCK,
    SCOREP_EVENT_TRIGGER_COUNTER_INT64,
    SCOREP_EVENT_TRIGGER_COUNTER_UINT64,
    SCOREP_EVENT_TRIGGER_COUNTER_DOUBLE,
    SCOREP_EVENT_TRIGGER_PARAMETER_INT64,
    SCOREP_EVENT_TRIGGER_PARAMETER_UINT64,
    SCOREP_EVENT_TRIGGER_PARAMETER_STRING,
    SCOREP_EVENT_THREAD_FORK_JOIN_FORK,
    SCOREP_EVENT_THREAD_FORK_JOIN_JOIN,
    SCOREP_EVENT_THREAD_FORK_JOIN_TEAM_BEGIN,
    SCOREP_EVENT_THREAD_FORK_JOIN_TEAM_END,
    SCOREP_EVENT_THREAD_FORK_JOIN_TASK_CREATE,
    SCOREP_EVENT_THREAD_FORK_JOIN_TASK_SWITCH,
    SCOREP_EVENT_THREAD_FORK_JOIN_TASK_BEGIN,
    SCOREP_EVENT_THREAD_FORK_JOIN_TASK_END,
    SCOREP_EVENT_THREAD_CREATE_WAIT_CREATE,
    SCOREP_EVENT_THREAD_CREATE_WAIT_WAIT,
    SCOREP_EVENT_THREAD_CREATE_WAIT_BEGIN,
    SCOREP_EVENT_THREAD_CREATE_WAIT_END,
    SCOREP_EVENT_TRACK_ALLOC,
    SCOREP_EVENT_TRACK_REALLOC,
    SCOREP_EVENT_TRACK_FREE,
    SCOREP_EVENT_WRITE_POST_MORTEM_METRICS,
    SCOREP_EVENT_PROGRAM_BEGIN,
    SCOREP_EVENT_PROGRAM_END,
    SCOREP_EVENT_IO_CREATE_HANDLE,
    SCOREP_EVENT_IO_DESTROY_HANDLE,
    SCOREP_EVENT_IO_DUPLICATE_HANDLE,
    SCOREP_EVENT_IO_SEEK,
    SCOREP_EVENT_IO_CHANGE_STATUS_FLAGS,
    SCOREP_EVENT_IO_DELETE_FILE,
    SCOREP_EVENT_IO_OPERATION_BEGIN,
    SCOREP_EVENT_IO_OPERATION_ISSUED,
    SCOREP_EVENT_IO_OPERATION_TEST,
    SCOREP_EVENT_IO_OPERATION_COMPLETE,
    SCOREP_EVENT_IO_OPERATION_CANCELLED,
    SCOREP_EVENT_IO_ACQUIRE_LOCK,
    SCOREP_EVENT_IO_TRY_LOCK,
    SCOREP_EVENT_IO_RELEASE_LOCK,
    SCOREP_EVENT_MPI_NON_BLOCKING_COLLECTIVE_REQUEST,
    SCOREP_EVENT_MPI_NON_BLOCKING_COLLECTIVE_COMPLETE,
    SCOREP_EVENT_COMM_CREATE,
    SCOREP_EVENT_COMM_DESTROY,
    SCOREP_SUBSTRATES_NUM_EVENTS /* not ABI: grows with new Score-P versions */
} SCOREP_Substrates_EventType;

#define SCOREP_SUBSTRATE_LOC_ struct SCOREP_Location *location, uint64_t timestamp

/* region-like events: metricValues are the strictly synchronous metrics at timestamp */
typedef void (*SCOREP_Substrates_EnableRecordingCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RegionHandle regionHandle, uint64_t *metricValues);
typedef void (*SCOREP_Substrates_DisableRecordingCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RegionHandle regionHandle, uint64_t *metricValues);
typedef void (*SCOREP_Substrates_OnTracingBufferFlushBeginCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RegionHandle regionHandle, uint64_t *metricValues);
typedef void (*SCOREP_Substrates_OnTracingBufferFlushEndCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RegionHandle regionHandle, uint64_t *metricValues);
typedef void (*SCOREP_Substrates_ProgramBeginCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_StringHandle programName, uint32_t numberOfProgramArgs, SCOREP_StringHandle *programArguments, SCOREP_RegionHandle programRegionHandle, uint64_t processId, uint64_t threadId);
typedef void (*SCOREP_Substrates_ProgramEndCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ExitStatus exitStatus, SCOREP_RegionHandle programRegionHandle);
typedef void (*SCOREP_Substrates_EnterRegionCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RegionHandle regionHandle, uint64_t *metricValues);
typedef void (*SCOREP_Substrates_ExitRegionCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RegionHandle regionHandle, uint64_t *metricValues);
typedef void (*SCOREP_Substrates_SampleCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_CallingContextHandle callingContext, SCOREP_CallingContextHandle previousCallingContext, uint32_t unwindDistance, SCOREP_InterruptGeneratorHandle interruptGeneratorHandle, uint64_t *metricValues);
typedef void (*SCOREP_Substrates_CallingContextEnterCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_CallingContextHandle callingContext, SCOREP_CallingContextHandle previousCallingContext, uint32_t unwindDistance, uint64_t *metricValues);
typedef void (*SCOREP_Substrates_CallingContextExitCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_CallingContextHandle callingContext, SCOREP_CallingContextHandle previousCallingContext, uint32_t unwindDistance, uint64_t *metricValues);
typedef void (*SCOREP_Substrates_EnterRewindRegionCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RegionHandle regionHandle);
typedef void (*SCOREP_Substrates_ExitRewindRegionCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RegionHandle regionHandle, bool doRewind);

/* message passing */
typedef void (*SCOREP_Substrates_MpiSendCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_MpiRank destinationRank, SCOREP_InterimCommunicatorHandle communicatorHandle, uint32_t tag, uint64_t bytesSent);
typedef void (*SCOREP_Substrates_MpiRecvCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_MpiRank sourceRank, SCOREP_InterimCommunicatorHandle communicatorHandle, uint32_t tag, uint64_t bytesReceived);
typedef void (*SCOREP_Substrates_MpiCollectiveBeginCb)(SCOREP_SUBSTRATE_LOC_);
typedef void (*SCOREP_Substrates_MpiCollectiveEndCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_InterimCommunicatorHandle communicatorHandle, SCOREP_MpiRank rootRank, SCOREP_CollectiveType collectiveType, uint64_t bytesSent, uint64_t bytesReceived);
typedef void (*SCOREP_Substrates_MpiNonBlockingCollectiveRequestCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_MpiRequestId requestId);
typedef void (*SCOREP_Substrates_MpiNonBlockingCollectiveCompleteCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_InterimCommunicatorHandle communicatorHandle, SCOREP_MpiRank rootRank, SCOREP_CollectiveType collectiveType, uint64_t bytesSent, uint64_t bytesReceived, SCOREP_MpiRequestId requestId);
typedef void (*SCOREP_Substrates_MpiIsendCompleteCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_MpiRequestId requestId);
typedef void (*SCOREP_Substrates_MpiIrecvRequestCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_MpiRequestId requestId);
typedef void (*SCOREP_Substrates_MpiRequestTestedCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_MpiRequestId requestId);
typedef void (*SCOREP_Substrates_MpiRequestCancelledCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_MpiRequestId requestId);
typedef void (*SCOREP_Substrates_MpiIsendCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_MpiRank destinationRank, SCOREP_InterimCommunicatorHandle communicatorHandle, uint32_t tag, uint64_t bytesSent, SCOREP_MpiRequestId requestId);
typedef void (*SCOREP_Substrates_MpiIrecvCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_MpiRank sourceRank, SCOREP_InterimCommunicatorHandle communicatorHandle, uint32_t tag, uint64_t bytesReceived, SCOREP_MpiRequestId requestId);

/* one-sided communication */
typedef void (*SCOREP_Substrates_RmaWinCreateCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle);
typedef void (*SCOREP_Substrates_RmaWinDestroyCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle);
typedef void (*SCOREP_Substrates_RmaCollectiveBeginCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaSyncLevel syncLevel);
typedef void (*SCOREP_Substrates_RmaCollectiveEndCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_CollectiveType collectiveOp, SCOREP_RmaSyncLevel syncLevel, SCOREP_RmaWindowHandle windowHandle, uint32_t root, uint64_t bytesSent, uint64_t bytesReceived);
typedef void (*SCOREP_Substrates_RmaTryLockCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle, uint32_t remote, uint64_t lockId, SCOREP_LockType lockType);
typedef void (*SCOREP_Substrates_RmaAcquireLockCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle, uint32_t remote, uint64_t lockId, SCOREP_LockType lockType);
typedef void (*SCOREP_Substrates_RmaRequestLockCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle, uint32_t remote, uint64_t lockId, SCOREP_LockType lockType);
typedef void (*SCOREP_Substrates_RmaReleaseLockCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle, uint32_t remote, uint64_t lockId);
typedef void (*SCOREP_Substrates_RmaSyncCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle, uint32_t remote, SCOREP_RmaSyncType syncType);
typedef void (*SCOREP_Substrates_RmaGroupSyncCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaSyncLevel syncLevel, SCOREP_RmaWindowHandle windowHandle, SCOREP_GroupHandle groupHandle);
typedef void (*SCOREP_Substrates_RmaPutCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle, uint32_t remote, uint64_t bytes, uint64_t matchingId);
typedef void (*SCOREP_Substrates_RmaGetCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle, uint32_t remote, uint64_t bytes, uint64_t matchingId);
typedef void (*SCOREP_Substrates_RmaAtomicCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle, uint32_t remote, SCOREP_RmaAtomicType type, uint64_t bytesSent, uint64_t bytesReceived, uint64_t matchingId);
typedef void (*SCOREP_Substrates_RmaWaitChangeCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle);
typedef void (*SCOREP_Substrates_RmaOpCompleteBlockingCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle, uint64_t matchingId);
typedef void (*SCOREP_Substrates_RmaOpCompleteNonBlockingCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle, uint64_t matchingId);
typedef void (*SCOREP_Substrates_RmaOpTestCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle, uint64_t matchingId);
typedef void (*SCOREP_Substrates_RmaOpCompleteRemoteCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RmaWindowHandle windowHandle, uint64_t matchingId);

/* threads, counters, parameters */
typedef void (*SCOREP_Substrates_ThreadAcquireLockCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParadigmType paradigm, uint32_t lockId, uint32_t acquisitionOrder);
typedef void (*SCOREP_Substrates_ThreadReleaseLockCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParadigmType paradigm, uint32_t lockId, uint32_t acquisitionOrder);
typedef void (*SCOREP_Substrates_TriggerCounterInt64Cb)(SCOREP_SUBSTRATE_LOC_, SCOREP_SamplingSetHandle counterHandle, int64_t value);
typedef void (*SCOREP_Substrates_TriggerCounterUint64Cb)(SCOREP_SUBSTRATE_LOC_, SCOREP_SamplingSetHandle counterHandle, uint64_t value);
typedef void (*SCOREP_Substrates_TriggerCounterDoubleCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_SamplingSetHandle counterHandle, double value);
typedef void (*SCOREP_Substrates_TriggerParameterInt64Cb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParameterHandle parameterHandle, int64_t value);
typedef void (*SCOREP_Substrates_TriggerParameterUint64Cb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParameterHandle parameterHandle, uint64_t value);
typedef void (*SCOREP_Substrates_TriggerParameterStringCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParameterHandle parameterHandle, SCOREP_StringHandle string_handle);
typedef void (*SCOREP_Substrates_ThreadForkJoinForkCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParadigmType paradigm, uint32_t nRequestedThreads, uint32_t forkSequenceCount);
typedef void (*SCOREP_Substrates_ThreadForkJoinJoinCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParadigmType paradigm);
typedef void (*SCOREP_Substrates_ThreadForkJoinTeamBeginCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParadigmType paradigm, SCOREP_InterimCommunicatorHandle threadTeam, uint64_t threadId);
typedef void (*SCOREP_Substrates_ThreadForkJoinTeamEndCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParadigmType paradigm, SCOREP_InterimCommunicatorHandle threadTeam);
typedef void (*SCOREP_Substrates_ThreadForkJoinTaskCreateCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParadigmType paradigm, SCOREP_InterimCommunicatorHandle threadTeam, uint32_t threadId, uint32_t generationNumber);
typedef void (*SCOREP_Substrates_ThreadForkJoinTaskSwitchCb)(SCOREP_SUBSTRATE_LOC_, uint64_t *metricValues, SCOREP_ParadigmType paradigm, SCOREP_InterimCommunicatorHandle threadTeam, uint32_t threadId, uint32_t generationNumber, SCOREP_TaskHandle taskHandle);
typedef void (*SCOREP_Substrates_ThreadForkJoinTaskBeginCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RegionHandle regionHandle, uint64_t *metricValues, SCOREP_ParadigmType paradigm, SCOREP_InterimCommunicatorHandle threadTeam, uint32_t threadId, uint32_t generationNumber, SCOREP_TaskHandle taskHandle);
typedef void (*SCOREP_Substrates_ThreadForkJoinTaskEndCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_RegionHandle regionHandle, uint64_t *metricValues, SCOREP_ParadigmType paradigm, SCOREP_InterimCommunicatorHandle threadTeam, uint32_t threadId, uint32_t generationNumber, SCOREP_TaskHandle taskHandle);
typedef void (*SCOREP_Substrates_ThreadCreateWaitCreateCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParadigmType paradigm, SCOREP_InterimCommunicatorHandle threadTeam, uint32_t createSequenceCount);
typedef void (*SCOREP_Substrates_ThreadCreateWaitWaitCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParadigmType paradigm, SCOREP_InterimCommunicatorHandle threadTeam, uint32_t createSequenceCount);
typedef void (*SCOREP_Substrates_ThreadCreateWaitBeginCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParadigmType paradigm, SCOREP_InterimCommunicatorHandle threadTeam, uint32_t createSequenceCount, uint64_t threadId);
typedef void (*SCOREP_Substrates_ThreadCreateWaitEndCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_ParadigmType paradigm, SCOREP_InterimCommunicatorHandle threadTeam, uint32_t createSequenceCount);

/* memory */
typedef void (*SCOREP_Substrates_TrackAllocCb)(SCOREP_SUBSTRATE_LOC_, uint64_t addrAllocated, size_t bytesAllocated, void *substrateData[], size_t bytesAllocatedMetric, size_t bytesAllocatedProcess);
typedef void (*SCOREP_Substrates_TrackReallocCb)(SCOREP_SUBSTRATE_LOC_, uint64_t oldAddr, size_t oldBytesAllocated, void *oldSubstrateData[], uint64_t newAddr, size_t newBytesAllocated, void *newSubstrateData[], size_t bytesAllocatedMetric, size_t bytesAllocatedProcess);
typedef void (*SCOREP_Substrates_TrackFreeCb)(SCOREP_SUBSTRATE_LOC_, uint64_t addrFreed, size_t bytesFreed, void *substrateData[], size_t bytesAllocatedMetric, size_t bytesAllocatedProcess);
typedef void (*SCOREP_Substrates_WriteMetricsCb)(struct SCOREP_Location *location, uint64_t timestamp, SCOREP_SamplingSetHandle samplingSet, const uint64_t *metricValues);

/* I/O */
typedef void (*SCOREP_Substrates_IoCreateHandleCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle handle, SCOREP_IoAccessMode mode, SCOREP_IoCreationFlag creationFlags, SCOREP_IoStatusFlag statusFlags);
typedef void (*SCOREP_Substrates_IoDestroyHandleCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle handle);
typedef void (*SCOREP_Substrates_IoDuplicateHandleCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle oldHandle, SCOREP_IoHandleHandle newHandle, SCOREP_IoStatusFlag statusFlags);
typedef void (*SCOREP_Substrates_IoSeekCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle handle, int64_t offsetRequest, SCOREP_IoSeekOption whence, uint64_t offsetResult);
typedef void (*SCOREP_Substrates_IoChangeStatusFlagsCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle handle, SCOREP_IoStatusFlag statusFlags);
typedef void (*SCOREP_Substrates_IoDeleteFileCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoParadigmType ioParadigm, SCOREP_IoFileHandle ioFile);
typedef void (*SCOREP_Substrates_IoOperationBeginCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle handle, SCOREP_IoOperationMode mode, SCOREP_IoOperationFlag operationFlags, uint64_t bytesRequest, uint64_t matchingId, uint64_t offset);
typedef void (*SCOREP_Substrates_IoOperationIssuedCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle handle, uint64_t matchingId);
typedef void (*SCOREP_Substrates_IoOperationTestCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle handle, uint64_t matchingId);
typedef void (*SCOREP_Substrates_IoOperationCompleteCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle handle, SCOREP_IoOperationMode mode, uint64_t bytesResult, uint64_t matchingId);
typedef void (*SCOREP_Substrates_IoOperationCancelledCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle handle, uint64_t matchingId);
typedef void (*SCOREP_Substrates_IoAcquireLockCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle handle, SCOREP_LockType lockType);
typedef void (*SCOREP_Substrates_IoReleaseLockCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle handle, SCOREP_LockType lockType);
typedef void (*SCOREP_Substrates_IoTryLockCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_IoHandleHandle handle, SCOREP_LockType lockType);

/* communicators */
typedef void (*SCOREP_Substrates_CommCreateCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_InterimCommunicatorHandle communicatorHandle);
typedef void (*SCOREP_Substrates_CommDestroyCb)(SCOREP_SUBSTRATE_LOC_, SCOREP_InterimCommunicatorHandle communicatorHandle);

#undef SCOREP_SUBSTRATE_LOC_

#endif
