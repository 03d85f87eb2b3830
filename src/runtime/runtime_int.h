/* SPDX-License-Identifier: BSD-3-Clause */
/* runtime_int.h: what runtime.c and rescue.c (rank-local pieces of a process that ends
 * without the collective finalize; their recovery by scorep-recover) share. */
#ifndef SCOREP_RUNTIME_INT_H
#define SCOREP_RUNTIME_INT_H

#include "core/location.h"

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/* How a process's measurement ended (recorded in its rank-local piece). */
typedef enum {
    SCOREP_END_CHECKPOINT, /* still running at the last checkpoint (then killed) */
    SCOREP_END_EXIT,       /* exit() or a return from main; code: the exit status */
    SCOREP_END_ABORT,      /* MPI_Abort; code: the error code */
    SCOREP_END_SIGNAL,     /* code: the signal */
    SCOREP_END_NORMAL      /* MPI_Finalize (not written as a piece) */
} scorep_end_kind;

typedef struct {
    scorep_end_kind kind;
    int code;
    scorep_location *crash_loc; /* the thread a signal stopped (a crash marks it), or NULL */
    uint64_t crash_raw;         /* its timer value when the signal came */
} scorep_ending;

/* runtime.c */
void scorep_rt_finish(const scorep_ending *e);
int scorep_rt_end_done(void);
void scorep_rt_close_locations(void);
void scorep_rt_root_locations(void);
bool scorep_rt_write_results(int status);
void scorep_rt_recover_setup(const char *dir);

/* rescue.c */
/* At init: the rescue thread and the signal handlers (where the program left the default
 * disposition). */
void scorep_rescue_install(void);
/* In a child made by fork(): its signals end it without the parent's rescue. */
void scorep_rescue_forked(void);
/* "SIGSEGV" for a crash signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT), else NULL. */
const char *scorep_rescue_crash_name(int sig);
/* Writes this rank's piece into EXPDIR/rescue (closed locations, definitions, profile,
 * trace); end_raw: the timer when the measurement ended. 0 or -1. */
int scorep_rescue_write_piece(const scorep_ending *e, uint64_t end_raw);
/* The thread that ends the measurement blocks the termination signals (SIGTERM, ...) while
 * it does (a handler on it would wait for itself); crash signals re-raise at once there. */
void scorep_rescue_block(sigset_t *old);
void scorep_rescue_unblock(const sigset_t *old);
/* After a normal finalize: this rank's checkpoint is no longer needed. */
void scorep_rescue_discard_piece(void);

#endif
