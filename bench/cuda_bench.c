/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda_bench.c: cost of the CUDA adapter's callback path per CUDA API call (enter + exit),
 * calling the CUPTI callback directly with CUPTI's callback data, as CUPTI would; needs no
 * GPU. Prints ns per call. Usage: cuda_bench N [plain|instr] [DEPTH]: DEPTH user regions
 * open around the loop (kernel_callsite hashes the call stack: its cost grows with it). */
#include "adapters/cuda/cuda_adapter.h"
#include "core/events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* the uninstrumented baseline: an empty callback behind the same indirect call */
static void CUPTIAPI empty_callback(void *u, CUpti_CallbackDomain d, CUpti_CallbackId c,
                                    const void *data)
{
    (void)u;
    (void)d;
    (void)c;
    __asm__ volatile("" ::"r"(data) : "memory");
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    int plain = argc > 2 && strcmp(argv[2], "plain") == 0;
    int depth = argc > 3 ? atoi(argv[3]) : 0;
    void(CUPTIAPI *volatile cb)(void *, CUpti_CallbackDomain, CUpti_CallbackId, const void *) =
        plain ? empty_callback : scorep_cuda_api_callback;
    CUpti_CallbackData enter, leave;
    memset(&enter, 0, sizeof enter);
    enter.functionName = "cudaLaunchKernel";
    enter.callbackSite = CUPTI_API_ENTER;
    leave = enter;
    leave.callbackSite = CUPTI_API_EXIT;
    CUpti_CallbackId id = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
    cb(NULL, CUPTI_CB_DOMAIN_RUNTIME_API, id, &enter); /* defines the region */
    cb(NULL, CUPTI_CB_DOMAIN_RUNTIME_API, id, &leave);
    scorep_location *l = plain ? NULL : scorep_location_get();
    uint32_t outer = l ? scorep_defs_region("outer", NULL, NULL, 0, 0, SCOREP_PARADIGM_USER,
                                            SCOREP_ROLE_FUNCTION)
                       : 0;
    for (int d = 0; l && d < depth; d++)
        scorep_event_enter(l, outer);
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        /* CUPTI numbers every call; kernel_callsite keeps its hash per number */
        enter.correlationId = leave.correlationId = (uint32_t)i + 1;
        cb(NULL, CUPTI_CB_DOMAIN_RUNTIME_API, id, &enter);
        cb(NULL, CUPTI_CB_DOMAIN_RUNTIME_API, id, &leave);
    }
    printf("%.1f\n", (now_ns() - t0) / (double)n);
    return 0;
}
