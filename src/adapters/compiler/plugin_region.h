/* SPDX-License-Identifier: BSD-3-Clause */
/* plugin_region.h: the region descriptor that the GCC plugin (scorep-cc --instrument=plugin)
 * emits per instrumented function, and the runtime entry points its inserted code calls. */
#ifndef SCOREP_PLUGIN_REGION_H
#define SCOREP_PLUGIN_REGION_H

#include "base/arch.h"

#include <stdint.h>

/* The plugin builds this layout itself (gcc trees, scorep_filter_gcc.cc): change both. */
typedef struct scorep_plugin_region {
    const char *name;    /* demangled, as symbols.c names the same function */
    const char *mangled; /* assembler name */
    const char *file;    /* absolute, simplified as the filter matches it */
    uint32_t line;
    /* 0: not registered yet; SCOREP_PLUGIN_FILTERED; else region id + 1 */
    uint32_t handle;
    /* Read inline at every entry. 0: call scorep_plugin_enter. Otherwise the word of the
     * region's slot (1..SCOREP_PLUGIN_DISCARD; profile/throttle_pending.h,
     * scorep_throttle_slot_word), and the call only increments the slot and, when that makes
     * it 0 (a settled slot holds all ones), sets bit (flags >> SCOREP_PLUGIN_BIT_SHIFT) & 63
     * of scorep_throttle_slots_v3[0]; slot SCOREP_PLUGIN_DISCARD is never read.
     * On x86-64 (LP64) the word is the slot's offset from the thread pointer, the same for
     * every thread (initial-exec TLS), and the count is one `addq $1, %fs:(%reg)` with the
     * word as loaded in reg: on an Intel Xeon (Emerald Rapids) that read-modify-write costs
     * 0.2 ns per call where the v2 scheme's `addq $1, %fs:(%rsi,%rdx,8)` (array base from the
     * GOT, word = slot index) cost 1.3 ns (issue #31). Elsewhere (and -m32, -mx32) the word is
     * the slot, an index into scorep_throttle_slots_v3. */
    uint64_t flags;
    struct scorep_plugin_region *next; /* the runtime's list of registered descriptors */
} scorep_plugin_region;

#define SCOREP_PLUGIN_FILTERED UINT32_MAX
/* Slots 1..63 count throttled regions; 64 takes the calls of filtered functions. */
#define SCOREP_PLUGIN_SLOTS 64
#define SCOREP_PLUGIN_DISCARD SCOREP_PLUGIN_SLOTS
/* The mask bit of word w is (w >> shift) & 63: the thread-pointer offsets of the slots step
 * by 8 bytes (the runtime maps the bit back to the slot). */
#define SCOREP_PLUGIN_BIT_SHIFT_TP 3
#define SCOREP_PLUGIN_BIT_SHIFT_INDEX 0

/* Called by the inserted code (never throws, never instrumented). */
void scorep_plugin_enter(scorep_plugin_region *region);
void scorep_plugin_leave(scorep_plugin_region *region);

/* Runtime only: region is throttled (compiler_adapter.c's throttle hook). */
void scorep_plugin_throttle(uint32_t region);

#endif
