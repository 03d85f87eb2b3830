/* SPDX-License-Identifier: BSD-3-Clause */
/* substrates_core.h: what the runtime and the event functions need of the substrate plugin
 * support besides substrates.h: its subsystem (core/subsystem.h), listed by the runtime. */
#ifndef SCOREP_SUBSTRATES_CORE_H
#define SCOREP_SUBSTRATES_CORE_H

#include "substrates/substrates.h"

#include <stdbool.h>
#include <stdint.h>

extern const struct scorep_subsystem scorep_subsystem_substrates;

struct scorep_location;
/* A thread of the program ends (pthread adapter, on that thread, after its last event):
 * the plugins' deactivate_cpu_location now, as Score-P; delete_location stays at finalize. */
void scorep_substrates_thread_end(struct scorep_location *l);

/* OpenMP workers, as Score-P's fork-join threads: not activated at their creation (the
 * adapter sets `worker` around it, on the worker's thread), but activate_cpu_location at each
 * team they join (parent: the team's master, fork_seq: the fork's process-wide sequence
 * number, 1, 2, ...) before the team begin event, and deactivate_cpu_location (parent: the
 * master) after the team end event. The adapter calls these only when l->substrates_on. */
void scorep_substrates_omp_worker_next(bool worker);
void scorep_substrates_omp_team_begin(struct scorep_location *l, struct scorep_location *master,
                                      uint32_t fork_seq);
void scorep_substrates_omp_team_end(struct scorep_location *l, struct scorep_location *master);


#endif
