/* SPDX-License-Identifier: BSD-3-Clause */
/* score_io_records.h: the I/O records (64 bytes each) one call of a POSIX or ISO C I/O
 * region writes into the trace, per region name, for scorep-score's estimate. The table is
 * generated from the wrappers' own specification (src/adapters/io/io_functions.spec, by
 * build-aux/gen-io-wrappers --records), so estimate and wrappers cannot drift apart. */
#ifndef SCOREP_SCORE_IO_RECORDS_H
#define SCOREP_SCORE_IO_RECORDS_H

typedef struct {
    const char *name;
    unsigned records;
} score_io_records_entry;

/* sorted by name (strcmp) */
extern const score_io_records_entry score_io_records_table[];
extern const unsigned score_io_records_count;

#endif
