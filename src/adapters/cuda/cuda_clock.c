/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda_clock.c: converts CUPTI timestamps (ns of the GPU's clock) to host timer ticks by
 * linear interpolation between synchronisation points taken at start and at flushes. */
#include "adapters/cuda/cuda_adapter.h"

void scorep_cuda_clock_start(scorep_cuda_clock *c, uint64_t host, uint64_t gpu)
{
    *c = (scorep_cuda_clock){host, gpu, host, gpu, 1};
}

void scorep_cuda_clock_sync(scorep_cuda_clock *c, uint64_t host, uint64_t gpu)
{
    if (c->points == 0) {
        scorep_cuda_clock_start(c, host, gpu);
        return;
    }
    /* a second point at the same GPU time would give no slope: keep the older one */
    if (gpu <= c->gpu0)
        return;
    c->host1 = host;
    c->gpu1 = gpu;
    c->points = 2;
}

uint64_t scorep_cuda_clock_to_host(const scorep_cuda_clock *c, uint64_t gpu,
                                   uint64_t host_ticks_per_s)
{
    if (c->points == 0)
        return gpu;
    long double slope = c->points == 2 ? ((long double)c->host1 - (long double)c->host0) /
                                             ((long double)c->gpu1 - (long double)c->gpu0)
                                       : (long double)host_ticks_per_s / 1e9L;
    long double host = (long double)c->host0 + ((long double)gpu - (long double)c->gpu0) * slope;
    if (host < 0)
        return 0;
    return (uint64_t)(host + 0.5L);
}
