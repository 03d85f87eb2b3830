/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_engine.h: the distributed Cube engine (issue #19, after "Distributed memory
 * parallelization of CubeLib library using MPI"): N processes open the same .cubex,
 * enumerate its call tree identically and each owns a share of the call paths; a process
 * holds the stored rows of its own call paths only (of the metrics asked for), computes
 * inclusive and exclusive values for them, and asks the owners of remote children for
 * theirs: the requests go out first, local children are computed while they travel, and
 * the results are combined in document order (the seed's formula 5.1), so the values are
 * bit for bit those of the one-process reader. Rank 0 asks (the tool's logic runs there);
 * the others serve until rank 0 closes the engine. With one process it is the reader.
 * Transport-agnostic: the caller passes the messages (MPI in the tools: cube_engine_mpi.c). */
#ifndef SCOREP_CUBE_ENGINE_H
#define SCOREP_CUBE_ENGINE_H

#include "cube/cube.h"

/* How the call paths are shared among the processes (docs/scale.md). */
typedef enum {
    CUBE_ENUM_DEEPEST_CHAIN, /* depth-first blocks, chains kept whole (default) */
    CUBE_ENUM_PLAIN,         /* breadth-first blocks */
    CUBE_ENUM_ROUND_ROBIN,   /* call path i to process i mod N */
    CUBE_ENUM_SHUFFLE        /* a seeded random permutation, equal blocks */
} cube_enum_method;

/* Messages between the engine's processes: send may return before delivery (it copies);
 * recv blocks for the next message from anyone, *buf malloc'ed for the caller. 0 or -1. */
typedef struct {
    int rank, size;
    void *ctx;
    int (*send)(void *ctx, int dest, int tag, const void *buf, size_t len);
    int (*recv)(void *ctx, int *source, int *tag, void **buf, size_t *len);
} cube_engine_comm;

typedef struct cube_engine cube_engine;

/* Collective. metrics: unique names (NULL: all); a name not in the file, more processes
 * than call paths, or an unreadable file fail on every process with the same message. */
cube_engine *cube_engine_open(const char *path, const cube_engine_comm *comm, cube_enum_method how,
                              const char *const *metrics, int n_metrics, char *err, size_t errlen);
/* The definitions (every process has them; values only through the engine). */
const cube_reader *cube_engine_defs(const cube_engine *e);
int cube_engine_owner(const cube_engine *e, int cnode);
/* Whether metric m was loaded (asked for). */
bool cube_engine_has_metric(const cube_engine *e, int metric);

/* Threads for local work (the seed's future work): children of a call path whose whole
 * subtree belongs to this process need no message, so up to n threads compute their rows
 * at once. Default 1. */
void cube_engine_set_threads(cube_engine *e, int n);

/* Rank 0: the values of (metric, cnode) in a view, exact bits as cube_reader_value_bits:
 * per_location: out[0 .. n_locations) ; else out[0] = the sum over the locations (min or
 * max for MIN/MAXDOUBLE). 0, or -1 (bad arguments, a metric not loaded, a lost partner). */
int cube_engine_value(cube_engine *e, int metric, int cnode, cube_view view, bool per_location,
                      uint64_t *out);
/* Rank 0: as cube_engine_value, exclusive along the metric tree (what Cube shows for an
 * expanded metric): by CubeLib's rule a stored value holds the metric with its sub-metrics
 * (cube_engine_value is the collapsed metric), so this is the metric's value minus its
 * children's, location by location. Only children of the same dtype as `metric` are
 * subtracted (MIN/MAXDOUBLE metrics subtract nothing); they must have been loaded. */
int cube_engine_value_metric_exclusive(cube_engine *e, int metric, int cnode, cube_view view,
                                       bool per_location, uint64_t *out);
/* Ranks other than 0: answer requests until rank 0 closes. 0, or -1. */
int cube_engine_serve(cube_engine *e);
/* Rank 0 releases the others (they return from cube_engine_serve); all free. */
void cube_engine_close(cube_engine *e);

/* Name of a method ("deepest-chain", "plain", "round-robin", "shuffle"); parse: -1 if none. */
const char *cube_enum_method_name(cube_enum_method how);
int cube_enum_method_parse(const char *name);

/* A single-process transport (rank 0 of 1). */
void cube_engine_comm_single(cube_engine_comm *c);

#endif
