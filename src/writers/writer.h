/* SPDX-License-Identifier: BSD-3-Clause */
/* writer.h: the writers' entry points (layer "writers": writers/profile_cube.c,
 * trace/trace_otf2.c) and the context the runtime hands them at finalize. Writers read
 * the location list (core/location.h) and the unified definitions; they never call up
 * into the runtime. */
#ifndef SCOREP_WRITER_H
#define SCOREP_WRITER_H

struct scorep_unified_s;

typedef struct scorep_writer_ctx {
    const char *experiment_dir;             /* absolute path, exists */
    const char *profile_path;               /* the Cube file to write (in experiment_dir) */
    const struct scorep_unified_s *unified; /* this process's definitions, unified */
    int exit_status;                        /* the program's exit status */
} scorep_writer_ctx;

/* Collective over the ipc backend. 0 or -1 (message printed). */
int scorep_profile_write_cube(const scorep_writer_ctx *w);
int scorep_trace_write_otf2(const scorep_writer_ctx *w);
/* Rank 0 after the trace is written: a Markdown section on what the trace lacks
 * (reductions, stops, rewinds), or NULL when it is complete (trace_reduction.c). */
const char *scorep_trace_notes(void);

#endif
