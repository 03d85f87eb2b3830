/* SPDX-License-Identifier: BSD-3-Clause */
/* throttle_pending.c: the per-thread counters of throttled regions' calls (slots) and their
 * settling into the calling thread's profile (throttle_pending.h). */
#include "profile/throttle_pending.h"

#include <stdbool.h>
#include <stddef.h>

/* every thread starts settled: the mask word 0, each slot at SCOREP_THROTTLE_SETTLED */
__thread uint64_t scorep_throttle_slots_v3[1 + SCOREP_THROTTLE_SLOTS]
    __attribute__((tls_model("initial-exec"))) = {[1 ... SCOREP_THROTTLE_SLOTS] =
                                                      SCOREP_THROTTLE_SETTLED};

#ifdef SCOREP_THROTTLE_TP_WORDS
/* The slot's offset from the thread pointer (%fs:0 holds the pointer itself, x86-64 TLS ABI):
 * the same for every thread, as the TLS block is static (initial-exec). */
uint64_t scorep_throttle_slot_word(uint32_t slot)
{
    uintptr_t tp;
    __asm__("mov %%fs:0, %0" : "=r"(tp));
    return (uint64_t)((uintptr_t)&scorep_throttle_slots_v3[slot] - tp);
}
#else
uint64_t scorep_throttle_slot_word(uint32_t slot)
{
    return slot;
}
#endif

/* The slot whose first call since a settle sets mask bit b: the inline code takes six bits
 * of the slot's word from SCOREP_THROTTLE_BIT_SHIFT on, so the 64 slots have 64 different
 * bits, in order from the bit of word 0 (the mask word itself, never counted) on; slot
 * SCOREP_THROTTLE_DISCARD (64) has word 0's bit. */
static uint32_t slot_of_bit(uint32_t b)
{
    uint32_t s = (b - (uint32_t)(scorep_throttle_slot_word(0) >> SCOREP_THROTTLE_BIT_SHIFT)) & 63;
    return s ? s : SCOREP_THROTTLE_DISCARD;
}

/* region of each throttled slot (1..SLOTS-1); written before any descriptor names the slot */
static uint32_t slot_region[SCOREP_THROTTLE_SLOTS];
static uint32_t slots_used = 1; /* slot 0 is the mask word */
static int (*target)(scorep_profile **p);

void scorep_throttle_set_target(int (*fn)(scorep_profile **p))
{
    target = fn;
}

uint32_t scorep_throttle_slot_of(uint32_t region)
{
    uint32_t n = __atomic_load_n(&slots_used, __ATOMIC_ACQUIRE);
    for (uint32_t s = 1; s < n; s++)
        if (slot_region[s] == region)
            return s;
    return 0;
}

uint32_t scorep_throttle_slot_new(uint32_t region)
{
    if (slots_used >= SCOREP_THROTTLE_SLOTS)
        return 0;
    uint32_t slot = slots_used;
    __atomic_store_n(&slot_region[slot], region, __ATOMIC_RELEASE);
    __atomic_store_n(&slots_used, slots_used + 1, __ATOMIC_RELEASE);
    return slot;
}

/* Mask bit b stands for slot slot_of_bit(b). Calls made while this thread records nothing are
 * dropped, as the hooks' path drops them; the state can only have changed at an event, and
 * every event settles first. */
void scorep_throttle_pending_flush(void)
{
    scorep_profile *p = NULL;
    if (!target || !target(&p))
        return; /* kept until the thread has a location (its first measured event) */
    uint64_t mask = SCOREP_THROTTLE_MASK;
    SCOREP_THROTTLE_MASK = 0;
    bool count = p != NULL;
    while (mask) {
        uint32_t b = (uint32_t)__builtin_ctzll(mask);
        mask &= mask - 1;
        uint32_t s = slot_of_bit(b);
        uint64_t n = scorep_throttle_slots_v3[s] + 1; /* its first call made it 0 */
        scorep_throttle_slots_v3[s] = SCOREP_THROTTLE_SETTLED;
        if (count && n && s != SCOREP_THROTTLE_DISCARD)
            scorep_profile_throttled_slow(p, __atomic_load_n(&slot_region[s], __ATOMIC_ACQUIRE), n);
    }
}
