/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda_features.h: the SCOREP_CUDA_ENABLE bits (Score-P's names and bit values) and their
 * choice table, shared by the settings table (base/settings.c) and the CUDA adapter. */
#ifndef SCOREP_CUDA_FEATURES_H
#define SCOREP_CUDA_FEATURES_H

#include "config/config.h"

enum {
    SCOREP_CUDA_FEATURE_RUNTIME_API = 1 << 0,
    SCOREP_CUDA_FEATURE_DRIVER_API = 1 << 1,
    SCOREP_CUDA_FEATURE_KERNEL = 1 << 2,
    /* kernels through CUPTI_ACTIVITY_KIND_KERNEL, which serialises them (implies kernel) */
    SCOREP_CUDA_FEATURE_KERNEL_SERIAL = 1 << 3,
    SCOREP_CUDA_FEATURE_KERNEL_COUNTER = 1 << 4,
    SCOREP_CUDA_FEATURE_MEMCPY = 1 << 5,
    SCOREP_CUDA_FEATURE_IDLE = 1 << 6,
    SCOREP_CUDA_FEATURE_PURE_IDLE = 1 << 7,
    SCOREP_CUDA_FEATURE_SYNC = 1 << 8,
    SCOREP_CUDA_FEATURE_GPUMEMUSAGE = 1 << 9,
    SCOREP_CUDA_FEATURE_FLUSHATEXIT = 1 << 10,
    SCOREP_CUDA_FEATURE_REFERENCES = 1 << 11,
    /* Score-P 8: the activity buffers are flushed at exit unless dontflushatexit is given
     * (flushatexit stays accepted; it changes nothing) */
    SCOREP_CUDA_FEATURE_DONTFLUSHATEXIT = 1 << 12,
    /* Score-P's launch call sites: the parameter "callsite id" on a kernel's launch and on
     * the kernel (cuda_callsite.c; implies kernel) */
    SCOREP_CUDA_FEATURE_KERNEL_CALLSITE = 1 << 13,
    /* Score-P's older "default/yes/1": the runtime API and the GPU activities; scorep-rt
     * adds sync (and flushatexit, as it was before Score-P 8) */
    SCOREP_CUDA_FEATURES_DEFAULT = SCOREP_CUDA_FEATURE_RUNTIME_API | SCOREP_CUDA_FEATURE_KERNEL |
                                   SCOREP_CUDA_FEATURE_MEMCPY | SCOREP_CUDA_FEATURE_SYNC |
                                   SCOREP_CUDA_FEATURE_FLUSHATEXIT
};

extern const scorep_cfg_choice scorep_cuda_feature_choices[];

#endif
