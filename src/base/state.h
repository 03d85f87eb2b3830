/* state.h: the process's measurement state. The runtime (core/runtime.c) sets it during
 * init, MPI start and finalize; every other layer only reads it. */
#ifndef SCOREP_BASE_STATE_H
#define SCOREP_BASE_STATE_H

#include "filter/filter.h"

#include <stdint.h>

/* 0 before init and after finalize began; events are dropped then. */
extern volatile int scorep_measurement_active;
/* SCOREP_RECORDING_ON/OFF switch the whole process, as in Score-P (set by events.c). */
extern volatile int scorep_recording_enabled;
/* The filter in effect (NULL when none). Read-only after init. */
extern scorep_filter *scorep_active_filter;

/* The experiment directory (absolute path) once init has chosen it; "" before. */
const char *scorep_experiment_dir(void);
/* The program's path (/proc/self/exe, else SCOREP_EXECUTABLE, else "unknown"). */
const char *scorep_program_name(void);
/* The timestamp of ProgramBegin (the first location's first event). */
uint64_t scorep_program_begin_ts(void);

/* Runtime only. */
void scorep_state_set_experiment_dir(const char *dir);
void scorep_state_set_program_name(const char *name);
void scorep_state_set_program_begin_ts(uint64_t ts);

#endif
