/* SPDX-License-Identifier: BSD-3-Clause */
/* unify.h: unification of the per-process definitions into global ones: a binomial-tree
 * merge over the ranks (O(log P) rounds), then a broadcast of the global tables from which
 * every rank derives its local -> global id maps. With one process it is the identity. */
#ifndef SCOREP_UNIFY_H
#define SCOREP_UNIFY_H

#include "defs/defs.h"
#include "defs/defs_io.h"
#include "defs/defs_mpi.h"
#include "base/ser.h"

#include <stddef.h>

/* I/O handles are per process (their blob holds the rank); files are unified by name */
enum {
    U_STRING,
    U_REGION,
    U_PARAM,
    U_METRIC,
    U_COMM,
    U_GROUP,
    U_WIN,
    U_IOFILE,
    U_IOHANDLE,
    U_KINDS
};

typedef struct scorep_unified_s {
    uint32_t n[U_KINDS]; /* number of global definitions of each kind */
    char **strings;
    scorep_region_def *regions;
    scorep_parameter_def *params;
    scorep_metric_def *metrics;
    scorep_comm_def *comms; /* parent: global id or SCOREP_INVALID_ID */
    scorep_group_def *groups;
    scorep_win_def *wins; /* comm: global id */
    scorep_io_file_def *io_files;
    scorep_io_handle_def *io_handles; /* file, comm: global ids */
    uint32_t *map[U_KINDS];           /* local id -> global id, for this process */
    uint32_t n_local[U_KINDS];
} scorep_unified;

/* Collective over the current ipc backend. Returns 0, or -1 on failure (all ranks agree). */
int scorep_unify(scorep_unified *u);
void scorep_unified_free(scorep_unified *u);

/* Rank-local pieces (rescue, scorep-recover): this process's definitions of every kind, in
 * id order, as the blobs unification exchanges; restored into empty tables they get the
 * same ids. 0, or -1 (out of memory; a damaged piece or tables that were not empty). */
int scorep_defs_pack_local(ser_buf *out);
int scorep_defs_restore_local(const unsigned char *p, size_t len);

#endif
