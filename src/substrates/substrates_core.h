/* SPDX-License-Identifier: BSD-3-Clause */
/* substrates_core.h: what the runtime and the event functions need of the substrate plugin
 * support besides substrates.h: its subsystem (core/subsystem.h), listed by the runtime. */
#ifndef SCOREP_SUBSTRATES_CORE_H
#define SCOREP_SUBSTRATES_CORE_H

#include "substrates/substrates.h"

extern const struct scorep_subsystem scorep_subsystem_substrates;

struct scorep_location;
/* A thread of the program ends (pthread adapter, on that thread, after its last event):
 * the plugins' deactivate_cpu_location now, as Score-P; delete_location stays at finalize. */
void scorep_substrates_thread_end(struct scorep_location *l);


#endif
