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

#endif
