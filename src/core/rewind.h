/* SPDX-License-Identifier: BSD-3-Clause */
/* rewind.h: Score-P's rewind regions (SCOREP_USER_REWIND_POINT / _CHECK) in the core: a
 * discarding check removes the location's trace events since the point. */
#ifndef SCOREP_REWIND_H
#define SCOREP_REWIND_H

#include "core/location.h"

#include <stdbool.h>
#include <stdint.h>

/* SCOREP_USER_REWIND_POINT: enters the rewind region `region` on location l and remembers the
 * position of l's trace there. */
void scorep_rewind_point(scorep_location *l, uint32_t region);
/* SCOREP_USER_REWIND_CHECK: leaves the rewind region; when discard is true, l's trace events since
 * the matching point are removed (the profile keeps everything). */
void scorep_rewind_check(scorep_location *l, uint32_t region, bool discard);

#endif
