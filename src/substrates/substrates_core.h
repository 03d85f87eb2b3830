/* SPDX-License-Identifier: BSD-3-Clause */
/* substrates_core.h: what the runtime and the event functions need of the substrate plugin
 * support besides substrates.h: its subsystem (core/subsystem.h), listed by the runtime. */
#ifndef SCOREP_SUBSTRATES_CORE_H
#define SCOREP_SUBSTRATES_CORE_H

#include "substrates/substrates.h"

extern const struct scorep_subsystem scorep_subsystem_substrates;


#endif
