/* SPDX-License-Identifier: BSD-3-Clause */
/* experiment.h: the experiment directory: naming, overwrite rules, scorep.cfg, MANIFEST. */
#ifndef SCOREP_EXPERIMENT_H
#define SCOREP_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>

/* Chooses and creates the directory (absolute path into dir). Returns 0; -1 with a
 * message in err when it cannot be created; -2 when it exists and overwriting is off.
 * spawned: the job was started by MPI_Comm_spawn; with a SCOREP_EXPERIMENT_DIRECTORY
 * (the parent's too) it gets the first free spawn-N inside that directory instead, which
 * it creates if needed, so that neither job moves the other's results aside. */
int scorep_experiment_create(char *dir, size_t len, bool spawned, char *err, size_t errlen);
/* Writes scorep.cfg (effective values of all variables). */
int scorep_experiment_write_cfg(const char *dir);
/* Finds the directory scorep_experiment_create made where another job (same
 * SCOREP_EXPERIMENT_DIRECTORY, overwriting on) moved it aside: by its device and inode, in
 * the same parent directory. 0: dir is still it; 1: dir now names where it went (a
 * warning said so); -1: it is gone (dir unchanged). */
int scorep_experiment_follow(char *dir, size_t len);
/* Writes MANIFEST.md describing the files written, and copies the filter file in. */
int scorep_experiment_write_manifest(const char *dir, int profile, int trace);
/* A line for MANIFEST.md's "Notes" (an adapter's losses, ...), before finalize writes it.
 * Thread-safe; a note that does not fit any more is cut. */
void scorep_experiment_note(const char *line);
/* A configuration file that was applied (src: its path as given), copied into the directory
 * as name when MANIFEST.md is written and listed there as what. At most 4; the strings must
 * live until then. */
void scorep_experiment_keep_file(const char *src, const char *name, const char *what);

#endif
