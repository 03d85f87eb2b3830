/* SPDX-License-Identifier: BSD-3-Clause */
/* symbols.h: resolves code addresses of the running process (executable and shared
 * libraries, PIE or not) to function name, source file and line, through libdw. */
#ifndef SCOREP_SYMBOLS_H
#define SCOREP_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *name;       /* demangled when the symbol is a C++ name; malloc'ed */
    char *mangled;    /* symbol as in the ELF table; malloc'ed */
    char *file;       /* source file (absolute when DWARF tells), or NULL */
    int line;         /* first line of the function, 0 if unknown */
    char *module;     /* path of the ELF object that holds the address (as the dynamic linker
                         names it; the executable's real path); malloc'ed */
    bool have_source; /* file and line were looked up (scorep_symbols_resolve_source) */
} scorep_symbol;

/* Fills sym for addr. Returns 0, or -1 if the address is in no known module / symbol
 * (then sym->name is a "0x..." string and still must be freed; module is NULL when no
 * module holds addr). Not thread-safe: callers serialise (region creation is rare and
 * holds a lock). Re-reads the dynamic linker's list of loaded objects when objects were
 * dlopen'ed or dlclose'd since the last call. */
int scorep_symbols_resolve(uintptr_t addr, scorep_symbol *sym);
/* As scorep_symbols_resolve, but the source file and line are left for
 * scorep_symbols_resolve_source: reading an object's DWARF is most of the cost of a first
 * lookup in it (libc's detached, compressed debug file: 80 ms and 20 MB), and frames the
 * caller folds away (start-up code, the runtime's own) need only their name. The DWARF is
 * still read where the ELF tables have no name for addr (the DIE's name serves). Same
 * return value and name as scorep_symbols_resolve. */
int scorep_symbols_resolve_name(uintptr_t addr, scorep_symbol *sym);
/* Adds file and line to sym, which scorep_symbols_resolve_name filled for the same addr
 * (nothing when they were read already): then sym is what scorep_symbols_resolve gives,
 * provided no object was loaded or unloaded in between. Locking as above. */
void scorep_symbols_resolve_source(uintptr_t addr, scorep_symbol *sym);
void scorep_symbol_clear(scorep_symbol *sym);
/* true if addr lies in the object that contains the measurement runtime itself. */
bool scorep_symbols_in_runtime(uintptr_t addr);
void scorep_symbols_finalize(void);
/* Source file (absolute, malloc'ed) and line of the code at addr itself rather than of its
 * function (for a return address, pass the address minus one). 0, or -1 with *file NULL
 * when there is no line information. Thread-safe: its own libdwfl session and lock. */
int scorep_symbols_resolve_line(uintptr_t addr, char **file, int *line);
/* "<object>+0x<offset>" for a code address without line information: the base name of the
 * loaded object that holds addr and addr's offset from the object's load bias (its ELF
 * address, what `addr2line -e OBJECT` takes). Unlike the absolute address it is the same in
 * every process and run, whatever address space randomisation does, so the ranks of a job
 * name one construct alike. 0, or -1 with "0x<addr>" when no loaded object holds addr.
 * Thread-safe (dladdr); writes at most size bytes, NUL included. */
int scorep_symbols_object_offset(uintptr_t addr, char *buf, size_t size);
/* The path of the loaded object that holds addr (the executable's real path for the
 * executable) and addr's offset from its load bias, as Score-P's calling-context properties
 * name a call site (EXECUTABLE/SHARED OBJECT, INSTRUCTION OFFSET). 0, or -1 when no loaded
 * object holds addr. Thread-safe (dladdr). */
int scorep_symbols_object_path(uintptr_t addr, char *path, size_t size, uint64_t *offset);

#endif
