/* SPDX-License-Identifier: BSD-3-Clause */
/* otf2_read_guard.h: one OTF2 read session of a tool or the analysis, with OTF2's error
 * messages kept off stderr (the first one is kept for the caller's own message), and every
 * definition, event and marker file checked against its chunk structure before OTF2 reads it,
 * so that a truncated or damaged trace is a message naming the file, never a hang: OTF2 3.0
 * reads past the end of a truncated file into a recycled chunk buffer and loops forever. */
#ifndef SCOREP_TRACE_OTF2_READ_GUARD_H
#define SCOREP_TRACE_OTF2_READ_GUARD_H

#include <otf2/otf2.h>
#include <stdint.h>

/* Starts a session on the archive whose anchor file is ANCHOR (DIR/NAME.otf2: the other files
 * are DIR/NAME.def, DIR/NAME/LOC.evt, ...): forgets the last error and the damage found, routes
 * OTF2's errors here. Not reentrant: one session at a time per process. */
void otf2_read_guard_begin(const char *anchor);
/* Ends it: OTF2's previous error handler is back. */
void otf2_read_guard_end(void);
/* OTF2's first error of the session ("" when none): description and message. */
const char *otf2_read_guard_error(void);
/* Forgets the error kept so far (a failure the caller expects, such as no marker file). */
void otf2_read_guard_clear(void);
/* The damaged files found in this session ("" when none): "FILE: what is missing; ...". */
const char *otf2_read_guard_damage(void);
/* Adds "PATH: WHAT" to the damage (a file the caller could not open at all). */
void otf2_read_guard_note(const char *path, const char *what);

/* The readers' replacements for OTF2_Reader_ReadAll*: each checks its file first.
 * Definitions (global, local) and markers: a damaged file is not read (OTF2_ERROR_INVALID_DATA,
 * the damage in otf2_read_guard_damage() and otf2_read_guard_error()); an intact one is read
 * with the number of records bounded by its size. A location without a local definition file
 * has nothing to read (success). */
OTF2_ErrorCode otf2_read_guard_global_defs(OTF2_Reader *r, OTF2_GlobalDefReader *d, uint64_t *n);
OTF2_ErrorCode otf2_read_guard_local_defs(OTF2_Reader *r, OTF2_DefReader *d, uint64_t loc,
                                          uint64_t *n);
OTF2_ErrorCode otf2_read_guard_markers(OTF2_Reader *r, OTF2_MarkerReader *m, uint64_t *n);
/* Events of location LOC: at most as many as its file's complete chunks hold. A damaged file
 * (truncated, a chunk header broken) gives the events of its chunks before the damage and
 * OTF2_SUCCESS, with the damage in otf2_read_guard_damage(): the caller decides whether a
 * partial location is usable. */
OTF2_ErrorCode otf2_read_guard_events(OTF2_Reader *r, OTF2_EvtReader *e, uint64_t loc, uint64_t *n);

/* ---- the check itself (also used by the tests and the fuzz harnesses) ---- */

enum otf2_guard_kind { OTF2_GUARD_EVENTS, OTF2_GUARD_DEFS };

typedef struct {
    uint64_t size;    /* bytes in the file */
    uint64_t chunk;   /* the archive's chunk size for the file's kind */
    uint64_t chunks;  /* chunks that are complete and well formed, from the start */
    uint64_t records; /* events in those chunks (headers' numbers); for definitions and
                       * markers the most records the file's bytes can hold */
    int damaged;      /* 0: whole; 1: damaged (what says how) */
    char what[200];   /* "truncated in chunk 3 of 1048576 bytes: ..." */
} otf2_guard_file;

/* Checks the file at PATH, made of CHUNK-byte chunks of KIND. Returns 0 when it could be
 * checked (out->damaged tells), -1 when it cannot be opened (errno). */
int otf2_guard_check_file(const char *path, uint64_t chunk, enum otf2_guard_kind kind,
                          otf2_guard_file *out);

#endif
