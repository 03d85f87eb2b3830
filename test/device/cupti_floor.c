/* SPDX-License-Identifier: BSD-3-Clause */
/* cupti_floor.c: the CUPTI floor of gpu_check.sh's overhead rounds: a preloaded library that
 * subscribes to what scorep-rt's default SCOREP_CUDA_ENABLE uses (the runtime API callback
 * domain; concurrent kernel, memcpy and memset activities; buffers of 1 MiB from malloc)
 * with handlers that do nothing else. No CUPTI-based tool can cost less per launch. */
#include <cupti.h>
#include <stdlib.h>

static CUpti_SubscriberHandle sub;

static void CUPTIAPI on_api(void *u, CUpti_CallbackDomain d, CUpti_CallbackId id, const void *data)
{
    (void)u;
    (void)d;
    (void)id;
    (void)data;
}

static void CUPTIAPI requested(uint8_t **buf, size_t *size, size_t *max)
{
    *size = 1 << 20;
    *buf = aligned_alloc(8, *size);
    *max = 0;
}

static void CUPTIAPI completed(CUcontext c, uint32_t s, uint8_t *buf, size_t size, size_t valid)
{
    (void)c;
    (void)s;
    (void)size;
    (void)valid;
    free(buf);
}

__attribute__((constructor)) static void floor_init(void)
{
    if (cuptiSubscribe(&sub, on_api, NULL) != CUPTI_SUCCESS)
        return;
    cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API);
    cuptiActivityRegisterCallbacks(requested, completed);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
}

__attribute__((destructor)) static void floor_fini(void)
{
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}
