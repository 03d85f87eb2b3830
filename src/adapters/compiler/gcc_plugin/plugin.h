/* SPDX-License-Identifier: BSD-3-Clause */
// plugin.h: what the two parts of the GCC plugin share: a function's names as the runtime
// would resolve them, the filter decision, and the registration of the instrumentation pass.
#ifndef SCOREP_GCC_PLUGIN_H
#define SCOREP_GCC_PLUGIN_H

struct scorep_gcc_names {
    char *name;    // demangled as symbols.c demangles
    char *mangled; // points into the assembler name, not owned
    char *file;    // absolute and simplified, as DWARF names it for the runtime
};

bool scorep_gcc_names_of(tree fn, scorep_gcc_names *names);
void scorep_gcc_names_free(scorep_gcc_names *names);
// excluded by -fplugin-arg-...-filter=FILE (false without a filter file)
bool scorep_gcc_excluded(const scorep_gcc_names *names);
// instrument=1: the plugin instruments instead of -finstrument-functions (instrument.cc)
void scorep_gcc_instrument_register(const char *plugin_name);

// The default of -fplugin-arg-...-threshold=N (scorep-cc --instrument-threshold=N): functions
// with fewer GIMPLE statements after inlining, no loop and no call are left uninstrumented.
#define SCOREP_GCC_DEFAULT_THRESHOLD 200
// after_inline.cc: takes the instrumentation out of inlined copies and of bodies below the
// threshold (0: none); without it (-fplugin-arg-...-inlined) every inlined copy keeps it.
void scorep_gcc_after_inline_register(const char *plugin_name, unsigned min_statements);
// after_inline.cc: at the end of each translation unit, the build note and the ELF note of what
// was left out (symbols/plugin_notes.h); with or without the pass above.
void scorep_gcc_leftout_register(const char *plugin_name);
// What gcc -flto's link step does with a descriptor's inlined copies (in its name,
// instrument.cc; the pass after inlining runs in lto1 and learns each descriptor's function
// from it): 0 keeps them (-fplugin-arg-...-inlined), else the threshold + 1.
extern unsigned scorep_gcc_link_rule;
// instrument.cc tells after_inline.cc which function (demangled NAME) a descriptor belongs to,
// and which function the compile-time filter excluded
void scorep_gcc_note_descriptor(tree descr, tree fn, const char *name);
void scorep_gcc_note_filtered(const char *name);
// instrument.cc aligns each function it instruments to 64 bytes; after_inline.cc gives a body
// whose own instrumentation it takes out its alignment back (same compilation only)
void scorep_gcc_restore_align(tree fn);

// #31, "instrument what the optimizer keeps": unless the unit is compiled with -flto or
// -fsanitize=thread, or with --instrument-inlined, instrument.cc puts in before inlining only
// .TSAN_FUNC_EXIT (&descr, 1); try { body } finally { .TSAN_FUNC_EXIT (&descr) }: gcc's
// inliner counts no internal call (estimate_num_insns) and drops these from every inlined
// copy (copy_bb), so a plugin build inlines what a plain build inlines. after_inline.cc then
// instruments the bodies gcc kept out of line (instrument_late.cc) and deletes the markers of
// the others.
extern bool scorep_gcc_late_wanted; // after_inline.cc's pass runs (no --instrument-inlined)
bool scorep_gcc_late(void);         // the markers are this unit's instrumentation
// instrument_late.cc, in SSA form after inlining: the entry check of instrument.cc at FN's
// start, and `if (measured) scorep_plugin_leave(&descr)` for each marker in EXITS
void scorep_gcc_instrument_late(function *fn, tree descr, const vec<gimple *> &exits);
// instrument.cc's trees and code for instrument_late.cc: the descriptor's flags (volatile),
// the runtime's enter and leave, the slot array, and the slot count: on x86-64 (count_by_asm)
// the asm on a slot of type scorep_gcc_slot_ptr_type (uint64_t __seg_fs *, the descriptor's
// word), else pending[index]; the mark bit is (word >> scorep_gcc_bit_shift()) & 63
tree scorep_gcc_flags_ref(tree descr);
tree scorep_gcc_enter_fn(void);
tree scorep_gcc_leave_fn(void);
tree scorep_gcc_pending_ref(tree index);
bool scorep_gcc_count_by_asm(void);
tree scorep_gcc_slot_ptr_type(void);
unsigned scorep_gcc_bit_shift(void);
gimple *scorep_gcc_count_asm(tree slot, tree first);

#endif
