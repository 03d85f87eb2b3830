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

#endif
