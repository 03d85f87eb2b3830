/* SPDX-License-Identifier: BSD-3-Clause */
/* remap_spec.h: scorep-rt's remapping specification (share/scorep.spec) compiled in, so that
 * every profile.cubex embeds it (the misc-data member Cube's remapper reads) without reading
 * an installed file. The table is generated at build time (src/writers/remap_spec.sh): each
 * line with the paradigms it belongs to, so that a profile embeds only the lines of the
 * paradigms its run recorded (the spec hides the others' metrics anyway; docs/analysis.md,
 * "Its size"). */
#ifndef SCOREP_REMAP_SPEC_H
#define SCOREP_REMAP_SPEC_H

#include <stddef.h>

/* paradigm bits (remap_spec.sh uses the same values) */
enum {
    SCOREP_REMAP_MPI = 1,
    SCOREP_REMAP_SHMEM = 2,
    SCOREP_REMAP_OPENMP = 4,
    SCOREP_REMAP_PTHREAD = 8,
    SCOREP_REMAP_IO = 16,
    SCOREP_REMAP_LIBWRAP = 32,
    SCOREP_REMAP_CUDA = 64
};

typedef struct {
    unsigned char mask; /* 0: every profile needs the line; else the paradigms it serves */
    const char *text;   /* without indentation and newline */
} scorep_remap_line;

extern const scorep_remap_line scorep_remap_lines[];
extern const size_t scorep_remap_n_lines;

/* the paradigm bit of a region's Cube paradigm name ("mpi", "libwrap:NAME", ...), 0 if none */
unsigned scorep_remap_paradigm(const char *cube_paradigm);

/* the specification for a run of these paradigms, as newline-terminated lines in a buffer the
 * caller frees; *len its length. NULL when out of memory. */
char *scorep_remap_spec_cut(unsigned paradigms, size_t *len);

#endif
