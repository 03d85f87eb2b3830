/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda_callsite.c: kernel_callsite, as Score-P records it: the parameter "callsite id"
 * (UINT64) inside a kernel's launch call on the host and right after the kernel's Enter on
 * its GPU stream, with the same value, a 32-bit hash of the host call stack at the launch,
 * so that a tool can tell from which call path each kernel was launched (Score-P:
 * SCOREP_AcceleratorMgmt_GetCallsiteParameter, a jenkins hash of the task's region stack,
 * kept per CUPTI correlation id until the kernel's activity record comes). The hash goes
 * from the launch to the consumer through a fixed table indexed by the correlation id: one
 * 64-bit store on the launch, no lock, no allocation. */
#include "adapters/cuda/cuda_adapter.h"
#include "core/events.h"
#include "writers/experiment.h"
#include "base/log.h"

#include <stdio.h>
#include <stdlib.h>

int scorep_cuda_record_callsites;

/* slot[correlation id % SLOTS]: correlation id << 32 | hash, 0 when empty. A slot is
 * overwritten only by a launch SLOTS correlation ids later (CUPTI numbers every API call
 * in order), so an entry lives until its kernel is processed unless that many API calls
 * come in between; the consumer then finds another id in the slot and counts the kernel. */
static uint64_t *slots;
static uint32_t param; /* id + 1 */
static uint64_t found, overwritten, not_launched;

int scorep_cuda_callsite_init(void)
{
    if (!slots)
        slots = calloc(SCOREP_CUDA_CALLSITE_SLOTS, sizeof *slots);
    if (!param) {
        uint32_t p = scorep_defs_parameter("callsite id", SCOREP_PARAM_UINT64);
        if (p != SCOREP_INVALID_ID)
            param = p + 1;
    }
    return slots && param ? 0 : -1;
}

uint32_t scorep_cuda_callsite_hash(const uint32_t *regions, uint32_t depth)
{
    uint32_t h = 2166136261u; /* FNV-1a's offset basis and prime, one step per region id */
    for (uint32_t i = 0; i < depth; i++)
        h = (h ^ regions[i]) * 16777619u;
    return h;
}

void scorep_cuda_callsite_launch(scorep_location *l, uint32_t correlation)
{
    if (!slots || !param || !scorep_location_recording(l))
        return;
    uint64_t *s = &slots[correlation % SCOREP_CUDA_CALLSITE_SLOTS];
    uint64_t e = __atomic_load_n(s, __ATOMIC_RELAXED);
    if (e && (uint32_t)(e >> 32) == correlation)
        return; /* an outer launch call of the same correlation id (runtime -> driver) has it */
    uint32_t h = scorep_cuda_callsite_hash(l->stack_region, l->depth);
    __atomic_store_n(s, (uint64_t)correlation << 32 | h, __ATOMIC_RELEASE);
    /* one tick after the launch call's Enter (Score-P: at its time), no clock read */
    uint64_t t = scorep_location_now(l, l->last_ts);
    if (l->profiling)
        scorep_profile_parameter(&l->profile, PNODE_PARAM_UINT, param - 1, h, t);
    if (l->tracing)
        scorep_buffer_event(&l->buffer, BUF_CLASS_PARAM, t, BUF_EV_PARAM_UINT, param - 1, h);
    if (__builtin_expect(l->substrates_on, 0))
        scorep_substrates_parameter(l, t, 1, param - 1, h);
}

void scorep_cuda_callsite_kernel(scorep_location *l, uint32_t correlation)
{
    uint64_t e = slots ? __atomic_load_n(&slots[correlation % SCOREP_CUDA_CALLSITE_SLOTS],
                                         __ATOMIC_ACQUIRE)
                       : 0;
    if (!e || (uint32_t)(e >> 32) != correlation) {
        /* a later id in the slot: overwritten; none or an earlier one: its launch was not
         * recorded (recording off, a thread without location, a launch call not called back) */
        if (e && (uint32_t)(e >> 32) > correlation)
            overwritten++;
        else
            not_launched++;
        return;
    }
    found++;
    uint64_t t = scorep_location_now(l, 0); /* one tick after the kernel's Enter */
    if (l->profiling)
        scorep_profile_parameter(&l->profile, PNODE_PARAM_UINT, param - 1, (int64_t)(uint32_t)e, t);
    if (l->tracing)
        scorep_buffer_event(&l->buffer, BUF_CLASS_PARAM, t, BUF_EV_PARAM_UINT, param - 1,
                            (uint32_t)e);
}

void scorep_cuda_callsite_finalize(void)
{
    if (!scorep_cuda_record_callsites)
        return;
    scorep_verbose("CUDA: kernel_callsite: %llu kernels with their launch's callsite id",
                   (unsigned long long)found);
    if (!overwritten && !not_launched)
        return;
    char note[512];
    snprintf(note, sizeof note,
             "CUDA: kernel_callsite: %llu kernels without a callsite id: %llu whose launch was "
             "not recorded, %llu whose launch's entry was overwritten (more than %u CUDA API "
             "calls between the launch and the processing of its kernel's record)",
             (unsigned long long)(overwritten + not_launched), (unsigned long long)not_launched,
             (unsigned long long)overwritten, (unsigned)SCOREP_CUDA_CALLSITE_SLOTS);
    scorep_experiment_note(note);
    if (overwritten)
        scorep_warn("%s", note);
    else
        scorep_verbose("%s", note);
}
