/* SPDX-License-Identifier: BSD-3-Clause */
/* throttle_pending.h: the per-thread counts of throttled calls that plugin-instrumented code
 * makes without calling the runtime, their slots, and the check that settles them into the
 * profile at measured events (throttle_pending.c; the compiler adapter fills the slots). */
#ifndef SCOREP_THROTTLE_PENDING_H
#define SCOREP_THROTTLE_PENDING_H

#include "base/arch.h"
#include "profile/profile.h"

#include <stdint.h>

/* Slots 1..SCOREP_THROTTLE_SLOTS-1 count throttled regions; slot SCOREP_THROTTLE_DISCARD
 * takes the calls that nobody counts (the compiler adapter's plugin_region.h uses the same
 * numbers in the code the GCC plugin inserts). */
#define SCOREP_THROTTLE_SLOTS 64
#define SCOREP_THROTTLE_DISCARD SCOREP_THROTTLE_SLOTS

/* A slot with no calls since the last settle holds all ones: the inline code's increment
 * gives 0 at the first call, and the flags of that one read-modify-write choose the branch
 * that marks the slot (issue #31: no separate load, compare and store). */
#define SCOREP_THROTTLE_SETTLED UINT64_MAX

/* [0]: the mask word, a bit set for each slot with counts (SCOREP_THROTTLE_BIT_SHIFT); [slot]:
 * calls since the thread's last measured event, minus one (SCOREP_THROTTLE_SETTLED: none).
 * The inline code sets the bit only when its increment gives 0 (one store per call), so a
 * flush resets every slot whose bit it clears. Initial-exec, so that each slot's offset from
 * the thread pointer is one number for every thread (scorep_throttle_slot_word); 520 bytes
 * fit glibc's static TLS reserve even when the runtime is dlopen'ed. */
/* The name carries the ABI's version (v2: settled slots hold all ones, session 14; v3: on
 * x86-64 the descriptor holds the slot's thread-pointer offset, session 17): the code a plugin
 * inserts references it in the path that sets the mask bit, so an object built by another
 * plugin version fails to link or load on an undefined symbol instead of counting into the
 * wrong slots or crashing at run time. Rebuild objects with the scorep-cc of the runtime
 * they run with. */
extern __thread uint64_t scorep_throttle_slots_v3[1 + SCOREP_THROTTLE_SLOTS]
    __attribute__((tls_model("initial-exec")));
/* the mask word, for the settle checks (core/events.h) */
#define SCOREP_THROTTLE_MASK (scorep_throttle_slots_v3[0])

/* What the plugins' inline code finds in a throttled region's descriptor (plugin_region.h):
 * on x86-64 (LP64) the slot's offset from the thread pointer, which the code increments as
 * `addq $1, %fs:(word)` (base-only addressing: with the slot as an index into the array
 * found through the GOT the same count cost 1.3 ns more per call on an Intel Xeon, issue
 * #31); elsewhere the slot itself. Never 0 (0 means "measured"). */
uint64_t scorep_throttle_slot_word(uint32_t slot);
/* The inline code marks word w's slot with mask bit (w >> SCOREP_THROTTLE_BIT_SHIFT) & 63. */
#if SCOREP_ASM_X86_64 && defined(__LP64__)
#define SCOREP_THROTTLE_TP_WORDS 1
#define SCOREP_THROTTLE_BIT_SHIFT 3 /* the slots' offsets step by 8 bytes */
#else
#define SCOREP_THROTTLE_BIT_SHIFT 0
#endif

/* Adds the pending calls to the calling thread's profile, under its current call path. */
void scorep_throttle_pending_flush(void);

/* The slot that counts region (1..SLOTS-1), or 0 when it has none. */
uint32_t scorep_throttle_slot_of(uint32_t region);
/* A new slot for region; 0 when all are taken. Callers serialise (one adapter's lock). */
uint32_t scorep_throttle_slot_new(uint32_t region);

/* Hook of the location layer: where the calling thread's pending calls go. Returns 0 when
 * the thread has no location yet (the calls stay pending); else 1 with *p the profile that
 * counts them, or NULL when the thread records nothing now (the calls are dropped). */
void scorep_throttle_set_target(int (*target)(scorep_profile **p));

/* Every event that changes a thread's call path or recording state calls this first: the
 * pending calls were made under the call path as it is until then. */
static inline void scorep_throttle_settle(void)
{
    if (__builtin_expect(SCOREP_THROTTLE_MASK != 0, 0))
        scorep_throttle_pending_flush();
}

#endif
