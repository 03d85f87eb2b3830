/* rewind.c: interim rewind for the user API. Rewind records the region but discards nothing
 * until the reduction work lands (issue #9 replaces this file with the real trace rewind). */
#include "core/rewind.h"
#include "core/events.h"

void scorep_rewind_point(scorep_location *l, uint32_t region)
{
    scorep_event_enter(l, region);
}

/* NOT DONE: `discard` is ignored, so a check with true keeps the events since the point in
 * the trace; only the region's enter and leave are recorded. */
void scorep_rewind_check(scorep_location *l, uint32_t region, bool discard)
{
    (void)discard;
    scorep_event_leave(l, region);
}
