/* an_load.h: inputs of the analysis (post-mortem: an OTF2 archive read rank by rank). */
#ifndef SCOREP_AN_LOAD_H
#define SCOREP_AN_LOAD_H

#include "analysis/an_trace.h"

/* Reads the global definitions of the archive ANCHOR (.../traces.otf2) and the events of
 * rank RANK's master thread into T. N_PROCS is the number of analysis processes: it must
 * equal the number of MPI ranks in the trace, or be 1 for a trace without MPI ranks (one
 * process's threads; several processes without MPI are refused). Returns 0, or -1 with one
 * line in ERR. */
int an_load_otf2(const char *anchor, uint32_t rank, uint32_t n_procs, an_trace *t, char *err,
                 size_t len);

/* an_load_probe.c: *MPI_RANKS = the MPI ranks of the archive ANCHOR (0: a program without
 * MPI), from its global definitions. Returns 0, or -1 with one line in ERR. */
int an_load_otf2_mpi_ranks(const char *anchor, uint32_t *mpi_ranks, char *err, size_t len);

/* In situ (an_load_buffer.c): the events of location L (this process's master thread) from
 * its trace buffer, with the unified definitions U. Returns 0, or -1 with one line in ERR. */
struct scorep_location;
struct scorep_unified_s;
int an_load_buffer(const struct scorep_location *l, const struct scorep_unified_s *u, uint32_t rank,
                   uint32_t n_procs, an_trace *t, char *err, size_t len);

#endif
