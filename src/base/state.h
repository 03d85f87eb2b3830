/* SPDX-License-Identifier: BSD-3-Clause */
/* state.h: the process's measurement state. The runtime (runtime/runtime.c) sets it during
 * init, MPI start and finalize; every other layer only reads it. */
#ifndef SCOREP_BASE_STATE_H
#define SCOREP_BASE_STATE_H

#include "filter/filter.h"

#include <stdbool.h>
#include <stdint.h>

/* 0 before init and after finalize began; events are dropped then. Written with
 * __atomic_store_n by the runtime only; read through scorep_measurement_on(). */
extern int scorep_measurement_active;
/* SCOREP_RECORDING_ON/OFF switch the whole process, as in Score-P (set by events.c); read
 * through scorep_recording_on(). */
extern int scorep_recording_enabled;

/* Every event reads these flags while another thread may switch them: relaxed atomic loads
 * (a plain load on x86 and ARM, as the volatile reads they replace), so that the reads are
 * no data race in C11's sense and ThreadSanitizer checks the rest. The ordering that
 * finalize needs comes from core/location.h (scorep_location_busy_begin). */
static inline int scorep_measurement_on(void)
{
    return __atomic_load_n(&scorep_measurement_active, __ATOMIC_RELAXED);
}

static inline int scorep_recording_on(void)
{
    return __atomic_load_n(&scorep_recording_enabled, __ATOMIC_RELAXED);
}
/* The compiler hooks' fast path (core/events.h, scorep_event_enter_fast_as) reads three
 * process-wide conditions in one load of this word instead of three loads through the GOT:
 * SCOREP_GATE_OFF (the measurement is not active), SCOREP_GATE_NOT_TSC (the timer is not
 * the one they read inline: the TSC on x86, CLOCK_MONOTONIC elsewhere, base/timer.h's
 * SCOREP_TIMER_INLINE) and SCOREP_GATE_NO_RECORDING (recording switched off; an enter's
 * condition, not a leave's). libscorep-rt reads it %rip-relative, through a hidden alias
 * (its sources are compiled with SCOREP_IN_LIBSCOREP_RT); the adapters' own libraries
 * (libscorep-rt-mpi's wrappers inline the fast enter) through the GOT. It follows
 * scorep_measurement_active, scorep_recording_enabled and scorep_timer_active: every store
 * of one of those stores its bit too (scorep_gate_set), the bit of a condition that stops
 * recording before the flag's store, the bit of one that allows it after, so that the word
 * never allows more than the flags; an event that sees a bit set takes the general path,
 * which reads the flags. */
enum { SCOREP_GATE_OFF = 1u, SCOREP_GATE_NOT_TSC = 2u, SCOREP_GATE_NO_RECORDING = 4u };
extern uint32_t scorep_event_gate;
#ifdef SCOREP_IN_LIBSCOREP_RT
extern uint32_t scorep_event_gate_local __attribute__((visibility("hidden")));
#define SCOREP_GATE_WORD scorep_event_gate_local
#else
#define SCOREP_GATE_WORD scorep_event_gate
#endif

static inline void scorep_gate_set(uint32_t bit, int set)
{
    if (set)
        __atomic_fetch_or(&SCOREP_GATE_WORD, bit, __ATOMIC_SEQ_CST);
    else
        __atomic_fetch_and(&SCOREP_GATE_WORD, ~bit, __ATOMIC_SEQ_CST);
}

static inline uint32_t scorep_gate(void)
{
    return __atomic_load_n(&SCOREP_GATE_WORD, __ATOMIC_RELAXED);
}

/* The filter in effect (NULL when none). Its rules are fixed after init; only the hit marks
 * of scorep_filter_note_symbol change, at region definition time. */
extern scorep_filter *scorep_active_filter;

/* The experiment directory (absolute path) once init has chosen it; "" before. */
const char *scorep_experiment_dir(void);
/* The program's path (/proc/self/exe, else SCOREP_EXECUTABLE, else "unknown"). */
const char *scorep_program_name(void);
/* The timestamp of ProgramBegin (the first location's first event). */
uint64_t scorep_program_begin_ts(void);
/* The program region (Score-P 6 and later): the artificial region of paradigm measurement
 * named after the executable, whose call on the first location spans ProgramBegin to
 * ProgramEnd and is the root of every location's call tree. SCOREP_INVALID_ID (UINT32_MAX)
 * before init. */
uint32_t scorep_program_region(void);
/* The rank this process's data belongs to, for names ("MPI Rank 2"): -1 (then the ipc
 * rank) except in scorep-recover, where a subset of a job's ranks keeps its own numbers. */
int scorep_job_rank(void);
/* Whether this process stands in for a rank that left no piece (scorep-recover): its
 * location is in the definitions, so that world rank r is rank r's location, but it has no
 * events. */
bool scorep_job_rank_missing(void);

/* Runtime only. */
void scorep_state_set_experiment_dir(const char *dir);
void scorep_state_set_program_name(const char *name);
void scorep_state_set_program_begin_ts(uint64_t ts);
void scorep_state_set_program_region(uint32_t region);
void scorep_state_set_job_rank(int rank);
void scorep_state_set_job_rank_missing(bool missing);

#endif
