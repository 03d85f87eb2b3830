/* SPDX-License-Identifier: BSD-3-Clause */
/* runtime.h: measurement life cycle (init at load or first event, finalize at exit or on
 * SIGINT/SIGTERM): the top layer. Only adapters and tools include it. */
#ifndef SCOREP_RUNTIME_H
#define SCOREP_RUNTIME_H

#include "buffer/buffer.h"
#include "profile/profile.h"
#include "core/subsystem.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Compatibility: code that includes this header for the messages, the state or the
 * settings still compiles; new code includes base/log.h, base/state.h, base/settings.h. */
#include "base/log.h"
#include "base/settings.h"
#include "base/state.h"

/* Parses a duration ("0", "10us", "2.5ms", "1s", "500ns"; no unit: ns) into ns. 0 or -1. */
int scorep_parse_duration(const char *s, double *ns);

/* Initialises the measurement once (thread-safe). Returns 1 when active. */
int scorep_runtime_init(void);
/* Adapters and services register into the life cycle (core/subsystem.h); s must live
 * until the process ends. Registered after init (the constructor of an adapter library
 * runs after libscorep-rt's), its init and begin run at once, and only the locations
 * created after it are announced to it. 0 or -1 (table full). */
int scorep_runtime_register(const scorep_subsystem *s);
/* A subsystem with only an end phase: fn is called when finalize begins, while the
 * locations can still take events (CUDA activity records). 0 or -1 (table full). */
int scorep_runtime_at_finalize(void (*fn)(void));
/* Registers a call made while the results are written, after the definitions are unified
 * and before the profile and trace are written (the in-situ analysis, src/analysis). It
 * returns 1 when the trace file need not be written. At most 4; 0 or -1. */
struct scorep_unified_s;
int scorep_runtime_at_write(int (*fn)(const char *dir, const struct scorep_unified_s *u));
/* A warning about the whole run rather than one process (a file that every process reads):
 * said by the process that creates the experiment directory, at once when it has done so,
 * else when it does (MPI: rank 0 at MPI_Init); the other processes say nothing. */
void scorep_runtime_warn_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Writes all results; status is the program's exit status. Runs once. */
void scorep_runtime_finalize(int status);
/* MPI runs: called once the ipc backend is MPI (the ipc hooks) or SHMEM: rank 0 creates
 * the experiment directory and tells the others. spawned: a job MPI_Comm_spawn started
 * (scorep_experiment_create). */
void scorep_runtime_mpi_ready(bool spawned);
/* The collective finalize of an MPI run (from MPI_Finalize). */
void scorep_runtime_finalize_mpi(void);
/* true when the MPI adapter library is part of the program */
int scorep_runtime_mpi_mode(void);
/* Whether the measurement ends in MPI_Finalize (all ranks then write the results together
 * and the scorep_runtime_at_write calls are collective); false for a rank that ends
 * without it (its rank-local piece) and in a process without MPI. */
int scorep_runtime_ending_in_mpi_finalize(void);

/* MPI_Abort (the MPI adapter, before PMPI_Abort): this rank writes its rank-local piece
 * (rescue.c), as on a signal, without any collective call. */
void scorep_runtime_rescue_abort(int errorcode);

/* scorep-recover (recover.c). A rank-local piece's header. */
typedef struct {
    int rank, size, kind, code; /* kind: how the rank ended (runtime_int.h's scorep_end_kind) */
    uint64_t wall_ns;           /* when (ns since the epoch) */
} scorep_piece_info;
/* 0; -2 for a whole piece of another version of the format (written by another scorep-rt:
 * PIECE_VERSION); -1 for a file that is no piece (or whose closing hash does not match: cut
 * short or damaged). */
int scorep_runtime_piece_info(const char *path, scorep_piece_info *info);
/* The FNV-1a hash that closes a piece (rescue.c writes it, recover.c checks it). */
uint64_t scorep_piece_hash(const unsigned char *p, size_t len);
/* "signal SIGSEGV", "MPI_Abort (error code 3)", ... */
void scorep_runtime_ending_text(int kind, int code, char *buf, size_t len);
/* In a process of its own per rank of the job, all of them connected by ipc (collective):
 * restores the piece's rank and writes the experiment's profile and trace into dir as
 * MPI_Finalize would; rank 0 notes in MANIFEST.md and the Cube file which ranks ended how
 * (orig_size: the job's ranks; missing: those without a piece, as text, or NULL). With
 * missing_rank >= 0 the process stands in for that rank, which left no piece: piece is
 * another rank's (its settings and definitions), and the rank gets one location without
 * events, so that world rank r stays rank r's location in the trace. 0 or -1. */
struct scorep_ipc;
int scorep_runtime_recover(const char *dir, const char *piece, const struct scorep_ipc *ipc,
                           int orig_size, const char *missing, int missing_rank);

/* Score-P's runtime management entry points (SCOREP_RuntimeManagement.h; called by Score-P's
 * Python bindings): atexit finalize again, the experiment directory's name, finalize now. */
void SCOREP_RegisterExitHandler(void);
const char *SCOREP_GetExperimentDirName(void);
void SCOREP_FinalizeMeasurement(void);

#endif
