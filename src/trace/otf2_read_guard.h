/* otf2_read_guard.h: one OTF2 read session of a tool or the analysis, with OTF2's error
 * messages kept off stderr (the first one is kept for the caller's own message) and OTF2's
 * chunk buffers on fresh zeroed pages, so that a truncated trace is an error, not a hang. */
#ifndef SCOREP_TRACE_OTF2_READ_GUARD_H
#define SCOREP_TRACE_OTF2_READ_GUARD_H

/* Starts a session: forgets the last error and routes OTF2's errors here. Not reentrant:
 * one session at a time per process. */
void otf2_read_guard_begin(void);
/* Ends it: OTF2's previous error handler is back. */
void otf2_read_guard_end(void);
/* OTF2's first error of the session ("" when none): description and message. */
const char *otf2_read_guard_error(void);
/* Forgets the error kept so far (a failure the caller expects, such as no marker file). */
void otf2_read_guard_clear(void);

#endif
