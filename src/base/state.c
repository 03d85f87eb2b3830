/* SPDX-License-Identifier: BSD-3-Clause */
/* state.c: the process's measurement state (state.h). */
#include "base/state.h"

#include <limits.h>
#include <stdio.h>

int scorep_measurement_active;
int scorep_recording_enabled = 1;
/* before init: no measurement, and the timer's default is clock_gettime (timer.c) */
uint32_t scorep_event_gate = SCOREP_GATE_OFF | SCOREP_GATE_NOT_TSC;
/* the same word under a hidden name, for libscorep-rt's own code (state.h) */
extern uint32_t scorep_event_gate_local __attribute__((visibility("hidden"), alias("scorep_event_gate")));
scorep_filter *scorep_active_filter;

static char experiment_dir[PATH_MAX];
static char program_name[PATH_MAX];
static uint64_t program_begin_ts;
static uint32_t program_region = UINT32_MAX;

const char *scorep_experiment_dir(void)
{
    return experiment_dir;
}

const char *scorep_program_name(void)
{
    return program_name;
}

uint64_t scorep_program_begin_ts(void)
{
    return program_begin_ts;
}

uint32_t scorep_program_region(void)
{
    return program_region;
}

void scorep_state_set_experiment_dir(const char *dir)
{
    snprintf(experiment_dir, sizeof experiment_dir, "%s", dir);
}

void scorep_state_set_program_name(const char *name)
{
    snprintf(program_name, sizeof program_name, "%s", name);
}

void scorep_state_set_program_begin_ts(uint64_t ts)
{
    program_begin_ts = ts;
}

void scorep_state_set_program_region(uint32_t region)
{
    program_region = region;
}

static int job_rank = -1;

int scorep_job_rank(void)
{
    return job_rank;
}

void scorep_state_set_job_rank(int rank)
{
    job_rank = rank;
}

static bool job_rank_missing;

bool scorep_job_rank_missing(void)
{
    return job_rank_missing;
}

void scorep_state_set_job_rank_missing(bool missing)
{
    job_rank_missing = missing;
}
