/* trace_otf2.h: OTF2 glue shared by the trace writer's files. */
#ifndef SCOREP_TRACE_OTF2_H
#define SCOREP_TRACE_OTF2_H

#include <otf2/otf2.h>

/* Installs OTF2's collective callbacks over the current ipc backend (serial ones for a
 * single process). 0 or -1. */
int scorep_trace_set_collectives(OTF2_Archive *a);

#endif
