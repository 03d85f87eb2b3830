/* SPDX-License-Identifier: BSD-3-Clause */
/* flush.h: flush mode: a location whose trace memory runs out writes its records to a
 * spill file and goes on recording; the trace writer replays the file at the end. */
#ifndef SCOREP_FLUSH_H
#define SCOREP_FLUSH_H

#include "buffer/buffer.h"

/* Installs the buffer's flush hook (flush.c). */
void scorep_flush_install(void);
/* Calls fn for every record flushed from b, in time order, then returns 0 (or -1 when the
 * spill file cannot be read back). BufferFlush marks come as BUF_EV_BUFFER_FLUSH items
 * (ts: start, b: end of the flush). */
int scorep_flush_replay(const scorep_buffer *b, void (*fn)(void *ctx, const buf_item *it),
                        void *ctx);

/* Writes everything b recorded (an earlier flush's spill file, then the records in memory)
 * to fd in the spill file's format; a buffer whose spill_fd is such a file replays it
 * (scorep-recover). *count: the records written. 0 or -1. */
int scorep_flush_save(scorep_buffer *b, int fd, uint64_t *count);
/* The records b holds: its spill file's and those in memory. */
uint64_t scorep_flush_count(scorep_buffer *b);

/* Before b's trace is written (a finalize, a rescue, a rank-local piece): the records of its
 * spill file that cannot be read back, 0 when none. A descriptor closed (or taken over by
 * another file: the rescue thread's descriptor take-over failed, the program closed it) loses
 * them all, a file cut short those past its end; *why and text (", ..." in a warning) say
 * which, and b keeps only the readable ones for the replay and the piece. */
uint64_t scorep_flush_check_spill(scorep_buffer *b, buf_unread *why, char *text, size_t len);

/* scorep-recover, on a rank-local trace piece (fd, read from its start): *sound = the number
 * of records from the start that are as scorep_flush_save writes them (whole, in time order,
 * no later than end_ts, padding zero), *total = the whole records in the file, *tail = the
 * bytes of a cut last record. 0, or -1 when fd cannot be read. */
int scorep_flush_check_piece(int fd, uint64_t end_ts, uint64_t *sound, uint64_t *total,
                             uint64_t *tail);
/* An unlinked temporary file holding the first n records of the piece fd, positioned at its
 * start (the piece itself stays as it is), or -1. */
int scorep_flush_copy_records(int fd, uint64_t n);

#endif
