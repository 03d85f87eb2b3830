/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_reduction.h: what the trace lacks (reduction steps, stops, rewinds) gathered from
 * all processes, written as OTF2 markers and summarised for MANIFEST.md. */
#ifndef SCOREP_TRACE_REDUCTION_H
#define SCOREP_TRACE_REDUCTION_H

#include "core/location.h"
#include "base/ser.h"

#include <otf2/otf2.h>

typedef struct {
    uint32_t rank, local, rule; /* rule: buf_step */
    uint64_t param, ts, removed;
} trace_red_entry;

typedef struct {
    trace_red_entry *e;
    size_t n, cap;
} trace_red_list;

/* Appends one location's reduction log (the part after its event count). */
void scorep_trace_red_pack(ser_buf *b, const scorep_location *l);
/* Reads what scorep_trace_red_pack wrote into list. 0 or -1. */
int scorep_trace_red_unpack(trace_red_list *list, ser_reader *rd, uint32_t rank, uint32_t local);
/* Rank 0: one OTF2 marker per entry (group "scorep-rt trace reduction", or "scorep-rt lost
 * records" for BUF_STEP_LOST; category the rule; scope the location's global id). 0 or -1. */
int scorep_trace_red_write_markers(OTF2_Archive *a, const trace_red_list *list);
/* Rank 0: keeps a Markdown summary for MANIFEST.md (scorep_trace_notes). names[rank][local]. */
void scorep_trace_red_summarise(const trace_red_list *list, char ***names, uint64_t n_locations);
void scorep_trace_red_free(trace_red_list *list);

#endif
